"""The prompt for one task: the reference, the interface the candidate must implement, the shown cases."""

from __future__ import annotations

import hashlib
import json
import re

from miner.verify.tasks import Task

SYSTEM = (
    "You write fast, correct GPU kernels. You answer with one complete source file in a single fenced code block "
    "and nothing else of substance."
)

TRITON_RULES = """Write a Triton implementation as a Python file that defines
    def launch({args}) -> None
Arguments come in this order; tensors are on the GPU and may be non-contiguous (use their strides).
Write results into the output tensors in place: {results}. `out`-kind tensors are contiguous and pre-allocated.
All computation must happen in @triton.jit kernels. PyTorch may only allocate tensors (torch.empty) or make views;
any other torch operation, host copies, extra threads or streams are rejected."""

HIP_RULES = """Write a HIP C++ file (#include <hip/hip_runtime.h>) that exports
    extern "C" {signature}
and launches your __global__ kernel(s) on `stream` with hipLaunchKernelGGL. Pointers are device pointers.
Write results in place: {results}. Use warpSize rather than a fixed wavefront width, and stay within 64 KB of LDS."""


def messages(task: Task, backend: str) -> list[dict[str, str]]:
    shown = [c.label for c in task.cases if c.shown]
    if backend == "hip":
        rules = HIP_RULES.format(signature=task.hip_signature, results=", ".join(task.result_names))
    else:
        rules = TRITON_RULES.format(args=", ".join(a.name for a in task.args), results=", ".join(task.result_names))
    user = (
        f"Task `{task.name}`: {task.description.strip()}\n\n"
        f"The PyTorch reference (function style; `reference` returns the final values of {', '.join(task.result_names)}):\n"
        f"```python\n{task.source.strip()}\n```\n\n{rules}\n\n"
        f"It is checked on fresh random inputs for these configurations and on others that are not shown:\n"
        + "\n".join(f"- {label}" for label in shown)
        + "\nTolerance: allclose with the task's per-dtype tolerances (float32: rtol 1e-4, atol 1e-3 for Triton, 1e-4 for HIP)."
    )
    return [{"role": "system", "content": SYSTEM}, {"role": "user", "content": user}]


def prompt_hash(msgs: list[dict[str, str]]) -> str:
    return hashlib.sha256(json.dumps(msgs, sort_keys=True).encode()).hexdigest()[:16]


_BLOCK = re.compile(r"```[ \t]*([\w+#.-]*)[ \t]*\n(.*?)```", re.DOTALL)


def extract_code(text: str, backend: str) -> str | None:
    """The last fenced code block (preferring one tagged for the backend); None if the answer has none."""
    blocks = _BLOCK.findall(text)
    if not blocks:
        return None
    wanted = ("python", "py") if backend == "triton" else ("cpp", "c++", "hip", "cuda", "c")
    tagged = [body for tag, body in blocks if tag.lower() in wanted]
    return (tagged or [body for _, body in blocks])[-1]
