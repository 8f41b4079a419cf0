"""Tasks: a function-style PyTorch reference, its arguments, an input generator and the cases it is checked on.

A task file in ``tasks/`` defines ``TASK = Task(...)``. Candidates use destination-passing style: they
receive every argument in the declared order and write their results into the ``inout`` and ``out``
tensors; ``out`` tensors are allocated (and poisoned) by the harness. The reference is pure: it returns
the final values of the ``inout`` arguments and then of the ``out`` arguments, in declared order.
"""

from __future__ import annotations

import hashlib
import importlib.util
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from miner.verify.errors import TaskError

ArgKind = Literal["in", "inout", "out", "int", "float"]
Purpose = Literal["correctness", "performance"]

TRITON_DEFAULT_TOL = (1e-4, 1e-3)
"""(rtol, atol) for Triton when the task names no tolerance for a dtype (the paper's setting)."""
HIP_TOL = (1e-4, 1e-4)
"""(rtol, atol) for HIP kernels: allclose with equal_nan=True (the paper's setting)."""
LOW_PRECISION_TOL = {"float16": (5e-3, 5e-3), "bfloat16": (2e-2, 2e-2)}
"""Half-precision results round to a few ulps of each other; the paper's fp32 tolerances are below one ulp."""


@dataclass(frozen=True)
class Arg:
    """One argument of the kernel, in call order."""

    name: str
    kind: ArgKind


@dataclass(frozen=True)
class Case:
    """One configuration a candidate is run on; ``shown=False`` cases are held back from the prompt."""

    label: str
    params: Mapping[str, Any]
    purpose: Purpose = "correctness"
    shown: bool = True


@dataclass(frozen=True)
class Task:
    """A kernel-writing task; ``make_inputs(params, generator, device)`` returns every non-``out`` argument."""

    name: str
    description: str
    args: tuple[Arg, ...]
    reference: Callable[..., Any]
    make_inputs: Callable[..., dict[str, Any]]
    cases: tuple[Case, ...]
    tolerances: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    hip_signature: str | None = None
    """The C launcher a HIP solution exports, e.g. ``void scal(int n, float alpha, float* x, int incx, hipStream_t stream)``."""
    source: str = ""
    """The task file's text: shown in prompts and hashed into the task hash."""
    path: str = ""
    """The task file, which workers load themselves."""

    @property
    def in_names(self) -> list[str]:
        return [a.name for a in self.args if a.kind != "out"]

    @property
    def result_names(self) -> list[str]:
        """Arguments the candidate writes: inout first, then out, as the reference returns them."""
        return [a.name for a in self.args if a.kind == "inout"] + [a.name for a in self.args if a.kind == "out"]

    @property
    def hash(self) -> str:
        return hashlib.sha256(self.source.encode()).hexdigest()[:16]

    def tolerance(self, dtype: str, backend: str) -> tuple[float, float]:
        if dtype in self.tolerances:
            return self.tolerances[dtype]
        if dtype in LOW_PRECISION_TOL:
            return LOW_PRECISION_TOL[dtype]
        return HIP_TOL if backend == "hip" else TRITON_DEFAULT_TOL

    def case(self, label: str) -> Case:
        for c in self.cases:
            if c.label == label:
                return c
        raise TaskError(f"task {self.name} has no case {label!r}")

    def results(self, values: Any) -> list[Any]:
        """The reference's return value as a list matching ``result_names``."""
        out = list(values) if isinstance(values, tuple | list) else [values]
        if len(out) != len(self.result_names):
            raise TaskError(f"reference of {self.name} returned {len(out)} values, expected {len(self.result_names)}")
        return out


TASKS_DIR = Path(__file__).resolve().parents[2] / "tasks"


def load_task(path: Path) -> Task:
    """Load ``TASK`` from a task file (its text becomes the task's source)."""
    if not path.is_file():
        raise TaskError("no such task file", path=str(path))
    spec = importlib.util.spec_from_file_location(f"_rocm_miner_task_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise TaskError("not a Python file", path=str(path))
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        raise TaskError(f"cannot load: {type(exc).__name__}: {exc}", path=str(path)) from exc
    task = getattr(module, "TASK", None)
    if not isinstance(task, Task):
        raise TaskError("defines no TASK = Task(...)", path=str(path))
    object.__setattr__(task, "source", path.read_text())
    object.__setattr__(task, "path", str(path.resolve()))
    return task


def find_tasks(spec: str, root: Path = TASKS_DIR) -> list[Path]:
    """Resolve a CLI task spec: a task file, a folder of them, a task name, or comma-separated names; ``all``."""
    p = Path(spec)
    if p.is_file():
        return [p]
    if p.is_dir():
        return sorted(q for q in p.glob("*.py") if not q.name.startswith("_"))
    if spec == "all":
        return find_tasks(str(root), root)
    out = []
    for name in spec.split(","):
        q = root / f"{name.strip()}.py"
        if not q.is_file():
            raise TaskError(f"no task named {name.strip()!r} (looked for {q})")
        out.append(q)
    return out


def task_file(name: str, root: Path = TASKS_DIR) -> Path:
    return root / f"{name}.py"


def make_cases(
    correctness: list[dict[str, Any]], performance: list[dict[str, Any]], held_back: set[int]
) -> tuple[Case, ...]:
    """Cases from parameter dicts; ``held_back`` indexes the correctness cases not shown in the prompt."""
    out = [
        Case(label=_label(p), params=p, purpose="correctness", shown=i not in held_back)
        for i, p in enumerate(correctness)
    ]
    out += [Case(label="perf:" + _label(p), params=p, purpose="performance", shown=True) for p in performance]
    labels = [c.label for c in out]
    if len(set(labels)) != len(labels):
        raise TaskError(f"duplicate case labels: {labels}")
    return tuple(out)


def _label(params: dict[str, Any]) -> str:
    return ",".join(f"{k}={'x'.join(map(str, v)) if isinstance(v, tuple | list) else v}" for k, v in params.items())


def blas1_cases(*, two_vectors: bool, negative_inc: bool) -> tuple[Case, ...]:
    """The BLAS-1 starter cases: n from 0 to 100003, increments 1..7, negative ones where rocBLAS defines them."""
    rows = [(0, 1, 1), (1, 1, 1), (2, 3, 2), (17, 1, 1), (1000, 2, 3), (4097, 1, 1), (65537, 3, 2)]
    rows += [(100003, 1, 1), (1023, 5, 4), (33, 7, 1)]
    if negative_inc:
        rows[4] = (1000, -2, 3)
        rows[8] = (1023, 5, -4)
    correctness = [{"n": n, "incx": ix, **({"incy": iy} if two_vectors else {})} for n, ix, iy in rows]
    perf = [(1 << 24, 1, 1), (1 << 22, 2, 2), ((1 << 24) + 1, 1, 1)]
    performance = [{"n": n, "incx": ix, **({"incy": iy} if two_vectors else {})} for n, ix, iy in perf]
    return make_cases(correctness, performance, held_back={7, 8, 9})
