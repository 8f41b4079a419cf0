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
