"""Helpers task files use to draw inputs: seeded, on the target device, contiguous or not."""

from __future__ import annotations

from typing import Literal

import torch

Layout = Literal["contiguous", "transposed", "strided"]

DTYPES = {"float32": torch.float32, "float16": torch.float16, "bfloat16": torch.bfloat16, "float64": torch.float64}


def dtype_of(name: str) -> torch.dtype:
    return DTYPES[name]


def randn(
    shape: tuple[int, ...], dtype: str, gen: torch.Generator, device: str, layout: Layout = "contiguous"
) -> torch.Tensor:
    """Normal samples of ``shape``; ``transposed`` (2-D) and ``strided`` give non-contiguous views."""
    dt = dtype_of(dtype)
    if layout == "transposed" and len(shape) == 2:
        base = torch.randn((shape[1], shape[0]), generator=gen, device=device, dtype=torch.float32).to(dt)
        return base.t()
    if layout == "strided" and len(shape) >= 1:
        wide = (*shape[:-1], shape[-1] * 2)
        base = torch.randn(wide, generator=gen, device=device, dtype=torch.float32).to(dt)
        return base[..., ::2]
    return torch.randn(shape, generator=gen, device=device, dtype=torch.float32).to(dt)


def uniform(
    shape: tuple[int, ...], dtype: str, gen: torch.Generator, device: str, lo: float, hi: float
) -> torch.Tensor:
    t = torch.rand(shape, generator=gen, device=device, dtype=torch.float32)
    return (lo + (hi - lo) * t).to(dtype_of(dtype))


def blas_vector(n: int, inc: int, dtype: str, gen: torch.Generator, device: str) -> torch.Tensor:
    """A BLAS vector buffer: ``1 + (n - 1) * |inc|`` elements, the ones between the strided ones random too."""
    length = 1 + (max(n, 1) - 1) * abs(inc)
    return torch.randn(length, generator=gen, device=device, dtype=torch.float32).to(dtype_of(dtype))


def scalar(gen: torch.Generator, lo: float = 0.5, hi: float = 2.0) -> float:
    """A random scalar away from 0 and 1, so that no-op kernels cannot pass."""
    u = torch.rand(2, generator=gen, device=gen.device).tolist()
    value = lo + (hi - lo) * u[0]
    return -value if u[1] < 0.5 else value


def blas_index(n: int, inc: int, device: torch.device | str) -> torch.Tensor:
    """Buffer positions of the ``n`` logical elements of a BLAS vector (reversed for negative ``inc``)."""
    i = torch.arange(max(n, 0), device=device)
    return i * inc if inc > 0 else (max(n, 0) - 1 - i) * -inc


def blas_get(buf: torch.Tensor, n: int, inc: int) -> torch.Tensor:
    """The ``n`` logical elements of a BLAS vector: a strided view for ``inc > 0``, a reversed copy otherwise."""
    if n <= 0:
        return buf[:0]
    if inc > 0:
        return buf[: 1 + (n - 1) * inc : inc]
    return buf[: 1 + (n - 1) * -inc : -inc].flip(0)


def blas_put(buf: torch.Tensor, n: int, inc: int, values: torch.Tensor) -> None:
    """Write the ``n`` logical elements of a BLAS vector in place."""
    if n <= 0:
        return
    if inc > 0:
        buf[: 1 + (n - 1) * inc : inc] = values
    else:
        buf[: 1 + (n - 1) * -inc : -inc] = values.flip(0)
