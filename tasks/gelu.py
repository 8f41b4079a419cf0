"""Exact GELU of a 2-D tensor: out = x * 0.5 * (1 + erf(x / sqrt(2))). Inputs may be non-contiguous."""

import torch

from miner.verify.inputs import randn
from miner.verify.tasks import Arg, Task, make_cases


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.nn.functional.gelu(x)


def make_inputs(p: dict, gen: torch.Generator, device: str) -> dict:
    return {"x": randn(p["shape"], p["dtype"], gen, device, p.get("layout", "contiguous")) * 3}


TASK = Task(
    name="gelu",
    description=__doc__,
    args=(Arg("x", "in"), Arg("out", "out")),
    reference=reference,
    make_inputs=make_inputs,
    cases=make_cases(
        [
            {"shape": (0, 3), "dtype": "float32"},
            {"shape": (1, 1), "dtype": "float32"},
            {"shape": (5, 11), "dtype": "float32"},
            {"shape": (128, 1024), "dtype": "float32"},
            {"shape": (77, 999), "dtype": "float32", "layout": "transposed"},
            {"shape": (64, 515), "dtype": "float16"},
            {"shape": (31, 2049), "dtype": "bfloat16", "layout": "strided"},
            {"shape": (2, 65537), "dtype": "float32"},
            {"shape": (300, 301), "dtype": "float32", "layout": "strided"},
            {"shape": (513, 129), "dtype": "float16", "layout": "transposed"},
        ],
        [
            {"shape": (4096, 4096), "dtype": "float32"},
            {"shape": (8192, 8192), "dtype": "bfloat16"},
            {"shape": (4096, 4096), "dtype": "float32", "layout": "strided"},
        ],
        held_back={2, 7, 8, 9},
    ),
)
