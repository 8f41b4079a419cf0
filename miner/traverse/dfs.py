"""Depth-first traversal from each entry point; every node met gets a recorded decision."""

from __future__ import annotations

import networkx as nx

from miner.models import Decision, Traversal
from miner.traverse.rules import RuleSet


class Traverser:
    """Walks one graph under one rule set; successor order is computed once per node."""

    def __init__(self, g: nx.DiGraph, rules: RuleSet) -> None:
        self.g = g
        self.rules = rules
        self._order: dict[str, tuple[tuple[str, dict], ...]] = {}

    def successors(self, node: str) -> tuple[tuple[str, dict], ...]:
        """(successor, edge data) in source order of the first call site, for reproducible walks."""
        found = self._order.get(node)
        if found is None:
            g = self.g

            def key(succ: str) -> tuple:
                sites = g.edges[node, succ]["sites"]
                return (min((s.line for s in sites), default=0), g.nodes[succ]["name"], succ)

            found = self._order[node] = tuple((s, g.edges[node, s]) for s in sorted(g.successors(node), key=key))
        return found

    def traverse(self, entry: str, root: str | None) -> Traversal:
        if root is None:
            return Traversal(entry=entry, root=None)
        g, rules = self.g, self.rules
        max_depth = rules.rules.max_depth
        verdict = rules.verdict(root, g.nodes[root])
        if verdict.action != "follow":  # an entry point the rules leave out is not walked either
            ruled = "excluded" if verdict.action == "exclude" else "boundary"
            only = Decision(node=root, parent=None, depth=0, verdict=ruled, rule=verdict.rule)
            return Traversal(entry=entry, root=root, decisions=(only,))
        decisions: list[Decision] = [Decision(node=root, parent=None, depth=0, verdict="included")]
        seen = {root}
        on_path = {root}  # guards against recursion
        stack = [(root, 0, iter(self.successors(root)))]
        while stack:
            node, depth, successors = stack[-1]
            nxt = next(successors, None)
            if nxt is None:
                stack.pop()
                on_path.discard(node)
                continue
            succ, edge = nxt
            line = edge["sites"][0].line if edge["sites"] else 0
            common = dict(
                parent=node, depth=depth + 1, edge_kind=edge["kind"], resolution=edge["resolution"], line=line
            )
            if succ in on_path:
                decisions.append(Decision(node=succ, verdict="cycle", **common))
                continue
            if succ in seen:
                continue
            seen.add(succ)
            verdict = rules.verdict(succ, g.nodes[succ])
            if verdict.action == "exclude":
                decisions.append(Decision(node=succ, verdict="excluded", rule=verdict.rule, **common))
            elif verdict.action == "boundary":
                decisions.append(Decision(node=succ, verdict="boundary", rule=verdict.rule, **common))
            elif depth + 1 > max_depth:
                decisions.append(Decision(node=succ, verdict="depth-limit", rule=f"max_depth:{max_depth}", **common))
            else:
                decisions.append(Decision(node=succ, verdict="included", **common))
                on_path.add(succ)
                stack.append((succ, depth + 1, iter(self.successors(succ))))
        return Traversal(entry=entry, root=root, decisions=tuple(decisions))


def traverse(g: nx.DiGraph, entry: str, root: str | None, rules: RuleSet) -> Traversal:
    """One traversal (``Traverser`` keeps the successor order across many)."""
    return Traverser(g, rules).traverse(entry, root)
