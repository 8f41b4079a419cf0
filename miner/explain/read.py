"""What `explain` reads of an output folder: one entry's record and its bundle, found without parsing the rest
(a line is parsed only once a plain substring says it is the one)."""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from pathlib import Path

from miner.errors import InputError
from miner.outputs import read_run, record, records


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


def _library(out: Path) -> str:
    return read_run(out)["library"]


def _entry_record(out: Path, entry: str) -> dict | None:
    needle = f'"name":{json.dumps(entry)},'.encode()
    names = []
    with open(out / "entries.jsonl", "rb") as fh:
        for number, raw in enumerate(fh, 1):
            if needle not in raw:
                continue
            found = record(raw, out / "entries.jsonl", number)
            if found.get("name") == entry:
                return found
    if _not_reached(out, entry) is not None:
        return None
    with open(out / "entries.jsonl", "rb") as fh:  # not found: the names, for a suggestion
        names = [record(raw, out / "entries.jsonl", n).get("name", "") for n, raw in enumerate(fh, 1)]
    close = difflib.get_close_matches(entry, names, n=3)
    hint = f" (did you mean {', '.join(close)}?)" if close else ""
    raise InputError(f"no entry point named {entry!r} in {out}{hint}")


def _not_reached(out: Path, entry: str) -> dict | None:
    path = out / "not_reached.jsonl"
    return next((r for r in records(path) if r.get("entry") == entry), None) if path.is_file() else None


def _bundle(out: Path, bundle_id: str) -> dict:
    needle = f'"id":"{bundle_id}"'.encode()
    with open(out / "bundles.jsonl", "rb") as fh:
        for raw in fh:
            if needle in raw:
                bundle = json.loads(raw)
                if bundle.get("id") == bundle_id:
                    return bundle
    raise InputError(f"{out}: entries.jsonl names bundle {bundle_id}, which bundles.jsonl lacks (a partial copy?)")
