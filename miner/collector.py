"""CPython's cyclic garbage collector, set for a pipeline that keeps millions of objects alive.

By default the collector scans the youngest generation every 700 allocations and the whole heap each time the
survivors grow it by a quarter. A parse worker keeps every instantiated body it walked and the main process every
TU's facts, so most of that scanning frees nothing: on rocBLAS a parse worker spent 5.5 s of its 125 s in the
collector, 4.7 s of them rescanning its memo of walked bodies. With a young generation of 50,000 objects most
temporaries die before a scan sees them, and the whole heap is scanned a few times per run instead of hundreds.
Nothing here relies on cycles being freed promptly: they are still freed, only later."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

_THRESHOLDS = (50_000, 20, 10)


def collect_rarely() -> None:
    """For the rest of this process (a worker's)."""
    gc.set_threshold(*_THRESHOLDS)


@contextmanager
def rarely_collected() -> Iterator[None]:
    before = gc.get_threshold()
    gc.set_threshold(*_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)


@contextmanager
def frozen() -> Iterator[None]:
    """What exists now is left out of every collection until the block ends, here and in processes forked
    inside it (which then never write to the pages they share with this one to collect them)."""
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()
