"""How threads map to data: index mappings, global accesses and their coalescing, LDS layout. Mixed into
``OfflineGenerator``."""

from __future__ import annotations

import re

from miner.models import (
    QAItem,
)
from miner.qa.offline.kinds import _STRIDE_PREFIXES
from miner.qa.offline.shared import (
    _ELEMENTS_SHOWN,
    _ONE_FLAT_THREAD,
    _assignment,
    _first_per,
    _guarded_by,
    _key,
    _loop_variables,
    _one_thread,
    _one_thread_guard,
    _steps_with_thread_x,
    _stride_of,
    _subscript,
    _thread_strided,
)
from miner.qa.wording import (
    WORD,
    at,
    cite,
    joined,
    thread_names,
    under,
)

_POINTED = re.compile(r"\b([A-Za-z_]\w*)\s*=\s*(?:\([^()]*\)\s*)?&?\s*([A-Za-z_]\w*)\s*(?:[;+\[])")
_ONE_LANE = re.compile(r"\b(?:tid|tx|lid|threadIdx\.x|hipThreadIdx_x)\s*==\s*[\w.(]")


def _one_lane_guard(guard) -> bool:
    """``if(tx == i)`` holding: one lane of the wavefront runs the access."""
    return guard.holds and bool(_ONE_LANE.search(guard.text))


