"""attempts.jsonl: every turn of every finished attempt, appended whole; a re-run skips attempts already there.

An attempt's turns are written in one ``write`` on an ``O_APPEND`` descriptor and fsynced, so a killed run
leaves at most one torn line at the end, which the next run cuts off before appending.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from miner.errors import OutputError
from miner.verify.models import Attempt


class AttemptStore:
    def __init__(self, out_dir: Path) -> None:
        try:
            out_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"cannot create {out_dir}: {exc}") from None
        self.path = out_dir / "attempts.jsonl"
        self._repair()

    def _repair(self) -> None:
        """Cut a torn last line (a run killed mid-write) so that appends start on a fresh line."""
        if not self.path.exists():
            return
        data = self.path.read_bytes()
        keep = data[: data.rfind(b"\n") + 1]
        if keep != data:
            with open(self.path, "r+b") as f:
                f.truncate(len(keep))

    def records(self) -> list[dict]:
        if not self.path.exists():
            return []
        out = []
        for line in self.path.read_text().splitlines():
            try:
                out.append(json.loads(line))
            except ValueError:
                continue
        return out

    def done(self) -> set[str]:
        """Keys of attempts whose turns are all recorded."""
        return {r["key"].rsplit(":turn", 1)[0] for r in self.records() if r.get("last_turn")}

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
