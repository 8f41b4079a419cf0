"""attempts.jsonl: every turn of every finished attempt, appended whole; a re-run skips attempts already there.

An attempt's turns are written in one ``write`` on an ``O_APPEND`` descriptor and fsynced. A run killed mid-write
leaves a torn last line and perhaps some complete turns of an attempt whose final turn is missing; the next run
cuts the torn line off and drops those turns (replacing the file atomically), so the attempt is done again whole
and no turn is recorded twice. Lines that are not a record (damaged, or from an older schema) are kept in the file,
skipped and counted.
"""

from __future__ import annotations

import os
from pathlib import Path

from pydantic import ValidationError

from miner.bundle.write import make_dir
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


def _finished(records: list[Attempt]) -> set[str]:
    """Attempts whose final turn and every turn before it are recorded."""
    turns: dict[str, set[int]] = {}
    last: dict[str, int] = {}
    for r in records:
        turns.setdefault(attempt_key(r.key), set()).add(r.turn)
        if r.last_turn:
            last[attempt_key(r.key)] = r.turn
    return {key for key, n in last.items() if turns[key] >= set(range(n + 1))}


class AttemptStore:
    def __init__(self, out_dir: Path) -> None:
        make_dir(out_dir)
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
        """Cut a torn last line and the turns of unfinished attempts, so that appends start on a fresh line."""
        data = self._bytes()
        lines = _complete_lines(data)
        finished = _finished([r for _, r in lines if r is not None])
        keep = [line for line, r in lines if r is None or attempt_key(r.key) in finished]
        if len(keep) != len(lines):
            self._replace(b"".join(keep))
        elif (end := data.rfind(b"\n") + 1) != len(data):
            with open(self.path, "r+b") as f:
                f.truncate(end)

    def _replace(self, data: bytes) -> None:
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            with open(tmp, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            tmp.replace(self.path)
        except OSError as exc:
            tmp.unlink(missing_ok=True)
            raise OutputError(f"cannot rewrite {self.path}: {exc.strerror}") from None

    def records(self) -> list[dict]:
        """Every turn recorded, as JSON objects; lines that are not a record are skipped."""
        return [r.model_dump(mode="json") for _, r in self._lines() if r is not None]

    @property
    def damaged(self) -> int:
        """Lines skipped because they are not a record."""
        return sum(r is None for _, r in self._lines())

    def done(self) -> set[str]:
        """Keys of attempts whose turns are all recorded."""
        return _finished([r for _, r in self._lines() if r is not None])

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
