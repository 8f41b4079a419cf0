"""SwiGLU gate: out = silu(a) * b = a * sigmoid(a) * b, elementwise over 2-D tensors."""

import torch

from miner.verify.inputs import randn
from miner.verify.tasks import Arg, Task, make_cases


def reference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.silu(a) * b


def make_inputs(p: dict, gen: torch.Generator, device: str) -> dict:
    return {
        "a": randn(p["shape"], p["dtype"], gen, device, p.get("layout", "contiguous")) * 2,
        "b": randn(p["shape"], p["dtype"], gen, device),
    }


TASK = Task(
    name="silu_mul",
    description=__doc__,
    args=(Arg("a", "in"), Arg("b", "in"), Arg("out", "out")),
    reference=reference,
    make_inputs=make_inputs,
    cases=make_cases(
        [
            {"shape": (0, 0), "dtype": "float32"},
            {"shape": (1, 1), "dtype": "float32"},
            {"shape": (9, 14), "dtype": "float32"},
            {"shape": (256, 1024), "dtype": "float32"},
            {"shape": (100, 700), "dtype": "float16"},
            {"shape": (63, 4097), "dtype": "bfloat16"},
            {"shape": (45, 333), "dtype": "float32", "layout": "transposed"},
            {"shape": (1, 100001), "dtype": "float32"},
            {"shape": (200, 257), "dtype": "float32", "layout": "strided"},
            {"shape": (17, 3000), "dtype": "float16", "layout": "transposed"},
        ],
        [
            {"shape": (4096, 8192), "dtype": "float32"},
            {"shape": (8192, 8192), "dtype": "bfloat16"},
            {"shape": (8192, 4096), "dtype": "float16"},
        ],
        held_back={2, 7, 8, 9},
    ),
)
