"""Corpus: the rows of the merged dataset (QA items, implementation samples, verified kernels, verify attempts),
their provenance, and the rows left out with the reason."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from miner.models.outputs import _STRICT

Source = Literal["qa", "implementation", "verified_kernels", "attempts"]
SOURCES: tuple[Source, ...] = ("qa", "implementation", "verified_kernels", "attempts")
UNKNOWN = "unknown"


class Message(BaseModel):
    model_config = _STRICT
    role: Literal["system", "user", "assistant"]
    content: str


class RowProvenance(BaseModel):
    """Where a row came from: the checkout, the regions it cites, and what produced and checked it."""

    model_config = _STRICT
    library: str
    repo_url: str  # "unknown" when the mine that produced the QA input was not found
    commit: str
    tag: str
    licence: str  # read from the checkout's licence file; "unknown" when the checkout is not reachable
    files: list[str] = []  # the files the row cites
    spans: list[str] = []  # "file:start-end" of each cited region
    file_sha256: list[str] = []  # per file of ``files``, from the mine's provenance ("unknown" when not found)
    content_sha256: str  # of the code the row was read from (QA) or of the candidate (verify)
    prompt_sha256: str
    generator: str  # "static-facts/<version>", "model:<name>"
    verifier_version: str = ""
    environment: str = ""  # the verify environment fingerprint, as canonical JSON
    tool_version: str  # the rocm-miner that mined the input


class CorpusRow(BaseModel):
    """One row of one config; ``messages`` is its SFT view."""

    model_config = _STRICT
    id: str  # stable over re-runs: a hash of source, library, commit and the input record's id
    source: Source
    library: str
    release: str  # the mined tag (or commit); for verify rows, the verifier version that checked them
    category: str
    kernel: str  # the kernel's name (QA) or the task's name (verify)
    families: list[str]  # split groups: "kernel:<lib>:<name>", "entry:<lib>:<family>", "task:<name>"
    split: str = ""
    question: str
    answer: str
    reference: str = ""  # verify: the PyTorch reference task the candidate was checked against
    backend: str = ""
    task_hash: str = ""
    attempt: int = 0
    turn: int = 0
    reward: float | None = None
    speedup: float | None = None
    verdict: str = ""  # the verifier's outcome class ("passed", "mismatch", ...); "" when no candidate was checked
    messages: list[Message]
    provenance: RowProvenance


class DroppedRow(BaseModel):
    """A row left out of the corpus, and why: ``near-duplicate`` (``detail``: the row kept for its cluster) or
    ``contaminated`` (``detail``: the evaluation item it overlaps, ``how``: exact or n-gram)."""

    model_config = _STRICT
    id: str
    source: Source
    library: str
    release: str
    reason: Literal["near-duplicate", "contaminated"]
    detail: str
    how: str = ""
