"""Writing JSONL and JSON: complete files only, replaced atomically, so an interrupted run never leaves
a half-written file behind."""

from __future__ import annotations

import contextlib
import json
import os
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

import jsonlines

from miner.errors import OutputError


@contextlib.contextmanager
def atomic_file(path: Path, *, durable: bool = False) -> Iterator[BinaryIO]:
    """A file to write that replaces ``path`` whole when the block ends, and leaves nothing when it fails;
    ``durable``: on disk (fsynced) before it replaces ``path``."""
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as fh:
            yield fh
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)  # left only when the write failed


def write_jsonl_atomic(path: Path, records: Iterable[dict]) -> int:
    count = 0
    with atomic_file(path) as fh:
        writer = jsonlines.Writer(fh, compact=True, sort_keys=True)  # a binary file gets UTF-8
        for rec in records:
            writer.write(rec)
            count += 1
    return count


def write_json_atomic(path: Path, data: dict) -> None:
    with atomic_file(path) as fh:
        fh.write((json.dumps(data, indent=2, sort_keys=True) + "\n").encode())


def make_dir(path: Path, what: str = "output directory") -> None:
    """``path`` and its parents, or an ``OutputError`` naming it; the temporaries a killed run left there go."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create the {what}: {exc.strerror}", path=str(path)) from None
    remove_stale_temporaries(path)


_TEMPORARY = re.compile(r"^\..+\.(\d+)\.tmp$")


def remove_stale_temporaries(directory: Path) -> list[Path]:
    """Remove the ``atomic_file`` temporaries in ``directory`` whose writer process is gone (killed mid-write)."""
    removed = []
    for path in directory.glob(".*.tmp"):
        match = _TEMPORARY.match(path.name)
        if match is None or _alive(int(match.group(1))):
            continue
        path.unlink(missing_ok=True)
        removed.append(path)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
