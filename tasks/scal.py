"""BLAS-1 scal (rocblas_sscal): x := alpha * x over n elements of x with increment incx > 0.

x is a buffer of 1 + (n - 1) * incx floats; elements between the strided ones must stay unchanged.
n <= 0 leaves x unchanged.
"""

import torch

from miner.verify.inputs import blas_get, blas_put, blas_vector, scalar
from miner.verify.tasks import Arg, Task, blas1_cases


def reference(n: int, alpha: float, x: torch.Tensor, incx: int) -> torch.Tensor:
    out = x.clone()
    if incx > 0:
        blas_put(out, n, incx, blas_get(x, n, incx) * alpha)
    return out


def make_inputs(p: dict, gen: torch.Generator, device: str) -> dict:
    return {
        "n": p["n"],
        "alpha": scalar(gen),
        "x": blas_vector(p["n"], p["incx"], "float32", gen, device),
        "incx": p["incx"],
    }


TASK = Task(
    name="scal",
    description=__doc__,
    args=(Arg("n", "int"), Arg("alpha", "float"), Arg("x", "inout"), Arg("incx", "int")),
    reference=reference,
    make_inputs=make_inputs,
    cases=blas1_cases(two_vectors=False, negative_inc=False),
    hip_signature="void scal(int n, float alpha, float* x, int incx, hipStream_t stream)",
)
