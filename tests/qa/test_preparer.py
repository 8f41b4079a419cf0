"""Kernels prepared for their requests in a worker process hold what preparing them here gives: the worker's
slim context carries everything the facts and the prompt facts are read from."""

from __future__ import annotations

import pytest

from miner.models import BundleForQA
from miner.qa.context import kernel_contexts
from miner.qa.units import KernelWork, Preparer, request_facts
from tests.conftest import read_jsonl


@pytest.mark.parametrize("jobs", [1, 2], ids=["thread", "process"])
def test_prepared_kernels_match_the_ones_prepared_here(tinyblas, jobs: int) -> None:
    _, out = tinyblas
    bundles = [BundleForQA.model_validate(row) for row in read_jsonl(out / "bundles.jsonl")]
    contexts = kernel_contexts(bundles)
    with Preparer(jobs) as preparer:
        futures = [preparer.prepare(KernelWork(context)) for context in contexts]
        prepared = [future.result(timeout=120) for future in futures]
    assert len(prepared) == len(contexts) > 5
    for work, context in zip(prepared, contexts, strict=True):
        here = KernelWork(context).prepare()
        assert work.context is context
        assert work.facts == request_facts(here.facts)
        assert work.prompt_facts == here.prompt_facts
        assert work.prompt_facts.count("\n- ") >= 3, work.prompt_facts
