"""Executors: the same verification in a local worker process or in Ray evaluator actors (CPU-only here)."""

from __future__ import annotations

import asyncio
import signal

import pytest

from miner.executors.ray_actors import RayExecutor
from miner.verify.evaluate import Candidate, VerifyOptions
from miner.verify.executors import WorkerEvaluator
from miner.verify.models import Outcome
from miner.verify.tasks import load_task, task_file
from tests.verify.conftest import ADVERSARIAL, SOLUTIONS

ray = pytest.importorskip("ray")  # the verify extra installs it; a machine without it skips these


def test_ray_actors_verify_a_queue_of_candidates():
    options = VerifyOptions.for_device("cpu", first_call_timeout_s=30, call_timeout_s=10)
    before = signal.getsignal(signal.SIGTERM)
    evaluator = WorkerEvaluator(options, RayExecutor(num_cpus=2), workers=2)
    assert signal.getsignal(signal.SIGTERM) is before  # the CLI's SIGTERM handling, not Ray's
    try:
        task = load_task(task_file("scal"))
        good = Candidate("triton", (SOLUTIONS / "triton" / "scal.py").read_text())
        bad = Candidate(
            "triton",
            (ADVERSARIAL / "segfaults.py")
            .read_text()
            .replace("a: torch.Tensor, b: torch.Tensor, out: torch.Tensor", "*args"),
        )

        async def go():
            return await asyncio.gather(evaluator(task, good), evaluator(task, bad), evaluator(task, good))

        verdicts = asyncio.run(go())
    finally:
        evaluator.close()
    assert [v.outcome for v in verdicts] == [Outcome.PASSED, Outcome.RUNTIME, Outcome.PASSED]


def test_an_actor_killed_mid_run_is_replaced_and_its_candidate_verified_again():
    options = VerifyOptions.for_device("cpu", first_call_timeout_s=30, call_timeout_s=10)
    evaluator = WorkerEvaluator(options, RayExecutor(num_cpus=3), workers=2)
    task = load_task(task_file("scal"))
    candidates = [
        Candidate("triton", (SOLUTIONS / "triton" / "scal.py").read_text() + f"\n# copy {i}\n") for i in range(4)
    ]
    killed: list[str] = []

    async def kill_one_busy_actor():
        while not evaluator.busy:
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)
        actor, candidate_hash = next(iter(evaluator.busy.items()))
        ray.kill(actor, no_restart=True)
        killed.append(candidate_hash)

    async def go():
        killer = asyncio.create_task(kill_one_busy_actor())
        verdicts = await asyncio.gather(*(evaluator(task, c) for c in candidates))
        await killer
        return verdicts

    try:
        verdicts = asyncio.run(go())
    finally:
        evaluator.close()
    assert killed and evaluator.replaced == 1
    assert [v.outcome for v in verdicts] == [Outcome.PASSED] * 4
    assert sorted(v.candidate_hash for v in verdicts) == sorted(c.hash for c in candidates)
