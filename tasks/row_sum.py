"""Sum of each row of a 2-D float32 tensor: out[i] = sum_j x[i, j]. The input may be non-contiguous."""

import torch

from miner.verify.inputs import randn
from miner.verify.tasks import Arg, Task, make_cases


def reference(x: torch.Tensor) -> torch.Tensor:
    return x.sum(dim=1)


def make_inputs(p: dict, gen: torch.Generator, device: str) -> dict:
    return {"x": randn(p["shape"], "float32", gen, device, p.get("layout", "contiguous")) + 0.5}


TASK = Task(
    name="row_sum",
    description=__doc__,
    args=(Arg("x", "in"), Arg("out", "out")),
    reference=reference,
    make_inputs=make_inputs,
    cases=make_cases(
        [
            {"shape": (0, 8)},
            {"shape": (4, 0)},
            {"shape": (1, 1)},
            {"shape": (3, 1000)},
            {"shape": (1000, 3)},
            {"shape": (64, 4097), "layout": "transposed"},
            {"shape": (17, 333)},
            {"shape": (129, 2048), "layout": "strided"},
            {"shape": (2, 70001)},
            {"shape": (513, 257), "layout": "transposed"},
        ],
        [{"shape": (4096, 4096)}, {"shape": (32768, 512)}, {"shape": (64, 262144)}],
        held_back={4, 6, 8, 9},
    ),
)
