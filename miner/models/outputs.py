"""What a mine writes: bundles with their regions, edges, launch sites, boundaries and exclusions; entries' liveness
records; the run summary."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from miner.models.kinds import BoundaryKind, ExecSpace, Resolution, Role

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
    line: int = 0


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
