"""Liveness conditions as a reader would write them: negations pushed inward, double negations dropped."""

from __future__ import annotations

import pytest

from miner.liveness.simplify import fold, simplify


@pytest.mark.parametrize(
    ("written", "simplified"),
    [
        ("!(!handle)", "handle"),
        ("!(n <= 0 || incx <= 0)", "n > 0 && incx > 0"),
        ("!(!x || !alpha)", "x && alpha"),
        ("!(using_rocblas_float && incx == 1)", "!using_rocblas_float || incx != 1"),
        (
            "!(rocblas_pointer_mode_device == handle->pointer_mode)",
            "rocblas_pointer_mode_device != handle->pointer_mode",
        ),
        ("!(a && (b || c))", "!a || (!b && !c)"),
        ("!(m < 2 * n)", "m >= 2 * n"),
        ("incx == 1 && incy == 1 && !device_mode", "incx == 1 && incy == 1 && !device_mode"),
        ("!(std::is_same_v<T, float>)", "!std::is_same_v<T, float>"),
    ],
)
def test_negations_are_pushed_inward(written: str, simplified: str) -> None:
    assert simplify(written) == simplified


def test_a_condition_that_does_not_parse_is_kept_as_written() -> None:
    assert simplify("x <") == "x <"


def test_entries_carry_simplified_conditions(tinyblas) -> None:
    from tests.conftest import read_jsonl

    _, out = tinyblas
    conditions = [
        c for entry in read_jsonl(out / "entries.jsonl") for kernel in entry["kernels"] for c in kernel["conditions"]
    ]
    assert conditions and not any(c.startswith("!(!") or c.startswith("!(") and " || " in c for c in conditions)


@pytest.mark.parametrize(
    ("written", "known", "folded"),
    [
        ("using_rocblas_float && incx == 1", (True, None), "incx == 1"),
        ("(is_float || m < 6000 || n < 6000) && !i64", (False, None, None, None), "(m < 6000 || n < 6000) && !i64"),
        ("a || (b && c)", (None, True, None), "a || c"),
        ("a && b", (None, None), "a && b"),
        ("a && b", (True, True), "a && b"),  # decided whole: not a runtime condition, left as it came
        ("a && b", (True,), "a && b"),  # operands that do not line up with the chain: left as it came
    ],
)
def test_operands_an_instance_decides_are_folded_away(written: str, known: tuple, folded: str) -> None:
    assert fold(written, known) == folded
