"""BLAS-1 iamax (rocblas_isamax): result[0] = the 1-based index of the first element of largest |x_i|.

n elements with increment incx > 0; n <= 0 gives 0. result is an int32 tensor of one element.
"""

import torch

from miner.verify.inputs import blas_get, blas_vector
from miner.verify.tasks import Arg, Task, blas1_cases


def reference(n: int, x: torch.Tensor, incx: int) -> torch.Tensor:
    if n <= 0:
        return torch.zeros(1, dtype=torch.int32, device=x.device)
    return (torch.argmax(blas_get(x, n, incx).abs()) + 1).to(torch.int32).reshape(1)


def make_inputs(p: dict, gen: torch.Generator, device: str) -> dict:
    return {"n": p["n"], "x": blas_vector(p["n"], p["incx"], "float32", gen, device), "incx": p["incx"]}


TASK = Task(
    name="iamax",
    description=__doc__,
    args=(Arg("n", "int"), Arg("x", "in"), Arg("incx", "int"), Arg("result", "out")),
    reference=reference,
    make_inputs=make_inputs,
    cases=blas1_cases(two_vectors=False, negative_inc=False),
    hip_signature="void iamax(int n, const float* x, int incx, int* result, hipStream_t stream)",
)
