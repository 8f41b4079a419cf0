"""BLAS-1 asum (rocblas_sasum): result[0] = sum_i |x_i| over n elements with increment incx > 0; n <= 0 gives 0."""

import torch

from miner.verify.inputs import blas_get, blas_vector
from miner.verify.tasks import Arg, Task, blas1_cases


def reference(n: int, x: torch.Tensor, incx: int) -> torch.Tensor:
    return blas_get(x, n, incx).abs().sum().reshape(1)


def make_inputs(p: dict, gen: torch.Generator, device: str) -> dict:
    return {"n": p["n"], "x": blas_vector(p["n"], p["incx"], "float32", gen, device), "incx": p["incx"]}


TASK = Task(
    name="asum",
    description=__doc__,
    args=(Arg("n", "int"), Arg("x", "in"), Arg("incx", "int"), Arg("result", "out")),
    reference=reference,
    make_inputs=make_inputs,
    cases=blas1_cases(two_vectors=False, negative_inc=False),
    hip_signature="void asum(int n, const float* x, int incx, float* result, hipStream_t stream)",
)
