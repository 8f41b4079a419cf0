"""Matrix-vector product in float32: y = A @ x, A of shape (M, N) (possibly transposed in memory), x of shape (N,)."""

import torch

from miner.verify.inputs import randn
from miner.verify.tasks import Arg, Task, make_cases


def reference(a: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    return a @ x


def make_inputs(p: dict, gen: torch.Generator, device: str) -> dict:
    m, n = p["shape"]
    return {
        "a": randn((m, n), "float32", gen, device, p.get("layout", "contiguous")),
        "x": randn((n,), "float32", gen, device),
    }


TASK = Task(
    name="gemv",
    description=__doc__,
    args=(Arg("a", "in"), Arg("x", "in"), Arg("y", "out")),
    reference=reference,
    make_inputs=make_inputs,
    cases=make_cases(
        [
            {"shape": (0, 5)},
            {"shape": (1, 1)},
            {"shape": (3, 7)},
            {"shape": (128, 256)},
            {"shape": (1000, 3)},
            {"shape": (33, 4097)},
            {"shape": (257, 513), "layout": "transposed"},
            {"shape": (2049, 31)},
            {"shape": (511, 1025), "layout": "transposed"},
            {"shape": (9, 20001)},
        ],
        [{"shape": (8192, 8192)}, {"shape": (16384, 4096)}, {"shape": (8192, 8192), "layout": "transposed"}],
        held_back={2, 7, 8, 9},
    ),
    tolerances={"float32": (1e-4, 2e-3)},
)
