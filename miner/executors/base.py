"""What every executor runs: workers built from a spec, fed tasks from a source, each task's result or why it was
lost. A stage describes its work in these terms and never learns where it runs."""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from miner.errors import MinerError


@dataclass(frozen=True)
class WorkerSpec:
    """How to build one worker: ``make(*args)`` runs in the worker and returns the callable that handles a task
    (with an optional ``close()``). ``make`` must be importable by name (a module-level function or class)."""

    name: str  # what the workers do, for messages: "parse", "liveness", "verify"
    make: Callable[..., Callable[[Any], Any]]
    args: tuple = ()
    shared: bool = False  # ``args`` are large and built here: inherited by forking, or put in Ray's object store once
    num_cpus: float = 1
    num_gpus: float = 0
    most: int = 0  # the most workers to start (0: as many as the executor has room for)
    daemon: bool = True  # a local worker dies with this process; False for one that starts processes of its own


@dataclass(frozen=True)
class Lost:
    """A task no worker finished: ``crash`` (every worker given it died), ``timeout`` (past its deadline),
    ``error`` (the worker raised; not tried again), ``no-workers`` (none left to give it to)."""

    reason: str
    detail: str
    tries: int = 1


@dataclass(frozen=True)
class Retried:
    """A task given to another worker after the one holding it died."""

    spec: str
    key: Hashable
    detail: str


class Source(Protocol):
    """Where a free worker finds its next task."""

    def take(self, worker: int) -> tuple[Hashable, Any] | None:
        """The next ``(key, task)`` for worker number ``worker``; None when there is none for now."""

    def exhausted(self) -> bool:
        """Whether no task is left to take, now or later."""

    def wait(self, timeout: float) -> None:
        """Block until a task may have come (at most ``timeout`` seconds); only called with no task running."""

    def cancelled(self) -> bool:
        """Whether the run must stop now, its running tasks abandoned (Ctrl-C)."""


class Executor(Protocol):
    workers: int
    retried: list[Retried]

    def run(
        self, spec: WorkerSpec, source: Source, *, timeout_s: float | None = None, tries: int = 2
    ) -> Iterator[tuple[Hashable, Any]]:
        """Each task's ``(key, result)`` in completion order; the result is a ``Lost`` for a task that no worker
        finished. A task whose worker died is given to another, up to ``tries`` workers in all."""

    def running(self) -> list[tuple[Any, Hashable]]:
        """(worker handle, key) of each task running now: a process or a Ray actor (to kill one in tests)."""

    def release(self) -> None:
        """No run follows: what the executor holds (a Ray it started) may begin to stop while the caller goes on."""

    def close(self) -> None:
        """Stops what the executor holds, waiting for a release under way."""


def first_try(source: Source, worker: int) -> tuple[Hashable, Any, int] | None:
    """The source's next task for ``worker`` as ``(key, task, tries so far)``: first a task whose worker of another
    executor died (a source that holds such tasks has ``retry()``), with the tries it had."""
    retry = getattr(source, "retry", None)
    if retry is not None and (again := retry()) is not None:
        return again
    item = source.take(worker)
    return None if item is None else (item[0], item[1], 0)


class Tasks:
    """A fixed list of tasks, taken in order by whichever worker is free."""

    def __init__(self, items: list[tuple[Hashable, Any]]) -> None:
        self.items = list(reversed(items))

    def take(self, worker: int) -> tuple[Hashable, Any] | None:
        return self.items.pop() if self.items else None

    def exhausted(self) -> bool:
        return not self.items

    def wait(self, timeout: float) -> None:
        pass

    def cancelled(self) -> bool:
        return False


@dataclass
class Inbox:
    """Tasks that arrive while the executor runs (from other threads); exhausted once closed and emptied."""

    items: list[tuple[Hashable, Any]] = field(default_factory=list)
    closed: bool = False
    _ready: threading.Condition = field(default_factory=threading.Condition)

    def put(self, key: Hashable, task: Any) -> None:
        with self._ready:
            self.items.append((key, task))
            self._ready.notify_all()

    def close(self) -> None:
        with self._ready:
            self.closed = True
            self._ready.notify_all()

    def take(self, worker: int) -> tuple[Hashable, Any] | None:
        with self._ready:
            return self.items.pop(0) if self.items else None

    def exhausted(self) -> bool:
        with self._ready:
            return self.closed and not self.items

    def wait(self, timeout: float) -> None:
        with self._ready:
            if not self.items and not self.closed:
                self._ready.wait(timeout)

    def cancelled(self) -> bool:
        return False


class ExecutorError(MinerError):
    """The executor cannot run at all (Ray missing, no cluster at the address): one line for the user."""
