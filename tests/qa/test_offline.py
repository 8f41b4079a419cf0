"""The offline generator on the bundled examples: every live kernel covered, every item grounded, same bytes twice."""

from __future__ import annotations

import re
from collections import defaultdict

from miner.qa.run import QAOptions, run_qa
from tests.conftest import read_jsonl


def _run(bundles, out, **kw):
    return run_qa(QAOptions(bundles=bundles, out=out, **kw))


def test_every_live_kernel_gets_grounded_qa_in_five_categories(tinyblas, tmp_path) -> None:
    _, mined = tinyblas
    summary = _run(mined, tmp_path)
    records = read_jsonl(tmp_path / "qa.jsonl")
    assert summary.dropped == {} and summary.kept and len(records) == sum(summary.kept.values())
    assert all(r["grounding"]["grounded"] and r["evidence"] for r in records)
    live = {
        (r["id"], region["id"])
        for r in read_jsonl(mined / "bundles.jsonl")
        for region in r["regions"]
        if region["role"] == "kernel" and region["live_for"]
    }
    covered = {(bundle, r["kernel"]) for r in records for bundle in r["bundles"]}
    assert live == covered
    per_kernel = defaultdict(set)
    for r in records:
        per_kernel[r["kernel"]].add(r["category"])
    assert all(len(categories - {"implementation"}) >= 5 for categories in per_kernel.values())
    assert summary.families_below_five_categories == []


def test_a_kernel_of_several_bundles_is_asked_about_once_for_all_its_entries(tinyblas, tmp_path) -> None:
    _, mined = tinyblas
    _run(mined, tmp_path)
    records = read_jsonl(tmp_path / "qa.jsonl")
    pair = [r for r in records if r["kernel_name"] == "tinyblas_daxpy_pair_kernel"]
    assert {tuple(r["entries"]) for r in pair} == {("tinyblas_axpy_ex", "tinyblas_daxpy")}
    (bundles,) = {tuple(r["bundles"]) for r in pair}
    assert len(bundles) == 2 and bundles[0].startswith("tinyblas:tinyblas_axpy_ex:")
    questions = [(r["kernel"], r["question"]) for r in records]
    assert len(questions) == len(set(questions))  # one item per (kernel region, question)
    assert len({(r["question"], r["answer"]) for r in records}) == len(records)


def test_questions_name_only_the_entries_a_kernel_is_live_for(tinyblas, tmp_path) -> None:
    _, mined = tinyblas
    _run(mined, tmp_path)
    pair = [r for r in read_jsonl(tmp_path / "qa.jsonl") if r["kernel_name"] == "tinyblas_daxpy_pair_kernel"]
    samples = [r for r in pair if r["kind"] == "implementation"]
    assert samples and not any(
        re.search(r"`tinyblas_saxpy`", r["question"]) for r in samples
    )  # an entry it is not live for
    sample = samples[0]
    assert "tinyblas_daxpy_pair_kernel" in sample["answer"] and sample["answer"].startswith("```cpp")


def test_rerun_costs_nothing_and_writes_the_same_bytes(tinysolver, tmp_path) -> None:
    _, mined = tinysolver
    first = _run(mined, tmp_path)
    before = (tmp_path / "qa.jsonl").read_bytes()
    second = _run(mined, tmp_path)
    assert second.units_cached == second.units == first.units > 0
    assert (tmp_path / "qa.jsonl").read_bytes() == before
    assert len((tmp_path / "qa_units.jsonl").read_text().splitlines()) == first.units
    fresh = tmp_path / "fresh"
    _run(mined, fresh)
    assert (fresh / "qa.jsonl").read_bytes() == before


def test_categories_and_tasks_can_be_chosen(tinyblas, tmp_path) -> None:
    _, mined = tinyblas
    summary = _run(mined, tmp_path, categories=("launch", "indexing"), tasks=("qa",))
    assert set(summary.kept) == {"launch", "indexing"}
