"""A traversal as an indented text tree: role, place, verdict and rule of every node met."""

from __future__ import annotations

import networkx as nx

from miner.models import NodeVerdict, Traversal


def render_tree(g: nx.DiGraph, t: Traversal, verdicts: dict[str, NodeVerdict] | None = None) -> str:
    if t.root is None:
        return f"{t.entry}: no definition found (not reached)"
    lines = []
    for d in t.decisions:
        data = g.nodes[d.node]
        place = f"{data['file']}:{data['line']}" if data["file"] else "?"
        space = data["exec_space"]
        tag = {"included": "+", "excluded": "-", "boundary": "|", "cycle": "@", "depth-limit": "!"}[d.verdict]
        detail = d.verdict + (f" [{d.rule}]" if d.rule else "")
        via = "" if d.parent is None else f" <{d.edge_kind} {d.resolution} L{d.line}>"
        lines.append(f"{'  ' * d.depth}{tag} {data['name']} ({space}) {place} {detail}{via}{_liveness(d, verdicts)}")
    return "\n".join(lines)


def _liveness(d, verdicts: dict[str, NodeVerdict] | None) -> str:
    v = (verdicts or {}).get(d.node) if d.verdict == "included" else None
    if v is None:
        return ""
    if not v.live:
        return f" DEAD:{v.reason} at {v.decided_at} ({v.detail})"
    when = f" when {' && '.join(v.conditions)}" if v.conditions else ""
    note = f" ({v.detail})" if v.detail else ""
    return f" live{when}{note}"
