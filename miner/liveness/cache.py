"""Per-entry liveness verdicts kept between runs, so a warm re-run of an unchanged checkout
analyses nothing (as the parse cache makes it parse nothing).

A store is named by everything the analysis reads (the analysis code, every parse result of
every library in the run, the profiles), and holds one entry's verdicts under the entry's name,
variant and the nodes its traversal included; a change anywhere means a new store. Writes are
atomic: an interrupted run loses at most the verdicts it had not written yet."""

from __future__ import annotations

import functools
import hashlib
import inspect
import os
import pickle
from collections.abc import Iterable
from pathlib import Path

from miner import models
from miner.cache.units import touch
from miner.models import NodeVerdict, Traversal

_FORMAT = 1


@functools.cache
def analysis_fingerprint() -> str:
    """The code that computes verdicts: a change to it invalidates every store."""
    here = Path(__file__).resolve().parent
    h = hashlib.sha256(str(_FORMAT).encode())
    for path in sorted(here.rglob("*.py")):
        h.update(path.relative_to(here).as_posix().encode() + b"\0" + path.read_bytes())
    h.update(inspect.getsource(models.NodeVerdict).encode())
    return h.hexdigest()[:16]


def entry_key(entry: str, variant: str, t: Traversal) -> str:
    """An entry's verdicts depend on its root and on the nodes its traversal included."""
    included = sorted(d.node for d in t.decisions if d.verdict == "included")
    return hashlib.sha256(repr((entry, variant, t.root, included)).encode()).hexdigest()[:24]


def store_path(directory: Path, inputs: Iterable[str]) -> Path:
    """The store of a run whose analysis reads ``inputs``."""
    h = hashlib.sha256(analysis_fingerprint().encode())
    for part in inputs:
        h.update(part.encode() + b"\0")
    return directory / f"{h.hexdigest()[:24]}.pkl"


class VerdictCache:
    def __init__(self, directory: Path, inputs: Iterable[str], *, load: bool = True) -> None:
        self.path = store_path(directory, inputs)
        self._stored = self._load() if load else {}
        self._dirty = False

    def _load(self) -> dict[str, dict[str, NodeVerdict]]:
        try:
            with open(self.path, "rb") as fh:
                found = pickle.load(fh)
        except (OSError, EOFError, pickle.UnpicklingError, ValueError, AttributeError, TypeError):
            return {}
        touch(self.path)  # its last use, for ``cache prune``
        return found if isinstance(found, dict) else {}

    def get(self, key: str) -> dict[str, NodeVerdict] | None:
        return self._stored.get(key)

    def put(self, key: str, verdicts: dict[str, NodeVerdict]) -> None:
        self._stored[key] = verdicts
        self._dirty = True

    def flush(self) -> None:
        if not self._dirty:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(f".{os.getpid()}.tmp")
        with open(tmp, "wb") as fh:
            pickle.dump(self._stored, fh, protocol=pickle.HIGHEST_PROTOCOL)
        tmp.replace(self.path)
        self._dirty = False
