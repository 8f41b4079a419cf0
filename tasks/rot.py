"""BLAS-1 rot (rocblas_srot): for each i, (x_i, y_i) := (c*x_i + s*y_i, c*y_i - s*x_i), increments may be negative.

A negative increment walks its buffer backwards: logical element i sits at (n - 1 - i) * |inc|.
Buffers hold 1 + (n - 1) * |inc| floats; elements between the strided ones must stay unchanged.
"""

import torch

from miner.verify.inputs import blas_get, blas_put, blas_vector, scalar
from miner.verify.tasks import Arg, Task, blas1_cases


def reference(n: int, x: torch.Tensor, incx: int, y: torch.Tensor, incy: int, c: float, s: float):
    vx, vy = blas_get(x, n, incx), blas_get(y, n, incy)
    xo, yo = x.clone(), y.clone()
    blas_put(xo, n, incx, c * vx + s * vy)
    blas_put(yo, n, incy, c * vy - s * vx)
    return xo, yo


def make_inputs(p: dict, gen: torch.Generator, device: str) -> dict:
    n = p["n"]
    return {
        "n": n,
        "x": blas_vector(n, p["incx"], "float32", gen, device),
        "incx": p["incx"],
        "y": blas_vector(n, p["incy"], "float32", gen, device),
        "incy": p["incy"],
        "c": scalar(gen, 0.3, 0.9),
        "s": scalar(gen, 0.3, 0.9),
    }


TASK = Task(
    name="rot",
    description=__doc__,
    args=(
        Arg("n", "int"),
        Arg("x", "inout"),
        Arg("incx", "int"),
        Arg("y", "inout"),
        Arg("incy", "int"),
        Arg("c", "float"),
        Arg("s", "float"),
    ),  # fmt: skip
    reference=reference,
    make_inputs=make_inputs,
    cases=blas1_cases(two_vectors=True, negative_inc=True),
    hip_signature="void rot(int n, float* x, int incx, float* y, int incy, float c, float s, hipStream_t stream)",
)
