"""KernelBench-style problems (``class Model(nn.Module)``, ``get_inputs()``, ``get_init_inputs()``) as tasks.

The module is built once under a fixed seed; its parameters and buffers become ``in`` arguments of the task (a
kernel needs them as data), and the reference is ``torch.func.functional_call`` of the module on them. Trials
draw fresh values of the shapes and dtypes ``get_inputs()`` returns. KernelBench fixes its shapes, so the converted
task has one configuration: held-back shapes (and so the specialisation check) need shapes written by hand.
"""

from __future__ import annotations

import types
from typing import Any

import torch

from miner.verify.errors import TaskError
from miner.verify.tasks import Arg, Case, Task


def task_from_kernelbench(source: str, name: str, *, performance: bool = True) -> Task:
    module = types.ModuleType(f"_kernelbench_{name}")
    try:
        exec(compile(source, f"<kernelbench {name}>", "exec"), module.__dict__)  # a problem file we chose to load
    except Exception as exc:
        raise TaskError(f"cannot load KernelBench problem {name}: {type(exc).__name__}: {exc}") from exc
    for attr in ("Model", "get_inputs", "get_init_inputs"):
        if not hasattr(module, attr):
            raise TaskError(f"KernelBench problem {name} defines no {attr}")
    torch.manual_seed(0)
    model = module.Model(*module.get_init_inputs()).eval()
    state = {
        k.replace(".", "_"): v.detach()
        for k, v in {**dict(model.named_parameters()), **dict(model.named_buffers())}.items()
    }
    names = {k.replace(".", "_"): k for k in {**dict(model.named_parameters()), **dict(model.named_buffers())}}
    sample = module.get_inputs()
    specs = [
        (f"x{i}", tuple(t.shape), t.dtype) if isinstance(t, torch.Tensor) else (f"x{i}", t, None)
        for i, t in enumerate(sample)
    ]
    with torch.no_grad():
        out = model(*sample)
    n_out = len(out) if isinstance(out, tuple) else 1

    def reference(**kwargs: Any) -> Any:
        params = {names[k]: kwargs[k] for k in state}
        inputs = [kwargs[n] for n, _, _ in specs]
        with torch.no_grad():
            return torch.func.functional_call(model, params, tuple(inputs))

    def make_inputs(params: dict, gen: torch.Generator, device: str) -> dict[str, Any]:
        values: dict[str, Any] = {}
        for arg, shape, dtype in specs:
            if dtype is None:
                values[arg] = shape
            elif dtype.is_floating_point:
                values[arg] = torch.randn(shape, generator=gen, device=device, dtype=torch.float32).to(dtype)
            else:
                values[arg] = torch.randint(0, 16, shape, generator=gen, device=device, dtype=dtype)
        values.update({k: v.to(device) for k, v in state.items()})
        return values

    args = [Arg(n, "in" if d is not None else ("int" if isinstance(s, int) else "float")) for n, s, d in specs]
    args += [Arg(k, "in") for k in state] + [Arg(f"out{i}", "out") for i in range(n_out)]
    cases = [Case(label="get_inputs", params={"shapes": [list(s) if d is not None else s for _, s, d in specs]})]
    if performance:
        cases.append(Case(label="perf:get_inputs", params=dict(cases[0].params), purpose="performance"))
    return Task(
        name=name,
        description=(module.__doc__ or f"KernelBench problem {name}").strip(),
        args=tuple(args),
        reference=lambda **kw: reference(**kw),
        make_inputs=make_inputs,
        cases=tuple(cases),
        source=source,
    )
