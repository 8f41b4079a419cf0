"""A small corpus input: tinyblas mined and asked offline (two releases, the second a copy of the first, plus one
QA item re-worded), and a verify folder of hand-written attempts at two bundled tasks."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from miner.qa.run import QAOptions, run_qa
from miner.verify.models import Attempt, Outcome, Verdict
from miner.verify.tasks import TASKS_DIR

AXPY_KERNEL = """import triton
import triton.language as tl


@triton.jit
def axpy_kernel(x_ptr, y_ptr, alpha, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offsets < n
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(y_ptr + offsets, alpha * x + y, mask=mask)


def axpy(n, alpha, x, incx, y, incy):
    grid = (triton.cdiv(n, 1024),)
    axpy_kernel[grid](x, y, alpha, n, BLOCK=1024)
"""
# the same kernel with every name changed: a near-duplicate
AXPY_RENAMED = (
    AXPY_KERNEL.replace("axpy_kernel", "saxpy_body")
    .replace("x_ptr", "src")
    .replace("y_ptr", "dst")
    .replace("offsets", "idx")
    .replace("mask", "inside")
    .replace("BLOCK", "TILE")
)
SCAL_KERNEL = """import triton
import triton.language as tl


@triton.jit
def scal_kernel(x_ptr, alpha, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    keep = i < n
    tl.store(x_ptr + i, alpha * tl.load(x_ptr + i, mask=keep), mask=keep)


def scal(n, alpha, x, incx):
    scal_kernel[(triton.cdiv(n, 256),)](x, alpha, n, BLOCK=256)
"""


def reword(question: str) -> str:
    """A light re-wording, as a second model run might produce."""
    return question.replace("What are", "Which are").replace("How does", "How do")


@pytest.fixture(scope="session")
def qa_release1(tinyblas, tmp_path_factory) -> Path:
    """tinyblas mined, then asked offline in the mine's own folder (as `mine --qa` does), plus one re-worded copy
    of its first QA item."""
    _, mined = tinyblas
    out = tmp_path_factory.mktemp("qa-r1")
    for name in ("bundles.jsonl", "entries.jsonl", "run.json"):
        shutil.copy(mined / name, out / name)
    run_qa(QAOptions(bundles=mined, out=out, jobs=1))
    lines = (out / "qa.jsonl").read_text().splitlines()
    first = json.loads(next(line for line in lines if json.loads(line)["kind"] == "qa"))
    planted = dict(first, id=first["id"] + "-reworded", question=reword(first["question"]))
    (out / "qa.jsonl").write_text("\n".join([*lines, json.dumps(planted, sort_keys=True)]) + "\n")
    summary = json.loads((out / "qa_summary.json").read_text())
    summary["kept_total"] += 1
    (out / "qa_summary.json").write_text(json.dumps(summary))
    return out


@pytest.fixture(scope="session")
def qa_release2(qa_release1, tmp_path_factory) -> Path:
    """A second release whose items are the first's: every one a duplicate, counted, not kept twice."""
    out = tmp_path_factory.mktemp("qa-r2")
    for name in ("qa.jsonl", "qa_summary.json", "bundles.jsonl"):
        shutil.copy(qa_release1 / name, out / name)
    run = json.loads((qa_release1 / "run.json").read_text())
    run["checkout"] = dict(run["checkout"], commit="0" * 40, tag="tinyblas-2.0")
    (out / "run.json").write_text(json.dumps(run))
    return out


@pytest.fixture(scope="session")
def tasks_dir(tmp_path_factory) -> Path:
    """The bundled tasks, axpy's description naming tinyblas's entry point instead of rocBLAS's (so that it links to
    the tinyblas kernels); scal names rocBLAS's, which no input mines."""
    folder = tmp_path_factory.mktemp("tasks")
    for file in TASKS_DIR.glob("*.py"):
        (folder / file.name).write_text(file.read_text().replace("(rocblas_saxpy)", "(tinyblas_saxpy)"))
    return folder


def _turn(
    tasks: Path,
    task: str,
    attempt: int,
    turn: int,
    candidate: str | None,
    outcome: Outcome | None,
    last: bool,
    implausible=False,
) -> Attempt:
    task_hash = hashlib.sha256((tasks / f"{task}.py").read_text().encode()).hexdigest()[:16]
    verdict = None
    if outcome is not None:
        verdict = Verdict(
            task=task, task_hash=task_hash, backend="triton", candidate_hash=f"c{attempt}{turn}",
            verifier_version="test-1", outcome=outcome, reason=outcome.value, compiled=True,
            correct=outcome == Outcome.PASSED, platform="cpu (triton interpreter)",
            speedup=1.5 if outcome == Outcome.PASSED else None, implausible=implausible,
        )  # fmt: skip
    return Attempt(
        key=f"{task}:{task_hash}:triton:attempt{attempt}:turn{turn}", task=task, task_hash=task_hash,
        backend="triton", attempt=attempt, turn=turn, model="test-model", prompt_hash=f"p{attempt}{turn}",
        candidate_hash=f"c{attempt}{turn}" if candidate else None, verifier_version="test-1", seeds=[1, 2],
        environment={"device": "cpu", "torch": "x"}, reward=1.0 if outcome == Outcome.PASSED else 0.0,
        candidate=candidate, verdict=verdict, last_turn=last,
        agent_failure=None if candidate else "no-code-block",
    )  # fmt: skip


@pytest.fixture(scope="session")
def verify_run(tasks_dir, tmp_path_factory) -> Path:
    """axpy: a mismatch then a pass; a second attempt passing with the same kernel renamed; a turn without code; a
    pass with an implausible speedup (an attempt, not a verified kernel).
    scal: one pass. One attempt left unfinished by a killed run."""
    out = tmp_path_factory.mktemp("verify")
    mismatch = AXPY_KERNEL.replace("alpha * x + y", "x + y")
    turns = [
        _turn(tasks_dir, "axpy", 0, 0, mismatch, Outcome.MISMATCH, False),
        _turn(tasks_dir, "axpy", 0, 1, AXPY_KERNEL, Outcome.PASSED, True),
        _turn(tasks_dir, "axpy", 1, 0, AXPY_RENAMED, Outcome.PASSED, True),
        _turn(tasks_dir, "axpy", 2, 0, None, None, True),
        _turn(tasks_dir, "axpy", 3, 0, SCAL_KERNEL.replace("scal", "axpy"), Outcome.PASSED, True, implausible=True),
        _turn(tasks_dir, "scal", 0, 0, SCAL_KERNEL, Outcome.PASSED, True),
        _turn(tasks_dir, "scal", 1, 0, SCAL_KERNEL, Outcome.MISMATCH, False),  # its last turn never written
    ]
    (out / "attempts.jsonl").write_text("".join(t.model_dump_json() + "\n" for t in turns))
    return out


@pytest.fixture(scope="session")
def eval_set(tmp_path_factory) -> Path:
    """An evaluation set holding one task whose reference is the bundled scal task's, and one unrelated item."""
    folder = tmp_path_factory.mktemp("eval")
    (folder / "heldout_scal.py").write_text((TASKS_DIR / "scal.py").read_text())
    (folder / "other.jsonl").write_text(json.dumps({"prompt": "Write a softmax over the last axis."}) + "\n")
    return folder


@pytest.fixture(scope="session")
def corpus(qa_release1, qa_release2, verify_run, eval_set, tasks_dir, tinyblas, tmp_path_factory) -> Path:
    from miner.corpus.run import CorpusOptions, run_corpus

    out = tmp_path_factory.mktemp("corpus")
    run_corpus(
        CorpusOptions(
            out=out,
            qa=(qa_release1, qa_release2),
            verified=(verify_run,),
            mined=(tinyblas[1],),
            tasks=tasks_dir,
            decontaminate=(eval_set,),
            heldout=0.5,
        )
    )
    return out
