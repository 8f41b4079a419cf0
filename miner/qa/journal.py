"""The append-only journal of finished units: what makes a re-run free and a killed run resumable.

Each unit is one complete JSON line, appended with a single ``write`` to a file opened with
``O_APPEND``. A run killed mid-write can leave at most one partial last line; loading drops it (and
truncates it away), so the unit is simply done again.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import ValidationError

from miner.models import QAUnit


class Journal:
    def __init__(self, path: Path, *, writable: bool = True) -> None:
        self.path = path
        self.units: dict[str, QAUnit] = {}
        self._load(truncate=writable)
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644) if writable else None

    def _load(self, truncate: bool) -> None:
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        complete = data[: data.rfind(b"\n") + 1]
        for line in complete.splitlines():
            try:
                unit = QAUnit.model_validate_json(line)
            except ValidationError:
                continue  # a line from an older schema: its unit is redone
            self.units[unit.key] = unit
        if truncate and len(complete) != len(data):
            with open(self.path, "r+b") as fh:
                fh.truncate(len(complete))

    def __contains__(self, key: str) -> bool:
        return key in self.units

    def append(self, unit: QAUnit) -> None:
        assert self._fd is not None, "journal opened read-only"
        line = unit.model_dump_json().encode() + b"\n"
        written = os.write(self._fd, line)
        while written < len(line):
            written += os.write(self._fd, line[written:])
        self.units[unit.key] = unit

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
