"""Where verification runs: in this process's Verifier (one device), or on Ray, one evaluator actor per GPU.
The loop awaits ``evaluate(task, candidate)`` and knows neither."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from pathlib import Path
from typing import Any

from miner.verify.errors import VerifyEnvironmentError
from miner.verify.evaluate import Candidate, Verifier, VerifyOptions
from miner.verify.models import Verdict
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
    """``actors`` evaluator actors (one per GPU when ``options.device == 'cuda'``), fed from a queue of idle ones."""

    def __init__(self, options: VerifyOptions, actors: int | None = None, **ray_init: Any) -> None:
        try:
            import ray
        except ImportError as exc:
            raise VerifyEnvironmentError("Ray is not installed: pip install ray") from exc
        self.ray = ray
        if not ray.is_initialized():
            ray.init(**{"include_dashboard": False, "log_to_driver": False, **ray_init})
        gpus = int(ray.cluster_resources().get("GPU", 0))
        per_gpu = options.device == "cuda"
        count = actors or (gpus if per_gpu else 1)
        if per_gpu and count > gpus:
            raise VerifyEnvironmentError(f"asked for {count} GPU evaluators, Ray sees {gpus} GPU(s)")
        remote = ray.remote(num_gpus=1 if per_gpu else 0, num_cpus=1)(_Actor)
        fields = {f: getattr(options, f) for f in options.__dataclass_fields__}
        self.actors = [remote.remote(fields) for _ in range(count)]
        self._idle: asyncio.Queue | None = None

    async def __call__(self, task: Task, candidate: Candidate) -> Verdict:
        if self._idle is None:
            self._idle = asyncio.Queue()
            for a in self.actors:
                self._idle.put_nowait(a)
        actor = await self._idle.get()
        try:
            raw = await actor.verify.remote(task.path, candidate.backend, candidate.source, candidate.filename)
        finally:
            self._idle.put_nowait(actor)
        return Verdict.model_validate_json(raw)

    def close(self) -> None:
        for a in self.actors:
            with contextlib.suppress(Exception):  # an actor that died has nothing left to close
                self.ray.get(a.close.remote(), timeout=30)
        self.ray.shutdown()
