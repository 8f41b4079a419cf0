"""Workers as Ray actors, on a cluster (``ray start --head`` on one machine, ``ray start --address`` on the others)
or on a local one this process starts. Results come back through Ray's object store; the driver alone writes.

An actor gets a task only once it is up, so a replacement that cannot be placed (its node died and the cluster has
no room left) holds nothing. A task whose actor or node died goes to another actor, up to ``tries`` in all. The
cluster's size is read again after each death: a slot whose CPUs are gone is dropped rather than replaced.

A spec whose arguments are ``shared`` (a whole library's analyser, built here) is worked on this node by processes
forked from this one, as the local executor does, holding this node's CPUs through a placement group; only the
actors on other nodes get the arguments, through the object store. Pickling rocBLAS's analyser and unpickling it in
each actor took longer than the analysis it was sent for, on two CPUs."""

from __future__ import annotations

import contextlib
import pickle
import queue
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable, Iterator
from typing import Any

from miner.executors.base import ExecutorError, Lost, Retried, Source, WorkerSpec, first_try
from miner.executors.local import LocalExecutor

_POLL_S = 0.5
_START_S = 120.0  # an actor not up by then, with nothing else running, will not come up
_RESERVE_S = 10.0  # this node's CPUs not free for forked workers by then: the actors take the whole run


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
        self._local: LocalExecutor | None = None  # the forked workers of a run of a shared spec
        self._stopping: threading.Thread | None = None
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

    def room(self, spec: WorkerSpec, reserved: float = 0) -> int:
        """How many actors of ``spec`` the cluster's live nodes can hold now, ``reserved`` CPUs aside."""
        resources = self.ray.cluster_resources()
        counts = [int((resources.get("CPU", 0) - reserved) // spec.num_cpus)] if spec.num_cpus else []
        if spec.num_gpus:
            counts.append(int(resources.get("GPU", 0) // spec.num_gpus))
        return max(0, min(counts)) if counts else 1

    def run(
        self, spec: WorkerSpec, source: Source, *, timeout_s: float | None = None, tries: int = 2
    ) -> Iterator[tuple[Hashable, Any]]:
        group = None
        try:
            group, forks = self._reserve_here(spec)
            if group is None:
                yield from self._on_actors(spec, source, timeout_s, tries)
                return
            local = self._local = LocalExecutor(forks)
            local.retried = self.retried
            most = spec.most - forks if spec.most else 0
            if self.room(spec, forks * spec.num_cpus) <= 0 or (spec.most and most <= 0):
                yield from local.run(spec, source, timeout_s=timeout_s, tries=tries)
                return
            shared = _Shared(source)

            def on_actors() -> Iterator[tuple[Hashable, Any]]:
                try:
                    yield from self._on_actors(spec, shared, timeout_s, tries, forks, forks * spec.num_cpus, most)
                finally:
                    shared.done_with_actors()

            yield from _merged(
                [lambda: local.run(spec, shared.for_forks(), timeout_s=timeout_s, tries=tries), on_actors], shared
            )
        finally:
            self._local = None
            if group is not None:
                with contextlib.suppress(Exception):
                    self.ray.util.remove_placement_group(group)

    def _on_actors(
        self, spec, source, timeout_s, tries, first: int = 0, reserved: float = 0, most: int = 0
    ) -> Iterator[tuple[Hashable, Any]]:
        run = self._run = _Run(self, spec, source, timeout_s, tries, first, reserved, most)
        try:
            yield from run.loop()
        finally:
            for a in run.actors:
                with contextlib.suppress(Exception):
                    self.ray.kill(a.handle)

    def _reserve_here(self, spec: WorkerSpec) -> tuple[Any, int]:
        """A placement group holding this node's CPUs for workers forked from this process, and how many: for a
        spec with shared arguments, where this node has CPUs in the cluster and they come free in time (else
        ``(None, 0)``: actors take the whole run)."""
        if not spec.shared or spec.num_gpus or not spec.num_cpus:
            return None, 0
        from ray.util.placement_group import placement_group

        node = self.ray.get_runtime_context().get_node_id()
        cpus = next((n["Resources"].get("CPU", 0) for n in self.ray.nodes() if n["NodeID"] == node and n["Alive"]), 0)
        forks = int(cpus // spec.num_cpus)
        if spec.most:
            forks = min(forks, spec.most)
        if forks <= 0:
            return None, 0
        group = placement_group(
            [{"CPU": forks * spec.num_cpus}], strategy="STRICT_PACK", bundle_label_selector=[{"ray.io/node-id": node}]
        )
        ready = False
        try:
            ready = group.wait(_RESERVE_S)
        finally:
            if not ready:
                with contextlib.suppress(Exception):
                    self.ray.util.remove_placement_group(group)
        return (group, forks) if ready else (None, 0)

    def running(self) -> list[tuple[Any, Hashable]]:
        run, local = self._run, self._local
        forked = local.running() if local is not None else []
        return forked + ([] if run is None else [(a.handle, a.key) for a in list(run.actors) if a.ref is not None])

    def release(self) -> None:
        """No more runs: a Ray this executor started stops in the background (its processes take a second or two to
        end gracefully) while the caller goes on; ``close`` waits for it."""
        if self._started and self._stopping is None:
            self._stopping = threading.Thread(target=self.ray.shutdown, name="ray-shutdown")
            self._stopping.start()

    def close(self) -> None:
        if self._stopping is not None:
            self._stopping.join()
        elif self._started:
            self.ray.shutdown()
        self._started = False


class _Run:
    """One ``run``: its actors, the tasks to give again, and how many actors the cluster has room for."""

    def __init__(
        self, executor: RayExecutor, spec: WorkerSpec, source: Source, timeout_s, tries: int,
        first: int = 0, reserved: float = 0, most: int = 0,
    ) -> None:  # fmt: skip
        """``first``, ``reserved``: with workers forked on this node, the number of the first actor and the CPUs
        the forked ones hold; ``most`` then replaces the spec's."""
        self.executor, self.ray = executor, executor.ray
        self.spec, self.source, self.timeout_s, self.tries = spec, source, timeout_s, tries
        self.first, self.reserved = first, reserved
        self.remote = self.ray.remote(num_cpus=spec.num_cpus, num_gpus=spec.num_gpus, max_restarts=0)(_Host)
        self.args = self.ray.put(pack(spec.args)) if spec.shared else spec.args
        room = executor.room(spec, reserved) if first else max(1, executor.room(spec))
        most = most or spec.most
        self.wanted = min(room, most) if most else room
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
        free = [i for i in range(self.first, self.first + self.wanted) if i not in taken]
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
                if isinstance(self.source, _Shared):  # the forked workers take it now, not a replacement to come
                    self.source.give_back(key, task, tried)
                else:
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
        self.wanted = max(0, min(self.wanted, self.executor.room(self.spec, self.reserved)))

    def drop(self, actor: _Actor) -> None:
        with contextlib.suppress(Exception):
            self.ray.kill(actor.handle)
        self.actors.remove(actor)

    def abandon(self) -> Iterator[tuple[Hashable, Any]]:
        """No actor is left and the cluster has no room for one: every task left is lost, unless workers forked here
        share the source (they take what is left)."""
        if isinstance(self.source, _Shared):
            return
        while self.again:
            key, _, tried = self.again.popleft()
            yield key, Lost("no-workers", "no Ray worker is left to take it", tried)
        while (item := self.source.take(0)) is not None:
            yield item[0], Lost("no-workers", "no Ray worker is left to take it", 0)


class _Shared:
    """One source that forked workers and actors take from at once, under a lock. A task whose actor died is handed
    back to the forked workers with the tries it had; so their view of the source (``for_forks``) is exhausted only
    once the actors are done too, while the actors' view never holds a handed-back task (a replacement actor may
    never find a node). Both stop once the reader of their results has stopped."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.back: deque[tuple[Hashable, Any, int]] = deque()
        self.stopped = False
        self.actors_done = False
        self._changed = threading.Condition()

    def take(self, worker: int) -> tuple[Hashable, Any] | None:
        with self._changed:
            return self.source.take(worker)

    def give_back(self, key: Hashable, task: Any, tried: int) -> None:
        with self._changed:
            self.back.append((key, task, tried))
            self._changed.notify_all()

    def done_with_actors(self) -> None:
        with self._changed:
            self.actors_done = True
            self._changed.notify_all()

    def exhausted(self) -> bool:
        with self._changed:
            return self.source.exhausted()

    def wait(self, timeout: float) -> None:
        self.source.wait(timeout)

    def cancelled(self) -> bool:
        return self.stopped or self.source.cancelled()

    def for_forks(self) -> _ForkSide:
        return _ForkSide(self)


class _ForkSide:
    """The forked workers' view of a ``_Shared`` source."""

    def __init__(self, shared: _Shared) -> None:
        self.shared = shared

    def retry(self) -> tuple[Hashable, Any, int] | None:
        with self.shared._changed:
            return self.shared.back.popleft() if self.shared.back else None

    def take(self, worker: int) -> tuple[Hashable, Any] | None:
        return self.shared.take(worker)

    def exhausted(self) -> bool:
        shared = self.shared
        with shared._changed:
            return not shared.back and shared.actors_done and shared.source.exhausted()

    def wait(self, timeout: float) -> None:
        shared = self.shared
        with shared._changed:
            if shared.source.exhausted():  # only the actors can bring work now
                if not shared.back and not shared.actors_done:
                    shared._changed.wait(timeout)
                return
        shared.source.wait(timeout)

    def cancelled(self) -> bool:
        return self.shared.cancelled()


def _merged(runs: list[Callable[[], Iterator]], shared: _Shared) -> Iterator:
    """The items of several runs, each driven in a thread of its own, as they come; an error in one stops all."""
    out: queue.Queue = queue.Queue()

    def drive(run: Callable[[], Iterator]) -> None:
        try:
            for item in run():
                out.put((True, item))
        except BaseException as exc:  # raised again in the reader's thread
            out.put((False, exc))
        finally:
            out.put((False, None))

    threads = [threading.Thread(target=drive, args=(run,), daemon=True) for run in runs]
    for t in threads:
        t.start()
    try:
        running = len(threads)
        while running:
            ok, value = out.get()
            if ok:
                yield value
            elif value is None:
                running -= 1
            else:
                raise value
    finally:
        shared.stopped = True
        for t in threads:
            t.join()


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
