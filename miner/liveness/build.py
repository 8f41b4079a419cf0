"""Kernels that only code left out by the build configuration would launch (``build``).

clang never sees the inside of an ``#if`` block the build's defines leave out, so the traversal
cannot reach what it names. For each live host function of an entry, the blocks clang skipped
inside its body are read as text; each function they name (by name: there is nothing to resolve
against) that leads to kernels which the entry does not otherwise run makes those kernels,
and their device helpers, dead for the reason ``build``, at the directive's line.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable

import networkx as nx

from miner.models import ExecSpace, NodeVerdict, ParsedTU

_IDENT = re.compile(rb"[A-Za-z_]\w*")
_DIRECTIVE = re.compile(rb"^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)$")
_DEVICE = {ExecSpace.GLOBAL.value, ExecSpace.DEVICE.value, ExecSpace.HOST_DEVICE.value}

Block = tuple[int, int]


def index_inactive(parsed: Iterable[ParsedTU]) -> dict[tuple[str, str], set[Block]]:
    """(file, variant) -> blocks skipped by every TU of that variant that read the file: a header
    block one TU skips may be compiled in another that defines other macros first. A TU clang did not read
    whole says nothing: a macro from a header it could not include may be what the block tests."""
    seen: dict[tuple[str, str], set[Block] | None] = {}
    for tu in parsed:
        if tu.incomplete:
            continue
        mine: dict[str, set[Block]] = defaultdict(set)
        for file, start, end in tu.inactive:
            mine[file].add((start, end))
        for file in tu.deps:
            key = (file, tu.variant)
            blocks = mine.get(file, set())
            seen[key] = blocks if seen.get(key) is None else seen[key] & blocks
    return {k: v for k, v in seen.items() if v}


class BuildDeadFinder:
    def __init__(
        self,
        g: nx.DiGraph,
        inactive: dict[tuple[str, str], set[Block]],
        read: Callable[[str], bytes],
        keep: Callable[[str], bool] = lambda node: True,
    ) -> None:
        self.g = g
        self.inactive = inactive
        self.read = read
        self.keep = keep  # the library's rules: an excluded function leads nowhere
        self.by_name: dict[str, list[str]] = defaultdict(list)
        for node, data in g.nodes(data=True):
            if data["defined"]:
                self.by_name[data["name"]].append(node)
        self._lines: dict[str, list[bytes]] = {}

    def find(self, live_hosts: Iterable[str], variant: str, known: set[str]) -> dict[str, NodeVerdict]:
        out: dict[str, NodeVerdict] = {}
        for host in sorted(live_hosts):
            facts = self.g.nodes[host]["facts"]
            if facts is None:
                continue
            for start, end in sorted(self.inactive.get((facts.file, variant), ())):
                if start < facts.start_line or end > facts.end_line:
                    continue
                lines = self._file_lines(facts.file)
                text = b"\n".join(lines[start - 1 : end])
                why = NodeVerdict(
                    False, "build", decided_at=f"{facts.file}:{start}", detail=self._directive(lines, start)
                )
                for name in sorted({m.group(0).decode() for m in _IDENT.finditer(text)}):
                    for cand in self.by_name.get(name, ()):
                        for node in self._device_code_below(cand, known):
                            out.setdefault(node, why)
        return out

    def _device_code_below(self, start: str, known: set[str]) -> list[str]:
        """Kernels and device helpers reachable from ``start`` that the entry does not reach."""
        found, stack, seen = [], [start], {start}
        while stack:
            node = stack.pop()
            data = self.g.nodes[node]
            if not data["defined"] or not self.keep(node):
                continue
            if data["exec_space"] in _DEVICE and node not in known:
                found.append(node)
            for succ in self.g.successors(node):
                if succ not in seen:
                    seen.add(succ)
                    stack.append(succ)
        return found if any(self.g.nodes[n]["exec_space"] == ExecSpace.GLOBAL.value for n in found) else []

    def _file_lines(self, file: str) -> list[bytes]:
        if file not in self._lines:
            self._lines[file] = self.read(file).split(b"\n")
        return self._lines[file]

    @staticmethod
    def _directive(lines: list[bytes], start: int) -> str:
        """``#else of #ifdef BUILD_WITH_TENSILE``: the directive opening the skipped block and,
        for ``#else``/``#elif``, the ``#if`` it belongs to."""
        first = lines[start - 1].strip().decode("utf-8", "replace")
        m = _DIRECTIVE.match(lines[start - 1])
        if m is None or m.group(1) not in (b"else", b"elif"):
            return first
        depth = 0
        for i in range(start - 2, -1, -1):
            d = _DIRECTIVE.match(lines[i])
            if d is None:
                continue
            kind = d.group(1)
            if kind == b"endif":
                depth += 1
            elif kind in (b"if", b"ifdef", b"ifndef"):
                if depth == 0:
                    return f"{first} of {lines[i].strip().decode('utf-8', 'replace')}"
                depth -= 1
        return first
