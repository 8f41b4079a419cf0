"""RMS normalisation over the last dimension: out = x / sqrt(mean(x^2) + 1e-6) * weight, computed in float32."""

import torch

from miner.verify.inputs import randn
from miner.verify.tasks import Arg, Task, make_cases

EPS = 1e-6


def reference(x: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    xf = x.float()
    y = xf * torch.rsqrt(xf.pow(2).mean(dim=-1, keepdim=True) + EPS) * weight.float()
    return y.to(x.dtype)


def make_inputs(p: dict, gen: torch.Generator, device: str) -> dict:
    n = p["shape"][1]
    return {
        "x": randn(p["shape"], p["dtype"], gen, device, p.get("layout", "contiguous")),
        "weight": randn((n,), p["dtype"], gen, device) + 1,
    }


TASK = Task(
    name="rmsnorm",
    description=__doc__,
    args=(Arg("x", "in"), Arg("weight", "in"), Arg("out", "out")),
    reference=reference,
    make_inputs=make_inputs,
    cases=make_cases(
        [
            {"shape": (0, 16), "dtype": "float32"},
            {"shape": (1, 1), "dtype": "float32"},
            {"shape": (6, 9), "dtype": "float32"},
            {"shape": (256, 1024), "dtype": "float32"},
            {"shape": (64, 4096), "dtype": "float16"},
            {"shape": (33, 777), "dtype": "bfloat16", "layout": "strided"},
            {"shape": (129, 2049), "dtype": "float32"},
            {"shape": (4, 20001), "dtype": "float32"},
            {"shape": (500, 64), "dtype": "float32", "layout": "transposed"},
            {"shape": (11, 3001), "dtype": "float16"},
        ],
        [
            {"shape": (8192, 4096), "dtype": "float32"},
            {"shape": (16384, 2048), "dtype": "bfloat16"},
            {"shape": (32768, 1024), "dtype": "float16"},
        ],
        held_back={2, 7, 8, 9},
    ),
)
