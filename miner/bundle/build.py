"""Entry families and their context bundles.

Entries whose traversals include the same regions (precision and ``_64`` variants of one
routine: ``rocblas_internal_scal_template`` and its ``_64`` twin are two functions but one
region of source) form a family, and a family gets one bundle listing every entry name.
"""

from __future__ import annotations

import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass

import networkx as nx

from miner.bundle.regions import SourceReader, Span
from miner.models import (
    BoundaryRecord,
    Bundle,
    CallEdge,
    ConditionRecord,
    ExclusionRecord,
    ExecSpace,
    LaunchSite,
    NodeVerdict,
    Provenance,
    Region,
    Resolution,
    Role,
    Traversal,
)


@dataclass(frozen=True, slots=True)
class EntryView:
    """One entry's traversal seen as regions: what the family grouping and bundles need."""

    entry: str
    traversal: Traversal
    region_of: dict[str, str]  # included node -> region id
    roles: dict[str, Role]  # included node -> role
    verdicts: dict[str, NodeVerdict]  # included node -> can it run for this entry

    def live(self, node: str) -> bool:
        verdict = self.verdicts.get(node)
        return verdict is None or verdict.live

    @property
    def region_set(self) -> frozenset[str]:
        return frozenset(self.region_of.values())

    @property
    def family_key(self) -> frozenset[str]:
        """The regions below the API wrapper: ``rocsolver_sgetrf`` and ``rocsolver_dgetrf`` are
        two written-out wrappers over one implementation, and belong to one family."""
        return frozenset(rid for node, rid in self.region_of.items() if self.roles[node] != Role.API)


