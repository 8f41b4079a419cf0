"""Depth-first traversal from one entry point; every node met gets a recorded decision."""

from __future__ import annotations

import networkx as nx

from miner.models import Decision, Traversal
from miner.traverse.rules import RuleSet


def traverse(g: nx.DiGraph, entry: str, root: str | None, rules: RuleSet) -> Traversal:
    if root is None:
        return Traversal(entry=entry, root=None)
    max_depth = rules.rules.max_depth
    decisions: list[Decision] = [Decision(node=root, parent=None, depth=0, verdict="included")]
    seen = {root}
    # Stack of (node, depth, iterator over successors); on_path guards against recursion.
    on_path = {root}
    stack = [(root, 0, iter(_ordered(g, root)))]
    while stack:
        node, depth, successors = stack[-1]
        nxt = next(successors, None)
        if nxt is None:
            stack.pop()
            on_path.discard(node)
            continue
        edge = g.edges[node, nxt]
        line = edge["sites"][0].line if edge["sites"] else 0
        common = dict(parent=node, depth=depth + 1, edge_kind=edge["kind"], resolution=edge["resolution"], line=line)
        if nxt in on_path:
            decisions.append(Decision(node=nxt, verdict="cycle", **common))
            continue
        if nxt in seen:
            continue
        seen.add(nxt)
        verdict = rules.verdict(nxt, g.nodes[nxt])
        if verdict.action == "exclude":
            decisions.append(Decision(node=nxt, verdict="excluded", rule=verdict.rule, **common))
        elif verdict.action == "boundary":
            decisions.append(Decision(node=nxt, verdict="boundary", rule=verdict.rule, **common))
        elif depth + 1 > max_depth:
            decisions.append(Decision(node=nxt, verdict="depth-limit", rule=f"max_depth:{max_depth}", **common))
        else:
            decisions.append(Decision(node=nxt, verdict="included", **common))
            on_path.add(nxt)
            stack.append((nxt, depth + 1, iter(_ordered(g, nxt))))
    return Traversal(entry=entry, root=root, decisions=tuple(decisions))


def _ordered(g: nx.DiGraph, node: str) -> list[str]:
    """Successors in source order of their first call site, so traversals are reproducible."""

    def key(succ: str) -> tuple:
        sites = g.edges[node, succ]["sites"]
        return (min((s.line for s in sites), default=0), g.nodes[succ]["name"], succ)

    return sorted(g.successors(node), key=key)
