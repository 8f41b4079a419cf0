"""Writing JSONL and JSON: complete files only, replaced atomically, so an interrupted run never leaves
a half-written file behind."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path

import jsonlines

from miner.errors import OutputError


def write_jsonl_atomic(path: Path, records: Iterable[dict]) -> int:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    count = 0
    try:
        with open(tmp, "w", encoding="utf-8") as fh:
            writer = jsonlines.Writer(fh, compact=True, sort_keys=True)
            for rec in records:
                writer.write(rec)
                count += 1
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)  # left only when the write failed
    return count


def write_json_atomic(path: Path, data: dict) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)  # left only when the write failed


def make_dir(path: Path, what: str = "output directory") -> None:
    """``path`` and its parents, or an ``OutputError`` naming it."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create the {what}: {exc.strerror}", path=str(path)) from None
