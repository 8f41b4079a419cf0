"""`rocm-miner diff` on two revisions of tinyblas in a git repository the test builds: what must change an entry
(a shared host function, a launch moved into a block the build skips, a kernel added), what must not (logging,
numerics checks, a licence line, an instantiation list, comments, whitespace, a handle utility), and an entry
removed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import git
import pytest
from playwright.sync_api import sync_playwright

from miner.agent.config import AgentConfig
from miner.diff.compare import compare, match_regions
from miner.diff.mined import RegionCode, read_mined
from miner.diff.normalise import tokens, without_excluded
from miner.diff.run import DiffOptions, diff_revisions
from miner.errors import InputError, RevisionError
from miner.qa.run import QAOptions, run_qa
from tests.conftest import TINYBLAS, read_jsonl
from tests.support.chat_server import ScriptedChatServer
from tests.support.qa_responder import QAResponder
from tests.test_cli import run_cli

SRC = "library/src"

# (file, text at OLD, text at NEW): none of these may change an entry
EXCLUDED_ONLY = [
    (f"{SRC}/blas1/tinyblas_scal_imp.hpp", "// Example library for rocm-miner tests. MIT licence.",
     "// Example library for rocm-miner tests. MIT licence. Copyright 2026."),
    (f"{SRC}/blas1/tinyblas_scal_imp.hpp", '"-n", n, "--incx", incx);', '"-n", n, "--incx", incx, "--alpha", 1);'),
    (f"{SRC}/blas1/tinyblas_scal_imp.hpp", "            log_trace(handle, tinyblas_scal_name<T, U>, n, x, incx);\n",
     "            log_trace(handle, tinyblas_scal_name<T, U>, n, x, incx);\n"
     "        if(layer_mode & tinyblas_layer_mode_log_bench) // twice\n"
     "        {\n            log_trace(handle, tinyblas_scal_name<T, U>, n);\n        }\n"),
    (f"{SRC}/blas1/tinyblas_scal_imp.hpp", "tinyblas_scal_name<T, U>, handle, n, x, 0, incx, 0, 1, check_numerics, true);",
     "tinyblas_scal_name<T, U>, handle, n, x, 0, incx, 0, 1, check_numerics, /* is_input */ true);"),
    (f"{SRC}/blas1/tinyblas_scal_kernels.hpp", "    if(tid < n)\n        x[tid] = tb_mul(alpha, x[tid]);",
     "    // one element per thread\n    if (tid < n)\n        x[tid] =   tb_mul(alpha,\n  x[tid]);"),
    (f"{SRC}/blas1/tinyblas_scal_kernels.hpp",
     "    INST_SCAL_TEMPLATES(float, float);                              \\\n"
     "    INST_SCAL_TEMPLATES(double, double);                            \\\n",
     "    INST_SCAL_TEMPLATES(double, double);                            \\\n"
     "    INST_SCAL_TEMPLATES(float, float);                              \\\n"),
    (f"{SRC}/include/handle.hpp", "        return stream;", "        return stream ? stream : hipStreamPerThread;"),
]  # fmt: skip

# a host function gemm's and trsm's entries both reach
SHARED_HOST = (
    f"{SRC}/blas3/tinyblas_gemm_kernels.cpp",
    "stride_C,\n" + " " * 62 + "TINYBLAS_API_INT   batch_count)\n{\n",
    "stride_C,\n" + " " * 62 + "TINYBLAS_API_INT   batch_count)\n{\n    if(m == 0 || n == 0)\n"
    "        return tinyblas_status_success;\n",
)

# a kernel no dot entry's types launch
DEAD_KERNEL = [
    (f"{SRC}/blas1/tinyblas_dot_kernels.hpp", "template <bool CONJ, typename T>\ntinyblas_status",
     "#include <type_traits>\n\ntemplate <int NB>\nTINYBLAS_KERNEL(NB)\ntinyblas_dot_half_kernel(int32_t n, const tinyblas_half* x, float* out)\n"
     "{\n    if(threadIdx.x == 0)\n        out[0] = n > 0 ? tb_half_to_float(x[0]) : 0.0f;\n}\n\n"
     "template <bool CONJ, typename T>\ntinyblas_status"),
    (f"{SRC}/blas1/tinyblas_dot_kernels.hpp", "    if(n <= TINYBLAS_DOT_SMALL_N)\n",
     "    if constexpr(std::is_same_v<T, tinyblas_half>)\n    {\n"
     "        hipLaunchKernelGGL((tinyblas_dot_half_kernel<NB>), dim3(1), dim3(NB), 0, stream, int32_t(n),\n"
     "                           x, (float*)workspace);\n        return tinyblas_status_success;\n    }\n"
     "    if(n <= TINYBLAS_DOT_SMALL_N)\n"),
]  # fmt: skip

# gemvn's launches move into a block the default build leaves out
NOW_DEAD = [
    (f"{SRC}/blas2/tinyblas_gemv_kernels.cpp", "        dim3 grid((m - 1) / threads.x + 1);\n",
     "        dim3 grid((m - 1) / threads.x + 1);\n#ifdef TINYBLAS_GEMVN_LEGACY\n"),
    (f"{SRC}/blas2/tinyblas_gemv_kernels.cpp", "m, n, *alpha, A, lda, x, incx, *beta, y, incy);\n",
     "m, n, *alpha, A, lda, x, incx, *beta, y, incy);\n#endif\n"),
]  # fmt: skip

# zaxpy is no longer declared nor defined
REMOVED = [
    (f"{SRC}/blas1/tinyblas_axpy_imp.hpp", "    IMPL(TINYBLAS_API(tinyblas_zaxpy), TI_, tinyblas_double_complex);     \\\n", ""),
    ("library/include/internal/tinyblas-functions.h", "TINYBLAS_EXPORT tinyblas_status tinyblas_zaxpy(", "// gone: ("),
]  # fmt: skip


def _edit(root: Path, edits) -> None:
    for rel, old, new in edits:
        path = root / rel
        text = path.read_text()
        assert text.count(old) == 1, f"{rel}: the fixture no longer has {old!r}"
        path.write_text(text.replace(old, new))


def _two_revisions(root: Path, edits) -> Path:
    shutil.copytree(TINYBLAS, root)
    repo = git.Repo.init(root)
    with repo.config_writer() as cfg:
        cfg.set_value("user", "name", "t").set_value("user", "email", "t@t")
    repo.git.add(A=True)
    repo.index.commit("old")
    repo.create_tag("v1")
    _edit(root, edits)
    repo.git.add(A=True)
    repo.index.commit("new")
    repo.create_tag("v2")
    return root


@pytest.fixture(scope="module")
def released(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("release")
    root = _two_revisions(tmp / "tinyblas", [*EXCLUDED_ONLY, SHARED_HOST, *DEAD_KERNEL, *NOW_DEAD, *REMOVED])
    head = root.joinpath(f"{SRC}/blas1/tinyblas_scal_imp.hpp").read_text()
    report = diff_revisions(DiffOptions(root, "v1", "v2", tmp / "diff", jobs=2, cache_dir=tmp / "cache"), _quiet)
    return report, root, head


def _quiet(phase: str, done: int, total: int) -> None:
    pass


def _verdicts(report) -> dict[str, str]:
    return {d.entry: d.verdict for d in report.entries}


def test_only_the_entries_whose_code_changed_change(released):
    report, _, _ = released
    verdicts = _verdicts(report)
    changed = {e for e, v in verdicts.items() if v == "changed"}
    gemm_trsm = {e for e in verdicts if "gemm" in e or "trsm" in e}
    dots = {e for e in verdicts if "dot" in e}
    gemvs = {e for e in verdicts if "gemv" in e}
    assert gemm_trsm and dots and gemvs
    assert changed == gemm_trsm | dots | gemvs
    assert {e for e, v in verdicts.items() if v == "removed"} == {"tinyblas_zaxpy"}
    assert not any(v == "added" for v in verdicts.values())
    assert report.counts["removed"] == 1 and report.counts["changed"] == len(changed)


def test_logging_numerics_checks_licence_instantiation_lists_comments_and_handle_utilities_change_nothing(released):
    report, root, head = released
    assert "// twice" in head and "Copyright 2026" in head  # the edits are in NEW
    verdicts = _verdicts(report)
    scal = [e for e in verdicts if "scal" in e]
    assert len(scal) >= 10 and all(verdicts[e] == "unchanged" for e in scal)
    assert all(verdicts[e] == "unchanged" for e in verdicts if "axpy" in e and e != "tinyblas_zaxpy")
    assert report.new.tus_parsed == report.new.tus  # handle.hpp changed: every TU was parsed again
    assert report.old.tus_parsed == report.old.tus


def test_a_shared_host_function_changes_every_entry_that_reaches_it_with_its_diff(released):
    report, _, _ = released
    for d in report.entries:
        if "gemm" in d.entry or "trsm" in d.entry:
            (region,) = d.regions
            assert region.change == "changed" and region.name == "tinyblas_internal_gemm_template"
            assert region.file.endswith("tinyblas_gemm_kernels.cpp") and region.line == region.old_line
            assert "+    if(m == 0 || n == 0)" in region.diff
            assert not d.kernels and not d.live_set_changed


def test_a_kernel_added_dead_is_no_live_set_change(released):
    report, _, _ = released
    for d in report.entries:
        if "dot" in d.entry and d.verdict == "changed":
            assert {(r.change, r.name) for r in d.regions} == {
                ("added", "tinyblas_dot_half_kernel"),
                ("added", "tb_half_to_float"),  # the dead kernel's helper
                ("changed", "tinyblas_internal_dot_template"),
            }
            (kernel,) = d.kernels
            assert (kernel.name, kernel.change, kernel.live, kernel.reason) == (
                "tinyblas_dot_half_kernel", "added", False, "type"
            )  # fmt: skip
            assert not d.live_set_changed and not d.live_added


def test_a_launch_the_build_now_skips_flips_the_kernel_dead_with_its_reason(released):
    report, _, _ = released
    gemvs = [d for d in report.entries if "gemv" in d.entry]
    for d in gemvs:
        (kernel,) = d.kernels
        assert (kernel.name, kernel.change, kernel.reason) == ("tinyblas_gemvn_kernel", "now dead", "build")
        assert kernel.decided_at.startswith("library/src/blas2/tinyblas_gemv_kernels.cpp:")
        assert d.live_set_changed and d.live_removed == [f"tinyblas_gemvn_kernel ({kernel.file}:{kernel.line})"]


def test_diff_json_is_written_and_the_other_way_round_the_entry_is_added(released):
    report, _, _ = released
    written = json.loads(Path(report.new.out).parent.joinpath("diff.json").read_text())
    assert written["counts"] == report.counts and written["old"]["revision"] == "v1"
    backwards = compare(read_mined(Path(report.new.out)), read_mined(Path(report.old.out)))
    flipped = {d.entry: d for d in backwards}
    assert flipped["tinyblas_zaxpy"].verdict == "added"
    assert {k.change for d in backwards for k in d.kernels} == {"removed", "now live"}


def test_the_cli_prints_the_table_and_the_tu_counts(released, tmp_path):
    _, root, _ = released
    cache = root.parent / "cache"  # the fixture's: nothing is parsed again
    proc = run_cli("diff", str(root), "v1", "v2", "--out", str(tmp_path / "d"), "--jobs", "2", "--cache", str(cache))
    assert proc.returncode == 0, proc.stderr
    assert "tinyblas v1" in proc.stdout and "TUs" in proc.stdout and "tinyblas_gemvn_kernel" in proc.stdout
    assert "1 removed" in proc.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["v1", "no-such-tag"], "unknown revision 'no-such-tag'"),
        (["v0", "v2"], "no tinyblas at that revision"),
        (["v1", "v2", "--library", "rocblas"], "not a rocblas checkout"),
    ],
)
def test_bad_revisions_give_one_line_and_write_nothing(released, tmp_path, args, message):
    _, root, _ = released
    repo = git.Repo(root)
    if "v0" not in repo.tags:
        empty = repo.git.commit_tree(repo.git.mktree(istream=""), "-m", "empty")
        repo.create_tag("v0", ref=empty)
    proc = run_cli("diff", str(root), *args, "--out", str(tmp_path / "d"))
    assert proc.returncode == 2
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "d").exists()


def test_a_folder_that_is_no_git_checkout_is_refused(tmp_path):
    with pytest.raises(RevisionError, match="needs a git checkout"):
        shutil.copytree(TINYBLAS, tmp_path / "plain")
        diff_revisions(DiffOptions(tmp_path / "plain", "a", "b", tmp_path / "d"), _quiet)
    with pytest.raises(InputError, match="not a rocm-miner output folder"):
        read_mined(tmp_path / "plain")


def _region(file: str, name: str, code: str, line: int = 1) -> RegionCode:
    return RegionCode(f"{file}:{line}-{line + 5}", name, name, "impl", file, line, code, (name,), "", frozenset())


def test_functions_are_told_apart_by_file_and_signature_never_merged_by_name():
    a1 = _region("a.cpp", "device_malloc", "void* device_malloc(size_t n) { return f(n); }")
    b1 = _region("b.cpp", "device_malloc", "void* device_malloc(size_t n) { return g(n); }")
    a2 = _region("a.cpp", "device_malloc", "void* device_malloc(int n, int m) { return f(n); }", 9)
    moved = _region("a.cpp", "device_malloc", "\n\nvoid* device_malloc(size_t n) { return f(n); }", 40)
    pairs, removed, added = match_regions([a1, b1, a2], [b1, moved, a2])
    assert {(x.id, y.id) for x, y in pairs} == {(a1.id, moved.id), (b1.id, b1.id), (a2.id, a2.id)}
    assert not removed and not added
    pairs, removed, added = match_regions([a1, b1], [b1])
    assert [(x.file, y.file) for x, y in pairs] == [("b.cpp", "b.cpp")] and removed == [a1] and not added


def test_normalising_drops_comments_whitespace_and_statements_that_only_call_excluded_code():
    old = "int f(int n) {\n  if (mode & 1) log_trace(h, n);\n  st = check(n); return go(n); }"
    new = "int f(int n) // doc\n{\n  log_bench(h,\n n); /* x */\n  if(mode & 2) { log_trace(h); }\n  return go( n );\n}"
    excluded = {"log_trace", "log_bench", "check"}
    assert without_excluded(tokens(old), excluded) == without_excluded(tokens(new), excluded)
    assert tokens(old) != tokens(new)
    kept = "int f(int n) { auto s = log_trace(h) + go(n); return s; }"  # a call inside a larger expression stays
    assert "log_trace" in without_excluded(tokens(kept), excluded)
    assert without_excluded(tokens('s = "a  /* b */";'), excluded) == ["s", "=", '"a  /* b */"', ";"]


def _qa(mined: Path, out: Path, server, since: Path | None = None):
    config = AgentConfig(base_url=server.base_url, model="scripted", api_key="k")
    return run_qa(QAOptions(bundles=mined, out=out, agent=config, since=since, jobs=1))


def test_qa_since_asks_the_model_only_for_changed_contexts_and_drops_the_gone(released, tmp_path):
    report, _, _ = released
    old, new = Path(report.old.out), Path(report.new.out)
    with ScriptedChatServer(QAResponder("good")) as server:
        before = _qa(old, tmp_path / "qa-old", server)
        asked_before = len(server.requests)
        after = _qa(new, tmp_path / "qa-new", server, since=tmp_path / "qa-old")
        asked_after = len(server.requests) - asked_before
    s = after.since
    assert before.requests == asked_before == before.units
    assert s.carried > 0 and s.regenerated > 0 and s.carried + s.regenerated == after.units
    assert after.requests == asked_after == s.regenerated  # one request per unit made now, none for the carried
    assert s.replaced + s.dropped == before.units - s.carried
    old_records = {r["id"]: r for r in read_jsonl(tmp_path / "qa-old" / "qa.jsonl")}
    new_records = read_jsonl(tmp_path / "qa-new" / "qa.jsonl")
    carried = [r for r in new_records if r["id"] in old_records]
    assert len(carried) == s.carried_records and carried
    assert all(r["question"] == old_records[r["id"]]["question"] for r in carried)
    by_kernel = {r["kernel_name"] for r in new_records}
    assert "tinyblas_gemvn_kernel" not in by_kernel  # dead at NEW: its items are dropped
    assert s.dropped >= 2 and s.dropped_records > 0  # gemvn's QA and implementation units
    gone = {r["kernel_name"] for r in old_records.values()} - by_kernel
    assert gone == {"tinyblas_gemvn_kernel"}
    summary = json.loads((tmp_path / "qa-new" / "qa_summary.json").read_text())
    assert summary["since"]["carried"] == s.carried and summary["requests"] == s.regenerated


def test_qa_since_a_release_that_changed_nothing_makes_no_request(released, tmp_path):
    report, _, _ = released
    old = Path(report.old.out)
    with ScriptedChatServer(QAResponder("good")) as server:
        _qa(old, tmp_path / "first", server)
        asked = len(server.requests)
        again = _qa(old, tmp_path / "second", server, since=tmp_path / "first" / "qa.jsonl")
    assert len(server.requests) == asked and again.requests == 0
    assert again.since.carried == again.units and again.since.regenerated == again.since.dropped == 0
    assert (tmp_path / "first" / "qa.jsonl").read_bytes() == (tmp_path / "second" / "qa.jsonl").read_bytes()


def test_qa_since_a_folder_without_an_earlier_run_is_one_line(released, tmp_path):
    report, _, _ = released
    proc = run_cli("qa", report.new.out, "--offline", "--out", str(tmp_path / "q"), "--since", str(tmp_path))
    assert proc.returncode == 2 and "no earlier QA run there" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_the_report_shows_the_diff_verdicts(released, tmp_path):
    report, _, _ = released
    html = tmp_path / "report.html"
    proc = run_cli("report", report.new.out, "--diff", str(Path(report.new.out).parent), "--html", str(html))
    assert proc.returncode == 0, proc.stderr
    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=shutil.which("chromium"), args=["--no-sandbox", "--disable-dev-shm-usage"]
        )
        page = browser.new_page()
        problems = []
        page.on("pageerror", lambda e: problems.append(str(e)))
        page.goto(html.as_uri() + "#entry=tinyblas_sdot")
        page.wait_for_selector("#graph svg")
        assert "changed" in page.inner_text("#entry-name")
        text = page.inner_text("#entry")
        assert "tinyblas_dot_half_kernel: added, dead (type)" in text and "the live set did not change" in text
        assert "v1 → v2" in page.inner_text("#provenance")
        page.fill("#search", "zaxpy")
        assert page.locator("nav li[data-entry='tinyblas_zaxpy']:visible .badge").inner_text() == "removed"
        browser.close()
    assert problems == []
    bad = run_cli("report", report.new.out, "--diff", str(tmp_path), "--html", str(tmp_path / "x.html"))
    assert bad.returncode == 2 and "no diff.json there" in bad.stderr and not (tmp_path / "x.html").exists()


def test_entries_no_bundle_holds_are_not_mined_not_unchanged(released):
    report, root, _ = released
    not_reached = read_jsonl(Path(report.new.out) / "not_reached.jsonl")
    assert not_reached
    verdicts = {d.entry: d for d in report.entries}
    for record in not_reached:
        d = verdicts[record["entry"]]
        assert d.verdict == "not mined" and d.note.startswith(record["reason"])


def test_an_api_wrapper_that_moved_into_a_list_macro_is_paired_with_it():
    old = RegionCode("a.cpp:1-9", "f", "f", "api", "a.cpp", 1, "int f(int n) { return impl(n); }", ("f",), "",
                     frozenset())  # fmt: skip
    macro = "#define IMPL(name_, T_) int name_(T_ n) { return impl(n); }\n#define LIST IMPL(g, int); IMPL(f, int);"
    new = RegionCode("a_imp.hpp:5-9", "g", "g", "api", "a_imp.hpp", 5, macro, ("g", "f"), "LIST", frozenset())
    pairs, removed, added = match_regions([old], [new], "f")
    assert pairs == [(old, new)] and not removed and not added


def test_a_call_that_gains_the_librarys_namespace_is_no_change():
    from miner.diff.normalise import unqualified

    spaces = frozenset({"rocsolver", "v32800"})
    old, new = tokens("return getrf_impl<T>(handle, n);"), tokens("return rocsolver::v32800::getrf_impl<T>(handle, n);")
    assert unqualified(old, spaces) == unqualified(new, spaces) and old != new
    assert unqualified(tokens("std::max(a, b)"), spaces) == tokens("std::max(a, b)")


def test_the_summary_counts_the_with_librarys_tus(tinysolver):
    summary = json.loads((tinysolver[1] / "summary.json").read_text())
    tus, hits = summary["with_tus"]["tinyblas"]
    tinyblas_tus = [r for r in read_jsonl(tinysolver[1] / "parse_report.jsonl") if r["path"].startswith("@tinyblas/")]
    assert tus > 10 and 0 <= hits <= tus and len(tinyblas_tus) in (0, tus)
