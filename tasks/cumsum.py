"""Inclusive prefix sum along the last dimension of a 2-D float32 tensor: out[i, j] = sum_{k<=j} x[i, k]."""

import torch

from miner.verify.inputs import randn
from miner.verify.tasks import Arg, Task, make_cases


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.cumsum(x, dim=-1)


def make_inputs(p: dict, gen: torch.Generator, device: str) -> dict:
    return {"x": randn(p["shape"], "float32", gen, device, p.get("layout", "contiguous"))}


TASK = Task(
    name="cumsum",
    description=__doc__,
    args=(Arg("x", "in"), Arg("out", "out")),
    reference=reference,
    make_inputs=make_inputs,
    cases=make_cases(
        [
            {"shape": (0, 4)},
            {"shape": (1, 1)},
            {"shape": (3, 7)},
            {"shape": (64, 1024)},
            {"shape": (100, 1000), "layout": "transposed"},
            {"shape": (17, 4097)},
            {"shape": (250, 129), "layout": "strided"},
            {"shape": (2, 10007)},
            {"shape": (1000, 33)},
            {"shape": (9, 2049), "layout": "transposed"},
        ],
        [{"shape": (8192, 1024)}, {"shape": (1024, 8192)}, {"shape": (65536, 128)}],
        held_back={2, 7, 8, 9},
    ),
    tolerances={"float32": (1e-4, 2e-3)},
)
