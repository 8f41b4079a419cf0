"""Runs share the cache; pruning has it alone. A mine holds a shared lock on the cache for as long as it may
read from it, and ``cache prune`` takes the lock exclusively, so it never removes what a running mine reads."""

from __future__ import annotations

import contextlib
import fcntl
from collections.abc import Iterator
from pathlib import Path

from miner.errors import CacheBusyError

_LOCK = "lock"


@contextlib.contextmanager
def shared(cache_dir: Path) -> Iterator[None]:
    with _locked(cache_dir, fcntl.LOCK_SH):
        yield


@contextlib.contextmanager
def exclusive(cache_dir: Path) -> Iterator[None]:
    """The cache alone, or ``CacheBusyError`` at once when a mine is using it."""
    with _locked(cache_dir, fcntl.LOCK_EX | fcntl.LOCK_NB):
        yield


@contextlib.contextmanager
def _locked(cache_dir: Path, how: int) -> Iterator[None]:
    cache_dir.mkdir(parents=True, exist_ok=True)
    with open(cache_dir / _LOCK, "a+b") as fh:
        try:
            fcntl.flock(fh, how)
        except BlockingIOError:
            raise CacheBusyError(
                "a mine is using this cache; prune it when the mine has ended", path=str(cache_dir)
            ) from None
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)
