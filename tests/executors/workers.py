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
        elif what == "parent":  # then the answer is the worker's parent process, after a pause of ``arg`` s
            time.sleep(float(arg))
            arg = os.getppid()
        elif what == "die":
            os._exit(7)
        elif what == "die-once":
            marker = Path(str(arg))
            if not marker.exists():
                marker.write_text("died here once\n")
                os._exit(7)
        return self.tag, arg, self.pid


class Holder:
    """Holds a value it was built with; answers with its parent process and the value's type."""

    def __init__(self, value: object) -> None:
        self.value = value

    def __call__(self, task: tuple[str, object]) -> tuple[int, str]:
        time.sleep(float(task[1]))
        return os.getppid(), type(self.value).__name__
