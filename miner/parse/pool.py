"""A driver over parse worker processes (scip-clang's shape): each worker parses one TU at a
time; a worker past its deadline is killed and replaced, a crashed one is replaced, and the
TU it held becomes a ``ParseFailed`` value. Results stream back in completion order."""

from __future__ import annotations

import multiprocessing as mp
import time
from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import wait

from miner.models import ParseFailed, ParseResult
from miner.parse.worker import ParseJob, WorkerConfig, run_worker


@dataclass
class _Slot:
    process: mp.Process
    conn: object
    job: ParseJob | None = None
    deadline: float = 0.0


class ParsePool:
    def __init__(self, config: WorkerConfig, *, jobs: int, timeout_s: float) -> None:
        self.config = config
        self.jobs = max(1, jobs)
        self.timeout_s = timeout_s
        self._ctx = mp.get_context("spawn")

    def _start(self) -> _Slot:
        parent, child = self._ctx.Pipe()
        proc = self._ctx.Process(target=run_worker, args=(child, self.config), daemon=True)
        proc.start()
        child.close()
        return _Slot(proc, parent)

    def run(self, jobs: Iterable[ParseJob]) -> Iterator[ParseResult]:
        queue = deque(jobs)
        slots = [self._start() for _ in range(min(self.jobs, len(queue)))]
        try:
            while queue or any(s.job for s in slots):
                for s in slots:
                    if s.job is None and queue:
                        s.job = queue.popleft()
                        s.deadline = time.monotonic() + self.timeout_s
                        s.conn.send(s.job)
                busy = [s for s in slots if s.job is not None]
                nearest = min(s.deadline for s in busy)
                ready = wait([s.conn for s in busy], timeout=max(0.0, nearest - time.monotonic()))
                for i, s in enumerate(slots):
                    if s.job is None:
                        continue
                    if s.conn in ready:
                        try:
                            result = s.conn.recv()
                        except (EOFError, OSError):
                            code = self._kill(s)
                            yield ParseFailed(s.job.rel, "crash", f"worker died (exit code {code})")
                            slots[i] = self._start()
                            continue
                        s.job = None
                        yield result
                    elif time.monotonic() >= s.deadline:
                        self._kill(s)
                        yield ParseFailed(s.job.rel, "timeout", f"no result within {self.timeout_s:g} s")
                        slots[i] = self._start()
        finally:
            for s in slots:
                self._kill(s)

    @staticmethod
    def _kill(slot: _Slot) -> int | None:
        if slot.process.is_alive():
            slot.process.kill()
        slot.process.join(timeout=5)
        slot.conn.close()
        return slot.process.exitcode
