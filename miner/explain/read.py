"""What `explain` reads of an output folder: one entry's record and its bundle, found without parsing the rest
(a line is parsed only once a plain substring says it is the one)."""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from pathlib import Path

from miner.errors import InputError


@dataclass(frozen=True)
class EntryOutput:
    library: str
    record: dict | None  # the entry's line of entries.jsonl; None when it is in no bundle
    not_reached: dict | None  # its line of not_reached.jsonl, when it is in no bundle
    bundle: dict | None


def read_entry(out: Path, entry: str) -> EntryOutput:
    library = _library(out)
    record = _entry_record(out, entry)
    if record is None or not record.get("bundle"):
        return EntryOutput(library, record, _not_reached(out, entry), None)
    return EntryOutput(library, record, None, _bundle(out, record["bundle"]))


def bundles_holding(out: Path, function: str) -> list[dict]:
    """The bundles with a region named ``function`` (for a function the entry does not reach)."""
    needle = f'"name":"{function}"'.encode()
    found = []
    with open(out / "bundles.jsonl", "rb") as fh:
        for raw in fh:
            if needle in raw:
                found.append(json.loads(raw))
    return found


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


def _library(out: Path) -> str:
    return read_run(out)["library"]


def _entry_record(out: Path, entry: str) -> dict | None:
    needle = f'"name":{json.dumps(entry)},'.encode()
    names = []
    with open(out / "entries.jsonl", "rb") as fh:
        for number, raw in enumerate(fh, 1):
            if needle not in raw:
                continue
            record = _record(raw, out / "entries.jsonl", number)
            if record.get("name") == entry:
                return record
    if _not_reached(out, entry) is not None:
        return None
    with open(out / "entries.jsonl", "rb") as fh:  # not found: the names, for a suggestion
        names = [_record(raw, out / "entries.jsonl", n).get("name", "") for n, raw in enumerate(fh, 1)]
    close = difflib.get_close_matches(entry, names, n=3)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    raise InputError(f"no entry point named {entry!r} in {out}{hint}")


def _record(raw: bytes, path: Path, number: int) -> dict:
    try:
        record = json.loads(raw)
    except ValueError:
        raise InputError(f"{path}:{number}: not JSON: not written by rocm-miner") from None
    if not isinstance(record, dict):
        raise InputError(f"{path}:{number}: not written by rocm-miner")
    return record


def _not_reached(out: Path, entry: str) -> dict | None:
    try:
        with open(out / "not_reached.jsonl", encoding="utf-8") as fh:
            for line in fh:
                record = json.loads(line)
                if record.get("entry") == entry:
                    return record
    except (OSError, ValueError):
        return None
    return None


def _bundle(out: Path, bundle_id: str) -> dict:
    needle = f'"id":"{bundle_id}"'.encode()
    with open(out / "bundles.jsonl", "rb") as fh:
        for raw in fh:
            if needle in raw:
                bundle = json.loads(raw)
                if bundle.get("id") == bundle_id:
                    return bundle
    raise InputError(f"{out}: entries.jsonl names bundle {bundle_id}, which bundles.jsonl lacks (a partial copy?)")
