"""The command line: clear one-line errors and non-zero exits for bad input, never a traceback."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from miner.parse.entrypoints import discover
from miner.source.profile import load_profile
from tests.conftest import TINYBLAS, TINYSOLVER, read_jsonl


def run_cli(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "miner.cli", *args], capture_output=True, text=True, cwd=cwd, timeout=600,
        env=os.environ | env if env else None,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(["mine", "/no/such/dir"], "no such file or directory", id="missing-path"),
        pytest.param(["mine", __file__], "not a directory", id="file-not-dir"),
        pytest.param(["mine", "/tmp", "--library", "tinyblas"], "not a tinyblas checkout", id="not-a-checkout"),
        pytest.param(
            ["mine", str(TINYBLAS), "--library", "nosuchlib"], "unknown library 'nosuchlib'", id="unknown-lib"
        ),
        pytest.param(["mine", "/tmp"], "not a checkout of a known library", id="undetectable"),
        pytest.param(["mine", str(TINYBLAS), "--with", "nonsense"], "--with expects LIBRARY=PATH", id="bad-with"),
        pytest.param(
            ["mine", str(TINYBLAS), "--with", f"tinysolver={TINYSOLVER}"],
            "--with tinysolver: tinyblas does not call tinysolver (it calls no other library)",
            id="with-a-library-not-called",
        ),
        pytest.param(
            ["mine", str(TINYSOLVER), "--with", f"rocblas={TINYBLAS}"],
            "--with rocblas: tinysolver does not call rocblas (it calls tinyblas)",
            id="with-the-wrong-library",
        ),
        pytest.param(["entrypoints", "/no/such/dir"], "no such file or directory", id="entrypoints-missing"),
        pytest.param(["mine", str(TINYBLAS), "--jobs", "0"], "argument --jobs: must be at least 1", id="zero-jobs"),
        pytest.param(
            ["mine", str(TINYBLAS), "--entry", "nomatch*"], "no entry point matches 'nomatch*'", id="no-entry"
        ),
        pytest.param(["mine"], "give a checkout to mine, or --batch JOBS.toml", id="no-path"),
    ],
)
def test_bad_input_gives_one_line_and_exit_2(args, message, tmp_path):
    proc = run_cli(*args, "--out", str(tmp_path)) if args[0] == "mine" else run_cli(*args)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("rocm-miner: error:")
    assert message in lines[0]
    assert "Traceback" not in proc.stderr


def _one_line(proc: subprocess.CompletedProcess) -> str:
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    return lines[0]


@pytest.mark.parametrize("command", [["mine", str(TINYBLAS)], ["graph", str(TINYBLAS), "tinyblas_sscal"]])
def test_output_or_cache_places_that_cannot_be_folders_are_one_line_errors(command, tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("")
    if command[0] == "mine":
        proc = run_cli(*command, "--out", str(afile / "out"))
        assert proc.returncode == 2 and "cannot create the output directory" in _one_line(proc)
    proc = run_cli(*command, "--out", str(tmp_path / "out"), env={"XDG_CACHE_HOME": str(afile)})
    assert proc.returncode == 2 and "cannot create the cache directory" in _one_line(proc)
    cache = tmp_path / "cache"
    cache.mkdir()
    (cache / "parse").write_text("")
    proc = run_cli(*command, "--out", str(tmp_path / "out"), "--cache", str(cache))
    assert proc.returncode == 74 and f"error: {cache / 'parse'}" in _one_line(proc)


def test_output_read_by_something_that_stops_reading_ends_quietly():
    proc = subprocess.Popen([sys.executable, "-m", "miner.cli", "entrypoints", str(TINYBLAS)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)  # fmt: skip
    proc.stdout.close()  # as `| head` does once it has its lines
    err = proc.stderr.read()
    assert proc.wait(timeout=60) == 141 and err == b""


def test_entrypoints_lists_names_variants_and_places():
    proc = run_cli("entrypoints", str(TINYBLAS))
    assert proc.returncode == 0
    rows = [line.split("\t") for line in proc.stdout.splitlines()]
    assert ["tinyblas_sscal_64", "ilp64"] in [r[:2] for r in rows]
    assert all(r[2].startswith("library/include/internal/") for r in rows)


def test_graph_shows_verdicts_and_rules(tinyblas, cache_dir, tmp_path):
    proc = run_cli("graph", str(TINYBLAS), "tinyblas_sscal", "--out", str(tmp_path), "--cache", str(cache_dir))
    assert proc.returncode == 0, proc.stderr
    tree = proc.stdout
    assert "+ tinyblas_sscal (host)" in tree
    assert "tinyblas_scal_kernel (global)" in tree and "<launch macro-rule" in tree
    assert "excluded [deny_names:log_*]" in tree


def test_graph_of_an_entry_point_the_rules_leave_out_shows_it_excluded_and_not_walked(tinyblas, cache_dir, tmp_path):
    proc = run_cli("graph", str(TINYBLAS), "tinyblas_create_handle", "--out", str(tmp_path), "--cache", str(cache_dir))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "- tinyblas_create_handle (host) library/src/handle.cpp:8 excluded [deny_paths:library/src/handle.cpp]"
    ]
    entry = next(r for r in read_jsonl(tinyblas[1] / "entries.jsonl") if r["name"] == "tinyblas_create_handle")
    assert (entry["reason"], entry["detail"]) == ("excluded", "deny_paths:library/src/handle.cpp")


def test_graph_unknown_entry(tinyblas, cache_dir, tmp_path):
    proc = run_cli("graph", str(TINYBLAS), "tinyblas_nope", "--out", str(tmp_path), "--cache", str(cache_dir))
    assert proc.returncode == 2 and "no entry point named 'tinyblas_nope'" in proc.stderr


def test_broken_files_are_recorded_and_the_run_completes(tmp_path, cache_dir):
    """A non-UTF-8 TU is mined and named; an unreadable TU and a TU clang cannot parse are counted; the rest mined."""
    lib = tmp_path / "lib"
    shutil.copytree(TINYBLAS, lib)
    latin1 = lib / "library/src/blas1/tinyblas_dot.cpp"  # defines the dot entry points
    latin1.write_bytes(b"// Jos\xe9's dot\n" + latin1.read_bytes())
    with open(lib / "library/include/internal/tinyblas-functions.h", "ab") as header:  # still read for its entries
        header.write(b"\n// \xff\xfe not UTF-8\n")
    # a file no one can read, root included (CI runs as root, and a chmod-0 file is readable there): reading
    # /proc/self/mem at offset 0 fails with EIO in every process
    (lib / "library/src/blas1/unreadable.cpp").symlink_to("/proc/self/mem")
    (lib / "library/src/blas1/needs_generated.cpp").write_text(
        '#include "Tensile/generated/Missing.h"\nint needs_generated_helper(int x) { return x + 1; }\n'
    )
    out = tmp_path / "out"
    proc = run_cli("mine", str(lib), "--out", str(out), "--cache", str(cache_dir), "--jobs", "2")
    assert proc.returncode == 0, proc.stderr
    report = {r["path"]: r for r in read_jsonl(out / "parse_report.jsonl")}
    odd = report["library/src/blas1/tinyblas_dot.cpp"]
    assert odd.get("failure_reason") is None and odd["engine"] == "clang"
    assert odd["diagnostics"][0]["severity"] == "encoding" and odd["diagnostics"][0]["line"] == 1
    dot = next(r for r in read_jsonl(out / "entries.jsonl") if r["name"] == "tinyblas_sdot")
    assert dot["bundle"] and dot["kernels"]  # the TU is mined, not skipped
    assert "warning: library/src/blas1/tinyblas_dot.cpp is not UTF-8" in proc.stderr
    assert report["library/src/blas1/unreadable.cpp"]["failure_reason"] == "unreadable"
    generated = report["library/src/blas1/needs_generated.cpp"]
    assert generated["fallback_reason"] == "fatal-diagnostic"
    assert "Missing.h" in generated["diagnostics"][0]["message"]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["tus_not_utf8"] == ["library/src/blas1/tinyblas_dot.cpp"]
    assert "not-utf8" not in summary["tus_failed"] and summary["tus_failed"]["unreadable"] == 1
    assert summary["bundles"] > 0
    assert summary["entry_points"] == len(discover(TINYBLAS, load_profile("tinyblas"))[0])
    assert summary["headers_unreadable"] == []


def test_a_public_header_that_cannot_be_read_is_named_in_the_summary_and_warned_of(tmp_path, cache_dir):
    lib = tmp_path / "lib"
    shutil.copytree(TINYBLAS, lib)
    header = lib / "library/include/internal/tinyblas-auxiliary.h"
    header.unlink()
    header.mkdir()
    out = tmp_path / "out"
    proc = run_cli("mine", str(lib), "--out", str(out), "--cache", str(cache_dir), "--jobs", "2")
    assert proc.returncode == 0, proc.stderr
    summary = json.loads((out / "summary.json").read_text())
    assert summary["headers_unreadable"] == ["library/include/internal/tinyblas-auxiliary.h"]
    assert "warning: cannot read library/include/internal/tinyblas-auxiliary.h" in proc.stderr
    assert summary["entry_points"] > 0


def test_mine_with_qa_ends_with_grounded_offline_qa(tinyblas, cache_dir, tmp_path):
    proc = run_cli("mine", str(TINYBLAS), "--out", str(tmp_path), "--cache", str(cache_dir), "--qa")
    assert proc.returncode == 0, proc.stderr
    records = read_jsonl(tmp_path / "qa.jsonl")
    assert records and all(r["grounding"]["grounded"] and r["generator"].startswith("static-facts") for r in records)
    assert "rocm-miner qa: static-facts" in proc.stdout and "kept per category" in proc.stdout
