"""Where verification runs: on an executor's workers (``miner.executors``): a local worker process with its
Verifier on this machine's device, or Ray actors, one per GPU. The loop awaits ``evaluate(task, candidate)`` and
knows neither."""

from __future__ import annotations

import asyncio
import itertools
import threading
from pathlib import Path
from typing import Any

from miner.executors import Executor, Inbox, Lost, WorkerSpec
from miner.executors.ray_actors import RayExecutor
from miner.verify import VERIFIER_VERSION
from miner.verify.errors import VerifyEnvironmentError
from miner.verify.evaluate import Candidate, Verifier, VerifyOptions
from miner.verify.models import Outcome, Verdict
from miner.verify.tasks import Task, load_task


class VerifyWorker:
    """A worker's Verifier, on the device its executor gave it (Ray: the GPU it reserved; locally: this machine's)."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.verifier = Verifier(VerifyOptions(**options))

    def __call__(self, request: tuple[str, str, str, str]) -> str:
        task_path, backend, source, filename = request
        verdict = self.verifier.verify(load_task(Path(task_path)), Candidate(backend, source, filename))
        return verdict.model_dump_json()

    def close(self) -> None:
        self.verifier.close()


class WorkerEvaluator:
    """Verifications on an executor's workers (``miner.executors``): Ray actors, one per GPU when
    ``options.device == 'cuda'`` (else ``workers``), or local worker processes.

    A worker that dies mid-verification is replaced and its candidate verified again by the next free worker:
    verification records nothing, so nothing is lost or counted twice. A candidate during which ``retries + 1``
    workers die gets a ``runtime`` verdict."""

    def __init__(
        self, options: VerifyOptions, executor: Executor, workers: int | None = None, retries: int = 2
    ) -> None:
        per_gpu = options.device == "cuda"
        room = executor.workers
        if per_gpu and isinstance(executor, RayExecutor):
            room = int(executor.ray.cluster_resources().get("GPU", 0))
        count = workers or (room if per_gpu else 1)
        if per_gpu and count > room:
            raise VerifyEnvironmentError(f"asked for {count} GPU evaluators, the executor has {room} GPU(s)")
        fields = {f: getattr(options, f) for f in options.__dataclass_fields__}
        # the workers may share one host: each worker's memory share counts them all (a cluster only gets less)
        fields["concurrent_verifiers"] = max(options.concurrent_verifiers, count)
        self.executor = executor
        self.spec = WorkerSpec(
            "verify", VerifyWorker, (fields,), num_gpus=1 if per_gpu else 0, most=count, daemon=False
        )  # its Verifier starts sandbox processes, which a daemon may not
        self.count = count
        self.retries = retries
        self._inbox = Inbox()
        self._waiting: dict[int, tuple[asyncio.AbstractEventLoop, asyncio.Future, Task, Candidate]] = {}
        self._ids = itertools.count()
        self._driver: threading.Thread | None = None

    @property
    def busy(self) -> dict[Any, str]:
        """Worker → the hash of the candidate it is verifying now (to kill one mid-run in tests and benchmarks)."""
        waiting = dict(self._waiting)
        return {handle: waiting[key][3].hash for handle, key in self.executor.running() if key in waiting}

    @property
    def replaced(self) -> int:
        """Workers that died and were replaced during this evaluator's life."""
        return sum(1 for r in self.executor.retried if r.spec == "verify")

    async def __call__(self, task: Task, candidate: Candidate) -> Verdict:
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        key = next(self._ids)
        self._waiting[key] = (loop, future, task, candidate)
        if self._driver is None:
            self._driver = threading.Thread(target=self._drive, name="verify-executor", daemon=True)
            self._driver.start()
        self._inbox.put(key, (task.path, candidate.backend, candidate.source, candidate.filename))
        return await future

    def _drive(self) -> None:
        try:
            for key, raw in self.executor.run(self.spec, self._inbox, tries=self.retries + 1):
                loop, future, task, candidate = self._waiting.pop(key)
                if isinstance(raw, Lost):
                    verdict = _evaluator_died(task, candidate, raw)
                else:
                    verdict = Verdict.model_validate_json(raw)
                loop.call_soon_threadsafe(_settle, future, verdict)
        except BaseException as exc:  # noqa: BLE001 - every candidate waiting is told
            for loop, future, _, _ in self._waiting.values():
                loop.call_soon_threadsafe(_fail, future, exc)

    def close(self) -> None:
        self._inbox.close()
        if self._driver is not None:
            self._driver.join(timeout=60)
        self.executor.close()


def _settle(future: asyncio.Future, verdict: Verdict) -> None:
    if not future.done():
        future.set_result(verdict)


def _fail(future: asyncio.Future, exc: BaseException) -> None:
    if not future.done():
        future.set_exception(exc)


def _evaluator_died(task: Task, candidate: Candidate, lost: Lost) -> Verdict:
    return Verdict(
        task=task.name, task_hash=task.hash, backend=candidate.backend, candidate_hash=candidate.hash,
        verifier_version=VERIFIER_VERSION, outcome=Outcome.RUNTIME, compiled=False, correct=False, executed=False,
        platform="ray", reason=f"{lost.tries} evaluator workers died while verifying this candidate ({lost.detail})",
    )  # fmt: skip
