"""`rocm-miner mine` of many revisions as one batch: each revision's outputs equal a mine of it alone, a TU shared
by the revisions is parsed once, and bad jobs files are one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from miner.batch.jobs import plan, plan_revisions, read_jobs_file
from miner.batch.run import mine_batch
from miner.bundle.previous import OUTPUT_FILES
from miner.cli import main
from miner.errors import InputError
from miner.pipeline import MineOptions, mine
from tests.diff.test_release_diff import DEAD_KERNEL, SHARED_HOST, _two_revisions

TIMINGS = ("seconds", "liveness_seconds")


def _quiet(phase: str, done: int, total: int) -> None:
    pass


def _outputs(out: Path) -> dict[str, str]:
    """The output files, a parse report's timings left out (they are the run's, not the library's)."""
    found = {}
    for name in OUTPUT_FILES:
        text = (out / name).read_text()
        if name == "parse_report.jsonl":
            rows = [json.loads(line) for line in text.splitlines()]
            text = "\n".join(json.dumps({k: v for k, v in r.items() if k not in TIMINGS}, sort_keys=True) for r in rows)
        found[name] = text
    return found


@pytest.fixture(scope="module")
def revisions(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("batch")
    return _two_revisions(tmp / "tinyblas", [SHARED_HOST, *DEAD_KERNEL]), tmp


def test_each_revision_of_a_batch_equals_its_own_mine_and_shared_tus_are_parsed_once(revisions):
    root, tmp = revisions
    alone = {}
    for rev in ("v1", "v2"):
        out = tmp / "alone" / rev
        alone[rev] = mine(MineOptions(path=root, rev=rev, out=out, jobs=2, cache_dir=tmp / f"cache-{rev}"), _quiet)
    base = MineOptions(path=root, out=tmp / "batch", jobs=2, cache_dir=tmp / "cache-batch")
    summary = mine_batch(plan_revisions(base, ["v1", "v2"]), _quiet)
    assert [r.revision for r in summary.revisions] == ["v1", "v2"] and not any(r.error for r in summary.revisions)
    for rev in ("v1", "v2"):
        assert _outputs(tmp / "batch" / rev) == _outputs(tmp / "alone" / rev), rev
    separate = sum(s.tus - s.cache_hits for s in alone.values())
    assert summary.tus == sum(s.tus for s in alone.values())
    assert summary.tu_parses < separate, "a TU the revisions share is parsed once"
    assert summary.from_cache == summary.tus - summary.tu_parses > 0
    again = mine(MineOptions(path=root, rev="v2", out=tmp / "again", jobs=2, cache_dir=tmp / "cache-batch"), _quiet)
    assert again.cache_hits == again.tus  # the batch cached every TU of v2 as a mine of it alone would
    assert (tmp / "again" / "bundles.jsonl").read_bytes() == (tmp / "batch" / "v2" / "bundles.jsonl").read_bytes()


def test_a_jobs_file_mines_each_table_into_its_folder_and_the_cli_writes_the_batch_summary(revisions, capsys):
    root, tmp = revisions
    jobs = tmp / "jobs.toml"
    jobs.write_text(f'[[mine]]\ncheckout = "{root}"\nrevisions = ["v1", "v2"]\nout = "tb"\n')
    code = main(["mine", "--batch", str(jobs), "--out", str(tmp / "cli"), "--jobs", "2", "--cache", str(tmp / "c2")])
    assert code == 0
    printed = capsys.readouterr().out
    assert "TUs:" in printed and "parsed" in printed
    written = json.loads((tmp / "cli" / "batch.json").read_text())
    assert [r["out"] for r in written["revisions"]] == [str(tmp / "cli" / "tb" / "v1"), str(tmp / "cli" / "tb" / "v2")]
    assert (tmp / "cli" / "tb" / "v2" / "bundles.jsonl").is_file()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("not = toml = at all", "not TOML"),
        ("[[job]]\ncheckout = 'x'\n", "unknown table 'job'"),
        ("", "no [[mine]] table"),
        ("[[mine]]\nlibrary = 'rocblas'\n", "[[mine]] number 1: checkout: Field required"),
        ("[[mine]]\ncheckout = 'x'\nrevsions = ['a']\n", "revsions: Extra inputs are not permitted"),
        ("[[mine]]\ncheckout = 'a'\n[[mine]]\ncheckout = 'b/a'\n", "two mines of the batch write into"),
    ],
)
def test_a_bad_jobs_file_is_one_line(tmp_path, text, message):
    jobs = tmp_path / "jobs.toml"
    jobs.write_text(text)
    with pytest.raises(InputError, match=_escaped(message)):
        plan(read_jobs_file(jobs), MineOptions(path=Path("."), out=tmp_path / "out"))


def _escaped(text: str) -> str:
    import re

    return re.escape(text)


def test_bad_batch_input_exits_with_one_line(tmp_path, capsys, revisions):
    root, _ = revisions
    assert main(["mine", "--batch", str(tmp_path / "missing.toml")]) == 2
    assert capsys.readouterr().err.strip().endswith("no such jobs file")
    assert main(["mine", str(root), "--rev", "v1", "--rev", "v1"]) == 2
    assert "a --rev is given twice" in capsys.readouterr().err
    assert main(["mine", str(root), "--rev", "v1", "--rev", "nope", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown revision 'nope'" in err
    assert not (tmp_path / "o" / "v1" / "bundles.jsonl").exists(), "nothing is parsed before every revision opens"


def test_a_batch_on_ray_writes_what_the_local_pool_writes(revisions):
    """The same batch on a Ray of two CPUs (started for the run): the outputs of each revision, byte for byte."""
    pytest.importorskip("ray")
    root, tmp = revisions
    summaries = {}
    for executor in ("local", "ray"):
        base = MineOptions(
            path=root, out=tmp / executor, jobs=2, cache_dir=tmp / f"cache-{executor}", executor=executor
        )
        summaries[executor] = mine_batch(plan_revisions(base, ["v1", "v2"]), _quiet)
    assert summaries["ray"].executor == "ray" and summaries["ray"].workers == 2
    assert summaries["ray"].tu_parses == summaries["local"].tu_parses
    for rev in ("v1", "v2"):
        assert _outputs(tmp / "ray" / rev) == _outputs(tmp / "local" / rev), rev
