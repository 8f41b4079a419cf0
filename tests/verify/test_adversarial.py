"""Every adversarial candidate in adversarial/ is rejected with the class its header names."""

from __future__ import annotations

import pytest

from miner.verify.evaluate import Candidate
from miner.verify.tasks import load_task, task_file
from tests.verify.conftest import ADVERSARIAL, header

TRITON = sorted(ADVERSARIAL.glob("*.py"))


@pytest.mark.parametrize("path", [p for p in TRITON if header(p).get("device") != "cuda"], ids=lambda p: p.stem)
def test_adversarial_candidate_is_rejected_with_its_class_on_cpu(path, cpu_verifier):
    meta = header(path)
    verdict = cpu_verifier.verify(load_task(task_file(meta["task"])), Candidate("triton", path.read_text()))
    assert verdict.outcome.value == meta["expect"], verdict.reason
    assert not verdict.correct
    if verdict.outcome.value in ("runtime", "timeout"):
        assert verdict.sandbox["device_healthy_after"] is True


@pytest.mark.gpu
@pytest.mark.parametrize("path", TRITON, ids=lambda p: p.stem)
def test_adversarial_candidate_is_rejected_with_its_class_on_gpu(path, gpu_verifier):
    meta = header(path)
    verdict = gpu_verifier.verify(load_task(task_file(meta["task"])), Candidate("triton", path.read_text()))
    assert verdict.outcome.value == meta["expect"], verdict.reason


def test_an_input_independent_output_that_a_case_let_through_by_chance_is_a_mismatch():
    """Seed 1283 draws a 1x1 case whose a + b is within tolerance of zero, so writing zeros passes its first inputs:
    that pass is no evidence, and the later failure on new inputs is a plain mismatch, not a cached output."""
    from miner.verify.evaluate import Verifier, VerifyOptions

    zeros = ADVERSARIAL / "zeros.py"
    with Verifier(VerifyOptions.for_device("cpu", first_call_timeout_s=6, call_timeout_s=6, seed=1283)) as v:
        verdict = v.verify(load_task(task_file("vector_add")), Candidate("triton", zeros.read_text()))
    chance = next(c for c in verdict.cases if c.label == "shape=1x1,dtype=float32")
    assert "zeros" in chance.weak  # the premise: the zeros canary passes this case's first inputs
    assert verdict.outcome.value == "mismatch", verdict.reason
