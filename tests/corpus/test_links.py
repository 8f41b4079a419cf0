"""A verify task is linked to a library entry point only when its description names one in parentheses."""

from __future__ import annotations

import pytest

from miner.corpus.links import named_entry

CASES = {
    "names-rocblas": ('"""BLAS-1 axpy (rocblas_saxpy): y := alpha * x + y."""\n', "rocblas_saxpy"),
    "a-call-in-a-formula": ('"""SwiGLU gate: out = silu(a) * b, elementwise."""\n', ""),
    "on-a-later-line-only": ('"""Row sum.\n\nLike (rocblas_sasum) but per row."""\n', ""),
    "no-docstring": ("x = 1\n", ""),
    "not-python": ("def (:\n", ""),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_task_names_an_entry_point_in_parentheses_on_its_first_line(case: str) -> None:
    source, entry = CASES[case]
    assert named_entry(source) == entry
