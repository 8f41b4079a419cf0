"""The reasons `explain` gives, on patterns of the real libraries that once got the wrong one: a branch on a
``static constexpr`` flag built from ``std::is_same_v`` is decided by the type, not by a constant; a host
overload the call never selects is dead by type, with the overload it does select; a helper's path is the one
its conditions belong to; a boundary lists every line that calls it."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from tests.conftest import TINYBLAS, _mine
from tests.test_cli import run_cli

LAUNCHER = "library/src/blas1/tinyblas_scal_kernels.hpp"

# rocBLAS's scal launcher: `static constexpr bool using_rocblas_half = std::is_same_v<...>` tested in a plain
# `if` with a runtime operand, the launch itself under `if constexpr`; rocSOLVER's rocblasCall_dot: host
# overloads told apart by `const T*` and `const T* const*`
WIDE_KERNEL = """
template <typename API_INT, int NB, typename Tx>
TINYBLAS_KERNEL(NB)
tinyblas_hscal_wide_kernel(API_INT n, Tx xa)
{
    int64_t tid = blockIdx.x * int64_t(NB) + threadIdx.x;
    if(tid < n)
        (void)xa;
}

template <typename U>
void tb_prepare_alpha(const U* alpha, int64_t n)
{
    (void)alpha;
    (void)n;
}

template <typename U>
void tb_prepare_alpha(const U* const* alpha, int64_t n)
{
    (void)alpha;
    (void)n;
}

// dispatch on type (if constexpr), increment and pointer mode
"""
FLAG_BRANCH = """    dim3        threads(NB);

    static constexpr bool using_half // a tool's comment between the name and its value
        = std::is_same_v<T, tinyblas_half>;
    tb_prepare_alpha(alpha, n);
    if(using_half && incx == 1 && n > 4096)
    {
        if constexpr(using_half)
            TINYBLAS_LAUNCH_KERNEL((tinyblas_hscal_wide_kernel<API_INT, NB, Tx>), dim3(n / 4096, 1, batch_count),
                                   threads, 0, stream, n, x);
        return tinyblas_status_success;
    }
"""


def _explain(out, *args: str) -> list[dict]:
    proc = run_cli("explain", str(out), *args, "--json")
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


@pytest.fixture(scope="module")
def patched(tmp_path_factory, cache_dir):
    tree = tmp_path_factory.mktemp("tinyblas-patterns") / "tinyblas"
    shutil.copytree(TINYBLAS, tree)
    launcher = tree / LAUNCHER
    text = launcher.read_text()
    text = text.replace("\n// dispatch on type (if constexpr), increment and pointer mode\n", WIDE_KERNEL, 1)
    text = text.replace("    dim3        threads(NB);\n", FLAG_BRANCH, 1)
    launcher.write_text(text)
    _, out = _mine(tree, tmp_path_factory.mktemp("tinyblas-patterns-out"), cache_dir)
    return tree, out


def _line(tree, needle: str) -> int:
    lines = (tree / LAUNCHER).read_text().splitlines()
    return next(i for i, line in enumerate(lines, 1) if needle in line)


def test_a_branch_on_a_constexpr_type_flag_is_decided_by_the_type(patched):
    tree, out = patched
    (wide,) = _explain(out, "tinyblas_sscal", "tinyblas_hscal_wide_kernel")
    assert wide["live"] is False and wide["reason"] == "type"
    assert wide["decided_at"] == f"{LAUNCHER}:{_line(tree, 'if(using_half && incx == 1')}"
    assert wide["path"][-1]["name"] == "tinyblas_hscal_wide_kernel"
    (half,) = _explain(out, "tinyblas_hscal", "tinyblas_hscal_wide_kernel")
    assert half["live"] is True and "n > 4096" in " ".join(half["conditions"])


def test_a_host_overload_the_call_never_selects_is_dead_by_type(patched):
    tree, out = patched
    overloads = {x["line"]: x for x in _explain(out, "tinyblas_sscal", "tb_prepare_alpha")}
    single = _line(tree, "void tb_prepare_alpha(const U* alpha")
    array = _line(tree, "void tb_prepare_alpha(const U* const* alpha")
    assert overloads[single - 1]["live"] is True
    dead = overloads[array - 1]
    assert dead["live"] is False and dead["reason"] == "type"
    assert dead["decided_at"] == f"{LAUNCHER}:{_line(tree, 'tb_prepare_alpha(alpha, n);')}"
    assert f"selects tb_prepare_alpha at {LAUNCHER}:{single - 1}" in dead["detail"]
    proc = run_cli("explain", str(out), "tinyblas_sscal", "tb_prepare_alpha")
    assert "no deciding line is stored" not in proc.stdout


def test_a_helpers_path_is_the_one_its_conditions_belong_to(tinyblas):
    out = tinyblas[1]
    helpers = _explain(out, "tinyblas_sscal", "load_scalar")
    assert len(helpers) == 2 and all(h["live"] for h in helpers)
    for helper in helpers:
        launch = next(s for s in helper["path"] if s["edge"] == "launch")
        by_pointer = "device_mode" in helper["conditions"]
        assert ("device_mode" in launch["conditions"]) == by_pointer
        assert ("!(device_mode)" in launch["conditions"]) == (not by_pointer)
        assert helper["path"][-2]["role"] == "kernel"


def test_a_boundary_lists_every_line_that_calls_it(tinyblas):
    (peek,) = _explain(tinyblas[1], "tinyblas_sscal", "hipPeekAtLastError")
    assert peek["status"] == "boundary"
    (launcher,) = peek["called_from"]
    assert launcher.startswith("tinyblas_scal_launcher (") and launcher.count(",") == 5  # six launches


def test_the_report_draws_a_host_overload_that_cannot_run_as_dead(patched, tmp_path):
    tree, out = patched
    page = tmp_path / "report.html"
    proc = run_cli("report", str(out), "--html", str(page))
    assert proc.returncode == 0, proc.stderr
    blocks = re.findall(r'<script type="application/json" id="f\d+">(.*?)</script>', page.read_text(), re.S)
    family = next(f for f in map(json.loads, blocks) if "tinyblas_sscal" in f["entries"])
    regions = {(r["name"], r["start_line"]): r["index"] for r in family["regions"]}
    array = regions[("tb_prepare_alpha", _line(tree, "void tb_prepare_alpha(const U* const* alpha") - 1)]
    single = regions[("tb_prepare_alpha", _line(tree, "void tb_prepare_alpha(const U* alpha") - 1)]
    verdicts = family["verdicts"]["tinyblas_sscal"]
    assert verdicts[str(array)][:2] == [False, "type"]
    assert str(single) not in verdicts  # live host code is drawn as host code on the entry's path
