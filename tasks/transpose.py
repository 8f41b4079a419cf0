"""Materialised transpose of a 2-D tensor: out[j, i] = x[i, j], out contiguous. The input may be non-contiguous."""

import torch

from miner.verify.inputs import randn
from miner.verify.tasks import Arg, Task, make_cases


def reference(x: torch.Tensor) -> torch.Tensor:
    return x.t().contiguous()


def make_inputs(p: dict, gen: torch.Generator, device: str) -> dict:
    return {"x": randn(p["shape"], p["dtype"], gen, device, p.get("layout", "contiguous"))}


TASK = Task(
    name="transpose",
    description=__doc__,
    args=(Arg("x", "in"), Arg("out", "out")),
    reference=reference,
    make_inputs=make_inputs,
    cases=make_cases(
        [
            {"shape": (0, 3), "dtype": "float32"},
            {"shape": (1, 1), "dtype": "float32"},
            {"shape": (1, 17), "dtype": "float32"},
            {"shape": (5, 9), "dtype": "float32"},
            {"shape": (64, 128), "dtype": "float32"},
            {"shape": (129, 257), "dtype": "float16"},
            {"shape": (1000, 33), "dtype": "float32", "layout": "transposed"},
            {"shape": (77, 501), "dtype": "bfloat16", "layout": "strided"},
            {"shape": (1023, 1025), "dtype": "float32"},
            {"shape": (4099, 3), "dtype": "float16"},
        ],
        [
            {"shape": (8192, 8192), "dtype": "float32"},
            {"shape": (8192, 8192), "dtype": "float16"},
            {"shape": (4096, 16384), "dtype": "float32"},
        ],
        held_back={3, 7, 8, 9},
    ),
)
