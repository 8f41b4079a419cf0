"""What the analysis holds in memory: entry points, the traversal's decisions, and the liveness verdict of each node."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal


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
