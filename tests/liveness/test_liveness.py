"""Per-entry liveness on the example libraries against examples/expected.json."""

from __future__ import annotations

import pytest

from tests.bundle.test_ground_truth import kernel_names
from tests.conftest import TINYBLAS, read_jsonl

LIBRARIES = ["tinyblas", "tinysolver"]
# Deciding this needs a summary of a predicate over a pointed-to constant (``is_one(alpha)`` with
# ``alpha = &one``): not analysed, so it stays live.
NEEDS_RANGES = {"tinyblas_trsm_scale_kernel"}


@pytest.fixture(scope="module")
def entries(tinyblas, tinysolver):
    return {
        lib: {e["name"]: e for e in read_jsonl(path / "entries.jsonl")}
        for lib, (_, path) in (("tinyblas", tinyblas), ("tinysolver", tinysolver))
    }


def _truth(expected, library):
    return {k: v for k, v in expected[library].items() if not k.startswith("_")}


@pytest.mark.parametrize("library", LIBRARIES)
def test_no_kernel_that_can_run_is_marked_dead(entries, expected, library):
    wrong = {}
    for name, truth in _truth(expected, library).items():
        dead = set(truth["kernels"]) & kernel_names(entries[library][name], live=False)
        if dead:
            wrong[name] = sorted(dead)
    assert not wrong


@pytest.mark.parametrize("library", LIBRARIES)
def test_kernels_that_cannot_run_are_dead_with_the_right_reason(entries, expected, library):
    wrong = {}
    for name, truth in _truth(expected, library).items():
        got = {k["name"]: k for k in entries[library][name]["kernels"] if not k["live"]}
        for dead in truth.get("dead_kernels", []):
            if dead["name"] in NEEDS_RANGES:
                continue
            record = got.get(dead["name"])
            if record is None or record["reason"] != dead["reason"] or not record["decided_at"]:
                wrong.setdefault(name, []).append((dead["name"], dead["reason"], record and record["reason"]))
    assert not wrong


@pytest.mark.parametrize("library", LIBRARIES)
def test_every_device_helper_that_can_run_has_a_live_overload(entries, expected, library):
    wrong = {}
    for name, truth in _truth(expected, library).items():
        live = {h["name"] for h in entries[library][name]["device_helpers"] if h["live"]}
        if missing := set(truth.get("device_helpers", [])) - live:
            wrong[name] = sorted(missing)
    assert not wrong


@pytest.mark.parametrize("library", LIBRARIES)
def test_device_helpers_that_cannot_run_are_dead_in_every_overload_with_the_right_reason(entries, expected, library):
    """A helper is chosen by the overload its kernel's instantiation calls (``tb_mul(float, float)`` for sdot, not
    the complex ones) and by the branches its template arguments fold (``CONJ ? tb_conj(x) : x``)."""
    wrong = {}
    for name, truth in _truth(expected, library).items():
        regions: dict[str, list[dict]] = {}
        for h in entries[library][name]["device_helpers"]:
            regions.setdefault(h["name"], []).append(h)
        for dead in truth.get("dead_device_helpers", []):
            found = regions.get(dead["name"], [])
            if any(h["live"] for h in found) or dead["reason"] not in {h["reason"] for h in found}:
                wrong.setdefault(name, []).append((dead["name"], dead["reason"], [h["reason"] for h in found]))
    assert not wrong


@pytest.mark.xfail(strict=True, raises=AssertionError, reason="predicates over pointed-to constants are not analysed")
def test_kernels_decided_by_value_ranges_are_dead(entries, expected):
    got = {k["name"] for k in entries["tinysolver"]["tinysolver_sgetrf"]["kernels"] if not k["live"]}
    assert got >= NEEDS_RANGES


def test_live_kernels_carry_the_runtime_conditions_on_their_path(entries):
    kernels = {k["name"]: k for k in entries["tinyblas"]["tinyblas_saxpy"]["kernels"]}
    assert "incx == 1 && incy == 1 && !device_mode" in kernels["tinyblas_saxpy_unit_kernel"]["conditions"]


def test_a_constant_argument_propagates_down_the_call_path(entries):
    scal = next(k for k in entries["tinysolver"]["tinysolver_sgetf2"]["kernels"]
                if k["name"] == "tinyblas_scal_strided_kernel")  # fmt: skip
    assert (scal["live"], scal["reason"]) == (False, "constant")
    assert "incx = 1" in scal["detail"]


def test_dead_type_verdicts_point_at_the_deciding_if_constexpr(entries):
    half = next(k for k in entries["tinyblas"]["tinyblas_sscal"]["kernels"] if k["name"] == "tinyblas_hscal_2_kernel")
    assert (half["live"], half["reason"]) == (False, "type")
    file, line = half["decided_at"].rsplit(":", 1)
    assert "if constexpr" in (TINYBLAS / file).read_text().splitlines()[int(line) - 1]


def test_a_path_through_excluded_code_makes_nothing_live(entries):
    """The numerics checker (excluded) calls ``tb_pairs`` on the host; for float the one included path to it
    is the half-precision kernel that ``if constexpr`` leaves out: dead, not live under the checker's
    conditions (rocBLAS's ``adjust_ptr_batch`` for the 32-bit trsm entries)."""
    helpers = {lib: {h["name"]: h for h in entries["tinyblas"][lib]["device_helpers"]}
               for lib in ("tinyblas_sscal", "tinyblas_hscal")}  # fmt: skip
    pairs = helpers["tinyblas_sscal"]["tb_pairs"]
    assert (pairs["live"], pairs["reason"]) == (False, "type")
    pairs = helpers["tinyblas_hscal"]["tb_pairs"]
    assert pairs["live"] and not any("check_numerics" in c for c in pairs["conditions"])


def test_bundle_regions_say_which_entries_they_are_live_for(tinyblas):
    _, out = tinyblas
    for bundle in read_jsonl(out / "bundles.jsonl"):
        if "tinyblas_sscal" not in bundle["entries"]:
            continue
        regions = {r["name"]: r for r in bundle["regions"]}
        assert "tinyblas_sscal" not in regions["tinyblas_hscal_2_kernel"]["live_for"]
        assert "tinyblas_sscal" in regions["tinyblas_scal_kernel"]["live_for"]
        assert set(regions["tinyblas_scal_kernel"]["live_for"]) <= set(regions["tinyblas_scal_kernel"]["entries"])
        return
    pytest.fail("no bundle holds tinyblas_sscal")


def test_kernels_only_excluded_code_launches_are_dead_for_the_build(entries):
    source = next(k for k in entries["tinyblas"]["tinyblas_sgemm"]["kernels"]
                  if k["name"] == "tinyblas_gemm_source_kernel")  # fmt: skip
    assert (source["live"], source["reason"]) == (False, "build")
    assert source["detail"] == "#else of #if BUILD_WITH_TENSILE"
    helpers = {h["name"]: h for h in entries["tinyblas"]["tinyblas_sgemm"]["device_helpers"]}
    assert (helpers["tb_elem_op"]["live"], helpers["tb_elem_op"]["reason"]) == (False, "build")


def test_build_dead_kernels_are_in_no_bundle(tinyblas):
    _, out = tinyblas
    names = {r["name"] for b in read_jsonl(out / "bundles.jsonl") for r in b["regions"]}
    assert "tinyblas_gemm_source_kernel" not in names
