"""Workers as Ray actors, on a cluster (``ray start --head`` on one machine, ``ray start --address`` on the others)
or on a local one this process starts. Results come back through Ray's object store; the driver alone writes.

An actor gets a task only once it is up, so a replacement that cannot be placed (its node died and the cluster has
no room left) holds nothing. A task whose actor or node died goes to another actor, up to ``tries`` in all. The
cluster's size is read again after each death: a slot whose CPUs are gone is dropped rather than replaced."""

from __future__ import annotations

import contextlib
import pickle
import signal
import threading
import time
from collections import deque
from collections.abc import Hashable, Iterator
from typing import Any

from miner.executors.base import ExecutorError, Lost, Retried, Source, WorkerSpec, first_try

_POLL_S = 0.5
_START_S = 120.0  # an actor not up by then, with nothing else running, will not come up


class _Packed:
    """A value pickled by the standard pickler, which Ray then moves as one buffer."""

    __slots__ = ("data",)

    def __init__(self, data: bytes) -> None:
        self.data = data

    def __reduce__(self):
        return _Packed, (self.data,)


class _Host:
    """An actor's body: the worker the spec builds (from arguments ``pack`` packed, where it could)."""

    def __init__(self, make, args: tuple | _Packed) -> None:
        self.handle = make(*unpack(args))

    def ready(self) -> bool:
        return True

    def run(self, task: Any) -> Any:
        return self.handle(task)

    def close(self) -> None:
        close = getattr(self.handle, "close", None)
        if close is not None:
            close()


class _Actor:
    def __init__(self, index: int, handle: Any, ready: Any) -> None:
        self.index = index
        self.handle = handle
        self.ready = ready  # the ref that resolves once the actor is built; None once it has
        self.ref: Any = None  # the task it holds
        self.key: Hashable | None = None
        self.task: Any = None
        self.tries = 0
        self.deadline = float("inf")
        self.since = time.monotonic()

    def waited(self) -> float:
        return time.monotonic() - self.since


