"""Which mine used which cache units: one record per library, revision and ``--with`` libraries, rewritten
by each run of them, so that ``cache info`` can say what the cache holds for each and ``cache prune`` can
drop the records of runs whose units are all gone."""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterable
from pathlib import Path

from pydantic import ValidationError

from miner.bundle.write import write_json_atomic
from miner.cache.units import RUNS
from miner.models import CachedRun
from miner.source.checkout import Checkout


def revision_name(checkout: Checkout) -> str:
    name = checkout.tag or checkout.commit[:12] or "working tree"
    return f"{name} (modified)" if checkout.dirty else name


def record_run(
    cache_dir: Path, library: str, checkout: Checkout, out: Path, others: dict[str, Path], units: Iterable[str]
) -> CachedRun:
    run = CachedRun(
        library=library,
        revision=revision_name(checkout),
        commit=checkout.commit,
        dirty=checkout.dirty,
        root=str(checkout.root),
        out=str(out.resolve()),
        with_libraries={name: str(path) for name, path in sorted(others.items())},
        last_mined=time.time(),
        units=sorted(set(units)),
    )
    # a revision is its commit; a modified or git-less checkout is its folder
    where = run.commit if run.commit and not run.dirty else f"tree:{run.root}"
    key = hashlib.sha256(json.dumps([library, where, sorted(run.with_libraries)]).encode()).hexdigest()[:16]
    folder = cache_dir / RUNS
    folder.mkdir(parents=True, exist_ok=True)
    write_json_atomic(folder / f"{key}.json", run.model_dump(mode="json"))
    return run


def recorded_runs(cache_dir: Path) -> dict[Path, CachedRun]:
    """The run records, by file; unreadable ones (being written, or not ours) are left out."""
    found = {}
    for path in sorted((cache_dir / RUNS).glob("*.json")):
        try:
            found[path] = CachedRun.model_validate_json(path.read_bytes())
        except (OSError, ValidationError):
            continue
    return found