class BundleBuilder:
    def __init__(self, g: nx.DiGraph, reader: SourceReader, library: str) -> None:
        self.g = g
        self.reader = reader
        self.library = library
        self._spans: dict[str, Span] = {}
        self._condition_records: dict[tuple, list[ConditionRecord]] = {}

    def span(self, node: str) -> Span:
        if node not in self._spans:
            self._spans[node] = self.reader.span(self.g.nodes[node]["facts"])
        return self._spans[node]

    def region_id(self, node: str) -> str:
        s = self.span(node)  # one span of source is one region, whatever functions it defines
        return f"{s.file}:{s.start_line}-{s.end_line}"

    # ------------------------------------------------------------------ views and families

    def view(self, t: Traversal, verdicts: dict[str, NodeVerdict]) -> EntryView:
        included = [d for d in t.decisions if d.verdict == "included"]
        nodes = {d.node for d in included}
        depth = {d.node: d.depth for d in included}
        roles: dict[str, Role] = {}
        for d in included:
            roles[d.node] = self._role(d.node, depth[d.node], nodes)
        return EntryView(t.entry, t, {n: self.region_id(n) for n in sorted(nodes)}, roles, verdicts)

    def _role(self, node: str, depth: int, included: set[str]) -> Role:
        space = self.g.nodes[node]["exec_space"]
        if depth == 0:
            return Role.API
        if space == ExecSpace.GLOBAL.value:
            return Role.KERNEL
        if space in (ExecSpace.DEVICE.value, ExecSpace.HOST_DEVICE.value):
            return Role.DEVICE_HELPER
        if any(self.g.edges[node, s]["kind"] == "launch" and s in included for s in self.g.successors(node)):
            return Role.LAUNCHER
        return Role.IMPL if depth == 1 else Role.TEMPLATE

    @staticmethod
    def families(views: list[EntryView]) -> list[list[EntryView]]:
        groups: dict[frozenset[str], list[EntryView]] = defaultdict(list)
        for v in views:
            # an entry that reaches nothing below its wrapper stays a family of its own
            groups[v.family_key or v.region_set].append(v)
        fams = [sorted(vs, key=lambda v: v.entry) for vs in groups.values()]
        return sorted(fams, key=lambda vs: vs[0].entry)

    # ------------------------------------------------------------------ bundles

    def bundle(self, family: list[EntryView], provenance: Provenance) -> Bundle:
        g = self.g
        entries = [v.entry for v in family]
        reach: dict[str, set[str]] = defaultdict(set)  # region -> entries
        live_for: dict[str, set[str]] = defaultdict(set)
        node_for_region: dict[str, str] = {}
        role_for_region: dict[str, Role] = {}
        names: dict[str, set[str]] = defaultdict(set)
        live_via: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
        unwalked: set[str] = set()  # helpers live for some entry whose walk did not see which kernels call them
        roots = {v.traversal.root for v in family}
        for v in family:
            for node, rid in v.region_of.items():
                reach[rid].add(v.entry)
                if v.live(node):
                    live_for[rid].add(v.entry)
                    if v.roles[node] == Role.DEVICE_HELPER:
                        callers = (
                            [v.region_of[k] for k in v.verdicts[node].kernels if k in v.region_of]
                            if node in v.verdicts
                            else []
                        )
                        for kernel in callers:
                            live_via[rid][kernel].add(v.entry)
                        if not callers:
                            unwalked.add(rid)
                names[rid].add(g.nodes[node]["name"])
                held = node_for_region.get(rid)
                if held is None or _names_region(node, roots) < _names_region(held, roots):
                    node_for_region[rid] = node
                role_for_region[rid] = _stronger_role(role_for_region.get(rid), v.roles[node])
        regions = []
        for rid in sorted(node_for_region):
            node = node_for_region[rid]
            data, span = g.nodes[node], self.span(node)
            regions.append(
                Region(
                    id=rid,
                    role=role_for_region[rid],
                    name=data["name"],
                    qualified_name=data["qualified_name"],
                    names=sorted(names[rid]),
                    file=span.file,
                    start_line=span.start_line,
                    end_line=span.end_line,
                    code=span.code,
                    sha256=span.sha256,
                    exec_space=ExecSpace(data["exec_space"]),
                    macro=data["facts"].macro,
                    expanded_at=span.expanded_at,
                    expansion=span.expansion,
                    entries=sorted(reach[rid]),
                    live_for=sorted(live_for[rid]),
                    live_via={k: sorted(es) for k, es in sorted(live_via[rid].items())} if rid not in unwalked else {},
                )
            )
        edges: dict[tuple, CallEdge] = {}
        launches: dict[tuple, LaunchSite] = {}
        boundaries: dict[tuple, BoundaryRecord] = {}
        exclusions: dict[tuple, ExclusionRecord] = {}
        for v in family:
            for d in v.traversal.decisions:
                if d.parent is None or d.parent not in v.region_of or d.verdict not in ("boundary", "excluded"):
                    continue
                data = g.nodes[d.node]
                # the traversal decides a node once, where it first meets it: every region that calls it is a caller
                for parent in sorted(p for p in g.predecessors(d.node) if p in v.region_of):
                    caller = v.region_of[parent]
                    sites = {s.line for s in g.edges[parent, d.node]["sites"]}
                    line = d.line if parent == d.parent else min(sites, default=d.line)
                    lines = sorted(sites | {line}) if len(sites | {line}) > 1 else []
                    if d.verdict == "boundary":
                        key = (d.rule, data["name"], caller)
                        if key not in boundaries:
                            boundaries[key] = BoundaryRecord(
                                kind=d.rule,
                                name=data["name"],
                                caller=caller,
                                call_line=line,
                                declared_in=self.reader.name(data["file"]),
                                call_lines=lines,
                            )
                    else:
                        key = (data["name"], caller)
                        if key not in exclusions:
                            exclusions[key] = ExclusionRecord(
                                name=data["name"],
                                caller=caller,
                                rule=d.rule,
                                call_line=line,
                                declared_in=self.reader.name(data["file"]),
                                call_lines=lines,
                            )
            for node, rid in v.region_of.items():
                for succ in g.successors(node):
                    callee = v.region_of.get(succ)
                    if callee is None:
                        continue
                    edge = g.edges[node, succ]
                    for site in edge["sites"]:
                        key = (rid, callee, site.kind, site.line)
                        if key in edges:
                            continue
                        conds = self._conditions(site.conditions)
                        edges[key] = CallEdge.model_construct(
                            caller=rid, callee=callee, kind=site.kind, resolution=Resolution(edge["resolution"]),
                            line=site.line, conditions=conds,
                        )  # fmt: skip
                        if site.kind == "launch" and site.launch is not None:
                            cfg = site.launch
                            launches[(rid, callee, site.line)] = LaunchSite.model_construct(
                                launcher=rid, kernel=callee, file=g.nodes[node]["file"], line=site.line,
                                via=cfg.via, kernel_expr=cfg.kernel, grid=cfg.grid, block=cfg.block,
                                shared_mem=cfg.shared_mem, stream=cfg.stream, conditions=conds,
                            )  # fmt: skip
        call_paths = self._call_paths(family)
        body = dict(
            id=_bundle_id(self.library, entries),
            library=self.library,
            family=_family_name(entries),
            entries=entries,
            regions=regions,
            call_paths=call_paths,
            edges=[edges[k] for k in sorted(edges)],
            launch_sites=[launches[k] for k in sorted(launches)],
            boundaries=[boundaries[k] for k in sorted(boundaries)],
            exclusions=[exclusions[k] for k in sorted(exclusions)],
            provenance=provenance,
        )
        digest = hashlib.sha256(
            json.dumps(
                {k: (v.model_dump(mode="json") if hasattr(v, "model_dump") else v) for k, v in body.items()},
                sort_keys=True,
                default=lambda o: o.model_dump(mode="json"),
            ).encode()
        ).hexdigest()
        return Bundle(**body, sha256=digest)

    def _conditions(self, conditions: tuple) -> list[ConditionRecord]:
        """On-disk records of a site's branch conditions, built once per distinct chain."""
        found = self._condition_records.get(conditions)
        if found is None:
            found = self._condition_records[conditions] = [
                ConditionRecord.model_construct(kind=c.kind, text=c.text, branch=c.branch, line=c.line)
                for c in conditions
            ]
        return found

    def _call_paths(self, family: list[EntryView]) -> list[list[str]]:
        """For each kernel region, the path the traversal took to it from the first entry that reaches it."""
        paths: dict[str, list[str]] = {}
        for v in family:
            parent = {d.node: d.parent for d in v.traversal.decisions if d.verdict == "included"}
            for node, role in v.roles.items():
                rid = v.region_of[node]
                if role != Role.KERNEL or rid in paths:
                    continue
                chain, cur = [], node
                while cur is not None:
                    chain.append(v.region_of[cur])
                    cur = parent.get(cur)
                paths[rid] = list(reversed(chain))
        return [paths[k] for k in sorted(paths)]


_ROLE_RANK = {Role.API: 0, Role.KERNEL: 1, Role.DEVICE_HELPER: 2, Role.LAUNCHER: 3, Role.IMPL: 4, Role.TEMPLATE: 5}


def _stronger_role(a: Role | None, b: Role) -> Role:
    return b if a is None or _ROLE_RANK[b] < _ROLE_RANK[a] else a


def _family_name(entries: list[str]) -> str:
    stems = sorted({e[:-3] if e.endswith("_64") else e for e in entries})
    return stems[0] if len(stems) == 1 else f"{stems[0]} (+{len(stems) - 1})"


def _bundle_id(library: str, entries: list[str]) -> str:
    digest = hashlib.sha256("\n".join(sorted(entries)).encode()).hexdigest()[:10]
    return f"{library}:{sorted(entries)[0]}:{digest}"


def _names_region(node: str, roots: set[str | None]) -> tuple[bool, str]:
    """Which of the nodes one region holds names it (a macro body expanded into two functions, ``f`` in one TU and
    ``f_64`` in another, is one region): an entry's own root first, then the smallest node id, whatever order the
    traversals met them in."""
    return node not in roots, node
