"""Executors: the same verification in this process or in Ray evaluator actors (CPU-only actors here)."""

from __future__ import annotations

import asyncio

import pytest

from miner.verify.evaluate import Candidate, VerifyOptions
from miner.verify.executors import RayEvaluator
from miner.verify.models import Outcome
from miner.verify.tasks import load_task, task_file
from tests.verify.conftest import ADVERSARIAL, SOLUTIONS


def test_ray_actors_verify_a_queue_of_candidates():
    pytest.importorskip("ray", reason="ray is not installed")
    options = VerifyOptions.for_device("cpu", first_call_timeout_s=30, call_timeout_s=10)
    evaluator = RayEvaluator(options, actors=2, num_cpus=2)
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
