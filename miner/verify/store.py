"""attempts.jsonl: every turn of every finished attempt, appended whole; a re-run skips attempts already there.

An attempt's turns are written in one ``write`` on an ``O_APPEND`` descriptor and fsynced. A run killed mid-write
leaves a torn last line and perhaps some complete turns of an attempt whose final turn is missing; the next run
cuts the torn line off and drops those turns (replacing the file atomically), so the attempt is done again whole
and no turn is recorded twice (nor the turns of an earlier run of an attempt, which older versions kept). Lines
that do not say which turn of which attempt they are (damaged) are kept in the file, skipped and counted.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from miner.bundle.write import atomic_file, make_dir
from miner.errors import OutputError
from miner.verify.models import Attempt

Line = tuple[bytes, dict | None]  # a complete line and its record, None when it is not one


def attempt_key(turn_key: str) -> str:
    return turn_key.rsplit(":turn", 1)[0]


def _record(line: bytes) -> dict | None:
    """The line's record if it says which turn of which attempt it is; read by those fields alone, so that a
    record of another schema still counts for its attempt (a whole-model check would drop its valid turns)."""
    try:
        r = json.loads(line)
    except ValueError:  # UnicodeDecodeError included
        return None
    shaped = isinstance(r, dict) and isinstance(r.get("key"), str) and type(r.get("turn")) is int
    return r if shaped and isinstance(r.get("last_turn"), bool) else None


def _complete_lines(data: bytes) -> list[Line]:
    complete = data[: data.rfind(b"\n") + 1]
    return [(line, _record(line)) for line in complete.splitlines(keepends=True) if line.strip()]


def _finished_runs(lines: list[Line]) -> dict[str, list[int]]:
    """Per finished attempt, the indices of its lines. An attempt's run starts at its last turn 0 (an earlier run
    is one a killed run left unfinished and an older version of this store kept), and is finished when its last
    turn and every turn before it are recorded."""
    runs: dict[str, list[int]] = {}
    for i, (_, r) in enumerate(lines):
        if r is not None:
            key = attempt_key(r["key"])
            runs[key] = [i] if r["turn"] == 0 else [*runs.get(key, []), i]
    finished = {}
    for key, run in runs.items():
        records = [lines[i][1] for i in run]
        last = [r["turn"] for r in records if r["last_turn"]]
        if last and {r["turn"] for r in records} >= set(range(last[-1] + 1)):
            finished[key] = run
    return finished


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
        """Cut a torn last line, the turns of unfinished attempts and earlier runs of finished ones, so that every
        turn is recorded once and appends start on a fresh line."""
        data = self._bytes()
        lines = _complete_lines(data)
        kept = {i for run in _finished_runs(lines).values() for i in run}
        keep = [line for i, (line, r) in enumerate(lines) if r is None or i in kept]
        if len(keep) != len(lines):
            self._replace(b"".join(keep))
        elif (end := data.rfind(b"\n") + 1) != len(data):
            with open(self.path, "r+b") as f:
                f.truncate(end)

    def _replace(self, data: bytes) -> None:
        try:
            with atomic_file(self.path, durable=True) as f:
                f.write(data)
        except OSError as exc:
            raise OutputError(f"cannot rewrite {self.path}: {exc.strerror}") from None

    def records(self) -> list[dict]:
        """Every turn of every finished attempt, in file order; lines that are not a record are skipped."""
        lines = self._lines()
        return [lines[i][1] for i in sorted(i for run in _finished_runs(lines).values() for i in run)]

    @property
    def damaged(self) -> int:
        """Lines skipped because they are not a record."""
        return sum(r is None for _, r in self._lines())

    def done(self) -> set[str]:
        """Keys of attempts whose turns are all recorded."""
        return set(_finished_runs(self._lines()))

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
