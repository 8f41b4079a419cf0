"""Where the parse keeps what names the checkouts' paths: the generated-header stubs (they include the
``--with`` checkouts' headers by path) and the precompiled headers (clang checks the paths they were built
from). Each layout of checkouts has its own folder, so runs on other checkouts never rewrite each other's
stubs, and the folders of checkouts that are gone (a ``--rev`` mine's temporary worktree) are removed."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path

from miner.cache.units import touch

_WHERE = "where.json"


def work_place(cache_dir: Path, root: Path, others: dict[str, Path]) -> Path:
    """The folder of ``root`` with ``others`` (library name -> checkout root)."""
    roots = {"": str(root)} | {name: str(path) for name, path in sorted(others.items())}
    text = json.dumps(roots, sort_keys=True)
    place = cache_dir / "places" / hashlib.sha256(text.encode()).hexdigest()[:16]
    place.mkdir(parents=True, exist_ok=True)
    where = place / _WHERE
    if not where.exists():
        tmp = where.with_name(f".{_WHERE}.{os.getpid()}.tmp")  # two runs may make the same place at once
        tmp.write_text(text)
        tmp.replace(where)
    touch(where)  # its last use, for ``cache prune``
    return place


def remove_places_of_gone_checkouts(cache_dir: Path) -> list[Path]:
    """The folders removed: those whose checkouts no longer exist."""
    removed = []
    for place in sorted((cache_dir / "places").glob("*")):
        try:
            roots = json.loads((place / _WHERE).read_text())
        except (OSError, ValueError):
            continue  # being made by another run, or not ours to judge
        if not isinstance(roots, dict) or not all(Path(str(r)).is_dir() for r in roots.values()):
            shutil.rmtree(place, ignore_errors=True)
            removed.append(place)
    return removed
