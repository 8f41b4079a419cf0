"""Data types of rocm-miner, in one place.

Frozen dataclasses travel inside the pipeline (parse facts, graph nodes, traversal
decisions). Pydantic models with ``extra="forbid"`` are what is written to disk
(bundles, entries, the run summary), validated on write and on read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal, NewType

from pydantic import BaseModel, ConfigDict, Field

Usr = NewType("Usr", str)
"""A clang Unified Symbol Resolution string, or ``ts:<file>:<name>`` for tree-sitter facts."""

BundleId = NewType("BundleId", str)


class Resolution(StrEnum):
    """How a call edge was resolved; an audit can filter the heuristic ones."""

    CLANG = "clang"  # clang resolved the callee to one declaration
    OVERLOAD_SET = "overload-set"  # dependent call: clang's candidate set, all kept
    MACRO_RULE = "macro-rule"  # a library launch macro configured in the profile
    NAME_MATCH = "name-match"  # matched by name only (dependent member calls, tree-sitter)


class ExecSpace(StrEnum):
    HOST = "host"
    DEVICE = "device"
    GLOBAL = "global"
    HOST_DEVICE = "host_device"


class Role(StrEnum):
    API = "api"
    IMPL = "impl"
    TEMPLATE = "template"
    LAUNCHER = "launcher"
    KERNEL = "kernel"
    DEVICE_HELPER = "device_helper"


class BoundaryKind(StrEnum):
    GENERATED = "generated"  # Tensile / hipBLASLt generated kernels
    HIP_RUNTIME = "hip-runtime"
    STD = "std"
    SYSTEM = "system"  # other system headers
    OTHER_LIBRARY = "other-library"  # e.g. rocSOLVER -> rocBLAS without its checkout
    UNDEFINED = "undefined"  # declared in the project, defined nowhere we parsed


# --------------------------------------------------------------------------- parse facts


class _Compact:
    """Pickles as (class, field values): a warm run unpickles hundreds of thousands of facts,
    and the generated ``__setstate__`` of slotted dataclasses is the slow path (measured 22 %)."""

    __slots__ = ()

    def __reduce__(self):
        return (self.__class__, tuple(getattr(self, name) for name in self.__slots__))


@dataclass(frozen=True, slots=True)
class Condition(_Compact):
    """One branch decision on the way from a function's entry to a call site."""

    kind: str  # "if", "if constexpr", "switch", "ternary"
    text: str  # the condition as written ("incx == 1", "n <= NB")
    branch: str  # "then", "else", "case <value>", "default"
    line: int


@dataclass(frozen=True, slots=True)
class LaunchConfig(_Compact):
    """The launch configuration at a kernel launch site, as source text."""

    via: str  # the launch macro name, "hipLaunchKernelGGL" or "<<<>>>"
    kernel: str
    grid: str
    block: str
    shared_mem: str
    stream: str


@dataclass(frozen=True, slots=True)
class CallSite(_Compact):
    """A call, launch or function reference inside a function body."""

    kind: str  # "call", "launch", "ref"
    name: str  # the callee's spelling
    targets: tuple[str, ...]  # USRs of the exact callee declarations (one unless overload set)
    templates: tuple[str, ...]  # USRs of the primary templates of those, "" where none
    resolution: str
    line: int
    conditions: tuple[Condition, ...] = ()
    template_args: tuple[str, ...] = ()
    args: tuple[str, ...] = ()
    launch: LaunchConfig | None = None


@dataclass(frozen=True, slots=True)
class DeclInfo(_Compact):
    """What is known about a callee that may have no definition in the checkout."""

    usr: str
    name: str
    qualified_name: str
    file: str  # path relative to the checkout, or absolute outside it
    line: int
    exec_space: str


