"""What a release diff writes, and what explain answers: per-entry verdicts between two revisions, region and kernel
changes; call paths and explanations."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel

from miner.models.kinds import Role
from miner.models.outputs import _STRICT


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
