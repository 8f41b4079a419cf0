"""Corpus rows from input records: the fields, the SFT messages and the provenance of each."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

from miner import __version__
from miner.corpus.inputs import QAInput, VerifyInput
from miner.models import QARecord
from miner.models.corpus import UNKNOWN, CorpusRow, Message, RowProvenance
from miner.verify.models import Attempt, Outcome

SYSTEM = {
    "qa": "You are an expert on AMD ROCm math-library GPU kernels. Answer from the kernel's code, citing its lines.",
    "implementation": "You are an expert AMD GPU kernel engineer. Write the kernel and its launcher as the library does.",
    "verified_kernels": "You are an expert GPU kernel engineer. Write a correct, fast kernel for the reference.",
    "attempts": "You are an expert GPU kernel engineer. Write a correct, fast kernel for the reference.",
}
TASKS_LIBRARY = "tasks"  # verify rows: the library of PyTorch reference tasks the candidates were checked against


def stable_id(*parts: str) -> str:
    return hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:16]


def _messages(source: str, question: str, answer: str) -> list[Message]:
    return [
        Message(role="system", content=SYSTEM[source]),
        Message(role="user", content=question),
        Message(role="assistant", content=answer),
    ]


def qa_rows(qa: QAInput) -> Iterator[CorpusRow]:
    mine = qa.mine
    release = mine.tag if mine.tag != UNKNOWN else mine.commit
    for record in qa.records:
        yield _qa_row(record, qa, release)


_VARIANT = re.compile(r"(?:_(?:strided_|interleaved_)?batched)?(?:_64)?(?:_ex)?(?:\s*\(\+\d+\))?$")


def operation(family: str) -> str:
    """The entry family without its batched, 64-bit and precision variants (``rocblas_cgemv_strided_batched (+3)``
    -> ``rocblas_cgemv``): the variants of one operation share their kernels, so they are one family to split by."""
    return _VARIANT.sub("", family.strip()) or family


def _qa_row(record: QARecord, qa: QAInput, release: str) -> CorpusRow:
    mine = qa.mine
    files = sorted({record.kernel_file, *(e.region.rsplit(":", 1)[0] for e in record.evidence)})
    spans = [f"{e.region.rsplit(':', 1)[0]}:{e.start_line}-{e.end_line}" for e in record.evidence]
    # a kernel of another library reached through ``--with`` ("@rocblas/...") is that library's kernel
    home = record.kernel_file[1:].split("/", 1)[0] if record.kernel_file.startswith("@") else record.library
    families = [f"kernel:{home}:{record.kernel_name}"]
    families += sorted(
        {f"entry:{record.library}:{operation(b.split(':')[1])}" for b in record.bundles if b.count(":") >= 2}
    )
    return CorpusRow(
        id=stable_id(record.kind, record.library, mine.commit, record.id, record.context_sha256),
        source=record.kind,
        library=record.library,
        release=release,
        category=record.category,
        kernel=record.kernel_name,
        families=families,
        question=record.question,
        answer=record.answer,
        messages=_messages(record.kind, record.question, record.answer),
        provenance=RowProvenance(
            library=record.library,
            repo_url=mine.repo_url,
            commit=mine.commit,
            tag=mine.tag,
            licence=mine.licence,
            files=files,
            spans=spans,
            file_sha256=[mine.file_hashes.get(f, UNKNOWN) for f in files],
            content_sha256=record.context_sha256,
            prompt_sha256=record.prompt_sha256,
            generator=record.generator,
            tool_version=mine.tool_version,
        ),
    )


def verify_rows(
    run: VerifyInput, tasks_dir: Path, licence: str, linked: Mapping[str, Sequence[str]]
) -> Iterator[CorpusRow]:
    """Every turn as an ``attempts`` row; each passing candidate whose timing is plausible also as a
    ``verified_kernels`` row. ``linked``: task -> the library kernel families it restates (its rows join them)."""
    sources: dict[str, str] = {}
    for turn in run.turns:
        if turn.task not in sources:
            sources[turn.task] = _task_source(tasks_dir, turn.task, turn.task_hash)
        reference = sources[turn.task]
        families = [f"task:{turn.task}", *linked.get(turn.task, ())]
        yield _verify_row("attempts", turn, reference, licence, families)
        verdict = turn.verdict
        passed = verdict is not None and verdict.correct and verdict.outcome == Outcome.PASSED
        if turn.candidate and passed and not verdict.implausible:  # an implausible speedup awaits a human review
            yield _verify_row("verified_kernels", turn, reference, licence, families)


def _task_source(tasks_dir: Path, name: str, task_hash: str) -> str:
    """The task file's text when it is the one the attempt was checked against (same hash), else ""."""
    try:
        text = (tasks_dir / f"{name}.py").read_text(encoding="utf-8")
    except OSError:
        return ""
    return text if hashlib.sha256(text.encode()).hexdigest()[:16] == task_hash else ""


def _verify_row(source: str, turn: Attempt, reference: str, licence: str, families: list[str]) -> CorpusRow:
    verdict = turn.verdict
    question = (
        f"Write a {turn.backend} kernel for the task `{turn.task}`, checked against this PyTorch reference:\n\n"
        f"{reference or '(reference not found: task ' + turn.task + ' at hash ' + turn.task_hash + ')'}"
    )
    answer = turn.candidate or ""
    return CorpusRow(
        id=stable_id(source, turn.key, turn.model, turn.prompt_hash, turn.candidate_hash or ""),
        source=source,
        library=TASKS_LIBRARY,
        release=f"verifier {turn.verifier_version}",  # the task itself is named by ``task_hash``
        category=turn.backend,
        kernel=turn.task,
        families=families,
        question=question,
        answer=answer,
        reference=reference,
        backend=turn.backend,
        task_hash=turn.task_hash,
        attempt=turn.attempt,
        turn=turn.turn,
        reward=turn.reward,
        speedup=verdict.speedup if verdict is not None else None,
        verdict=verdict.outcome.value if verdict is not None else (turn.agent_failure or "no-candidate"),
        messages=_messages(source, question, answer),
        provenance=RowProvenance(
            library=TASKS_LIBRARY,
            repo_url=UNKNOWN,
            commit=UNKNOWN,
            tag=UNKNOWN,
            licence=licence,
            files=[f"tasks/{turn.task}.py"],
            spans=[],
            file_sha256=[hashlib.sha256(reference.encode()).hexdigest() if reference else UNKNOWN],
            content_sha256=turn.candidate_hash or "",
            prompt_sha256=turn.prompt_hash,
            generator=f"model:{turn.model}",
            verifier_version=turn.verifier_version,
            environment=json.dumps(turn.environment, sort_keys=True),
            tool_version=__version__,
        ),
    )