@dataclass(frozen=True, slots=True)
class FunctionFacts(_Compact):
    """A function definition found in the checkout, with every call site in its body."""

    usr: str
    name: str
    qualified_name: str
    kind: str  # "function", "template", "method"
    file: str  # relative to the checkout root
    start_line: int
    end_line: int
    start_offset: int
    end_offset: int
    exec_space: str
    macro: str = ""  # name of the macro whose expansion defines it, "" when written out
    template_params: tuple[str, ...] = ()
    params: tuple[str, ...] = ()
    calls: tuple[CallSite, ...] = ()


Expr = tuple
"""A branch condition as clang saw it in an instantiated body, reduced to what liveness can
evaluate: ``("const", v)``, ``("param", name)``, ``("local", name)`` (a local variable, by its
initializer), ``("unary", op, e)``, ``("binary", op, a, b)``, ``("select", c, a, b)`` (``c ? a : b``),
``("min"|"max", a, b)``, ``("call", usr, (args...))`` (an integer function's result, by its returns),
``("range", lo, hi)``, ``("table", elements)`` (a constant array, rows as nested tuples), ``("index", array, i)``,
``("first", v, a, b, c)`` (where ``for (v = a; v < b; ++v) if (c) break;`` leaves ``v``), ``("hull", e...)``,
``("between", first, last)``
(a counted loop's variable), ``("at", line, e)`` (a local's value as assigned at that line),
``("grow", e, (op, amount)...)`` (a local that starts at ``e`` and is only ever increased in place)
or ``("unknown",)``."""


@dataclass(frozen=True, slots=True)
class Guard(_Compact):
    """An undecided branch on the way to a call in an instantiated body."""

    expr: Expr
    want: bool  # the branch is taken when ``expr`` is non-zero (True) or zero (False)
    text: str
    line: int
    regions: tuple[tuple[int, int], ...] = ()
    """The line ranges of the code it guards (its branch; the rest of the block after an exit or a loop; after
    an if/else whose branches both end in the same loop, the code after each loop and after the if)."""


@dataclass(frozen=True, slots=True)
class InstanceCall(_Compact):
    """A call, launch or function reference in an instantiated body, to a concrete function."""

    target: str  # USR of the callee: a specialisation (``f<float>``) or a plain function
    pattern: str  # USR of the definition it was instantiated from ("" for a plain function)
    line: int
    guards: tuple[Guard, ...] = ()
    args: tuple[Expr, ...] = ()  # each argument as an expression over the caller's parameters and locals
    ranges: tuple[tuple[int, int] | None, ...] = ()  # each argument's integer type range, when 32-bit or less


@dataclass(frozen=True, slots=True)
class Instance(_Compact):
    """A concrete function body as the compiler instantiated it: the calls it can make.
    Branches clang folds to a constant (``if constexpr``, ``if (is_float && ...)``, tuning
    macros) are decided here; their untaken side contributes no calls."""

    usr: str
    pattern: str  # "" for a function that is not a template specialisation
    params: tuple[str, ...]
    calls: tuple[InstanceCall, ...]
    decided: tuple[tuple[int, bool, bool], ...] = ()  # (line, value, constexpr) of folded branches
    written: tuple[str, ...] = ()  # parameters and locals the body assigns or takes the address of
    locals: tuple[tuple[str, Expr], ...] = ()  # integer, bool and floating-point locals and their initializers
    ranges: tuple[tuple[str, int, int], ...] = ()  # parameters and locals of integer types of 32 bits or less
    returns: tuple[tuple[Expr, tuple[Guard, ...]], ...] = ()
    """What an integer or bool function returns, one per reachable ``return``, with the guards on its way."""
    writes: tuple[tuple[str, int], ...] = ()  # (variable, line) of every write the body makes
    pointees: tuple[str, ...] = ()  # pointer-to-const parameters whose floating-point value ``*p`` the body reads


@dataclass(frozen=True, slots=True)
class Diagnostic(_Compact):
    severity: str
    file: str
    line: int
    message: str


