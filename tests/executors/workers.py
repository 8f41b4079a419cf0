"""Workers for the executor tests: each task says what to do."""

from __future__ import annotations

import os
import time
from pathlib import Path


class Doer:
    def __init__(self, tag: str) -> None:
        self.tag = tag
        self.pid = os.getpid()

    def __call__(self, task: tuple[str, object]) -> tuple[str, object, int]:
        what, arg = task
        if what == "sleep":
            time.sleep(float(arg))
        elif what == "raise":
            raise ValueError(f"cannot do {arg}")
        elif what == "die":
            os._exit(7)
        elif what == "die-once":
            marker = Path(str(arg))
            if not marker.exists():
                marker.write_text("died here once\n")
                os._exit(7)
        return self.tag, arg, self.pid
