"""attempts.jsonl: every turn of every finished attempt, appended whole; a re-run skips attempts already there.

An attempt's turns are written in one ``write`` on an ``O_APPEND`` descriptor and fsynced, so a killed run
leaves at most one torn line at the end, which the next run cuts off before appending. Lines that are not a
record (damaged, or from an older schema) are kept in the file, skipped and counted.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import ValidationError

from miner.errors import OutputError
from miner.verify.models import Attempt

Line = tuple[bytes, Attempt | None]  # a complete line and its record, None when it is not one


def attempt_key(turn_key: str) -> str:
    return turn_key.rsplit(":turn", 1)[0]


def _parse(line: bytes) -> Attempt | None:
    try:
        return Attempt.model_validate_json(line)
    except ValidationError:
        return None


def _complete_lines(data: bytes) -> list[Line]:
    complete = data[: data.rfind(b"\n") + 1]
    return [(line, _parse(line)) for line in complete.splitlines(keepends=True) if line.strip()]


class AttemptStore:
    def __init__(self, out_dir: Path) -> None:
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"cannot create {out_dir}: {exc}") from None
        self.path = out_dir / "attempts.jsonl"
        self._repair()

    def _bytes(self) -> bytes:
        try:
            return self.path.read_bytes() if self.path.exists() else b""
        except OSError as exc:
            raise OutputError(f"cannot read {self.path}: {exc.strerror}") from None

    def _lines(self) -> list[Line]:
        return _complete_lines(self._bytes())

    def _repair(self) -> None:
        """Cut a torn last line (a run killed mid-write) so that appends start on a fresh line."""
        data = self._bytes()
        keep = data[: data.rfind(b"\n") + 1]
        if keep != data:
            with open(self.path, "r+b") as f:
                f.truncate(len(keep))

    def records(self) -> list[dict]:
        """Every turn recorded, as JSON objects; lines that are not a record are skipped."""
        return [r.model_dump(mode="json") for _, r in self._lines() if r is not None]

    @property
    def damaged(self) -> int:
        """Lines skipped because they are not a record."""
        return sum(r is None for _, r in self._lines())

    def done(self) -> set[str]:
        """Keys of attempts whose turns are all recorded."""
        return {attempt_key(r.key) for _, r in self._lines() if r is not None and r.last_turn}

    def append(self, turns: list[Attempt]) -> None:
        if not turns:
            return
        lines = [t.model_copy(update={"last_turn": i == len(turns) - 1}).model_dump_json() for i, t in enumerate(turns)]
        payload = memoryview(("\n".join(lines) + "\n").encode())
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            while payload:
                payload = payload[os.write(fd, payload) :]
            os.fsync(fd)
        finally:
            os.close(fd)
