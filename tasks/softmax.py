"""Row-wise softmax over the last dimension of a 2-D tensor (numerically stable), any dtype computed in float32."""

import torch

from miner.verify.inputs import randn
from miner.verify.tasks import Arg, Task, make_cases


def reference(x: torch.Tensor) -> torch.Tensor:
    return torch.softmax(x.float(), dim=-1).to(x.dtype)


def make_inputs(p: dict, gen: torch.Generator, device: str) -> dict:
    return {"x": randn(p["shape"], p["dtype"], gen, device, p.get("layout", "contiguous")) * 4}


TASK = Task(
    name="softmax",
    description=__doc__,
    args=(Arg("x", "in"), Arg("out", "out")),
    reference=reference,
    make_inputs=make_inputs,
    cases=make_cases(
        [
            {"shape": (0, 16), "dtype": "float32"},
            {"shape": (1, 2), "dtype": "float32"},
            {"shape": (7, 5), "dtype": "float32"},
            {"shape": (128, 1024), "dtype": "float32"},
            {"shape": (64, 1000), "dtype": "float16"},
            {"shape": (33, 4097), "dtype": "float32", "layout": "strided"},
            {"shape": (256, 129), "dtype": "bfloat16"},
            {"shape": (3, 16385), "dtype": "float32"},
            {"shape": (1000, 77), "dtype": "float32", "layout": "transposed"},
            {"shape": (17, 2049), "dtype": "float16", "layout": "strided"},
        ],
        [
            {"shape": (8192, 4096), "dtype": "float32"},
            {"shape": (16384, 1024), "dtype": "float16"},
            {"shape": (4096, 8192), "dtype": "bfloat16"},
        ],
        held_back={2, 7, 8, 9},
    ),
)
