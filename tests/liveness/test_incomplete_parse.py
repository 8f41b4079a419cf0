"""A parse clang could not finish decides nothing: rocSOLVER on a machine without fmt lost every TU at its first
include and every kernel of every entry came out dead. Here the example solver loses its logging header: each entry
whose walk rests on a TU that stopped has no dead kernel, says why, and the run says it is degraded."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from miner import cli
from miner.liveness.verdicts import UNDECIDED_BY_PARSE
from tests.conftest import TINYBLAS, TINYSOLVER, _mine, read_jsonl

LOST = "library/src/include/tinysolver_logger.hpp"


@pytest.fixture(scope="module")
def without_logger(tmp_path_factory):
    root = tmp_path_factory.mktemp("checkout") / "tinysolver"
    shutil.copytree(TINYSOLVER, root)
    (root / LOST).unlink()
    out, cache = tmp_path_factory.mktemp("out"), tmp_path_factory.mktemp("cache")
    a, _ = _mine(root, out, cache, with_libraries={"tinyblas": TINYBLAS})
    return a, out, root, cache


def _entries(out: Path) -> dict[str, dict]:
    return {e["name"]: e for e in read_jsonl(out / "entries.jsonl")}


def test_no_kernel_or_helper_is_dead_for_an_entry_whose_tus_stopped(without_logger, tinysolver):
    out = without_logger[1]
    entries = _entries(out)
    stopped = {p for p, _ in without_logger[0].incomplete.counted}
    assert stopped, "the premise: TUs that read the lost header stop at it"
    whole = _entries(tinysolver[1])
    once_dead = {n for n, e in whole.items() if any(not k["live"] for k in e["kernels"])}
    assert once_dead, "the premise: the example has kernels that are dead when the parse is whole"
    for name in once_dead:
        verdicts = entries[name]["kernels"] + entries[name]["device_helpers"]
        assert all(v["live"] for v in verdicts), name
        undecided = [v["detail"] for v in verdicts if v["detail"].startswith(UNDECIDED_BY_PARSE)]
        assert undecided and all("'tinysolver_logger.hpp' file not found" in d for d in undecided), name


def test_the_summary_counts_the_stopped_tus_their_causes_and_the_undecided_entries(without_logger, tinysolver):
    a, out = without_logger[:2]
    summary = json.loads((out / "summary.json").read_text())
    assert summary["tus_fatal"] == len(a.incomplete.counted) > 0
    assert summary["tus_fatal_causes"] == {"'tinysolver_logger.hpp' file not found": summary["tus_fatal"]}
    assert summary["entries_undecided"] > 0
    whole = json.loads((tinysolver[1] / "summary.json").read_text())
    assert whole["tus_fatal"] == 0 and whole["entries_undecided"] == 0


def test_the_mine_says_it_is_degraded_in_one_line_and_strict_fails_it(without_logger, tmp_path, capsys):
    _, _, root, cache = without_logger
    argv = ["mine", str(root), "--with", f"tinyblas={TINYBLAS}", "--out", str(tmp_path), "--cache", str(cache)]
    assert cli.main(argv) == 0
    loud = [line for line in capsys.readouterr().err.splitlines() if "DEGRADED" in line]
    assert len(loud) == 1 and "'tinysolver_logger.hpp' file not found" in loud[0] and "undecided" in loud[0]
    assert cli.main([*argv, "--strict"]) == 1


def test_a_whole_parse_is_not_called_degraded(tmp_path, capsys, cache_dir):
    argv = [
        "mine",
        str(TINYSOLVER),
        "--with",
        f"tinyblas={TINYBLAS}",
        "--out",
        str(tmp_path),
        "--cache",
        str(cache_dir),
    ]
    assert cli.main([*argv, "--strict"]) == 0
    assert "DEGRADED" not in capsys.readouterr().err


def test_qa_on_a_degraded_mine_says_so(without_logger, tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("OPENAI_MODEL", raising=False)
    out = without_logger[1]
    assert cli.main(["qa", str(out), "--out", str(tmp_path), "--offline"]) == 0
    err = capsys.readouterr().err
    assert "degraded" in err and f"{len(without_logger[0].incomplete.counted)} TUs did not parse completely" in err


def test_an_error_clang_recovered_from_still_decides_nothing(tmp_path, tinysolver):
    """clang goes on after an error, but drops what it cannot instantiate: a call it lost looks like one never made."""
    root = tmp_path / "tinysolver"
    shutil.copytree(TINYSOLVER, root)
    broken = root / "library/src/lapack/tinysolver_getrf.cpp"
    broken.write_text(broken.read_text() + "\nundeclared_type_of_ours oops;\n")
    a, out = _mine(root, tmp_path / "out", tmp_path / "cache", with_libraries={"tinyblas": TINYBLAS})
    assert a.incomplete.counted == [
        ("library/src/lapack/tinysolver_getrf.cpp", "unknown type name 'undeclared_type_of_ours'")
    ]
    entries, whole = _entries(out), _entries(tinysolver[1])
    getrf = [n for n in whole if n.startswith("tinysolver_") and "getrf" in n and not n.endswith("_batched")]
    assert any(not k["live"] for n in getrf for k in whole[n]["kernels"]), "the premise: dead when the parse is whole"
    assert all(k["live"] for n in getrf for k in entries[n]["kernels"])
