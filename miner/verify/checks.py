"""Numerical checks done by the controller: closeness with mismatch statistics, and the canary that proves
zero, constant and copy-of-input outputs fail a case (a case they pass is too weak to count)."""

from __future__ import annotations

from typing import Any

import torch

from miner.verify.models import MismatchInfo


def compare(
    name: str, got: torch.Tensor, expected: torch.Tensor, rtol: float, atol: float, *, equal_nan: bool = True
) -> MismatchInfo | None:
    """None when ``got`` is allclose to ``expected``; otherwise the statistics of the difference."""
    if got.shape != expected.shape:
        return MismatchInfo(
            name=name,
            max_abs_err=float("inf"),
            max_rel_err=float("inf"),
            mismatch_fraction=1.0,
            first_bad_index=[],
            nan_count=0,
            expected_at_first_bad=float("nan"),
            got_at_first_bad=float("nan"),
        )
    if expected.numel() == 0:
        return None
    if not expected.is_floating_point():
        bad = got != expected
        tol_ok = ~bad
        diff = (got.double() - expected.double()).abs()
        rel = diff / expected.double().abs().clamp_min(1)
        nan_count = 0
    else:
        g, e = got.double(), expected.double()
        diff = (g - e).abs()
        rel = diff / e.abs().clamp_min(1e-30)
        tol_ok = diff <= atol + rtol * e.abs()
        both_nan = torch.isnan(g) & torch.isnan(e)
        if equal_nan:
            tol_ok = tol_ok | both_nan
        tol_ok = tol_ok | ((g == e) & torch.isinf(e))
        nan_count = int((torch.isnan(g) & ~torch.isnan(e)).sum())
        diff = torch.where(both_nan, torch.zeros_like(diff), torch.nan_to_num(diff, nan=float("inf")))
        rel = torch.where(both_nan, torch.zeros_like(rel), torch.nan_to_num(rel, nan=float("inf")))
    bad = ~tol_ok
    n_bad = int(bad.sum())
    if n_bad == 0:
        return None
    first = torch.nonzero(bad.reshape(-1))[0, 0].item()
    index = [int(i) for i in torch.unravel_index(torch.tensor(first), expected.shape)]
    return MismatchInfo(
        name=name,
        max_abs_err=float(diff.max()),
        max_rel_err=float(rel.max()),
        mismatch_fraction=n_bad / expected.numel(),
        first_bad_index=index,
        nan_count=nan_count,
        expected_at_first_bad=float(expected.reshape(-1)[first]),
        got_at_first_bad=float(got.reshape(-1)[first]),
    )


def passes(got: torch.Tensor, expected: torch.Tensor, rtol: float, atol: float) -> bool:
    """Cheap allclose (equal_nan) without statistics, for the canary."""
    if got.shape != expected.shape:
        return False
    if not expected.is_floating_point():
        return bool(torch.equal(got.to(expected.dtype), expected))
    return bool(torch.isclose(got.float(), expected.float(), rtol=rtol, atol=atol, equal_nan=True).all())


def checksum(t: torch.Tensor) -> str:
    """A position-weighted checksum of a tensor's bytes, computed where the tensor lives (fast on a GPU):
    the controller and the worker both compute it to detect inputs the candidate modified."""
    flat = t.detach().contiguous().reshape(-1).view(torch.uint8)
    if flat.numel() == 0:
        return "empty"
    words = flat[: flat.numel() // 4 * 4].view(torch.int32)
    tail = flat[flat.numel() // 4 * 4 :]
    total = 0
    for start in range(0, words.numel(), 1 << 24):
        chunk = words[start : start + (1 << 24)].to(torch.int64)
        weights = torch.arange(start, start + chunk.numel(), device=chunk.device, dtype=torch.int64) % 65521 + 1
        total += int((chunk * weights).sum()) + int(chunk.sum()) * 31
    total += int((tail.to(torch.int64) * torch.arange(1, tail.numel() + 1, device=tail.device)).sum())
    return f"{flat.numel()}:{total & ((1 << 64) - 1):016x}"


def canaries(expected: torch.Tensor, inputs: dict[str, Any], pristine: torch.Tensor | None) -> dict[str, torch.Tensor]:
    """Outputs a lazy or cheating kernel would produce for one result: zeros, constants, copies of inputs."""
    out = {"zeros": torch.zeros_like(expected), "ones": torch.ones_like(expected)}
    if expected.is_floating_point() and expected.numel() > 1:  # for one element, "the mean" is the answer itself
        finite = expected[torch.isfinite(expected)]
        if finite.numel():
            out["mean"] = torch.full_like(expected, float(finite.double().mean()))
    if pristine is not None:
        out["unchanged"] = pristine
    for name, value in inputs.items():
        if isinstance(value, torch.Tensor) and value.numel() >= expected.numel():
            flat = value.reshape(-1)[: expected.numel()]
            out[f"copy-of-{name}"] = flat.to(expected.dtype).reshape(expected.shape)
    return out


def weak_case(
    expected: list[torch.Tensor],
    names: list[str],
    inputs: dict[str, Any],
    tolerances: list[tuple[float, float]],
) -> list[str]:
    """The canaries that pass every result of a case; a non-empty list means the case cannot tell them apart."""
    per_result = []
    for name, exp, (rtol, atol) in zip(names, expected, tolerances, strict=True):
        pristine = inputs.get(name) if isinstance(inputs.get(name), torch.Tensor) else None
        passing = {k for k, c in canaries(exp, inputs, pristine).items() if passes(c, exp, rtol, atol)}
        per_result.append(passing)
    if not per_result:
        return []
    passing_all = set.intersection(*per_result)
    # "unchanged" and copies are per result; a canary counts when it passes every result at once
    return sorted(passing_all)
