"""The cache as units that are kept or removed whole: a TU's parse (its entry and the instances beside it),
a verdict store, a checkout layout's folder of stubs and precompiled headers. A unit's last use is the newest
modification time of its files: runs touch what they read (``touch``)."""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

PARSE, LIVENESS, PLACES, RUNS = "parse", "liveness", "places", "runs"


@dataclass(frozen=True)
class Unit:
    key: str  # relative to the cache folder: parse/ab/<hash>, liveness/<hash>.pkl, places/<hash>
    section: str
    size: int
    last_used: float
    paths: tuple[Path, ...]


def parse_unit_key(entry: Path, cache_dir: Path) -> str:
    """The unit of a parse entry (``…/<hash>.pkl``) or of the instances beside it."""
    return entry.relative_to(cache_dir).with_suffix("").as_posix()


def touch(*paths: Path) -> None:
    """Mark ``paths`` used now; a file removed meanwhile is no matter."""
    for path in paths:
        with contextlib.suppress(OSError):
            os.utime(path)


def units(cache_dir: Path) -> list[Unit]:
    """Every unit of the cache, oldest use first (temporaries are not units: see ``stale_temporaries``)."""
    found: list[Unit] = []
    grouped: dict[str, list[Path]] = {}
    for path in _files(cache_dir / PARSE):
        if not path.name.endswith(".tmp"):
            grouped.setdefault(parse_unit_key(path, cache_dir), []).append(path)
    for key, paths in grouped.items():
        found.append(_unit(key, PARSE, paths))
    for path in _files(cache_dir / LIVENESS):
        if path.suffix == ".pkl":
            found.append(_unit(path.relative_to(cache_dir).as_posix(), LIVENESS, [path]))
    places = cache_dir / PLACES
    for place in sorted(places.iterdir()) if places.is_dir() else []:
        if place.is_dir():
            found.append(_unit(place.relative_to(cache_dir).as_posix(), PLACES, list(_files(place)), place))
    return sorted(found, key=lambda u: (u.last_used, u.key))


def remove(unit: Unit) -> None:
    for path in unit.paths:
        if path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)


def stale_temporaries(cache_dir: Path, older_than: float = 3600.0) -> list[Path]:
    """Temporaries of writes that never finished (a killed run): untouched for ``older_than`` seconds."""
    now = time.time()
    return [p for p in _files(cache_dir) if p.name.endswith(".tmp") and now - _mtime(p) > older_than]


def _unit(key: str, section: str, paths: list[Path], folder: Path | None = None) -> Unit:
    sizes = [_size(p) for p in paths]
    last = max((_mtime(p) for p in paths), default=_mtime(folder) if folder else 0.0)
    return Unit(key, section, sum(sizes), last, (folder,) if folder else tuple(sorted(paths)))


def _files(top: Path):
    for dirpath, _dirs, names in os.walk(top):
        for name in names:
            yield Path(dirpath) / name


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
