"""Elementwise sum of two 2-D tensors: out = a + b. Inputs may be non-contiguous (transposed or strided views)."""

import torch

from miner.verify.inputs import randn
from miner.verify.tasks import Arg, Task, make_cases


def reference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return a + b


def make_inputs(p: dict, gen: torch.Generator, device: str) -> dict:
    return {
        "a": randn(p["shape"], p["dtype"], gen, device, p.get("layout", "contiguous")),
        "b": randn(p["shape"], p["dtype"], gen, device),
    }


TASK = Task(
    name="vector_add",
    description=__doc__,
    args=(Arg("a", "in"), Arg("b", "in"), Arg("out", "out")),
    reference=reference,
    make_inputs=make_inputs,
    cases=make_cases(
        [
            {"shape": (0, 5), "dtype": "float32"},
            {"shape": (1, 1), "dtype": "float32"},
            {"shape": (7, 13), "dtype": "float32"},
            {"shape": (64, 1000), "dtype": "float32"},
            {"shape": (33, 4097), "dtype": "float32", "layout": "transposed"},
            {"shape": (100, 300), "dtype": "float16"},
            {"shape": (129, 257), "dtype": "bfloat16", "layout": "strided"},
            {"shape": (3, 70001), "dtype": "float32", "layout": "strided"},
            {"shape": (255, 1023), "dtype": "float16", "layout": "transposed"},
            {"shape": (1, 99991), "dtype": "float32"},
        ],
        [
            {"shape": (4096, 4096), "dtype": "float32"},
            {"shape": (8192, 8192), "dtype": "float16"},
            {"shape": (4096, 4096), "dtype": "float32", "layout": "transposed"},
        ],
        held_back={2, 7, 8, 9},
    ),
)
