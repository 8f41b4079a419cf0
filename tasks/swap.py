"""BLAS-1 swap (rocblas_sswap): exchange x_i and y_i for n elements, increments incx, incy (may be negative).

A negative increment walks its buffer backwards: logical element i sits at (n - 1 - i) * |inc|.
Buffers hold 1 + (n - 1) * |inc| floats; elements between the strided ones must stay unchanged.
"""

import torch

from miner.verify.inputs import blas_get, blas_put, blas_vector
from miner.verify.tasks import Arg, Task, blas1_cases


def reference(n: int, x: torch.Tensor, incx: int, y: torch.Tensor, incy: int):
    xo, yo = x.clone(), y.clone()
    blas_put(xo, n, incx, blas_get(y, n, incy))
    blas_put(yo, n, incy, blas_get(x, n, incx))
    return xo, yo


def make_inputs(p: dict, gen: torch.Generator, device: str) -> dict:
    n = p["n"]
    return {
        "n": n,
        "x": blas_vector(n, p["incx"], "float32", gen, device),
        "incx": p["incx"],
        "y": blas_vector(n, p["incy"], "float32", gen, device),
        "incy": p["incy"],
    }


TASK = Task(
    name="swap",
    description=__doc__,
    args=(Arg("n", "int"), Arg("x", "inout"), Arg("incx", "int"), Arg("y", "inout"), Arg("incy", "int")),
    reference=reference,
    make_inputs=make_inputs,
    cases=blas1_cases(two_vectors=True, negative_inc=True),
    hip_signature="void swap(int n, float* x, int incx, float* y, int incy, hipStream_t stream)",
)
