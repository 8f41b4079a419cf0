"""What the shared cache holds: each section's size, and for each library and revision mined, how much of
what its last run used is still there and how much of that other runs share."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from miner.cache.ledger import recorded_runs
from miner.cache.units import LIVENESS, PARSE, PLACES, Unit, units
from miner.models import CachedRun


@dataclass(frozen=True)
class RunUsage:
    run: CachedRun
    units_present: int
    tus_present: int  # parse units among them
    bytes_present: int
    bytes_shared: int  # of which other recorded runs use too


@dataclass(frozen=True)
class Inventory:
    cache_dir: Path
    sections: dict[str, tuple[int, int]]  # section -> (units, bytes)
    runs: list[RunUsage]  # most recently mined first
    unrecorded: tuple[int, int]  # units no recorded run names (an older rocm-miner's, or of runs pruned)
    oldest_use: float
    newest_use: float

    @property
    def total_bytes(self) -> int:
        return sum(size for _, size in self.sections.values())


def take_inventory(cache_dir: Path) -> Inventory:
    every = {u.key: u for u in units(cache_dir)}
    runs = [r for r in recorded_runs(cache_dir).values()]
    users = Counter(key for r in runs for key in set(r.units) if key in every)
    usage = [_usage(r, every, users) for r in sorted(runs, key=lambda r: -r.last_mined)]
    sections = {s: (0, 0) for s in (PARSE, LIVENESS, PLACES)}
    for u in every.values():
        n, size = sections[u.section]
        sections[u.section] = (n + 1, size + u.size)
    lonely = [u for key, u in every.items() if key not in users]
    uses = [u.last_used for u in every.values()]
    return Inventory(
        cache_dir=cache_dir,
        sections=sections,
        runs=usage,
        unrecorded=(len(lonely), sum(u.size for u in lonely)),
        oldest_use=min(uses, default=0.0),
        newest_use=max(uses, default=0.0),
    )


def _usage(run: CachedRun, every: dict[str, Unit], users: Counter) -> RunUsage:
    present = [every[key] for key in set(run.units) if key in every]
    return RunUsage(
        run=run,
        units_present=len(present),
        tus_present=sum(1 for u in present if u.section == PARSE),
        bytes_present=sum(u.size for u in present),
        bytes_shared=sum(u.size for u in present if users[u.key] > 1),
    )
