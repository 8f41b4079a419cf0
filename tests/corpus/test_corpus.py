"""The corpus end to end: what `datasets` loads, the card's figures against the rows, near-duplicates and
evaluation overlaps removed and named, splits by family, the same bytes on a re-run."""

from __future__ import annotations

import json
import re
import shutil
from collections import Counter
from pathlib import Path

import pyarrow.parquet as pq

from miner.corpus.run import CorpusOptions, run_corpus


def rows(out: Path) -> list[dict]:
    return [r for f in sorted((out / "data").rglob("*.parquet")) for r in pq.read_table(f).to_pylist()]


def dropped(out: Path) -> list[dict]:
    return [json.loads(line) for line in (out / "dropped.jsonl").read_text().splitlines()]


def table(card: str, heading: str) -> list[list[str]]:
    """The rows of the markdown table under ``## heading``."""
    section = card.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]
    lines = [line for line in section.splitlines() if line.startswith("|")]
    return [[c.strip() for c in line.strip("|").split("|")] for line in lines[2:]]


def test_datasets_loads_every_config_from_the_card(corpus, tmp_path, monkeypatch) -> None:
    import datasets

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    by_config = Counter(r["source"] for r in rows(corpus))
    assert set(by_config) == {"qa", "implementation", "verified_kernels", "attempts"}
    for config, n in by_config.items():
        loaded = datasets.load_dataset(str(corpus), config, cache_dir=str(tmp_path / "hf"))
        assert sum(len(split) for split in loaded.values()) == n
        first = next(iter(loaded.values()))[0]
        assert [m["role"] for m in first["messages"]] == ["system", "user", "assistant"]
        assert first["provenance"]["library"]
    default = datasets.load_dataset(str(corpus), cache_dir=str(tmp_path / "hf"))
    assert sum(len(s) for s in default.values()) == by_config["qa"]


def test_every_figure_of_the_card_is_a_count_over_the_rows(corpus) -> None:
    card = (corpus / "README.md").read_text()
    written = rows(corpus)
    gone = dropped(corpus)
    cells = Counter((r["source"], r["library"], r["release"], r["category"], r["split"]) for r in written)
    for source, library, release, category, train, held, total in table(
        card, "Rows per source, library, release and category"
    ):
        assert int(train) == cells.pop((source, library, release, category, "train"), 0)
        assert int(held) == cells.pop((source, library, release, category, "heldout"), 0)
        assert int(total) == int(train) + int(held)
    assert not cells  # every row is in the table
    for source, read, contaminated, near, out in table(card, "What was read, dropped and written"):
        assert int(out) == sum(r["source"] == source for r in written)
        assert int(contaminated) == sum(d["source"] == source and d["reason"] == "contaminated" for d in gone)
        assert int(near) == sum(d["source"] == source and d["reason"] == "near-duplicate" for d in gone)
        assert int(read) == int(out) + int(contaminated) + int(near)
    near = Counter(d["source"] for d in gone if d["reason"] == "near-duplicate")
    clusters = Counter()
    for source, size, n in table(card, "Near-duplicates"):
        clusters[source] += (int(size) - 1) * int(n)
    assert clusters == near
    verdicts = Counter(r["verdict"] for r in written if r["source"] == "attempts")
    assert {v: int(n) for v, n in table(card, "Verify attempts per verdict class (`attempts` config)")} == verdicts
    licences = Counter((r["source"], r["provenance"]["licence"]) for r in written)
    assert {(s, lic): int(n) for s, lic, n in table(card, "Licences")} == licences
    removed = Counter((d["detail"], d["source"]) for d in gone if d["reason"] == "contaminated")
    assert {(i, s): int(n) for i, s, n in table(card, "Decontamination")} == removed
    per_library = Counter((r["library"], r["split"]) for r in written)
    assert {
        (lib, s): int(n) for lib, tr, he, _ in table(card, "Splits") for s, n in (("train", tr), ("heldout", he))
    } == {(lib, s): per_library[(lib, s)] for lib in {r["library"] for r in written} for s in ("train", "heldout")}
    entry_splits: dict[str, set[str]] = {}
    for r in written:
        for family in r["families"]:
            if family.startswith("entry:"):
                entry_splits.setdefault(family, set()).add(r["split"])
    straddling = sum(len(s) == 2 for s in entry_splits.values())
    assert f"Entry families with rows in both splits: {straddling} of {len(entry_splits)}," in card
    kept_for = {d["id"]: d["detail"] for d in gone if d["reason"] == "near-duplicate"}
    by_id = {r["id"]: r for r in written}
    pairs = Counter()
    for d in gone:
        if d["reason"] == "near-duplicate":
            first = by_id[kept_for[d["id"]]]
            pairs[(d["source"], d["library"], d["release"], first["library"], first["release"])] += 1
    assert {tuple(k[:5]): int(k[5]) for k in table(card, "Near-duplicates by input")} == pairs


