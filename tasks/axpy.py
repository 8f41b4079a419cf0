"""BLAS-1 axpy (rocblas_saxpy): y := alpha * x + y over n elements, increments incx and incy (either may be negative).

A negative increment walks its buffer backwards: logical element i sits at (n - 1 - i) * |inc|.
Buffers hold 1 + (n - 1) * |inc| floats; elements between the strided ones must stay unchanged.
"""

import torch

from miner.verify.inputs import blas_get, blas_put, blas_vector, scalar
from miner.verify.tasks import Arg, Task, blas1_cases


def reference(n: int, alpha: float, x: torch.Tensor, incx: int, y: torch.Tensor, incy: int) -> torch.Tensor:
    out = y.clone()
    blas_put(out, n, incy, alpha * blas_get(x, n, incx) + blas_get(y, n, incy))
    return out


def make_inputs(p: dict, gen: torch.Generator, device: str) -> dict:
    n = p["n"]
    return {
        "n": n,
        "alpha": scalar(gen),
        "x": blas_vector(n, p["incx"], "float32", gen, device),
        "incx": p["incx"],
        "y": blas_vector(n, p["incy"], "float32", gen, device),
        "incy": p["incy"],
    }


TASK = Task(
    name="axpy",
    description=__doc__,
    args=(
        Arg("n", "int"),
        Arg("alpha", "float"),
        Arg("x", "in"),
        Arg("incx", "int"),
        Arg("y", "inout"),
        Arg("incy", "int"),
    ),
    reference=reference,
    make_inputs=make_inputs,
    cases=blas1_cases(two_vectors=True, negative_inc=True),
    hip_signature="void axpy(int n, float alpha, const float* x, int incx, float* y, int incy, hipStream_t stream)",
)
