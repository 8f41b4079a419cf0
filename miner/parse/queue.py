"""One queue for every parse job of a run: of one checkout, or of every revision of a batch, through one executor.

Jobs are kept in path order (a path's jobs in its revisions' order next to each other). Each worker takes a run of
neighbouring jobs from where its last one was: neighbouring TUs (``rocblas_axpy.cpp``, ``rocblas_axpy_batched.cpp``)
instantiate the same templates and meet in the worker's memo. A worker whose run reaches another's starts again in
the middle of the largest run left. A path whose job of an earlier revision is running waits for it; once that one
is stored, the cache may answer for the later revision (identical files, identical flags), and no worker parses it.

The driver thread alone talks to the executor and stores results in the cache; each caller of ``run`` (one thread
per revision in a batch) reads its own results."""

from __future__ import annotations

import bisect
import hashlib
import pickle
import queue
import threading
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from miner.collector import collect_rarely
from miner.errors import MinerError
from miner.executors import Executor, Lost, WorkerSpec
from miner.models import ParsedTU, ParseFailed, ParseResult
from miner.parse.cache import Head
from miner.parse.worker import ParseJob, PchJob, TUParser, WorkerConfig

Job = ParseJob | PchJob
_DONE = object()


class ParseWorker:
    """A worker's parsers, one per configuration (each revision of a batch has its own, with its own memo)."""

    def __init__(self, memory_mb: int = 0) -> None:
        collect_rarely()
        if memory_mb:
            import resource

            limit = memory_mb * 1024 * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        self.parsers: dict[str, TUParser] = {}

    def __call__(self, task: tuple[str, WorkerConfig, Job]) -> ParseResult:
        name, config, job = task
        parser = self.parsers.get(name)
        if parser is None:
            parser = self.parsers[name] = TUParser(config)
        return parser(job)


@dataclass
class _Stream:
    """One caller's jobs: where its results go, and how they are prepared, rechecked and stored."""

    order: int
    config: WorkerConfig
    config_name: str
    prepare: Callable[[ParseJob], ParseJob] | None
    recheck: Callable[[str], Head | None] | None
    keep: Callable[[ParsedTU], None] | None
    results: queue.Queue = field(default_factory=queue.Queue)
    left: int = 0


@dataclass(order=True, frozen=True)
class _Entry:
    rel: str
    order: int
    seq: int