def test_qa_denominators_match_the_qa_stage(corpus, qa_release1) -> None:
    card = (corpus / "README.md").read_text()
    summary = json.loads((qa_release1 / "qa_summary.json").read_text())
    records = len((qa_release1 / "qa.jsonl").read_text().splitlines())
    inputs = table(card, "Inputs")
    assert [int(r[3]) for r in inputs[:2]] == [records, records]
    assert [int(r[4]) for r in inputs[:2]] == [summary["kept_total"]] * 2


def test_a_reworded_qa_item_is_a_near_duplicate_of_its_original(corpus, qa_release1) -> None:
    written = rows(corpus)
    by_question = {r["question"]: r for r in written}
    originals = [json.loads(line) for line in (qa_release1 / "qa.jsonl").read_text().splitlines()]
    reworded = next(r for r in originals if r["id"].endswith("-reworded"))
    original = next(r for r in originals if r["id"] == reworded["id"].removesuffix("-reworded"))
    kept = by_question[original["question"]]
    assert reworded["question"] not in by_question
    assert any(d["detail"] == kept["id"] and d["reason"] == "near-duplicate" for d in dropped(corpus))


def test_a_second_release_that_repeats_the_first_adds_no_rows(corpus, qa_release1) -> None:
    written = rows(corpus)
    releases = Counter(r["release"] for r in written if r["source"] in ("qa", "implementation"))
    assert "tinyblas-2.0" not in releases and releases  # every item of release 2 dropped, release 1 kept
    gone = [d for d in dropped(corpus) if d["release"] == "tinyblas-2.0"]
    assert len(gone) == len((qa_release1 / "qa.jsonl").read_text().splitlines())
    assert {d["reason"] for d in gone} == {"near-duplicate"}


def test_a_kernel_with_renamed_variables_is_a_near_duplicate(corpus) -> None:
    verified = [r for r in rows(corpus) if r["source"] == "verified_kernels"]
    assert [(r["kernel"], r["attempt"], r["turn"]) for r in verified] == [("axpy", 0, 1)]
    assert verified[0]["verdict"] == "passed" and verified[0]["speedup"] == 1.5 and verified[0]["reward"] == 1.0
    assert "def reference" in verified[0]["reference"]
    near = [d for d in dropped(corpus) if d["source"] == "verified_kernels" and d["reason"] == "near-duplicate"]
    assert [d["detail"] for d in near] == [verified[0]["id"]]


def test_an_evaluation_task_equal_to_a_verify_reference_removes_its_rows_and_is_named(corpus, eval_set) -> None:
    written = rows(corpus)
    assert not [r for r in written if r["kernel"] == "scal"]
    removed = [d for d in dropped(corpus) if d["reason"] == "contaminated"]
    assert {d["source"] for d in removed} == {"attempts", "verified_kernels"}
    assert {d["detail"] for d in removed} == {str(eval_set / "heldout_scal.py")}
    assert any(r["kernel"] == "axpy" for r in written)  # the other task stays


def test_only_finished_attempts_are_rows_and_all_their_turns_are(corpus) -> None:
    attempts = [r for r in rows(corpus) if r["source"] == "attempts"]
    assert sorted((r["kernel"], r["attempt"], r["turn"], r["verdict"]) for r in attempts) == [
        ("axpy", 0, 0, "mismatch"),
        ("axpy", 0, 1, "passed"),
        ("axpy", 1, 0, "passed"),
        ("axpy", 2, 0, "no-code-block"),
        ("axpy", 3, 0, "passed"),
    ]
    summary = json.loads((corpus / "corpus_summary.json").read_text())
    verify = next(i for i in summary["inputs"] if i["kind"] == "verify")
    assert verify["unfinished_turns"] == 1


def test_no_kernel_family_or_task_straddles_two_splits(corpus) -> None:
    split_of: dict[str, set[str]] = {}
    for r in rows(corpus):
        for family in r["families"]:
            split_of.setdefault(family, set()).add(r["split"])
    assert {s for splits in split_of.values() for s in splits} == {"train", "heldout"}
    assert all(len(s) == 1 for f, s in split_of.items() if not f.startswith("entry:"))


