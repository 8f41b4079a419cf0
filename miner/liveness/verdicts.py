"""The verdicts half of the liveness analyser: from one walk of an entry's instantiated calls, whether each
node its traversal included can run, and for each one that cannot, why (the reason, the deciding line, the
path to the call it stops). Mixed into ``LivenessAnalyser``, which provides the walk and the graph."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import TYPE_CHECKING

from miner.models import NodeVerdict, Traversal

if TYPE_CHECKING:
    from miner.liveness.analyse import Trail, _EntryWalk

_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_TYPE_TRAIT = re.compile(r"\b\w*is_\w+\s*<|\bsizeof\s*\(|\balignof\s*\(|\bnumeric_limits\s*<")
_CALLER_DEAD = "its caller "  # how the detail of a verdict inherited from a dead caller begins


class VerdictsFromWalk:
    def verdicts(self, t: Traversal, variant: str) -> dict[str, NodeVerdict]:
        """A verdict for every node the traversal included, and for the kernels and device helpers
        only code the build leaves out would reach (dead, ``build``)."""
        included = [d for d in t.decisions if d.verdict == "included"]
        if t.root is None or not included:
            return {}
        walk = self.walk(t.root, variant)
        nodes = [d.node for d in included]
        node_set = set(nodes)
        undecided = self._below(walk.unanalysed, node_set) if walk.complete else node_set
        # device code whose instantiated body the walk did not visit: live with the live device code that calls it
        device = self._below(
            {n for n in walk.live if self.g.nodes[n]["exec_space"] != "host" and not walk.instances_of.get(n)}, node_set
        )
        out: dict[str, NodeVerdict] = {}
        for node in nodes:
            if node in walk.live:
                out[node] = NodeVerdict(True, conditions=walk.live[node], path=walk.trails.get(node, ()))
            elif node in undecided:
                out[node] = NodeVerdict(True, detail="unanalysed: no instantiated body on the path")
            elif node in device:
                out[node] = NodeVerdict(True, detail="device code called from a live kernel")
        pending = [n for n in nodes if n not in out]
        for _ in range(len(pending) + 1):  # a dead node's reason may come from its dead caller
            left = []
            for node in pending:
                why = self._explain(node, walk, out, node_set, variant)
                if why is None:
                    left.append(node)
                else:
                    out[node] = why
            if len(left) == len(pending):
                break
            pending = left
        for node in pending:  # nothing explains it: never guess dead
            out[node] = NodeVerdict(True, detail="undecided: no instantiated call and no deciding branch found")
        if self.build is not None:
            hosts = [n for n, v in out.items() if v.live and self.g.nodes[n]["exec_space"] == "host"]
            for node, verdict in self.build.find(hosts, variant, node_set).items():
                out.setdefault(node, verdict)
        for node, kernels in self._kernels_calling(walk, node_set).items():
            verdict = out.get(node)
            if verdict is not None and verdict.live:
                out[node] = replace(verdict, kernels=kernels)
        broken = self._resting_on_incomplete(walk, node_set)
        if broken:
            return _undecided(out, broken)
        return out

    def _kernels_calling(self, walk: _EntryWalk, within: set[str]) -> dict[str, tuple[str, ...]]:
        """Device code -> the kernels whose instantiations the walk saw call it, directly or through other device
        code: the overloads and specialisations each kernel's own types select."""
        found: dict[str, set[str]] = {}
        for kernel, instances in walk.instances_of.items():
            if kernel not in within or self.g.nodes[kernel]["exec_space"] != "global":
                continue
            stack, seen = list(instances), set(instances)
            while stack:
                for callee, usr in walk.calls.get(stack.pop(), ()):
                    if self.g.nodes[callee]["exec_space"] in ("host", "global"):
                        continue
                    found.setdefault(callee, set()).add(kernel)
                    if usr and usr not in seen:
                        seen.add(usr)
                        stack.append(usr)
        return {node: tuple(sorted(kernels)) for node, kernels in found.items()}

    def _resting_on_incomplete(self, walk: _EntryWalk, within: set[str]) -> str:
        """Why the walk cannot decide anything dead, "" when it can: the first (by path) incomplete parse
        that holds a body it visited of a function the traversal included."""
        if not self.incomplete:
            return ""
        found = [
            why
            for node in within
            for inst in walk.instances_of.get(node, {}).values()
            if (why := self.incomplete.get(id(inst)))
        ]
        return min(found, default="")

    def _below(self, roots: set[str], within: set[str]) -> set[str]:
        out: set[str] = set()
        stack = [r for r in roots if r in within]
        while stack:
            n = stack.pop()
            if n in out:
                continue
            out.add(n)
            stack += [s for s in self.g.successors(n) if s in within and s not in out]
        return out

    def _explain(self, node, walk: _EntryWalk, known: dict[str, NodeVerdict], within, variant) -> NodeVerdict | None:
        inherited: NodeVerdict | None = None
        for parent in sorted(p for p in self.g.predecessors(node) if p in within):
            pv = known.get(parent)
            if pv is None:
                continue
            sites = sorted(self.g.edges[parent, node]["sites"], key=lambda s: s.line)
            if not pv.live:
                if inherited is None:
                    caller = self.g.nodes[parent]["name"]
                    detail = (
                        pv.detail
                        if pv.detail.startswith(_CALLER_DEAD)
                        else f"{_CALLER_DEAD}{caller} cannot run here: {pv.detail}"
                    )
                    inherited = NodeVerdict(
                        False, pv.reason, decided_at=pv.decided_at, detail=detail,
                        path=(*pv.path, (parent, sites[0].line)),
                    )  # fmt: skip
                continue
            file = self.g.nodes[parent]["file"]
            selected = self._selected_at(parent, walk, variant)
            name = self.g.nodes[node]["name"]
            for site in sites:
                chosen = {c for c in selected.get(site.line, ()) if self.g.nodes[c]["name"] == name}
                if chosen and node not in chosen:
                    picked = ", ".join(sorted(f"{self.g.nodes[c]['file']}:{self.g.nodes[c]['line']}" for c in chosen))
                    return NodeVerdict(
                        False, "type", decided_at=f"{file}:{site.line}",
                        detail=f"overload or specialisation not selected for these types: the call selects {name} "
                        f"at {picked}",
                        path=(*pv.path, (parent, site.line)),
                    )  # fmt: skip
                hits = walk.guarded_dead.get((parent, site.line, node))
                if hits:
                    (text, line, detail, unfixed, trail), others = hits[0], hits[1:]
                    why = f"{text}" + (f" with {detail}" if detail else "")
                    for (
                        t,
                        n,
                        d,
                        _,
                        other,
                    ) in others:  # where the call is reached in other contexts, dead for another reason
                        why += f"; in another context{self._through(trail, other)}, {t} ({file}:{n})" + (
                            f" with {d}" if d else ""
                        )
                    reason = "type" if unfixed and self._by_type(parent, text) else "constant"
                    return NodeVerdict(
                        False, reason, decided_at=f"{file}:{line}", detail=why, path=(*trail, (parent, site.line))
                    )
                decided = self._decided(parent, walk)
                for cond in reversed(site.conditions):
                    if cond.branch not in ("then", "else") or (cond.line, cond.branch == "then") not in decided:
                        continue
                    constexpr = decided[(cond.line, cond.branch == "then")]
                    return NodeVerdict(
                        False, "type" if constexpr or self._by_type(parent, cond.text) else "constant",
                        decided_at=f"{file}:{cond.line}", detail=cond.text, path=(*pv.path, (parent, site.line)),
                    )  # fmt: skip
            if walk.instances_of.get(parent):
                line = sites[0].line
                return NodeVerdict(
                    False, "type", decided_at=f"{file}:{line}",
                    detail="overload or specialisation not selected for these types",
                    path=(*pv.path, (parent, line)),
                )  # fmt: skip
        return inherited

    def _through(self, first: Trail, other: Trail) -> str:
        """Where the walk's path to another context leaves the first one's: `` (through the call at F:L)``."""
        for i, step in enumerate(other):
            if i >= len(first) or first[i] != step:
                node, line = step
                return f" (through the call at {self.g.nodes[node]['file']}:{line})"
        return ""

    def _selected_at(self, node: str, walk: _EntryWalk, variant: str) -> dict[int, set[str]]:
        """Line -> the nodes the visited instances of ``node`` call there: the overloads their types select
        (the graph links a call to every overload of its name)."""
        found = walk.selected.get(node)
        if found is None:
            found = walk.selected[node] = {}
            for inst in walk.instances_of.get(node, {}).values():
                for call in inst.calls:
                    callee = self.node_of(call.target, call.pattern, variant)
                    if callee is not None:
                        found.setdefault(call.line, set()).add(callee)
        return found

    def _by_type(self, node: str, condition: str) -> bool:
        """Whether a branch condition of ``node`` that every instance folds is decided by the template's
        arguments: it names a template parameter or a type trait (``std::is_same_v<T, float>``, ``sizeof(T)``),
        or a constant local of the function initialised from one (``static constexpr bool is_half = ...``)."""
        key = (node, condition)
        if key not in self._typed:
            self._typed[key] = self._reads_template_arguments(node, condition)
        return self._typed[key]

    def _reads_template_arguments(self, node: str, condition: str) -> bool:
        facts = self.g.nodes[node].get("facts")
        if facts is None or not facts.template_params or self.build is None:
            return False
        body = _COMMENT.sub(
            " ", self.build.read(facts.file)[facts.start_offset : facts.end_offset].decode(errors="replace")
        )
        params = set(facts.template_params)

        def typed(text: str, depth: int) -> bool:
            names = set(_IDENTIFIER.findall(text))
            if names & params or _TYPE_TRAIT.search(text):
                return True
            if depth == 0:
                return False
            for name in names:
                init = re.search(rf"\b(?:constexpr|const)\b[^;{{}}()]*\b{re.escape(name)}\s*(?:=|\{{)([^;]*);", body)
                if init and typed(init.group(1), depth - 1):
                    return True
            return False

        return typed(condition, 2)

    def _decided(self, node: str, walk: _EntryWalk) -> dict[tuple[int, bool], bool]:
        """(line, branch needed) -> constexpr, for branches every instance of ``node`` folded
        the other way (a branch one instance takes is not dead for the entry)."""
        insts = walk.instances_of.get(node)
        if not insts:
            return {}
        per = [{(line, not value): constexpr for line, value, constexpr in i.decided} for i in insts.values()]
        common = set(per[0]).intersection(*per[1:])
        return {k: per[0][k] for k in common}


def _undecided(verdicts: dict[str, NodeVerdict], why: str) -> dict[str, NodeVerdict]:
    """The verdicts of an entry whose walk rests on an incomplete parse: each dead one, and each live one left
    undecided, is live and undecided for that reason; what was found live stays as found."""
    undecided = NodeVerdict(True, detail=f"{UNDECIDED_BY_PARSE} ({why})")
    return {node: v if v.live and not v.detail.startswith(_NOT_DECIDED) else undecided for node, v in verdicts.items()}


_NOT_DECIDED = ("unanalysed", "undecided")  # how a live verdict that nothing decided begins
UNDECIDED_BY_PARSE = "undecided: parse incomplete"
