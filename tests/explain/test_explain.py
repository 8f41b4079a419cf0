"""`rocm-miner explain`: why a function is in an entry's bundle (path, edges, rule, verdict) or why not, from the
output folder alone."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.test_cli import run_cli


def _explain(out, *args: str) -> list[dict]:
    proc = run_cli("explain", str(out), *args, "--json")
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


@pytest.fixture(scope="module")
def out(tinyblas):
    return tinyblas[1]


def test_a_live_kernel_has_its_path_edges_rule_and_conditions(out):
    (x,) = _explain(out, "tinyblas_sscal", "tinyblas_scal_kernel")
    assert x["status"] == "in bundle" and x["role"] == "kernel" and x["live"] is True
    names = [s["name"] for s in x["path"]]
    assert names == [
        "tinyblas_sscal", "tinyblas_scal_impl", "tinyblas_internal_scal_template", "tinyblas_scal_launcher",
        "tinyblas_scal_kernel",
    ]  # fmt: skip
    assert x["path"][1]["call_at"] == "library/src/blas1/tinyblas_scal.cpp:4"  # the macro's expansion site
    launch = x["path"][-1]
    assert launch["edge"] == "launch" and "incx == 1" in launch["conditions"]
    assert "!(std::is_same_v<T, tinyblas_half>)" in launch["conditions"]
    assert x["rule"].startswith("followed") and "incx == 1" in x["conditions"]


def test_a_dead_kernel_has_its_reason_and_deciding_line(out):
    (x,) = _explain(out, "tinyblas_sscal", "tinyblas_hscal_2_kernel")
    assert x["status"] == "in bundle" and x["live"] is False and x["reason"] == "type"
    assert x["decided_at"] == "library/src/blas1/tinyblas_scal_kernels.hpp:76"
    (build,) = _explain(out, "tinyblas_sgemm", "tinyblas_gemm_source_kernel")
    assert build["status"] == "reached, not bundled" and build["reason"] == "build"
    assert "BUILD_WITH_TENSILE" in build["detail"]


def test_a_live_helper_is_reached_through_a_kernel_that_runs(out):
    helpers = _explain(out, "tinyblas_sscal", "load_ptr_batch")
    assert len(helpers) == 2  # both overloads, never merged
    live = [h for h in helpers if h["live"]]
    assert live and all(h["path"][-2]["name"] != "tinyblas_hscal_2_kernel" for h in live)


def test_excluded_boundary_and_unreached_functions_say_why(out):
    (log,) = _explain(out, "tinyblas_sscal", "log_trace")
    assert log["status"] == "excluded" and log["rule"] == "deny_names:log_*"
    assert log["called_from"] == ["tinyblas_scal_impl (library/src/blas1/tinyblas_scal_imp.hpp:44)"]
    (tensile,) = _explain(out, "tinyblas_sgemm", "runContractionProblem")
    assert tensile["status"] == "boundary" and tensile["rule"] == "generated"
    (gemv,) = _explain(out, "tinyblas_sscal", "tinyblas_gemvn_kernel")
    assert gemv["status"] == "not reached" and "tinyblas_sgemv" in gemv["elsewhere"]
    (nothing,) = _explain(out, "tinyblas_sscal", "no_such_function")
    assert nothing["status"] == "not reached" and nothing["elsewhere"] == []


def test_every_region_of_the_bundle_is_explained_in_text(out):
    proc = run_cli("explain", str(out), "tinyblas_dscal")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("tinyblas_dscal ›") >= 8 and "kept: followed" in proc.stdout
    assert "verdict: dead (type)" in proc.stdout and "verdict: live; it runs at least when" in proc.stdout


def test_an_entry_in_no_bundle_says_why(out):
    records = [json.loads(line) for line in (out / "not_reached.jsonl").read_text().splitlines()]
    assert records
    proc = run_cli("explain", str(out), records[0]["entry"])
    assert proc.returncode == 0 and "in no bundle" in proc.stdout and records[0]["reason"] in proc.stdout


@pytest.mark.parametrize(
    ("make", "entry", "message"),
    [
        (lambda tmp, out: out, "tinyblas_sscall", "no entry point named 'tinyblas_sscall'"),
        (lambda tmp, out: tmp / "missing", "tinyblas_sscal", "no such output folder"),
        (lambda tmp, out: tmp, "tinyblas_sscal", "not a rocm-miner output folder"),
    ],
)
def test_bad_input_is_one_line(out, tmp_path, make, entry, message):
    (tmp_path / "run.json").write_text('{"tool": "something else"}')
    proc = run_cli("explain", str(make(tmp_path, out)), entry)
    assert proc.returncode == 2 and message in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_a_copy_without_the_bundle_is_reported(out, tmp_path):
    copy = tmp_path / "copy"
    shutil.copytree(out, copy, ignore=shutil.ignore_patterns(".cache"))
    (copy / "bundles.jsonl").write_text("")
    proc = run_cli("explain", str(copy), "tinyblas_sscal")
    assert proc.returncode == 2 and "bundles.jsonl lacks" in proc.stderr


def test_the_entry_itself_is_found_in_a_macro_that_defines_its_whole_family(out):
    (x,) = _explain(out, "tinyblas_dscal", "tinyblas_dscal")
    assert x["status"] == "in bundle" and x["role"] == "api" and x["function"] == "tinyblas_dscal"
    assert [s["name"] for s in x["path"]] == ["tinyblas_dscal"]


def test_a_helper_overload_is_reached_through_a_kernel_whose_instantiation_calls_it(out):
    for x in _explain(out, "tinyblas_sscal", "load_scalar"):
        if x["live"]:
            kernel = x["path"][-2]
            assert kernel["role"] == "kernel" and x["path"][-1]["edge"] == "call"