class IndexingAndMemory:
    def _indexing(self) -> list[QAItem]:
        mappings = self.facts.thread_mapping
        if not mappings:
            return []
        parts = [f"`{_assignment(m)}`{self._in(m)} ({at(m)}{under(m)})" for m in mappings]
        evidence = [cite(m, m.variable, *thread_names(m.expression)) for m in mappings]
        answer = "They compute " + "; ".join(parts) + "."
        variables = {m.variable for m in mappings}
        strided = [loop for loop in self.facts.loops if _thread_strided(loop.header, variables)]
        answer += self._listed(" Threads step through ", strided, evidence, lambda loop: loop.header)
        moved = {(m.region, m.variable) for m in mappings if m.expression.startswith("+=")}
        indexed = [
            a
            for a in _first_per(
                [*self.facts.stores, *self.facts.global_accesses, *self.facts.lds_accesses],
                lambda a: (*_key(a), _one_thread(a)),
            )
            if variables & set(WORD.findall(_subscript(a).partition("[")[2]))
            or (a.region, _subscript(a).partition("[")[0].strip()) in moved  # ``A[i]``, A moved to the thread
        ]
        one_thread = [a for a in indexed if _one_thread(a)]
        touched = [a for a in indexed if a not in one_thread][:_ELEMENTS_SHOWN]
        subscripts: dict[str, set[str]] = {}
        for a in [*self.facts.stores, *self.facts.global_accesses, *self.facts.lds_accesses]:
            subscripts.setdefault(a.region, set()).update(WORD.findall(_subscript(a).partition("[")[2]))
        own_loops = [
            loop
            for loop in self.facts.loops
            if loop not in strided
            and not _one_thread(loop)
            and _loop_variables(loop.header) & subscripts.get(loop.region, set())
        ]
        answer += self._listed(" Each thread also loops over the elements in ", own_loops, evidence, lambda x: x.header)
        answer += self._listed(" Each thread then works on ", touched, evidence, _subscript, joined)
        if one_thread:
            single = not self._multi_dimensional_block() and all(
                _ONE_FLAT_THREAD.search(g.text) for a in one_thread for g in a.guards if _one_thread_guard(g)
            )
            answer += (
                (" One thread alone accesses " if single else " Only the threads that a `== 0` test picks access ")
                + joined(
                    [f"`{_subscript(a)}`{self._in(a)} ({at(a)}, when {_guarded_by(a.guards)})" for a in one_thread]
                )
                + "."
            )
            evidence += [cite(a) for a in one_thread] + [cite(g) for a in one_thread for g in a.guards]
        mapped_lines = {(m.region, m.start_line) for m in mappings}
        batch_calls = _first_per(
            [
                c
                for c in self.facts.helpers
                if re.search(r"\b(?:blockIdx|hipBlockIdx_)\.?[yz]\b", c.text)
                and (c.region, c.start_line) not in mapped_lines
            ],
            lambda c: (c.region, c.start_line),
        )
        answer += self._listed(
            " The block's y or z index also picks data in ",
            batch_calls,
            evidence,
            join=joined,
            cited=lambda c: cite(c, c.name),
        )
        checks = _first_per(self.facts.boundary_checks, lambda c: (c.region, c.start_line))
        answer += self._listed(" Their positions are tested in ", checks, evidence, join=joined)
        return [
            self._item(
                "indexing",
                f"How do {self.kernel} and its device helpers map threads and blocks to the elements they work on?",
                answer,
                evidence,
            )
        ]

    def _global_accesses(self) -> list[QAItem]:
        accesses = self.facts.global_accesses
        if not accesses:
            return []
        parts = [f"`{a.expression}`{self._in(a)} ({at(a)})" for a in accesses]
        first = [WORD.match(a.expression) for a in accesses]
        evidence = [cite(a, m.group(0) if m else "") for a, m in zip(accesses, first, strict=True)]
        answer = f"{self.short} accesses " + "; ".join(parts) + "."
        listed = {(a.region, a.start_line) for a in accesses}
        stores = [
            a
            for a in _first_per(self.facts.stores, lambda a: (a.region, a.start_line))
            if (a.region, a.start_line) not in listed and "[" in _subscript(a)
        ]
        if stores:
            answer += " It stores " + "; ".join(f"`{_subscript(a)}`{self._in(a)} ({at(a)})" for a in stores) + "."
            evidence += [cite(a) for a in stores]
        return [
            self._item(
                "global_accesses",
                f"Which global-memory accesses of {self.kernel} are indexed by the thread's position or by a stride?",
                answer,
                evidence,
            )
        ]

    def _coalescing(self) -> list[QAItem]:
        unit_step = {
            m.variable: m
            for m in self.facts.thread_mapping
            if not m.expression.startswith("+= ") and _steps_with_thread_x(m.expression)
        }
        parts, evidence = [], []
        maybe_lds = self._pointers_into_lds()
        accesses = [*self.facts.global_accesses, *(s for s in self.facts.stores if "[" in _subscript(s))]
        for access in _first_per(accesses, lambda a: (a.region, a.start_line, _subscript(a))):
            if any(_one_lane_guard(g) for g in access.guards):
                continue  # ``if(tx == i)``: one thread's element, not a per-lane pattern
            base, _, index = _subscript(access).partition("[")
            if base.strip() in maybe_lds.get(access.region, set()):
                continue
            index = index.rsplit("]", 1)[0]
            for factor_of in (v for v in unit_step if re.search(rf"\b{v}\b", index)):
                mapping = unit_step[factor_of]
                stride = _stride_of(index, factor_of)
                if stride is None:
                    continue
                evidence += cite(access, base.strip()) + cite(mapping, mapping.variable)
                steps = f"`{factor_of}` steps by one from thread to thread (`{mapping.variable} = {mapping.expression}`, {at(mapping)})"
                if stride == "":
                    parts.append(
                        f"`{_subscript(access)}` ({at(access)}): {steps} and indexes `{base.strip()}` directly, so "
                        "neighbouring threads touch neighbouring elements: the access coalesces"
                    )
                elif stride.startswith(_STRIDE_PREFIXES):
                    parts.append(
                        f"`{_subscript(access)}` ({at(access)}): {steps} and is scaled by `{stride}`, so neighbouring "
                        f"threads touch elements `{stride}` apart: the access coalesces only when `{stride}` is "
                        + ("1 or -1" if stride.startswith("inc") else "1")
                    )
                else:
                    parts.append(
                        f"`{_subscript(access)}` ({at(access)}): {steps} and is scaled by `{stride}`, so neighbouring "
                        f"threads touch elements `{stride}` apart"
                    )
                break
        if not parts:
            return []
        return [
            self._item(
                "coalescing",
                f"Do the global-memory accesses of {self.kernel} coalesce across the threads of a wavefront?",
                "; ".join(parts) + ".",
                evidence,
            )
        ]

    def _pointers_into_lds(self) -> dict[str, set[str]]:
        """Per region, the pointers some statement points into LDS (``A_shared_or_global = sA;``): an access
        through one may read LDS, not global memory."""
        lds = {d.name for d in self.facts.shared} | {
            a.expression.partition("[")[0].strip() for a in self.facts.lds_accesses
        }
        found: dict[str, set[str]] = {}
        if not lds:
            return found
        for region in (self.context.kernel, *self.context.helpers):
            for match in _POINTED.finditer(region.code):
                if match.group(2) in lds:
                    found.setdefault(region.id, set()).add(match.group(1))
        return found

    def _lds_layout(self) -> list[QAItem]:
        shared = self.facts.shared
        if not shared:
            return []
        parts, evidence = [], []
        for decl in shared:
            where = f" in `{self._region(decl.region).name}`" if self._region(decl.region) else ""
            if not decl.element_type:
                parts.append(f"`{decl.declaration}`{where} ({at(decl)})")
            elif not decl.extents:
                parts.append(f"`{decl.declaration}`{where} ({at(decl)}): one `{decl.element_type}` shared by the block")
            else:
                shape = " x ".join(f"`{e}`" for e in decl.extents if e) or "a size set at launch"
                parts.append(
                    f"`{decl.declaration}`{where} ({at(decl)}): elements of `{decl.element_type}`, extents {shape}"
                )
            evidence += cite(decl, decl.name)
        carving = self.facts.lds_carving
        if carving:
            parts.append("it is carved into " + "; ".join(f"`{c.text}`{self._in(c)} ({at(c)})" for c in carving))
            evidence += [e for c in carving for e in cite(c)]
        accesses = _first_per(self.facts.lds_accesses, lambda a: (a.region, a.expression))
        if accesses:
            parts.append("it is indexed as " + "; ".join(f"`{a.expression}`{self._in(a)} ({at(a)})" for a in accesses))
            evidence += [e for a in accesses for e in cite(a)]
        padded = [d for d in shared if len(d.extents) > 1 and re.search(r"\+\s*1\s*$", d.extents[-1])]
        for decl in padded:
            parts.append(
                f"the last extent of `{decl.name}`, `{decl.extents[-1]}`, pads each row by one element, so a "
                "column walk falls in different LDS banks"
            )
        return [
            self._item(
                "lds_layout",
                f"How is the `__shared__` (LDS) memory of {self.kernel} laid out and indexed?",
                "It declares " + "; ".join(parts) + ".",
                evidence,
            )
        ]
