"""Our hand-written solutions pass the verifier: on the CPU interpreter (small cases), and on a GPU when present."""

from __future__ import annotations

import pytest

from miner.verify.evaluate import Candidate
from miner.verify.models import Outcome
from miner.verify.tasks import find_tasks, load_task, task_file
from tests.verify.conftest import SOLUTIONS

CPU_SAMPLE = ["softmax", "gemm", "iamax", "rot"]


@pytest.mark.parametrize("name", CPU_SAMPLE)
def test_triton_solution_passes_on_the_cpu_interpreter(name, cpu_verifier):
    task = load_task(task_file(name))
    verdict = cpu_verifier.verify(task, Candidate("triton", (SOLUTIONS / "triton" / f"{name}.py").read_text()))
    assert verdict.outcome == Outcome.PASSED, verdict.reason
    assert verdict.correct and verdict.compiled
    assert len(verdict.cases) >= 4 and all(c.outcome == Outcome.PASSED for c in verdict.cases)
    assert any(not c.shown for c in verdict.cases), "held-back cases were not run"
    assert len(verdict.seeds) == 2 * (len(verdict.cases) + len(verdict.skipped))
    assert verdict.gpu is None


def test_a_broken_solution_fails_so_the_passing_test_can_fail(cpu_verifier):
    source = (SOLUTIONS / "triton" / "axpy.py").read_text().replace("alpha * a + b", "alpha * a - b")
    verdict = cpu_verifier.verify(load_task(task_file("axpy")), Candidate("triton", source))
    assert verdict.outcome == Outcome.MISMATCH
    assert verdict.cases[-1].mismatches or any(c.mismatches for c in verdict.cases)


def test_a_syntax_error_is_a_compile_failure_with_its_line(cpu_verifier):
    source = "import triton\n\ndef launch(a, b, out):\n    return a +* b\n"
    verdict = cpu_verifier.verify(load_task(task_file("vector_add")), Candidate("triton", source))
    assert verdict.outcome == Outcome.COMPILE
    assert verdict.cases[0].lines == [4]


def test_a_missing_launch_is_a_load_failure(cpu_verifier):
    verdict = cpu_verifier.verify(load_task(task_file("vector_add")), Candidate("triton", "x = 1\n"))
    assert verdict.outcome == Outcome.LOAD and "launch" in verdict.reason


@pytest.mark.gpu
@pytest.mark.parametrize("path", find_tasks("all"), ids=lambda p: p.stem)
def test_triton_solution_passes_on_gpu_with_speedup(path, gpu_verifier):
    task = load_task(path)
    verdict = gpu_verifier.verify(task, Candidate("triton", (SOLUTIONS / "triton" / f"{path.stem}.py").read_text()))
    assert verdict.outcome == Outcome.PASSED, verdict.reason
    assert verdict.speedup is not None
    assert verdict.gpu and verdict.gpu.startswith("GPU-"), "the GPU that ran it is not recorded"
