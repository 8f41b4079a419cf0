"""Reading a mine's output folder back (diff, explain, report): its run record and its JSONL files, where a folder
or a line that is not ours is one `InputError` naming it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from miner.errors import InputError


def read_run(out: Path) -> dict:
    """``run.json`` of the mine in ``out``, once ``out`` is known to hold one."""
    if not out.is_dir():
        raise InputError(f"{out}: no such output folder")
    try:
        run = json.loads((out / "run.json").read_text())
        if not isinstance(run["library"], str) or not isinstance(run["checkout"], dict):
            raise TypeError
        for name in ("bundles.jsonl", "entries.jsonl"):
            if not (out / name).is_file():
                raise KeyError(name)
    except (OSError, ValueError, KeyError, TypeError):
        raise InputError(f"{out}: not a rocm-miner output folder (run `rocm-miner mine` into it)") from None
    return run


def record(raw: bytes | str, path: Path, number: int) -> dict:
    """One line of an output JSONL file, parsed."""
    try:
        value = json.loads(raw)
    except ValueError:
        raise InputError(f"{path}:{number}: not JSON: not written by rocm-miner") from None
    if not isinstance(value, dict):
        raise InputError(f"{path}:{number}: not written by rocm-miner")
    return value


def records(path: Path) -> Iterator[dict]:
    """Every line of an output JSONL file, parsed."""
    try:
        with open(path, encoding="utf-8") as fh:
            for number, line in enumerate(fh, 1):
                yield record(line, path, number)
    except FileNotFoundError:
        raise InputError(f"{path.parent}: not a rocm-miner output folder (no {path.name})") from None