@dataclass(frozen=True, slots=True)
class WalkScope(_Compact):
    """Where a TU's walk of instantiated bodies started when it was asked to start only from some functions
    (a library given with ``--with`` is walked from what the mined library reaches of it)."""

    starts: tuple[str, ...]  # USRs of every function the walk could start from
    walked: tuple[str, ...]  # of them, those it started from
    held: tuple[str, ...] = ()  # USRs of the instances the walk found


@dataclass(frozen=True, slots=True)
class ParsedTU(_Compact):
    """The facts of one translation unit."""

    path: str
    engine: str  # "clang" or "tree-sitter"
    functions: tuple[FunctionFacts, ...]
    decls: tuple[DeclInfo, ...]
    diagnostics: tuple[Diagnostic, ...]
    deps: tuple[str, ...]  # checkout-relative files the TU read
    seconds: float = 0.0
    fallback_reason: str = ""  # why tree-sitter facts were added: "fatal-diagnostic", "timeout", ...
    variant: str = "lp64"  # "ilp64" for TUs built with the library's ILP64 defines
    instances: tuple[Instance, ...] = ()  # concrete bodies reachable from this TU's definitions
    inactive: tuple[tuple[str, int, int], ...] = ()  # (file, first, last line) skipped by the preprocessor
    liveness_seconds: float = 0.0  # of ``seconds``: walking the instances and reading the skipped blocks
    scope: WalkScope | None = None  # None: the walk started from every start
    refs: tuple[str, ...] = ()  # USRs the instances call or read the result of that are not among them
    read_elsewhere: tuple[str, ...] = ()  # files of ``--with`` libraries the TU read, as "@library/path"

    @property
    def incomplete(self) -> str:
        """Why this TU's parse cannot decide that code never runs, "" when clang read it whole: its first fatal
        diagnostic or error (clang drops what it cannot instantiate, so a call it lost looks like one never
        made), or that clang did not read it at all (tree-sitter did)."""
        return f"{self.path}: {self.failure}" if self.failure else ""

    @property
    def failure(self) -> str:
        """``incomplete`` less the TU's path: its first fatal diagnostic, else its first error, else why clang
        did not read it; "" when clang read it whole."""
        for severity in ("fatal", "error"):
            for d in self.diagnostics:
                if d.severity == severity:
                    return d.message
        return f"no clang parse ({self.fallback_reason or 'failed'})" if self.engine == "tree-sitter" else ""


@dataclass(frozen=True, slots=True)
class ParseFailed:
    """A TU that could not be parsed at all: the reason is counted and the run goes on."""

    path: str
    reason: str  # "timeout", "crash", "unreadable", "clang-error"
    detail: str
    diagnostics: tuple[Diagnostic, ...] = ()


ParseResult = ParsedTU | ParseFailed


# --------------------------------------------------------------------------- entry points


@dataclass(frozen=True, slots=True)
class EntryPoint:
    """A function the library exports: declared with its export macro in a public header, or else (``header``
    None) declared or defined with it in one of the library's own files (``exported_in``), outside any header
    a user includes but part of the library's ABI all the same."""

    name: str
    header: str | None  # checkout-relative public header
    line: int  # of the declaration in ``header``, else in ``exported_in``
    variant: str  # "lp64" or "ilp64"
    exported_in: str = ""  # the library file that exports it, when no public header declares it


# --------------------------------------------------------------------------- traversal


@dataclass(frozen=True, slots=True)
class Decision:
    """One node met by the depth-first traversal and what was decided about it."""

    node: str
    parent: str | None
    depth: int
    verdict: Literal["included", "excluded", "boundary", "cycle", "depth-limit"]
    rule: str = ""  # the rule or boundary class that decided it
    edge_kind: str = "call"
    resolution: str = "clang"
    line: int = 0  # call-site line in the parent