class ParseQueue:
    def __init__(self, executor: Executor, *, memory_mb: int = 0, tries: int = 2) -> None:
        self.executor = executor
        self.timeout_s = 0.0  # the longest any library's profile allows a TU (``allow``)
        self.tries = tries
        self.spec = WorkerSpec("parse", ParseWorker, (memory_mb,))
        self._lock = threading.Condition()
        self._pending: list[_Entry] = []
        self._jobs: dict[_Entry, tuple[_Stream, Job]] = {}
        self._running: dict[str, int] = {}  # path -> its jobs running now
        self._finished: dict[str, set[int]] = {}  # path -> the callers' orders whose job of it a worker parsed
        self._cursor: dict[int, _Entry] = {}
        self._seq = 0
        self._closing = False
        self._closed = False  # by its owner: the driver stops once the jobs queued are done
        self._abandoned = False
        self._driver: threading.Thread | None = None
        self._error: BaseException | None = None

    # ------------------------------------------------------------------ callers

    def run(
        self,
        config: WorkerConfig,
        jobs: Iterable[Job],
        prepare: Callable[[ParseJob], ParseJob] | None = None,
        *,
        order: int = 0,
        recheck: Callable[[str], Head | None] | None = None,
        keep: Callable[[ParsedTU], None] | None = None,
    ) -> Iterator[ParseResult | tuple[str, Head]]:
        """The jobs' results in completion order. ``prepare`` completes a job as it is sent; ``recheck`` asks the
        cache again for a path another revision's job just parsed (``(path, Head)`` then stands for the result);
        ``keep`` takes in each parse (stores it, learns from it) in the driver, before any later job is prepared.
        ``order`` places this caller's jobs among others' of the same path."""
        jobs = list(jobs)
        if not jobs:
            return
        stream = _Stream(order, config, _config_name(config), prepare, recheck, keep, left=len(jobs))
        with self._lock:
            reopened = self._closed  # a parse asked for after its owner closed the queue (a cache hit gone since)
            self._enqueue(stream, jobs)
            self._start()
            self._lock.notify_all()
        while stream.left:
            item = stream.results.get()
            if item is _DONE:
                if isinstance(self._error, MinerError):
                    raise self._error
                raise RuntimeError("the parse queue stopped") from self._error
            stream.left -= 1
            yield item
        if reopened:
            self.close()

    def _enqueue(self, stream: _Stream, jobs: list[Job]) -> None:
        for job in jobs:
            entry = _Entry(_sort_key(job), stream.order, self._seq)
            self._seq += 1
            bisect.insort(self._pending, entry)
            self._jobs[entry] = (stream, job)

    def allow(self, timeout_s: float) -> None:
        """A library's parse deadline; the queue keeps the longest (read when its workers start)."""
        self.timeout_s = max(self.timeout_s, timeout_s)

    def close(self, abandon: bool = False) -> None:
        """Waits for the jobs queued; with ``abandon`` (an interrupted run), stops the workers now."""
        with self._lock:
            self._closing = self._closed = True
            self._abandoned = self._abandoned or abandon
            self._lock.notify_all()
        if self._driver is not None:
            self._driver.join()
            self._driver = None

    def __enter__(self) -> ParseQueue:
        return self

    def __exit__(self, kind: type | None, *exc: object) -> None:
        self.close(abandon=kind is not None)

    # ------------------------------------------------------------------ the driver

    def _start(self) -> None:
        if self._driver is None:
            self._closing = False
            self._driver = threading.Thread(target=self._drive, name="parse-queue", daemon=True)
            self._driver.start()

    def _drive(self) -> None:
        try:
            run = self.executor.run(self.spec, self, timeout_s=self.timeout_s or None, tries=self.tries)
            for entry, result in run:
                self._deliver(entry, result)
        except BaseException as exc:  # noqa: BLE001 - every caller waiting on a result is told
            self._error = exc
            self._stop_callers()
        if self._abandoned:
            self._stop_callers()

    def _stop_callers(self) -> None:
        with self._lock:
            streams = {id(s): s for s, _ in self._jobs.values()}
        for s in streams.values():
            s.results.put(_DONE)

    def _deliver(self, entry: _Entry, result: Any) -> None:
        with self._lock:
            stream, job = self._jobs.pop(entry)
            self._running[entry.rel] -= 1
            if isinstance(result, Lost):
                result = ParseFailed(job.rel, _FAILED_AS.get(result.reason, result.reason), _lost_detail(result))
            elif isinstance(result, ParsedTU):
                self._finished.setdefault(entry.rel, set()).add(entry.order)
        if isinstance(result, ParsedTU) and stream.keep is not None:
            stream.keep(result)
        stream.results.put(result)

    # ------------------------------------------------------------------ the executor's source

    def take(self, worker: int) -> tuple[_Entry, Any] | None:
        with self._lock:
            while not self._abandoned and (entry := self._next(worker)) is not None:
                stream, job = self._jobs[entry]
                self._pending.remove(entry)
                self._cursor[worker] = entry
                if stream.recheck is not None and isinstance(job, ParseJob) and self._parsed_elsewhere(entry):
                    head = stream.recheck(entry.rel)
                    if head is not None:
                        del self._jobs[entry]
                        stream.results.put((job.rel, head))
                        continue
                if stream.prepare is not None and isinstance(job, ParseJob):
                    job = stream.prepare(job)
                self._running[entry.rel] = self._running.get(entry.rel, 0) + 1
                return entry, (stream.config_name, stream.config, job)
            return None

    def exhausted(self) -> bool:
        with self._lock:
            return self._abandoned or (self._closing and not self._pending)

    def cancelled(self) -> bool:
        return self._abandoned

    def wait(self, timeout: float) -> None:
        with self._lock:
            if not self._pending and not self._closing:
                self._lock.wait(timeout)

    def _parsed_elsewhere(self, entry: _Entry) -> bool:
        return bool(self._finished.get(entry.rel, set()) - {entry.order})

    def _next(self, worker: int) -> _Entry | None:
        """The job after this worker's last one if it still owns it, else the start of a new run: the first job
        of a run nobody owns, or the middle of the largest run another worker owns. A path that is running for
        another revision is passed over until it is done."""
        pending = self._pending
        if not pending:
            return None
        owners = self._owners()
        cursor = self._cursor.get(worker)
        if cursor is not None:
            at = bisect.bisect_right(pending, cursor)
            if at < len(pending) and owners[at] == worker and not self._running.get(pending[at].rel):
                return pending[at]
        runs: list[tuple[int, int, int | None]] = []  # (start, end, owner)
        for at, owner in enumerate(owners):
            if runs and runs[-1][2] == owner and runs[-1][1] == at:
                runs[-1] = (runs[-1][0], at + 1, owner)
            else:
                runs.append((at, at + 1, owner))
        for start, end, owner in sorted(runs, key=lambda r: (r[0] - r[1], r[0])):
            first = start if owner is None else (start + end) // 2
            for at in range(first, end):
                if not self._running.get(pending[at].rel):
                    return pending[at]
        return None

    def _owners(self) -> list[int | None]:
        """Each pending job's owner: the worker whose last job is the nearest before it."""
        marks = sorted((entry, worker) for worker, entry in self._cursor.items())
        owners: list[int | None] = []
        i, owner = 0, None
        for entry in self._pending:
            while i < len(marks) and marks[i][0] < entry:
                owner = marks[i][1]
                i += 1
            owners.append(owner)
        return owners


_FAILED_AS = {"error": "crash", "no-workers": "crash"}  # a worker that raised, or none left: the TU's parse crashed


def _sort_key(job: Job) -> str:
    """Its path; a precompiled prefix's is named by its output too (every revision has its ``<pch:lp64>``)."""
    return f"{job.rel}\0{job.output}" if isinstance(job, PchJob) else job.rel


def _config_name(config: WorkerConfig) -> str:
    return hashlib.sha256(pickle.dumps(config)).hexdigest()[:16]


def _lost_detail(lost: Lost) -> str:
    if lost.reason == "crash" and lost.tries > 1:
        return f"{lost.detail}; {lost.tries} workers died on it"
    return lost.detail
