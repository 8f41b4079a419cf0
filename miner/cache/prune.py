"""Least-recently-used pruning of the shared cache down to a size (a run touches each unit it uses). It
has the cache alone: it refuses to start while a mine is using the cache (``miner.cache.lock``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from miner.cache.ledger import recorded_runs
from miner.cache.lock import exclusive
from miner.cache.units import Unit, remove, stale_temporaries, units


@dataclass
class PruneResult:
    before_bytes: int = 0
    after_bytes: int = 0
    removed: list[Unit] = field(default_factory=list)
    temporaries: int = 0  # leftovers of interrupted writes removed
    runs_forgotten: list[str] = field(default_factory=list)  # "library revision" of records left with no unit


def prune(cache_dir: Path, max_bytes: int, *, dry_run: bool = False) -> PruneResult:
    with exclusive(cache_dir):
        return _prune(cache_dir, max_bytes, dry_run)


def _prune(cache_dir: Path, max_bytes: int, dry_run: bool) -> PruneResult:
    result = PruneResult()
    leftovers = stale_temporaries(cache_dir, older_than=0.0)  # no run is writing: the lock says so
    result.temporaries = len(leftovers)
    everything = units(cache_dir)  # oldest use first
    total = result.before_bytes = sum(u.size for u in everything)
    for unit in everything:
        if total <= max_bytes:
            break
        result.removed.append(unit)
        total -= unit.size
    result.after_bytes = total
    gone = {u.key for u in result.removed}
    remaining = {u.key for u in everything} - gone
    forgotten = [(path, run) for path, run in recorded_runs(cache_dir).items() if not set(run.units) & remaining]
    result.runs_forgotten = [f"{run.library} {run.revision}" for _, run in forgotten]
    if not dry_run:
        for path in leftovers:
            path.unlink(missing_ok=True)
        for unit in result.removed:
            remove(unit)
        for path, _ in forgotten:
            path.unlink(missing_ok=True)
    return result