@dataclass(frozen=True, slots=True)
class NodeVerdict:
    """Whether a node the traversal included can run for one entry point."""

    live: bool
    reason: str = ""  # when dead: "type", "build" or "constant"
    conditions: tuple[str, ...] = ()  # when live: runtime conditions on the path, as source text
    decided_at: str = ""  # "file:line" of the deciding branch or call
    detail: str = ""
    kernels: tuple[str, ...] = ()  # live device code: the kernels whose instantiations call it (() when not walked)
    path: tuple[tuple[str, int], ...] = ()
    """the calls (caller node, line) from the entry's root by which the walk reached it: when live, the path that
    ``conditions`` are the conditions of; when dead, the path to the call the deciding line stops"""


@dataclass(frozen=True, slots=True)
class Traversal:
    entry: str
    root: str | None  # the node defining the entry, None when unresolved
    decisions: tuple[Decision, ...] = field(default_factory=tuple)


# --------------------------------------------------------------------------- on disk

_STRICT = ConfigDict(extra="forbid", frozen=True)


class ConditionRecord(BaseModel):
    model_config = _STRICT
    kind: str
    text: str
    branch: str
    line: int


class Region(BaseModel):
    """A contiguous piece of source that takes part in an entry family's kernel behaviour."""

    model_config = _STRICT
    id: str  # stable: "<file>:<start_line>-<end_line>"
    role: Role
    name: str
    qualified_name: str
    names: list[str]  # every function this span defines across the family (``f`` and ``f_64``)
    file: str
    start_line: int
    end_line: int
    code: str
    sha256: str
    exec_space: ExecSpace
    macro: str = ""
    expanded_at: str = ""  # "file:line" of the macro invocation, for macro-defined entries
    expansion: str = ""  # the invocation itself (``INST_SCAL_C_API(rocblas_int);``)
    entries: list[str]  # entry names of the family that reach this region
    live_for: list[str]  # those of them for which it can run (see ``entries.jsonl`` for why not)
    # a device helper: kernel region -> the entries for which that kernel's instantiation calls it (the overload
    # its types select); empty when the liveness walk did not see the calls
    live_via: dict[str, list[str]] = Field(default_factory=dict)


class CallEdge(BaseModel):
    model_config = _STRICT
    caller: str  # region id
    callee: str  # region id
    kind: Literal["call", "launch", "ref"]
    resolution: Resolution
    line: int
    conditions: list[ConditionRecord] = []


class LaunchSite(BaseModel):
    model_config = _STRICT
    launcher: str  # region id
    kernel: str  # region id
    file: str
    line: int
    via: str
    kernel_expr: str
    grid: str
    block: str
    shared_mem: str
    stream: str
    conditions: list[ConditionRecord] = []


class BoundaryRecord(BaseModel):
    """A call that leaves the traversed code: where it is made, and what it reaches."""

    model_config = _STRICT
    kind: BoundaryKind
    name: str
    caller: str  # region id of the caller
    call_line: int  # line of the call site (in the caller's file, or its macro's expansion site)
    declared_in: str = ""  # file declaring the callee
    call_lines: list[int] = []  # every line the caller calls it at, when more than one


class ExclusionRecord(BaseModel):
    """A callee left out of the bundle, and the rule that left it out."""

    model_config = _STRICT
    name: str
    caller: str
    rule: str
    call_line: int = 0
    declared_in: str = ""
    call_lines: list[int] = []  # every line the caller calls it at, when more than one


class Provenance(BaseModel):
    model_config = _STRICT
    library: str
    repo_url: str
    commit: str
    tag: str
    dirty: bool
    tool_version: str
    config_hash: str
    file_hashes: dict[str, str]


class Bundle(BaseModel):
    """The context bundle of one entry family."""

    model_config = _STRICT
    id: str
    library: str
    family: str
    entries: list[str]
    regions: list[Region]
    call_paths: list[list[str]]  # api -> ... -> kernel, as region ids
    edges: list[CallEdge]
    launch_sites: list[LaunchSite]
    boundaries: list[BoundaryRecord]
    exclusions: list[ExclusionRecord]
    provenance: Provenance
    sha256: str  # hash of the bundle without this field