class RayExecutor:
    def __init__(self, address: str | None = None, num_cpus: int | None = None, **init: Any) -> None:
        try:
            import ray
        except ImportError as exc:
            raise ExecutorError("--executor ray needs Ray: pip install 'ray==2.60.0'") from exc
        self.ray = ray
        self.retried: list[Retried] = []
        self._run: _Run | None = None
        self._started = not ray.is_initialized()
        if self._started:
            options = {"include_dashboard": False, "log_to_driver": False, **init}
            if address:
                options["address"] = address
            else:  # a Ray of its own, even where a cluster runs on this machine
                options["address"] = "local"
                if num_cpus:
                    options["num_cpus"] = num_cpus
            stop = signal.getsignal(signal.SIGTERM)
            try:
                ray.init(**options)
            except (ConnectionError, RuntimeError, ValueError) as exc:
                raise ExecutorError(f"cannot join the Ray cluster at {address or 'a new local one'}: {exc}") from exc
            if stop is not None and threading.current_thread() is threading.main_thread():  # Ray's exits wordless
                signal.signal(signal.SIGTERM, stop)

    @property
    def workers(self) -> int:
        return max(1, int(self.ray.cluster_resources().get("CPU", 1)))

    def room(self, spec: WorkerSpec) -> int:
        """How many actors of ``spec`` the cluster's live nodes can hold now."""
        resources = self.ray.cluster_resources()
        counts = [int(resources.get("CPU", 0) // spec.num_cpus)] if spec.num_cpus else []
        if spec.num_gpus:
            counts.append(int(resources.get("GPU", 0) // spec.num_gpus))
        return max(0, min(counts)) if counts else 1

    def run(
        self, spec: WorkerSpec, source: Source, *, timeout_s: float | None = None, tries: int = 2
    ) -> Iterator[tuple[Hashable, Any]]:
        run = self._run = _Run(self, spec, source, timeout_s, tries)
        try:
            yield from run.loop()
        finally:
            for a in run.actors:
                with contextlib.suppress(Exception):
                    self.ray.kill(a.handle)

    def running(self) -> list[tuple[Any, Hashable]]:
        run = self._run
        return [] if run is None else [(a.handle, a.key) for a in list(run.actors) if a.ref is not None]

    def close(self) -> None:
        if self._started:
            self.ray.shutdown()


class _Run:
    """One ``run``: its actors, the tasks to give again, and how many actors the cluster has room for."""

    def __init__(self, executor: RayExecutor, spec: WorkerSpec, source: Source, timeout_s, tries: int) -> None:
        self.executor, self.ray = executor, executor.ray
        self.spec, self.source, self.timeout_s, self.tries = spec, source, timeout_s, tries
        self.remote = self.ray.remote(num_cpus=spec.num_cpus, num_gpus=spec.num_gpus, max_restarts=0)(_Host)
        self.args = self.ray.put(pack(spec.args)) if spec.shared else spec.args
        room = max(1, executor.room(spec))
        self.wanted = min(room, spec.most) if spec.most else room
        self.actors: list[_Actor] = []
        self.again: deque[tuple[Hashable, Any, int]] = deque()  # tasks whose actor died, with the tries they had

    def loop(self) -> Iterator[tuple[Hashable, Any]]:
        while not self.source.cancelled():
            self.feed()
            busy = [a for a in self.actors if a.ref is not None]
            starting = [a for a in self.actors if a.ready is not None]
            if not busy:
                if self.source.exhausted() and not self.again:
                    return
                if not self.actors or (starting and all(a.waited() > _START_S for a in starting)):
                    yield from self.abandon()
                    return
                if not starting:
                    self.source.wait(_POLL_S)
                    continue
            refs = [a.ref for a in busy] + [a.ready for a in starting]
            nearest = min((a.deadline for a in busy), default=float("inf"))
            timeout = max(0.0, min(nearest - time.monotonic(), _POLL_S))
            ready, _ = self.ray.wait(refs, num_returns=1, timeout=timeout)
            for a in list(self.actors):
                if a.ready is not None and a.ready in ready:
                    self.came_up(a)
                elif a.ref is not None and a.ref in ready:
                    yield from self.answer(a)
                elif a.ref is not None and time.monotonic() >= a.deadline:
                    key = a.key
                    self.drop(a)
                    yield key, Lost("timeout", f"no result within {self.timeout_s:g} s")

    def start(self, index: int) -> _Actor:
        handle = self.remote.remote(self.spec.make, self.args)
        return _Actor(index, handle, handle.ready.remote())

    def feed(self) -> None:
        """Starts actors up to the cluster's room while there is work; gives every idle one a task."""
        taken = {a.index for a in self.actors}
        free = [i for i in range(self.wanted) if i not in taken]
        while free and (self.again or not self.source.exhausted()):
            self.actors.append(self.start(free.pop(0)))
        for a in self.actors:
            if a.ready is not None or a.ref is not None:
                continue
            item = self.again.popleft() if self.again else first_try(self.source, a.index)
            if item is None:
                return
            a.key, a.task, a.tries = item
            a.ref = a.handle.run.remote(a.task)
            a.deadline = time.monotonic() + self.timeout_s if self.timeout_s else float("inf")

    def came_up(self, actor: _Actor) -> None:
        try:
            self.ray.get(actor.ready)
        except self.ray.exceptions.RayTaskError as exc:  # the spec's ``make`` raised: every actor would
            raise ExecutorError(f"the {self.spec.name} workers cannot start: {_first_line(exc)}") from exc
        except self.ray.exceptions.RayError:
            self.died(actor)
            return
        actor.ready = None

    def answer(self, actor: _Actor) -> Iterator[tuple[Hashable, Any]]:
        key, task, tried = actor.key, actor.task, actor.tries + 1
        try:
            result = self.ray.get(actor.ref)
        except self.ray.exceptions.RayTaskError as exc:
            actor.ref = actor.key = actor.task = None
            yield key, Lost("error", _first_line(exc), tried)
            return
        except self.ray.exceptions.RayError as exc:
            detail = f"worker died ({type(exc).__name__})"
            self.died(actor)
            if tried < self.tries:
                self.executor.retried.append(Retried(self.spec.name, key, detail))
                self.again.append((key, task, tried))
            else:
                yield key, Lost("crash", detail, tried)
            return
        actor.ref = actor.key = actor.task = None
        yield key, result

    def died(self, actor: _Actor) -> None:
        """The slot is started again where the cluster still has room for it (read after Ray notices the death)."""
        self.drop(actor)
        time.sleep(0.2)
        self.wanted = max(0, min(self.wanted, self.executor.room(self.spec)))

    def drop(self, actor: _Actor) -> None:
        with contextlib.suppress(Exception):
            self.ray.kill(actor.handle)
        self.actors.remove(actor)

    def abandon(self) -> Iterator[tuple[Hashable, Any]]:
        """No actor is left and the cluster has no room for one: every task left is lost."""
        while self.again:
            key, _, tried = self.again.popleft()
            yield key, Lost("no-workers", "no Ray worker is left to take it", tried)
        while (item := self.source.take(0)) is not None:
            yield item[0], Lost("no-workers", "no Ray worker is left to take it", 0)


def pack(value: Any) -> Any:
    """Large shared arguments (a library's graph and instances) as one pickle: Ray's own serializer (cloudpickle)
    calls back into Python for every object that is not a builtin, the standard pickler does not (rocBLAS's 51 MB
    analyser: 1.85 s against 2.2 s). A value it cannot pickle (a closure) is left to Ray. (Results are left to Ray:
    packing each TU's parse measured slower end to end.)"""
    try:
        return _Packed(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
    except (pickle.PicklingError, TypeError, AttributeError):
        return value


def unpack(value: Any) -> Any:
    return pickle.loads(value.data) if isinstance(value, _Packed) else value


def _first_line(exc: BaseException) -> str:
    cause = getattr(exc, "cause", None) or exc
    return (str(cause).strip().splitlines() or [type(cause).__name__])[-1]
