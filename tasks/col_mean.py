"""Mean of each column of a 2-D float32 tensor: out[j] = mean_i x[i, j]. The input may be non-contiguous."""

import torch

from miner.verify.inputs import randn
from miner.verify.tasks import Arg, Task, make_cases


def reference(x: torch.Tensor) -> torch.Tensor:
    return x.mean(dim=0)


def make_inputs(p: dict, gen: torch.Generator, device: str) -> dict:
    return {"x": randn(p["shape"], "float32", gen, device, p.get("layout", "contiguous")) + 1.0}


TASK = Task(
    name="col_mean",
    description=__doc__,
    args=(Arg("x", "in"), Arg("out", "out")),
    reference=reference,
    make_inputs=make_inputs,
    cases=make_cases(
        [
            {"shape": (1, 1)},
            {"shape": (1, 37)},
            {"shape": (1000, 3)},
            {"shape": (3, 1000)},
            {"shape": (513, 129), "layout": "transposed"},
            {"shape": (4097, 64)},
            {"shape": (333, 17), "layout": "strided"},
            {"shape": (2048, 129)},
            {"shape": (70001, 2)},
            {"shape": (257, 513), "layout": "transposed"},
        ],
        [{"shape": (4096, 4096)}, {"shape": (262144, 64)}, {"shape": (512, 32768)}],
        held_back={3, 6, 8, 9},
    ),
)
