"""Where verification runs: in this process's Verifier (one device), or on Ray, one evaluator actor per GPU.
The loop awaits ``evaluate(task, candidate)`` and knows neither."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import threading
from pathlib import Path
from typing import Any

from miner.verify import VERIFIER_VERSION
from miner.verify.errors import VerifyEnvironmentError
from miner.verify.evaluate import Candidate, Verifier, VerifyOptions
from miner.verify.models import Outcome, Verdict
from miner.verify.tasks import Task, load_task


class LocalEvaluator:
    """One Verifier on this machine's device; verifications run one at a time, off the event loop."""

    def __init__(self, options: VerifyOptions) -> None:
        self.verifier = Verifier(options)
        self._lock = threading.Lock()

    async def __call__(self, task: Task, candidate: Candidate) -> Verdict:
        return await asyncio.to_thread(self._verify, task, candidate)

    def _verify(self, task: Task, candidate: Candidate) -> Verdict:
        with self._lock:
            return self.verifier.verify(task, candidate)

    def close(self) -> None:
        self.verifier.close()


class _Actor:
    """Body of a Ray evaluator actor: a Verifier of its own on the GPU Ray gave it (or the CPU)."""

    def __init__(self, options: dict[str, Any]) -> None:
        self.verifier = Verifier(VerifyOptions(**options))

    def verify(self, task_path: str, backend: str, source: str, filename: str) -> str:
        verdict = self.verifier.verify(load_task(Path(task_path)), Candidate(backend, source, filename))
        return verdict.model_dump_json()

    def close(self) -> None:
        self.verifier.close()


class RayEvaluator:
    """``actors`` evaluator actors (one per GPU when ``options.device == 'cuda'``), fed from a queue of idle ones.

    An actor that dies mid-verification is replaced by a fresh one (Ray places it on the resources the dead one
    freed) and its candidate is verified again on the next idle actor: verification records nothing, so nothing is
    lost or counted twice. A candidate during which ``retries + 1`` actors die gets a ``runtime`` verdict."""

    def __init__(self, options: VerifyOptions, actors: int | None = None, retries: int = 2, **ray_init: Any) -> None:
        try:
            import ray
        except ImportError as exc:
            raise VerifyEnvironmentError("Ray is not installed: pip install ray") from exc
        self.ray = ray
        if not ray.is_initialized():
            stop = signal.getsignal(signal.SIGTERM)
            ray.init(**{"include_dashboard": False, "log_to_driver": False, **ray_init})
            if stop is not None and threading.current_thread() is threading.main_thread():  # Ray's exits wordless
                signal.signal(signal.SIGTERM, stop)
        gpus = int(ray.cluster_resources().get("GPU", 0))
        per_gpu = options.device == "cuda"
        count = actors or (gpus if per_gpu else 1)
        if per_gpu and count > gpus:
            raise VerifyEnvironmentError(f"asked for {count} GPU evaluators, Ray sees {gpus} GPU(s)")
        self._remote = ray.remote(num_gpus=1 if per_gpu else 0, num_cpus=1)(_Actor)
        self._fields = {f: getattr(options, f) for f in options.__dataclass_fields__}
        # the actors may share one host: each worker's memory share counts them all (a cluster only gets less)
        self._fields["concurrent_verifiers"] = max(options.concurrent_verifiers, count)
        self.actors = [self._remote.remote(self._fields) for _ in range(count)]
        self.retries = retries
        self.replaced = 0
        """Actors that died and were replaced during this evaluator's life."""
        self.busy: dict[Any, str] = {}
        """Actor → the candidate hash it is verifying now (to kill one mid-run in tests and benchmarks)."""
        self._idle: asyncio.Queue | None = None

    async def __call__(self, task: Task, candidate: Candidate) -> Verdict:
        if self._idle is None:
            self._idle = asyncio.Queue()
            for a in self.actors:
                self._idle.put_nowait(a)
        deaths: list[str] = []
        while len(deaths) <= self.retries:
            actor = await self._idle.get()
            self.busy[actor] = candidate.hash
            try:
                raw = await actor.verify.remote(task.path, candidate.backend, candidate.source, candidate.filename)
            except self.ray.exceptions.RayActorError as exc:
                deaths.append(type(exc).__name__)
                self._idle.put_nowait(self._replace(actor))
                continue
            finally:
                self.busy.pop(actor, None)
            self._idle.put_nowait(actor)
            return Verdict.model_validate_json(raw)
        return _evaluator_died(task, candidate, deaths)

    def _replace(self, dead: Any) -> Any:
        with contextlib.suppress(Exception):
            self.ray.kill(dead)
        fresh = self._remote.remote(self._fields)
        self.actors = [fresh if a is dead else a for a in self.actors]
        self.replaced += 1
        return fresh

    def close(self) -> None:
        for a in self.actors:
            with contextlib.suppress(Exception):  # an actor that died has nothing left to close
                self.ray.get(a.close.remote(), timeout=30)
        self.ray.shutdown()


def _evaluator_died(task: Task, candidate: Candidate, deaths: list[str]) -> Verdict:
    return Verdict(
        task=task.name, task_hash=task.hash, backend=candidate.backend, candidate_hash=candidate.hash,
        verifier_version=VERIFIER_VERSION, outcome=Outcome.RUNTIME, compiled=False, correct=False, executed=False,
        platform="ray", reason=f"{len(deaths)} evaluator actors died while verifying this candidate ({', '.join(deaths)})",
    )  # fmt: skip
