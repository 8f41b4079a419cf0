"""Worker processes on this machine (scip-clang's shape): each holds one task at a time; one past its deadline is
killed and replaced, one that dies is replaced and its task given to the next free worker. Workers start as the
first task for them comes, so a run of one task starts one process.

Each run stops its workers when it ends, however it ends; a worker whose pipe closes returns; a worker is a daemon
(it dies with this process) unless its spec says it starts processes of its own (a verification worker). A spec with ``shared`` arguments is forked from this process, which built them (a graph of a whole library is not
sent down a pipe); any other is spawned, a fresh interpreter."""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import time
import traceback
from collections import deque
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import wait
from typing import Any

from miner.executors.base import ExecutorError, Lost, Retried, Source, WorkerSpec, first_try
from miner.signals import children_ignore_ctrl_c

_FORKED: dict[int, WorkerSpec] = {}  # what a forked worker inherits, by the id its parent gave it
_IDLE_POLL_S = 0.5


@dataclass
class _Failed:
    """What a worker sends back when its task raised, or (``broken``) when the worker itself could not be built."""

    detail: str
    broken: bool = False


@dataclass
class _Slot:
    index: int
    process: Any
    conn: Any
    key: Hashable | None = None
    task: Any = None
    tries: int = 0
    deadline: float = float("inf")

    @property
    def busy(self) -> bool:
        return self.key is not None


class LocalExecutor:
    def __init__(self, jobs: int) -> None:
        self.workers = max(1, jobs)
        self.retried: list[Retried] = []
        self._slots: list[_Slot] = []

    def run(
        self, spec: WorkerSpec, source: Source, *, timeout_s: float | None = None, tries: int = 2
    ) -> Iterator[tuple[Hashable, Any]]:
        slots: list[_Slot] = []
        self._slots = slots
        again: deque[tuple[Hashable, Any, int]] = deque()  # tasks whose worker died, with the tries they had
        try:
            while not source.cancelled():
                self._feed(spec, source, slots, again, timeout_s)
                busy = [s for s in slots if s.busy]
                if not busy:
                    if source.exhausted() and not again:
                        return
                    source.wait(_IDLE_POLL_S)
                    continue
                nearest = min(s.deadline for s in busy)
                # new tasks may come for idle workers, or the run be cancelled
                timeout = min(_IDLE_POLL_S, max(0.0, nearest - time.monotonic()))
                ready = wait([s.conn for s in busy], timeout=timeout)
                for s in busy:
                    if s.conn in ready:
                        yield from self._answer(spec, s, slots, again, tries)
                    elif time.monotonic() >= s.deadline:
                        key = s.key
                        self._replace(spec, s, slots)
                        yield key, Lost("timeout", f"no result within {timeout_s:g} s")
        finally:
            for s in slots:
                _stop(s)

    def _feed(self, spec, source, slots, again, timeout_s) -> None:
        """Gives every free worker a task, starting workers while there are tasks and room for them."""
        while True:
            free = next((s for s in slots if not s.busy), None)
            if free is None and len(slots) < _most(spec, self.workers):
                index = len(slots)
                item = again.popleft() if again else first_try(source, index)
                if item is None:
                    return
                free = self._start(spec, index)
                slots.append(free)
            elif free is None:
                return
            else:
                item = again.popleft() if again else first_try(source, free.index)
                if item is None:
                    return
            free.key, free.task, free.tries = item
            free.deadline = time.monotonic() + timeout_s if timeout_s else float("inf")
            with contextlib.suppress(OSError):  # a worker dead between tasks: its pipe reads as closed
                free.conn.send(free.task)

    def _answer(self, spec, slot: _Slot, slots, again, tries: int) -> Iterator[tuple[Hashable, Any]]:
        key, task, tried = slot.key, slot.task, slot.tries + 1
        try:
            result = slot.conn.recv()
        except (EOFError, OSError):
            code = self._replace(spec, slot, slots)
            detail = f"worker died (exit code {code})"
            if tried < tries:
                self.retried.append(Retried(spec.name, key, detail))
                again.append((key, task, tried))
                return
            yield key, Lost("crash", detail, tried)
            return
        slot.key = slot.task = None
        if isinstance(result, _Failed) and result.broken:
            raise ExecutorError(f"the {spec.name} workers cannot start: {result.detail}")
        yield key, Lost("error", result.detail, tried) if isinstance(result, _Failed) else result

    def _start(self, spec: WorkerSpec, index: int) -> _Slot:
        forked = spec.shared and "fork" in mp.get_all_start_methods()
        ctx = mp.get_context("fork" if forked else "spawn")
        parent, child = ctx.Pipe()
        if forked:
            _FORKED[id(spec)] = spec
            proc = ctx.Process(target=_serve_forked, args=(child, id(spec)), daemon=spec.daemon)
        else:
            proc = ctx.Process(target=serve, args=(child, spec), daemon=spec.daemon)
        with children_ignore_ctrl_c():
            proc.start()
        child.close()
        return _Slot(index, proc, parent)

    def _replace(self, spec: WorkerSpec, slot: _Slot, slots: list[_Slot]) -> int | None:
        code = _stop(slot)
        slots[slots.index(slot)] = self._start(spec, slot.index)
        return code

    def running(self) -> list[tuple[Any, Hashable]]:
        return [(s.process, s.key) for s in self._slots if s.busy]

    def release(self) -> None:
        pass  # every run stops its workers as it ends

    def close(self) -> None:
        _FORKED.clear()


def _most(spec: WorkerSpec, room: int) -> int:
    return min(room, spec.most) if spec.most else room


def _stop(slot: _Slot) -> int | None:
    if slot.process.is_alive():
        slot.process.kill()
    slot.process.join(timeout=5)
    slot.conn.close()
    return slot.process.exitcode


def _serve_forked(conn, spec_id: int) -> None:
    serve(conn, _FORKED[spec_id])


def serve(conn, spec: WorkerSpec) -> None:
    """A worker's main loop: build the worker, then answer tasks until the pipe closes (a worker that cannot be
    built answers each task with why)."""
    try:
        handle = spec.make(*spec.args)
    except Exception as exc:  # told to the driver, which stops the run with it
        why = _Failed(traceback.format_exception_only(type(exc), exc)[-1].strip(), broken=True)
        handle = _Broken(why)
    try:
        while True:
            try:
                task = conn.recv()
            except EOFError:
                return
            if task is None:
                return
            try:
                result = handle(task)
            except Exception as exc:  # a bug on one task must not lose the others
                result = _Failed(traceback.format_exception_only(type(exc), exc)[-1].strip())
            try:
                conn.send(result)
            except (BrokenPipeError, ConnectionResetError):  # the main process is gone: nobody to answer
                return
    finally:
        close = getattr(handle, "close", None)
        if close is not None:
            close()


class _Broken:
    """Stands for a worker whose spec could not build it."""

    def __init__(self, why: _Failed) -> None:
        self.why = why

    def __call__(self, task: Any) -> _Failed:
        return self.why
