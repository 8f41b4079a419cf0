"""Fixtures of the verify tests: one CPU verifier (Triton's interpreter) shared by a test session."""

from __future__ import annotations

from pathlib import Path

import pytest

# no skip without them: the README's test command installs the verify extra, and a suite that quietly lost a third
# of its tests when that failed is what this guards against (a missing one fails the collection)
import torch
import triton  # noqa: F401

from miner.verify.evaluate import Verifier, VerifyOptions

HERE = Path(__file__).resolve().parent
ADVERSARIAL = HERE / "adversarial"
REPO = HERE.parents[1]
SOLUTIONS = REPO / "tasks" / "solutions"


def header(path: Path) -> dict[str, str]:
    """The ``# key: value`` lines at the top of an adversarial candidate (task, expect, device)."""
    out = {}
    for line in path.read_text().splitlines()[:4]:
        body = line.removeprefix("# ").removeprefix("// ")
        if ": " in body and line[:2] in ("# ", "//"):
            key, value = body.split(": ", 1)
            out[key] = value.strip()
    return out


def pytest_configure(config) -> None:
    config.addinivalue_line("markers", "gpu: needs a GPU (skipped without one; run on the H200)")


def gpu_available() -> bool:
    return torch.cuda.is_available()


@pytest.fixture(scope="session")
def cpu_verifier():
    with Verifier(VerifyOptions.for_device("cpu", first_call_timeout_s=6, call_timeout_s=6)) as v:
        yield v


@pytest.fixture(scope="session")
def gpu_verifier():
    if not gpu_available():
        pytest.skip("no GPU")
    with Verifier(VerifyOptions.for_device("cuda", reps=10, rounds=2, first_call_timeout_s=45)) as v:
        yield v
