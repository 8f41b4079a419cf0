"""Layer normalisation over the last dimension with weight and bias, eps = 1e-5, statistics in float32."""

import torch

from miner.verify.inputs import randn
from miner.verify.tasks import Arg, Task, make_cases

EPS = 1e-5


def reference(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    y = torch.nn.functional.layer_norm(x.float(), (x.shape[-1],), weight.float(), bias.float(), EPS)
    return y.to(x.dtype)


def make_inputs(p: dict, gen: torch.Generator, device: str) -> dict:
    n = p["shape"][1]
    return {
        "x": randn(p["shape"], p["dtype"], gen, device, p.get("layout", "contiguous")) * 2 + 1,
        "weight": randn((n,), p["dtype"], gen, device),
        "bias": randn((n,), p["dtype"], gen, device),
    }


TASK = Task(
    name="layernorm",
    description=__doc__,
    args=(Arg("x", "in"), Arg("weight", "in"), Arg("bias", "in"), Arg("out", "out")),
    reference=reference,
    make_inputs=make_inputs,
    cases=make_cases(
        [
            {"shape": (0, 32), "dtype": "float32"},
            {"shape": (1, 2), "dtype": "float32"},
            {"shape": (5, 7), "dtype": "float32"},
            {"shape": (128, 1024), "dtype": "float32"},
            {"shape": (64, 768), "dtype": "float16"},
            {"shape": (31, 4097), "dtype": "float32", "layout": "strided"},
            {"shape": (200, 513), "dtype": "bfloat16"},
            {"shape": (2, 12289), "dtype": "float32"},
            {"shape": (300, 100), "dtype": "float32", "layout": "transposed"},
            {"shape": (9, 2047), "dtype": "float16"},
        ],
        [
            {"shape": (8192, 4096), "dtype": "float32"},
            {"shape": (16384, 1024), "dtype": "float16"},
            {"shape": (4096, 8192), "dtype": "bfloat16"},
        ],
        held_back={2, 7, 8, 9},
    ),
    tolerances={"float32": (1e-4, 1e-3)},
)