def test_a_task_naming_a_library_entry_point_lands_with_its_kernels(corpus) -> None:
    written = rows(corpus)
    axpy = {r["split"] for r in written if r["families"][0] == "task:axpy"}
    linked = [f for r in written if r["families"][0] == "task:axpy" for f in r["families"][1:]]
    assert linked and all(f.startswith("kernel:tinyblas:") for f in linked)
    kernel_rows = {r["split"] for r in written if r["source"] == "qa" and r["families"][0] in set(linked)}
    assert len(axpy) == 1 and kernel_rows == axpy
    links = {
        k[0]: k for k in table((corpus / "README.md").read_text(), "Verify tasks and the library kernels they restate")
    }
    assert links["axpy"][1] == "tinyblas_saxpy" and links["axpy"][4] == "linked"
    assert links["scal"][1] == "rocblas_sscal" and links["scal"][2] == "-"  # no mine of rocBLAS among the inputs


def test_the_card_names_the_largest_group(corpus) -> None:
    from miner.corpus.split import DEFAULT_SHARED_ABOVE, family_groups, group_key, shared_kernels
    from miner.models import CorpusRow

    written = [CorpusRow.model_validate(r) for r in rows(corpus)]
    shared = shared_kernels(written, DEFAULT_SHARED_ABOVE)
    groups = family_groups(written, DEFAULT_SHARED_ABOVE)
    largest = max(Counter(groups[group_key(r, shared)] for r in written).values())
    assert f"the largest holds {largest} rows" in (corpus / "README.md").read_text()


def test_rows_carry_provenance_from_the_mine(corpus, tinyblas) -> None:
    _, mined = tinyblas
    run = json.loads((mined / "run.json").read_text())
    qa = next(r for r in rows(corpus) if r["source"] == "qa")
    p = qa["provenance"]
    assert p["commit"] == run["checkout"]["commit"]
    assert p["repo_url"] == (run["checkout"]["repo_url"] or "unknown")  # the example has no remote
    assert p["spans"] and all(re.fullmatch(r".+:\d+-\d+", s) for s in p["spans"])
    assert len(p["file_sha256"]) == len(p["files"]) and "unknown" not in p["file_sha256"]
    assert p["generator"].startswith("static-facts/") and p["prompt_sha256"]


def _bytes(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def test_a_rerun_and_a_run_after_a_kill_give_the_same_bytes(
    corpus, qa_release1, qa_release2, verify_run, eval_set, tasks_dir, tinyblas, tmp_path
) -> None:
    options = CorpusOptions(
        out=tmp_path / "again",
        qa=(qa_release1, qa_release2),
        verified=(verify_run,),
        mined=(tinyblas[1],),
        tasks=tasks_dir,
        decontaminate=(eval_set,),
        heldout=0.5,
    )
    run_corpus(options)
    expected = _bytes(options.out)
    assert expected == _bytes(corpus)  # another folder, the same bytes
    shard = next((options.out / "data").rglob("*.parquet"))
    shard.write_bytes(shard.read_bytes()[:100])  # a shard cut short
    (shard.parent / "train-00007-of-00009.parquet").write_bytes(b"stale")  # a shard of an earlier, larger run
    (options.out / "README.md").unlink()
    run_corpus(options)
    assert _bytes(options.out) == expected


def _shifted(region_id: str, by: int) -> str:
    file, _, span = region_id.rpartition(":")
    start, _, end = span.partition("-")
    return f"{file}:{int(start) + by}-{int(end) + by}" if start.isdigit() and end.isdigit() else region_id


def test_the_mine_of_a_qa_folder_is_the_release_whose_kernel_spans_it_cites(qa_release1, tinyblas, tmp_path) -> None:
    """Another release's mine holds the same bundle ids, its kernels three lines lower: it is not the QA's mine."""
    from miner.corpus.inputs import read_qa

    _, mined = tinyblas
    other = tmp_path / "other-release"
    other.mkdir()
    bundles = []
    for line in (mined / "bundles.jsonl").read_text().splitlines():
        bundle = json.loads(line)
        for region in bundle["regions"]:
            region["id"] = _shifted(region["id"], 3)
        bundles.append(json.dumps(bundle))
    (other / "bundles.jsonl").write_text("\n".join(bundles) + "\n")
    run = json.loads((mined / "run.json").read_text())
    (other / "run.json").write_text(json.dumps(dict(run, checkout=dict(run["checkout"], commit="1" * 40))))
    alone = tmp_path / "qa"
    alone.mkdir()
    shutil.copy(qa_release1 / "qa.jsonl", alone / "qa.jsonl")
    assert read_qa(alone, [other, mined]).mine.commit == run["checkout"]["commit"]
    assert read_qa(alone, [other]).mine.commit == "1" * 40  # the only mine holding its bundles
