"""A driver over parse worker processes (scip-clang's shape): each worker parses one TU at a
time; a worker past its deadline is killed and replaced, a crashed one is replaced, and the
TU it held becomes a ``ParseFailed`` value. Results stream back in completion order.

Each worker keeps a memo of the instantiated bodies it has walked, and neighbouring TUs (sorted
paths: ``blas1/rocblas_axpy.cpp``, ``rocblas_axpy_batched.cpp``, ...) instantiate the same templates.
So each worker takes its own contiguous share of the jobs in order, and one that runs out takes
the last job of the largest share left: related TUs meet in one memo instead of alternating."""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import wait

from miner.models import ParseFailed, ParseResult
from miner.parse.worker import ParseJob, WorkerConfig, run_worker
from miner.signals import children_ignore_ctrl_c


@dataclass
class _Slot:
    process: mp.Process
    conn: object
    share: int  # which share of the jobs it takes from first
    job: ParseJob | None = None
    deadline: float = 0.0


class ParsePool:
    def __init__(self, config: WorkerConfig, *, jobs: int, timeout_s: float) -> None:
        self.config = config
        self.jobs = max(1, jobs)
        self.timeout_s = timeout_s
        self._ctx = mp.get_context("spawn")

    def _start(self, share: int) -> _Slot:
        parent, child = self._ctx.Pipe()
        proc = self._ctx.Process(target=run_worker, args=(child, self.config), daemon=True)
        with children_ignore_ctrl_c():
            proc.start()
        child.close()
        return _Slot(proc, parent, share)

    def run(
        self, jobs: Iterable[ParseJob], prepare: Callable[[ParseJob], ParseJob] | None = None
    ) -> Iterator[ParseResult]:
        """The jobs' results in completion order; ``prepare`` completes each job as it is sent (from what the
        results before it said)."""
        pending = list(jobs)
        workers = min(self.jobs, len(pending))
        shares = _shares(pending, workers)
        slots = [self._start(i) for i in range(workers)]
        try:
            while any(shares) or any(s.job for s in slots):
                for s in slots:
                    if s.job is None and any(shares):
                        s.job = _next_job(shares, s.share)
                        if prepare is not None:
                            s.job = prepare(s.job)
                        s.deadline = time.monotonic() + self.timeout_s
                        with contextlib.suppress(OSError):  # a worker dead between jobs: its pipe reads as closed below
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
                            slots[i] = self._start(s.share)
                            continue
                        s.job = None
                        yield result
                    elif time.monotonic() >= s.deadline:
                        self._kill(s)
                        yield ParseFailed(s.job.rel, "timeout", f"no result within {self.timeout_s:g} s")
                        slots[i] = self._start(s.share)
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


def _shares(jobs: list[ParseJob], n: int) -> list[deque[ParseJob]]:
    """``jobs`` cut into ``n`` contiguous runs of near-equal length."""
    cuts = [len(jobs) * i // max(1, n) for i in range(n + 1)]
    return [deque(jobs[cuts[i] : cuts[i + 1]]) for i in range(n)]


def _next_job(shares: list[deque[ParseJob]], own: int) -> ParseJob:
    if shares[own]:
        return shares[own].popleft()
    largest = max(shares, key=len)
    return largest.pop()
