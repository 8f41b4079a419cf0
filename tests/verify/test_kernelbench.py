"""The KernelBench converter: nn.Module problems become function-style tasks with parameters as inputs."""

from __future__ import annotations

import pytest
import torch

from miner.verify.errors import TaskError
from miner.verify.evaluate import Candidate
from miner.verify.kernelbench import task_from_kernelbench
from miner.verify.models import Outcome
from tests.verify.conftest import HERE

PROBLEM = HERE / "data" / "kb_linear_relu.py"


def test_module_becomes_function_style_with_parameters_as_inputs():
    task = task_from_kernelbench(PROBLEM.read_text(), "kb_linear_relu")
    assert [(a.name, a.kind) for a in task.args] == [
        ("x0", "in"), ("linear_weight", "in"), ("linear_bias", "in"), ("out0", "out"),
    ]  # fmt: skip
    inputs = task.make_inputs(dict(task.cases[0].params), torch.Generator().manual_seed(1), "cpu")
    (expected,) = task.results(task.reference(**inputs))
    manual = torch.relu(inputs["x0"] @ inputs["linear_weight"].t() + inputs["linear_bias"])
    assert torch.allclose(expected, manual, atol=1e-6)


def test_converted_task_verifies_a_kernel_and_rejects_a_wrong_one(cpu_verifier, tmp_path):
    source = PROBLEM.read_text()
    task_path = tmp_path / "kb_linear_relu.py"
    task_path.write_text(
        '"""KernelBench problem kb_linear_relu."""\n\nfrom miner.verify.kernelbench import task_from_kernelbench\n\n'
        f"SOURCE = {source!r}\nTASK = task_from_kernelbench(SOURCE, 'kb_linear_relu')\n"
    )
    from miner.verify.tasks import load_task

    task = load_task(task_path)
    good = (HERE / "data" / "kb_linear_relu_solution.py").read_text()
    assert cpu_verifier.verify(task, Candidate("triton", good)).outcome == Outcome.PASSED
    bad = good.replace("tl.maximum(acc, 0.0)", "acc")
    assert cpu_verifier.verify(task, Candidate("triton", bad)).outcome == Outcome.MISMATCH


def test_a_file_without_model_is_a_task_error():
    with pytest.raises(TaskError, match="defines no Model"):
        task_from_kernelbench("def get_inputs():\n    return []\n", "broken")
