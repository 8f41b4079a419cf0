"""BLAS-1 dot (rocblas_sdot): result[0] = sum_i x_i * y_i over n elements, increments incx, incy (may be negative).

A negative increment walks its buffer backwards: logical element i sits at (n - 1 - i) * |inc|.
n <= 0 gives 0. result is a float32 tensor of one element on the device.
"""

import torch

from miner.verify.inputs import blas_get, blas_vector
from miner.verify.tasks import Arg, Task, blas1_cases


def reference(n: int, x: torch.Tensor, incx: int, y: torch.Tensor, incy: int) -> torch.Tensor:
    return torch.dot(blas_get(x, n, incx), blas_get(y, n, incy)).reshape(1)


def make_inputs(p: dict, gen: torch.Generator, device: str) -> dict:
    n = p["n"]
    return {
        "n": n,
        "x": blas_vector(n, p["incx"], "float32", gen, device),
        "incx": p["incx"],
        "y": blas_vector(n, p["incy"], "float32", gen, device) + 0.25,
        "incy": p["incy"],
    }


TASK = Task(
    name="dot",
    description=__doc__,
    args=(
        Arg("n", "int"),
        Arg("x", "in"),
        Arg("incx", "int"),
        Arg("y", "in"),
        Arg("incy", "int"),
        Arg("result", "out"),
    ),
    reference=reference,
    make_inputs=make_inputs,
    cases=blas1_cases(two_vectors=True, negative_inc=True),
    hip_signature="void dot(int n, const float* x, int incx, const float* y, int incy, float* result, hipStream_t stream)",
)
