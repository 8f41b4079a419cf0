"""Matrix product C = A @ B, A (M, K), B (K, N); float32 in IEEE precision (no TF32), or float16 (accumulate in float32)."""

import torch

from miner.verify.inputs import randn
from miner.verify.tasks import Arg, Task, make_cases


def reference(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    return a @ b


def make_inputs(p: dict, gen: torch.Generator, device: str) -> dict:
    m, k, n = p["mkn"]
    return {
        "a": randn((m, k), p["dtype"], gen, device, p.get("layout", "contiguous")),
        "b": randn((k, n), p["dtype"], gen, device),
    }


TASK = Task(
    name="gemm",
    description=__doc__,
    args=(Arg("a", "in"), Arg("b", "in"), Arg("c", "out")),
    reference=reference,
    make_inputs=make_inputs,
    cases=make_cases(
        [
            {"mkn": (0, 4, 4), "dtype": "float32"},
            {"mkn": (1, 1, 1), "dtype": "float32"},
            {"mkn": (3, 5, 7), "dtype": "float32"},
            {"mkn": (64, 64, 64), "dtype": "float32"},
            {"mkn": (128, 256, 96), "dtype": "float16"},
            {"mkn": (65, 129, 33), "dtype": "float32", "layout": "transposed"},
            {"mkn": (100, 7, 200), "dtype": "float32"},
            {"mkn": (33, 300, 17), "dtype": "float16"},
            {"mkn": (129, 65, 257), "dtype": "float32", "layout": "strided"},
            {"mkn": (1, 513, 31), "dtype": "float32"},
        ],
        [
            {"mkn": (4096, 4096, 4096), "dtype": "float16"},
            {"mkn": (2048, 2048, 2048), "dtype": "float32"},
            {"mkn": (8192, 1024, 8192), "dtype": "float16"},
        ],
        held_back={2, 7, 8, 9},
    ),
    tolerances={"float32": (1e-4, 1e-3), "float16": (1e-2, 1e-2)},
)
