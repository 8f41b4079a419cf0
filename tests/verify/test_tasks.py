"""The starter suite: at least 20 tasks, each with hidden and boundary cases, and references that run."""

from __future__ import annotations

import pytest
import torch

from miner.verify.checks import weak_case
from miner.verify.errors import TaskError
from miner.verify.tasks import TASKS_DIR, find_tasks, load_task

TASK_FILES = find_tasks("all")
BLAS1 = {"scal", "axpy", "dot", "nrm2", "asum", "iamax", "rot"}


def test_suite_has_the_required_tasks():
    names = {p.stem for p in TASK_FILES}
    assert len(names) >= 20
    assert names >= BLAS1
    assert {"softmax", "layernorm", "cumsum", "transpose", "gemv", "gemm", "row_sum"} <= names


@pytest.mark.parametrize("path", TASK_FILES, ids=lambda p: p.stem)
def test_task_has_ten_correctness_three_performance_and_held_back_cases(path):
    task = load_task(path)
    correctness = [c for c in task.cases if c.purpose == "correctness"]
    assert len(correctness) >= 10
    assert len([c for c in task.cases if c.purpose == "performance"]) == 3
    assert any(not c.shown for c in correctness), "no held-back case"
    assert any(min(_sizes(c.params)) <= 1 for c in correctness), "no size-0/1 boundary case"
    assert task.hash and task.source.startswith('"""')


@pytest.mark.parametrize("name", sorted(BLAS1))
def test_blas1_tasks_use_strided_increments_and_have_a_hip_signature(name):
    task = load_task(TASKS_DIR / f"{name}.py")
    assert any(c.params.get("incx", 1) != 1 for c in task.cases)
    assert task.hip_signature and task.hip_signature.split("(")[0].split()[-1] == name


@pytest.mark.parametrize("path", TASK_FILES, ids=lambda p: p.stem)
def test_references_run_on_small_cases_and_most_cases_beat_the_canary(path):
    task = load_task(path)
    strong = 0
    for case in task.cases:
        if case.purpose != "correctness" or case.params.get("dtype") == "bfloat16":
            continue
        gen = torch.Generator().manual_seed(0)
        inputs = task.make_inputs(dict(case.params), gen, "cpu")
        if max(v.numel() for v in inputs.values() if isinstance(v, torch.Tensor)) > 150_000:
            continue
        expected = task.results(
            task.reference(**{k: v.clone() if isinstance(v, torch.Tensor) else v for k, v in inputs.items()})
        )
        tols = [task.tolerance(str(e.dtype).removeprefix("torch."), "triton") for e in expected]
        strong += not weak_case(expected, task.result_names, inputs, tols)
    assert strong >= 4


def test_inputs_are_fresh_per_seed_and_reproducible_per_seed():
    task = load_task(TASKS_DIR / "softmax.py")
    params = dict(task.cases[3].params)
    a = task.make_inputs(params, torch.Generator().manual_seed(1), "cpu")["x"]
    b = task.make_inputs(params, torch.Generator().manual_seed(1), "cpu")["x"]
    c = task.make_inputs(params, torch.Generator().manual_seed(2), "cpu")["x"]
    assert torch.equal(a, b) and not torch.equal(a, c)


def test_non_contiguous_layouts_are_generated():
    task = load_task(TASKS_DIR / "vector_add.py")
    layouts = {c.params.get("layout") for c in task.cases}
    assert {"transposed", "strided"} <= layouts
    case = next(c for c in task.cases if c.params.get("layout") == "strided")
    x = task.make_inputs(dict(case.params), torch.Generator().manual_seed(0), "cpu")["a"]
    assert not x.is_contiguous()


def test_unknown_task_name_is_an_input_error():
    with pytest.raises(TaskError, match="no task named 'nope'"):
        find_tasks("nope")


def _sizes(params: dict) -> list[int]:
    for key in ("shape", "mkn"):
        if key in params:
            return list(params[key])
    return [params["n"]]