class CallEnds(BaseModel):
    """A call edge as QA reads it: who calls whom (the rest of the edge is not parsed)."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    caller: str
    callee: str


class BundleForQA(BaseModel):
    """The part of a bundle QA reads, validated without what it never looks at (edge conditions, boundaries,
    exclusions, provenance): about half the cost of a full `Bundle`."""

    model_config = ConfigDict(extra="ignore", frozen=True)
    id: str
    library: str
    family: str
    entries: list[str]
    regions: list[Region]
    call_paths: list[list[str]]
    edges: list[CallEnds]
    launch_sites: list[LaunchSite]


class LivenessRecord(BaseModel):
    """One function an entry point's traversal reached (a kernel, a device helper or host code), and whether it
    can run."""

    model_config = _STRICT
    name: str
    region: str
    live: bool
    reason: Literal["", "type", "build", "constant"] = ""
    conditions: list[str] = []  # when live: runtime conditions on the path from the entry
    decided_at: str = ""  # when dead: "file:line" of the deciding branch or call
    detail: str = ""
    path: list[int] = []
    """the calls from the entry's own region by which the analysis reached it, as indices into the entry's
    ``call_steps`` (each ``REGION@LINE``: the calling region's id, the line of the call): when live, the path
    ``conditions`` belong to; when dead, the path to the call that ``decided_at`` stops"""


class NotReached(BaseModel):
    model_config = _STRICT
    entry: str
    reason: str  # "no-definition", "excluded" (``detail``: the rule) or "boundary" (``detail``: its kind)
    detail: str = ""


class RunSummary(BaseModel):
    model_config = _STRICT
    library: str
    entry_points: int
    headers_unreadable: list[str] = Field(default_factory=list)  # public headers whose entry points are unknown
    families: int
    bundles: int
    kernels_reached: int
    entries_without_kernel: dict[str, int]
    not_in_bundle: int
    unresolved_calls: int
    tus: int
    tus_parsed_clang: int
    tus_fallback_tree_sitter: int
    tus_with_diagnostics: int
    tus_not_utf8: list[str] = Field(default_factory=list)  # mined; their odd bytes are U+FFFD in bundle text
    tus_failed: dict[str, int]
    # TUs clang did not read whole (a fatal diagnostic, an error, no clang parse), of the mined library and the
    # --with ones (``@lib/path``): verdicts resting on them are undecided; the commonest causes; those the rules
    # keep out of the traversal (expected: the generated-code boundary)
    tus_fatal: int = 0
    tus_fatal_causes: dict[str, int] = Field(default_factory=dict)
    tus_fatal_outside: list[str] = Field(default_factory=list)
    entries_undecided: int = 0  # entries with a verdict left undecided by an incomplete parse
    cache_hits: int
    with_tus: dict[str, list[int]] = Field(default_factory=dict)  # --with library -> [TUs, served by the cache]
    wall_seconds: float
    stage_seconds: dict[str, float] = Field(default_factory=dict)  # see ``miner.pipeline.stage_seconds``


class CachedRun(BaseModel):
    """What one mine of a library at one revision used of the shared cache (``miner.cache.ledger``)."""

    model_config = _STRICT
    library: str
    revision: str  # the tag, else the commit, else "working tree"
    commit: str = ""
    dirty: bool = False
    root: str  # the checkout mined (a ``--rev`` mine's temporary worktree is gone afterwards)
    out: str
    with_libraries: dict[str, str] = Field(default_factory=dict)
    last_mined: float  # seconds since the epoch
    units: list[str]  # the cache units it read or wrote (``miner.cache.units``)


# ---------------------------------------------------------------------------------------------
# Release diff: what changed for each entry point between two revisions


class RegionChange(BaseModel):
    """A region of an entry's bundle whose code changed (after dropping comments, whitespace and the statements
    that only call excluded code), or that one revision has and the other has not."""

    model_config = _STRICT
    change: Literal["changed", "added", "removed"]
    name: str
    qualified_name: str
    role: Role
    file: str
    line: int  # first line at NEW (at OLD for a removed region)
    old_line: int = 0  # first line at OLD, for a changed region
    diff: str = ""  # unified diff of the region's code, lines numbered as in the files


class KernelChange(BaseModel):
    """A kernel reached from the entry whose presence or liveness differs between the revisions."""

    model_config = _STRICT
    name: str
    file: str
    line: int  # at NEW (at OLD for a removed kernel)
    change: Literal["added", "removed", "now live", "now dead"]
    live: bool  # at NEW (at OLD for a removed kernel)
    reason: str = ""  # when dead: "type", "build" or "constant"
    decided_at: str = ""
    detail: str = ""
    conditions: list[str] = []  # when live: the runtime conditions on the path


class EntryDiff(BaseModel):
    model_config = _STRICT
    entry: str
    # "not mined": in no bundle at either revision (the rules leave it out, or it is a boundary): its code was
    # never read, so whether it changed is not known (``note`` says why, as ``not_reached.jsonl`` does)
    verdict: Literal["unchanged", "changed", "added", "removed", "not mined"]
    note: str = ""
    regions: list[RegionChange] = []
    kernels: list[KernelChange] = []
    live_set_changed: bool = False
    live_added: list[str] = []  # kernels live for the entry at NEW and not at OLD, "name (file:line)"
    live_removed: list[str] = []


class RevisionSide(BaseModel):
    model_config = _STRICT
    revision: str
    commit: str
    tag: str
    out: str  # the mine of this revision
    with_libraries: dict[str, str] = {}  # library -> the revision of it mined alongside ("working tree" when none)
    tus: int
    tus_parsed: int  # not served by the cache
    with_tus: dict[str, list[int]] = {}  # --with library -> [TUs, parsed]


class ReleaseDiff(BaseModel):
    model_config = _STRICT
    library: str
    old: RevisionSide
    new: RevisionSide
    counts: dict[str, int]  # verdict -> entries
    entries: list[EntryDiff]
    seconds: float


# ---------------------------------------------------------------------------------------------
# Audit: why a function is, or is not, in an entry point's bundle


class PathStep(BaseModel):
    """One function on the call path from an entry point, and the edge that reached it from the step before."""

    model_config = _STRICT
    name: str
    role: str
    file: str
    line: int
    edge: str = ""  # "call" or "launch"; "" for the entry point itself
    resolution: str = ""  # how the call was resolved ("clang", "overload-set", "template", "tree-sitter", ...)
    call_at: str = ""  # "file:line" of the call or launch in the step before
    conditions: list[str] = []  # the branch conditions the call is under, as the path takes them ("!(incx == 1)")


class Explanation(BaseModel):
    """Why one function is in an entry's bundle (its path, the rule that kept it, its liveness), or why not."""

    model_config = _STRICT
    entry: str
    function: str
    status: Literal["in bundle", "reached, not bundled", "excluded", "boundary", "other entries", "not reached"]
    role: str = ""
    file: str = ""
    line: int = 0
    path: list[PathStep] = []
    rule: str = ""  # in bundle: what let the traversal follow it; excluded: the deny rule; boundary: its kind
    live: bool | None = None  # None: not in the bundle
    reason: str = ""  # when dead: "type", "build" or "constant"
    decided_at: str = ""
    detail: str = ""
    conditions: list[str] = []  # when live: the runtime conditions on the path
    called_from: list[str] = []  # excluded or boundary: "caller (file:line)" of each call the traversal stopped at
    elsewhere: list[str] = []  # other entries whose bundles hold it


# ---------------------------------------------------------------------------------------------
# QA: static kernel facts, grounded question-answer records


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


class EarlyExit(Located):
    guards: list[GuardFact] = []  # the conditions of the ``if`` / ``else`` blocks it sits in, outermost first
    after_work: bool = False  # the ``if`` block does work of its own (a small-size path) before it returns


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
    early_exits: list[EarlyExit] = []  # ``if (...) return`` in the launchers before the launch
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
