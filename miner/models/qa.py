"""QA: static kernel facts, grounded question-answer items and the records written for them."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict

from miner.models.outputs import _STRICT


class Located(BaseModel):
    """A piece of code a fact rests on: its region, first and last line, and the text of those lines."""

    model_config = _STRICT
    region: str
    start_line: int
    end_line: int
    text: str  # the cited lines, whitespace collapsed
    directive: str = ""  # the enclosing preprocessor condition, "#if DEVICE_GRID_YZ_16BIT", when there is one
    directive_lines: list[int] = []  # where that condition is written (the #if, and the #else when in one)


class ThreadMapping(Located):
    variable: str
    expression: str


class SharedDecl(Located):
    name: str
    declaration: str
    element_type: str = ""  # "T", "rocblas_double_complex"
    extents: list[str] = []  # each array dimension as written ("NB * 2"); [""] for ``extern __shared__ T x[]``


class LoopFact(Located):
    header: str  # "for(int j = 0; j < WIN && i < n; j++, i += inc)"
    depth: int  # 1 for an outermost loop of the function
    unroll: str = ""  # the ``#pragma unroll`` argument in front of it, "full" without one
    accumulates: bool = False  # its body adds into a scalar (``sum += x[i] * y[i]``): a per-thread reduction
    body_end: int = 0  # the last line of its body
    guards: list[GuardFact] = []  # the conditions of the ``if`` statements it is under


class GuardFact(Located):
    holds: bool = True  # False: the fact is in the ``else`` of this condition


class PathCall(Located):
    """A call from one region on the kernel's paths to the next (``text``: the call's first line)."""

    callee: str  # region id
    guards: list[GuardFact] = []  # the conditions of the ``if`` / ``else`` blocks it sits in, outermost first


class EarlyExit(Located):
    guards: list[GuardFact] = []  # the conditions of the ``if`` / ``else`` blocks it sits in, outermost first
    after_work: bool = False  # the ``if`` block does work of its own (a small-size path) before it returns
    feeds: list[Located] = []  # ``if(alpha == 0) k = 0;`` before ``if(k == 0) return``: what sets a tested variable


class Access(Located):
    expression: str  # the subscript expression, "y[i * int64_t(incy)]"
    guards: list[GuardFact] = []  # the conditions of the ``if`` statements it is under


class BranchFact(Located):
    condition: str  # as written, "incx == 1 && incy == 1"
    branch: str  # "then", "else", "case <value>", "default"
    label_line: int = 0  # for a switch: the line of the case label taken


class IfFact(Located):
    """An ``if`` of a kernel or device helper, cited at its condition."""

    returns: bool = False  # the then-branch is, or starts with, a ``return``


class ChunkLoop(Located):
    """A loop on the path that splits a 64-bit size into launches of 32-bit ones."""

    guards: list[GuardFact] = []  # the conditions of the ``if`` blocks it sits in, outermost first
    steps: list[Located] = []  # the statements of its body that use the loop variable (pointers moved, chunk size)
    body_end: int = 0  # the last line of its body

    def header_text(self) -> str:
        """``for(...)`` without the ``{`` that may follow it on its line."""
        return self.text.removesuffix("{").rstrip()


class CallFact(Located):
    name: str  # the callee: a barrier, atomic, cross-lane builtin or device helper


class Write(Located):
    variable: str  # the launch-configuration variable written ("grid", "threads")
    unconditional: bool  # on every path from the write to the launch (not under an ``if`` the launch is outside)
    guard: Located | None = None  # the ``if`` / ``else`` / loop header a conditional write sits under


class BarrierUse(BaseModel):
    """One barrier, where it is, and the shared memory it orders: written before it, read after it."""

    model_config = _STRICT
    barrier: CallFact
    written_before: list[Located] = []  # since the previous barrier of the function (or its start)
    read_after: list[Located] = []  # until the next barrier (or the function's end)
    loop: Located | None = None  # the innermost loop holding the barrier
    read_next_round: list[Located] = []  # reads of that loop above the barrier: the next iteration's, after it
    stored_before: list[Located] = []  # global-memory stores since the previous barrier: published to the block
    overwritten_after: list[Located] = []  # writes after it (or in the loop's next round) over memory read before it


class LaunchFact(BaseModel):
    model_config = _STRICT
    launcher: str  # region id
    launcher_name: str
    statement: Located  # the launch statement
    via: str
    grid: str
    block: str
    shared_mem: str
    stream: str
    conditions: list[BranchFact] = []  # the branch conditions on the way, each at its lines
    declarations: list[Located] = []  # where the grid and block variables are defined
    writes: list[Write] = []  # every later assignment of them before the launch, in order
    macro: Located | None = None  # the ``#define`` whose expansion holds the configuration (``gemvt_sn_KARGS``)
    expansion: str = ""  # the launch statement with that macro expanded
    macro_guards: list[GuardFact] = []  # the branches inside that macro the kernel's launch sits in (``if(pivot)``)
    live_for: list[str] = []  # entries the launcher runs for
    loops: list[Located] = []  # the loops of the launcher around the launch, outermost first: one launch a round


class KernelFacts(BaseModel):
    """What tree-sitter and the bundle's launch sites say about one kernel and its device helpers."""

    model_config = _STRICT
    kernel: str  # region id
    name: str
    signature: Located
    launch_bounds: str = ""  # the ROCBLAS_KERNEL(NB) / __launch_bounds__ argument
    template_params: list[str] = []
    params: list[str] = []
    helpers: list[CallFact] = []  # device helpers the kernel calls (in the kernel's region)
    thread_mapping: list[ThreadMapping] = []
    boundary_checks: list[Located] = []
    global_accesses: list[Access] = []
    shared: list[SharedDecl] = []
    loops: list[LoopFact] = []
    branches: list[IfFact] = []  # every ``if`` of the kernel and its helpers
    barriers: list[CallFact] = []
    atomics: list[CallFact] = []
    cross_lane: list[CallFact] = []  # shuffles, DPP, ballots, swizzles
    reductions: list[CallFact] = []  # calls of *reduce* helpers
    launches: list[LaunchFact] = []
    early_exits: list[EarlyExit] = []  # ``if (...) return`` on the way to a launch of the kernel
    path_calls: list[PathCall] = []  # the calls on the way from the entry points to the launchers, with their branches
    launcher_exits: list[EarlyExit] = []  # every ``if (...) return`` of the kernel's launchers, on any launch's way
    stores: list[Access] = []  # assignments to global memory, in the kernel and its helpers
    lds_accesses: list[Access] = []  # subscripts of ``__shared__`` arrays, in the kernel and its helpers
    lds_carving: list[Located] = []  # pointers declared into LDS: ``T* x = reinterpret_cast<T*>(lmem) + n``
    barrier_uses: list[BarrierUse] = []  # every ``__syncthreads`` (and kin), each with what it orders
    negative_increments: list[Located] = []  # on the path: what a negative increment changes
    scalar_shortcuts: list[Located] = []  # on the path: alpha / beta tests that skip or shorten the work
    chunking: list[ChunkLoop] = []  # on the path: loops splitting 64-bit sizes into launches of 32-bit ones
    size_limits: list[Located] = []  # on the path: returns for sizes beyond 32 bits that are not chunked
    dispatch: list[LaunchFact] = []  # every launch of the kernel's launchers, of any kernel, in order


class Evidence(BaseModel):
    """What an answer cites: lines of one region, and the identifiers and numbers it takes from them."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    region: str
    start_line: int
    end_line: int
    identifiers: list[str] = []
    numbers: list[str] = []


class QAItem(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    category: str
    kind: str = ""  # the question asked, one of ``miner.qa.offline.KINDS`` ("" from a model)
    question: str
    answer: str
    evidence: list[Evidence]


class QAAnswer(BaseModel):
    """The JSON a model returns for a QA request."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    items: list[QAItem]


class InstructionAnswer(BaseModel):
    """The JSON a model returns for an implementation-sample request: the instruction only."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    instruction: str
    evidence: list[Evidence] = []


class Grounding(BaseModel):
    model_config = _STRICT
    grounded: bool
    findings: list[str] = []  # why not: each cited line, identifier, number or quote that does not check out


class QARecord(BaseModel):
    """One kept QA item or implementation sample, with where it came from and its verdicts."""

    model_config = _STRICT
    id: str
    kind: Literal["qa", "implementation"]
    category: str
    question_kind: str  # which question (``miner.qa.offline.KINDS``), "" when a model chose it
    library: str
    bundles: list[str]  # every bundle holding the kernel: the item is emitted once, for all of them
    context_sha256: str  # of the code the item was read from (``KernelContext.digest``)
    kernel: str  # region id
    kernel_name: str
    kernel_file: str
    entries: list[str]  # every entry the kernel is live for (the per-entry view is a join on this list)
    question: str  # for implementation samples: the instruction
    answer: str  # for implementation samples: the verbatim kernel and launcher
    evidence: list[Evidence]
    generator: str  # "static-facts/<version>" or "model:<name>"
    prompt_sha256: str
    sampling: dict[str, float | int | None]
    system_fingerprint: str = ""
    attempt: int = 1  # 2 when kept after a regeneration with the verifier's findings
    grounding: Grounding
    flags: list[str] = []  # contradictions with the static facts (model answers)


class QAUnit(BaseModel):
    """One unit of work (a kernel region, one task) as journalled: its key, records and costs."""

    model_config = _STRICT
    key: str
    kernel: str
    task: Literal["qa", "implementation"]
    records: list[QARecord]
    dropped: dict[str, int] = {}  # reason -> items (or requests) dropped
    requests: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    retries: int = 0
