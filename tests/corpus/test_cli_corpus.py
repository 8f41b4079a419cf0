"""`rocm-miner corpus` on bad input: one line on stderr naming the problem, a non-zero exit, no traceback."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from miner.cli import main


def qa_folder(tmp_path: Path, lines: list[str]) -> Path:
    folder = tmp_path / "qa"
    folder.mkdir()
    (folder / "qa.jsonl").write_text("".join(line + "\n" for line in lines))
    return folder


def first_record(qa_release1: Path) -> dict:
    return json.loads((qa_release1 / "qa.jsonl").read_text().splitlines()[0])


CASES = {
    "not-ours": (
        lambda tmp, r1: ["--qa", str(qa_folder(tmp, ['{"question": "?", "answer": "!"}']))],
        "not a QA record",
    ),
    "newer-schema": (
        lambda tmp, r1: ["--qa", str(qa_folder(tmp, [json.dumps(dict(first_record(r1), reviewer="x"))]))],
        "newer schema",
    ),
    "empty": (lambda tmp, r1: ["--qa", str(qa_folder(tmp, []))], "empty"),
    "no-eval-set": (
        lambda tmp, r1: ["--qa", str(r1), "--decontaminate", str(tmp / "missing")],
        "no such evaluation set",
    ),
    "no-qa-folder": (lambda tmp, r1: ["--qa", str(tmp / "nowhere")], "no qa.jsonl"),
    "attempts-not-ours": (
        lambda tmp, r1: ["--verified", str(_attempts(tmp, "[1, 2]\n"))],
        "not a verify attempt record",
    ),
    "attempts-empty": (lambda tmp, r1: ["--verified", str(_attempts(tmp, ""))], "empty"),
    "nothing-named": (lambda tmp, r1: [], "nothing to merge"),
}


def _attempts(tmp: Path, text: str) -> Path:
    folder = tmp / "verify"
    folder.mkdir()
    (folder / "attempts.jsonl").write_text(text)
    return folder


@pytest.mark.parametrize("case", list(CASES))
def test_bad_input_is_one_line_and_a_nonzero_exit(case, qa_release1, tmp_path, capsys) -> None:
    make_args, says = CASES[case]
    code = main(["corpus", *make_args(tmp_path, qa_release1), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("rocm-miner: error:") and says in err, err
    assert "Traceback" not in err


def test_the_command_writes_the_card_and_the_shards(qa_release1, tmp_path, capsys) -> None:
    out = tmp_path / "out"
    assert main(["corpus", "--qa", str(qa_release1), "--out", str(out), "--text-threshold", "0.9"]) == 0
    assert (out / "README.md").read_text().startswith("---\nlicense: other\n")
    assert list((out / "data" / "qa").glob("*.parquet"))
    assert "Jaccard >= 0.9" in (out / "README.md").read_text()


def test_a_verify_folder_with_a_damaged_line_still_reads(tmp_path, verify_run) -> None:
    folder = tmp_path / "v"
    shutil.copytree(verify_run, folder)
    with open(folder / "attempts.jsonl", "a") as fh:
        fh.write('{"key": "damaged"}\n')
    out = tmp_path / "out"
    assert main(["corpus", "--verified", str(folder), "--out", str(out)]) == 0
    summary = json.loads((out / "corpus_summary.json").read_text())
    assert summary["inputs"][0]["damaged_lines"] == 1
