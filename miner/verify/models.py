"""Data types of the verify stage: what is written to disk (pydantic, extra="forbid")."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


class Outcome(StrEnum):
    """A verdict's class: passed, or why not."""

    PASSED = "passed"
    COMPILE = "compile"
    LOAD = "load"
    RUNTIME = "runtime"
    TIMEOUT = "timeout"
    MISMATCH = "mismatch"
    NONDETERMINISTIC = "nondeterministic"
    RESOURCE_LIMIT = "resource-limit"
    SUSPECTED_HACK = "suspected-hack"
    NOT_RUN = "not-run"
    """Compiled and resource-checked, but no GPU here can run it (HIP on a CPU-only machine)."""


class Record(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MismatchInfo(Record):
    name: str
    max_abs_err: float
    max_rel_err: float
    mismatch_fraction: float
    first_bad_index: list[int]
    nan_count: int
    expected_at_first_bad: float
    got_at_first_bad: float


class Timing(Record):
    """Medians and spread in microseconds over all reps of all rounds; candidate and reference interleaved."""

    candidate_us: float
    candidate_p10_us: float
    candidate_p90_us: float
    reference_us: float
    reference_p10_us: float
    reference_p90_us: float
    speedup: float
    reps: int
    rounds: int
    wall_us: float
    """Median device-synchronised wall time per call, less an empty synchronisation: work the events missed
    (side streams, threads) shows here, and the candidate's time is the larger of this and the event median."""
    floor_us: float | None = None
    """Time to move the case's bytes at the measured copy bandwidth; a faster candidate is implausible."""
    flags: list[str] = Field(default_factory=list)


class CaseResult(Record):
    label: str
    purpose: str
    shown: bool
    outcome: Outcome
    detail: str = ""
    weak: list[str] = Field(default_factory=list)
    """Canaries (zeros, ones, mean, unchanged, copy-of-X) that pass this case: a weak case cannot count as evidence."""
    mismatches: list[MismatchInfo] = Field(default_factory=list)
    lines: list[int] = Field(default_factory=list)
    timing: Timing | None = None


class KernelResources(Record):
    """One kernel's use of the machine, from the compiler's report."""

    kernel: str
    target: str
    sgprs: int | None = None
    vgprs: int | None = None
    agprs: int | None = None
    scratch_bytes_per_lane: int | None = None
    occupancy_waves_per_simd: int | None = None
    sgpr_spills: int | None = None
    vgpr_spills: int | None = None
    lds_bytes: int | None = None
    registers: int | None = None
    shared_bytes: int | None = None
    spill_bytes: int | None = None


class Diagnostic(Record):
    line: int | None
    severity: str
    message: str


class Verdict(Record):
    """Everything the verifier concluded about one candidate for one task."""

    task: str
    task_hash: str
    backend: str
    candidate_hash: str
    verifier_version: str
    outcome: Outcome
    reason: str
    compiled: bool
    correct: bool
    platform: str
    """Where the kernel ran: e.g. 'cuda (NVIDIA H200)', 'hip-on-cuda (nvcc 13.0)', 'cpu (triton interpreter)', 'compile-only'."""
    gpu: str | None = None
    """The GPU it ran on (its UUID, as nvidia-smi -L names it), telling apart timings from the GPUs of one machine."""
    executed: bool = True
    speedup: float | None = None
    """Geometric mean of the per-configuration speedups over the PyTorch reference."""
    implausible: bool = False
    """A speedup or time that needs a human review before it may be rewarded."""
    cases: list[CaseResult] = Field(default_factory=list)
    weak_cases: int = 0
    skipped: list[str] = Field(default_factory=list)
    """Cases not run on this device, with the reason (e.g. bfloat16 under Triton's CPU interpreter)."""
    resources: list[KernelResources] = Field(default_factory=list)
    diagnostics: list[Diagnostic] = Field(default_factory=list)
    seeds: list[int] = Field(default_factory=list)
    harness_s: dict[str, float] = Field(default_factory=dict)
    """Seconds spent per phase (worker, load, compile, cases, timing, total)."""
    sandbox: dict[str, Any] = Field(default_factory=dict)


class Attempt(Record):
    """One turn of one attempt of the generate → verify → reflect loop, as streamed to attempts.jsonl."""

    key: str
    task: str
    task_hash: str
    backend: str
    attempt: int
    turn: int
    model: str
    prompt_hash: str
    candidate_hash: str | None
    verifier_version: str
    seeds: list[int]
    environment: dict[str, Any]
    reward: float
    discounted_return: float | None = None
    agent_failure: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    candidate: str | None = None
    feedback: str = ""
    verdict: Verdict | None = None
    last_turn: bool = False
    """Set on an attempt's final turn: a re-run skips the attempts whose final turn is recorded."""
