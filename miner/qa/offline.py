"""The deterministic QA generator: every question and answer is built from static facts and cites their lines.

One item per (kernel region, question): a kernel is named with its file and line, and asked about once for
every entry it is live for. Answers state facts in the code's own words (quoted in backticks) and never a
number that is not in the cited lines, so every item passes the grounding check by construction; the run
still checks each one, and counts what fails.
"""

from __future__ import annotations

import re

from miner.models import (
    BarrierUse,
    CallFact,
    EarlyExit,
    Evidence,
    KernelFacts,
    LaunchFact,
    Located,
    QAItem,
    Region,
)
from miner.qa.context import KernelContext, cited_text
from miner.qa.facts import THREAD_INDEX
from miner.qa.grounding import squash
from miner.qa.overloads import declarator, qualifier, reachable
from miner.qa.wording import (
    WORD,
    at,
    cite,
    joined,
    last_word,
    names,
    plain,
    thread_names,
    top_level_terms,
    under,
)

GENERATOR = "static-facts/27"
CATEGORIES = ("semantics", "indexing", "memory", "synchronization", "reduction", "launch", "constraints")
KINDS: dict[str, str] = {  # question kind -> category
    "signature": "semantics",
    "helpers": "semantics",
    "loops": "semantics",
    "output": "semantics",
    "indexing": "indexing",
    "global_accesses": "memory",
    "coalescing": "memory",
    "lds_layout": "memory",
    "barriers": "synchronization",
    "communication": "synchronization",
    "reduction_hierarchy": "reduction",
    "launch": "launch",
    "dispatch": "launch",
    "chunking": "launch",
    "bounds_checks": "constraints",
    "quick_returns": "constraints",
    "negative_increments": "constraints",
    "scalar_shortcuts": "constraints",
}
_THREAD_X = ("threadIdx.x", "hipThreadIdx_x")
_MAX_THREAD_LOOPS = 4
_STRIDE_PREFIXES = ("inc", "ld", "stride")


class OfflineGenerator:
    def __init__(self, context: KernelContext, facts: KernelFacts) -> None:
        self.context = context
        self.facts = facts
        kernel = context.kernel
        self.kernel = f"`{facts.name}` in `{kernel.file}` (line {kernel.start_line})"
        self.short = f"`{facts.name}`"

    def _region(self, region_id: str) -> Region | None:
        return self.context.region(region_id)

    def _in(self, located: Located) -> str:
        """ "in `helper`" for a fact of a device helper, "" for one of the kernel itself."""
        if located.region == self.context.kernel.id:
            return ""
        region = self._region(located.region)
        return f" in `{region.name}`" if region is not None else ""

    def items(self, categories: tuple[str, ...] = CATEGORIES) -> list[QAItem]:
        out: list[QAItem] = []
        for kind, category in KINDS.items():
            if category in categories:
                out += getattr(self, f"_{kind}")()
        return out

    def _item(self, kind: str, question: str, answer: str, evidence: list) -> QAItem:
        flat = [e for cited in evidence for e in (cited if isinstance(cited, list) else [cited])]
        unique = list({e.model_dump_json(): e for e in flat}.values())
        return QAItem(category=KINDS[kind], kind=kind, question=question, answer=answer, evidence=unique)

    # -- semantics ------------------------------------------------------------------------------

    def _signature(self) -> list[QAItem]:
        f = self.facts
        params = [p for p in f.params if p]
        answer = f"{self.short} is a kernel"
        if f.template_params:
            answer += f" templated on {names(f.template_params)}"
        answer += f" that takes {names(params)}." if params else " that takes no parameters."
        if f.launch_bounds:
            answer += f" Its launch bounds come from `{f.launch_bounds}`."
        words = [last_word(p) for p in params + f.template_params]
        question = f"What are the template and runtime parameters of the kernel {self.kernel}?"
        return [self._item("signature", question, answer, [cite(f.signature, f.name, *words)])]

    def _helpers(self) -> list[QAItem]:
        calls = _first_per(self.facts.helpers, lambda c: (c.region, c.name))
        if not calls:
            return []
        overloads: dict[str, list[Region]] = {}
        for helper in self.context.helpers:
            overloads.setdefault(helper.name, []).append(helper)
        everyone = set(self.context.entries)
        parts, evidence, described = [], [], set()
        for call in calls:
            part = f"`{call.name}`{self._in(call)} ({at(call)}: `{call.text}`)"
            chosen = [r for r in overloads.get(call.name, []) if reachable(r, call.text, call.name)]
            lookup = (call.name, qualifier(call.text, call.name))  # ``std::conj`` and ``conj`` reach different sets
            if lookup in described:
                part += " (the same overloads)" if len(chosen) > 1 else ""
            elif chosen:
                users = [[e for e in self.context.entries if e in region.live_for] for region in chosen]
                # Overlapping users assign no overload to an entry: its instantiation calls both (where the walk saw
                # the kernel's calls), or it may reach one of them through another kernel only (where it did not).
                shared = len(chosen) > 1 and sum(map(len, users)) > len(set().union(*map(set, users)))
                per = []
                for region, used_by in zip(chosen, users, strict=True):
                    line, text = declarator(region)
                    who = "" if shared else " for " + ("every entry" if set(used_by) == everyone else names(used_by))
                    per.append(f"`{text}` (`{region.file}` line {line}){who}")
                    evidence.append(Evidence(region=region.id, start_line=line, end_line=line))
                if len(chosen) == 1:
                    part += f", which is {per[0]}"
                else:
                    part += (
                        f", which resolves by argument type to one of {_count(len(chosen), 'overload')} live for "
                        "these entries: " + "; ".join(per)
                    )
                    if shared and all(region.live_via for region in chosen):
                        part += " (an entry's instantiations of the kernel call more than one of them: the argument's"
                        part += " type picks one at this call for each instantiation)"
                    elif shared:
                        part += " (which one each entry's instantiation takes at this call is not resolved per kernel)"
            described.add(lookup)
            parts.append(part)
            evidence += cite(call, call.name)
        return [
            self._item(
                "helpers",
                f"Which device helpers does {self.kernel} call, and which overload does each entry's type select?",
                f"{self.short} calls " + "; ".join(parts) + ".",
                evidence,
            )
        ]

    def _loops(self) -> list[QAItem]:
        loops = self.facts.loops
        if not loops:
            return []
        parts = []
        for loop in loops:
            level = "an outermost loop" if loop.depth == 1 else f"a loop at nesting depth {loop.depth}"
            if loop.depth == 1:
                level = "an outermost loop"
            elif loop.depth == 2:
                level = "a loop nested in another"
            else:
                level = "a loop nested deeper"
            unroll = f", unrolled by `#pragma unroll {loop.unroll}`" if loop.unroll not in ("", "full") else ""
            if loop.unroll == "full":
                unroll = ", fully unrolled by `#pragma unroll`"
            parts.append(f"{level}{self._in(loop)}, `{loop.header}` ({at(loop)}{unroll}{under(loop)})")
        return [
            self._item(
                "loops",
                f"What loops do {self.kernel} and its device helpers run, and how are they nested?",
                "They run " + "; ".join(parts) + ".",
                [cite(loop, *WORD.findall(loop.header)[1:2]) for loop in loops],
            )
        ]

    def _output(self) -> list[QAItem]:
        stores = self.facts.stores
        if not stores:
            return []
        parts, evidence = [], []
        for store in stores:
            part = f"`{store.expression}`{self._in(store)} ({at(store)}{under(store)})"
            if store.guards:
                part += " when " + _guarded_by(store.guards)
            parts.append(part)
            evidence += cite(store) + [e for g in store.guards for e in cite(g)]
        return [
            self._item(
                "output",
                f"What does {self.kernel} write to global memory, under which conditions, and from which values?",
                "It stores " + "; ".join(parts) + ".",
                evidence,
            )
        ]

    # -- indexing and memory --------------------------------------------------------------------

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
        for access in self.facts.global_accesses:
            base, _, index = access.expression.partition("[")
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
                        f"`{access.expression}` ({at(access)}): {steps} and indexes `{base.strip()}` directly, so "
                        "neighbouring threads touch neighbouring elements: the access coalesces"
                    )
                elif stride.startswith(_STRIDE_PREFIXES):
                    parts.append(
                        f"`{access.expression}` ({at(access)}): {steps} and is scaled by `{stride}`, so neighbouring "
                        f"threads touch elements `{stride}` apart: the access coalesces only when `{stride}` is "
                        + ("1 or -1" if stride.startswith("inc") else "1")
                    )
                else:
                    parts.append(
                        f"`{access.expression}` ({at(access)}): {steps} and is scaled by `{stride}`, so neighbouring "
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

    # -- synchronization and reduction ----------------------------------------------------------

    def _barriers(self) -> list[QAItem]:
        uses = self.facts.barrier_uses
        if not uses:
            return []
        parts, evidence = [], []
        for use in uses:
            barrier = use.barrier
            evidence += cite(barrier, barrier.name)
            part = f"`{barrier.name}`{self._in(barrier)} at {at(barrier)}{under(barrier)}"
            part += _ordering(use)
            evidence += [
                e
                for located in use.written_before
                + use.read_after
                + use.read_next_round
                + use.stored_before
                + use.overwritten_after
                for e in cite(located)
            ]
            if use.loop is not None:
                evidence += cite(use.loop)
            parts.append(part)
        return [
            self._item(
                "barriers",
                f"Where does {self.kernel} place its barriers, and why is each one needed?",
                f"{self.short} has {_count(len(uses), 'barrier call')}: " + "; ".join(parts) + ".",
                evidence,
            )
        ]

    def _communication(self) -> list[QAItem]:
        f = self.facts
        calls = f.cross_lane + f.atomics
        if not calls:
            if f.barriers or _PREPROCESSOR_BRANCH.search(self.context.kernel.code):
                return []  # code under an ``#if`` this build leaves out is not read: no claim of absence
            return [
                self._item(
                    "communication",
                    f"Do the threads of {self.kernel} synchronise or communicate with each other?",
                    f"No: neither {self.short} nor the device helpers it calls use a barrier, an atomic operation or "
                    "a cross-lane (shuffle, DPP, ballot) builtin; each thread works on its own elements.",
                    [cite(f.signature, f.name)],
                )
            ]
        parts = [f"`{c.name}`{self._in(c)} ({at(c)}{under(c)}: `{c.text}`)" for c in calls]
        return [
            self._item(
                "communication",
                f"Which cross-lane and atomic operations do the threads of {self.kernel} communicate through?",
                "Through " + "; ".join(parts) + ".",
                [cite(c, c.name) for c in calls],
            )
        ]

    def _reduction_hierarchy(self) -> list[QAItem]:
        f = self.facts
        if not (f.reductions or f.cross_lane or f.atomics or (f.shared and f.barriers)):
            return []
        levels, evidence = [], []
        combining = [*f.cross_lane, *f.barriers, *f.atomics]  # a loop holding one is no thread's own stage
        strided = sorted(
            (
                loop
                for loop in f.loops
                if loop.accumulates
                and not _one_thread(loop)
                and not any(
                    c.region == loop.region and loop.start_line <= c.start_line <= loop.body_end for c in combining
                )
                and not re.search(r"\b(?:blockIdx|gridDim|hipBlockIdx_\w|hipGridDim_\w|batch\w*)\b", loop.header)
            ),
            key=lambda loop: (loop.region != self.context.kernel.id, loop.start_line),  # the kernel's own first
        )
        if strided:
            own = [loop for loop in strided if loop.region == strided[0].region][:_MAX_THREAD_LOOPS]
            levels.append(
                f"per thread, accumulating partial results in the loop{'s' if len(own) > 1 else ''} "
                + joined([f"`{loop.header}`{self._in(loop)} ({at(loop)})" for loop in own])
            )
            evidence += [e for loop in own for e in cite(loop)]
        if f.cross_lane:
            shown = _first_per(f.cross_lane, lambda c: (c.region, c.name))
            levels.append("across a wavefront, " + "; ".join(f"`{c.name}`{self._in(c)} ({at(c)})" for c in shown))
            evidence += [e for c in shown for e in cite(c, c.name)]
        tree = _lds_tree(f)
        if tree:
            tree_regions = {t.region for t in tree}
            tree_names = {
                a.expression.partition("[")[0].strip()
                for a in f.lds_accesses
                if a.region in tree_regions
                and set(WORD.findall(a.expression.partition("[")[2])) & _tree_variables(tree)
            }
            staged = _first_per(f.shared, lambda s: (s.region, s.name))
            staged = [s for s in staged if s.name in tree_names] or staged
            barriers = [b for b in f.barriers if b.region in tree_regions] or f.barriers
            levels.append(
                "across the block, through LDS "
                + ", ".join(f"`{s.name}`{self._in(s)} ({at(s)})" for s in staged)
                + " and "
                + ", ".join(f"`{b.name}`{self._in(b)} ({at(b)})" for b in barriers)
            )
            evidence += [e for s in staged for e in cite(s, s.name)] + [e for b in barriers for e in cite(b, b.name)]
            levels[-1] += ", " + "; ".join(
                f"halving in `{t.header}`{self._in(t)} ({at(t)})"
                if hasattr(t, "header")
                else f"one slot per wavefront, `{t.variable} = {t.expression}`{self._in(t)} ({at(t)})"
                for t in tree
            )
            evidence += [e for loop in tree for e in cite(loop)]
            for loop in (t for t in tree if hasattr(t, "header")):
                lock_step = [
                    a
                    for a in f.lds_accesses
                    if a.region == loop.region
                    and a.start_line > loop.body_end
                    and not any(
                        b.region == a.region and loop.body_end < b.start_line < a.start_line for b in f.barriers
                    )
                ]
                if lock_step:
                    first, last = lock_step[0], lock_step[-1]
                    levels[-1] += (
                        f", then within one wavefront in lock step, with no barrier, from `{_subscript(first)}` "
                        f"({at(first)}) to `{_subscript(last)}` ({at(last)})"
                    )
                    evidence += cite(first) + cite(last)
            last_barrier = {b.region: b.start_line for b in sorted(barriers, key=lambda b: b.start_line)}
            combined = [
                c
                for c in (*f.reductions, *f.cross_lane)
                if c.region in tree_regions and c.start_line > last_barrier.get(c.region, 1 << 30)
            ]
            if combined:
                levels[-1] += ", whose slots are then combined by " + joined(
                    [f"`{c.text}`{self._in(c)} ({at(c)})" for c in _first_per(combined, lambda c: c.start_line)]
                )
                evidence += [e for c in combined for e in cite(c)]
        shown = _first_per(f.reductions, lambda c: (c.region, c.name))
        block_calls = [c for c in shown if self._reduces_with(c.name, f.barriers)]
        unknown = [
            c for c in shown if c not in block_calls and not (f.cross_lane and self._reduces_with(c.name, f.cross_lane))
        ]  # a wavefront reduce helper is the shuffle stage already given
        if not tree and block_calls:
            levels.append(
                "across the block, in "
                + "; ".join(f"`{c.text}`{self._in(c)} ({at(c)})" for c in block_calls)
                + ", which synchronises the block"
            )
            evidence += [e for c in block_calls for e in cite(c, c.name)]
        if unknown:
            levels.append("through " + "; ".join(f"`{c.text}`{self._in(c)} ({at(c)})" for c in unknown))
            evidence += [e for c in unknown for e in cite(c, c.name)]
        counters = [a for a in f.atomics if _COUNTER.search(a.text)]  # ``atomicAdd(completed, 1)`` counts, sums nothing
        summing = [a for a in f.atomics if a not in counters]
        if summing:
            levels.append(
                "through atomic updates of memory: " + "; ".join(f"`{a.name}`{self._in(a)} ({at(a)})" for a in summing)
            )
            evidence += [e for a in summing for e in cite(a, a.name)]
        else:
            later = self._later_launch()
            per_block_index = {
                (m.region, m.variable)
                for m in f.thread_mapping
                if re.search(r"blockIdx|hipBlockIdx", m.expression)
                and not re.search(r"threadIdx|hipThreadIdx", m.expression)
            }  # ``col = blockIdx.x``
            per_block = [
                s
                for s in f.stores
                if (
                    re.search(r"blockIdx|hipBlockIdx", s.expression.split("=")[0])
                    or any((s.region, w) in per_block_index for w in WORD.findall(_subscript(s).partition("[")[2]))
                )
                and not re.fullmatch(
                    r"\s*(?:\w+\s*[({]\s*)?(?:-?\d+(?:\.\d*)?f?|true|false)\s*[)}]?\s*", s.expression.partition("=")[2]
                )
            ]  # a zero fill (the alpha == 0 path) or a flag (``completed[bid + 1] = 1``) is no partial result
            if per_block and (later is not None or tree or f.reductions or f.cross_lane):
                store = per_block[-1]  # the result, after any early fill (the alpha == 0 path's beta * y)
                where = f"`{store.expression}`{self._in(store)}, {at(store)}{_guard_clause(store.guards)}"
                evidence += cite(store) + [e for g in store.guards for e in cite(g)]
                if later is not None and _COMBINING_KERNEL.search(later[1]):
                    levels.append(
                        f"across the grid, each block stores its partial result ({where}) and "
                        f"`{later[0].launcher_name}` then launches `{later[1]}` ({at(later[0].statement)}) to combine them"
                    )
                    evidence += cite(later[0].statement)
                elif self._batch_indexed(store):
                    levels.append(
                        f"not across the grid: each block stores the result of its own batch instance ({where})"
                    )
                elif later is not None or re.search(r"work|partial|tmp|scratch", store.expression, re.IGNORECASE):
                    levels.append(f"across blocks, each block stores its own value ({where})")
                else:
                    levels.append(f"not across the grid: each block writes its own result ({where})")
                direct = [s for s in f.stores if _one_thread(s) and s not in per_block and s.guards != store.guards]
                if direct and later is not None and levels[-1].startswith("across the grid"):
                    levels[-1] += (
                        f"; on the single-block path one thread stores the result directly, `{direct[-1].expression}`"
                        f"{self._in(direct[-1])} ({at(direct[-1])}{_guard_clause(direct[-1].guards)})"
                    )
                    evidence += cite(direct[-1]) + [e for g in direct[-1].guards for e in cite(g)]
            elif not per_block and (result := [s for s in f.stores if _one_thread(s)]) and (tree or f.cross_lane):
                store = result[-1]
                levels.append(
                    f"not across blocks: the block's results are stored by `{store.expression}`{self._in(store)} "
                    f"({at(store)}{_guard_clause(store.guards)})"
                )
                evidence += cite(store) + [e for g in store.guards for e in cite(g)]
        if len(levels) < 2 and not shown:
            return []
        unexplained = (f.shared and not tree) or summing or unknown  # what this reading does not classify
        if not tree and not block_calls and not unexplained and not any("the grid" in level for level in levels):
            levels.append("no further: there is no block-level or grid-level stage")
        answer = f"{self.short} reduces " + "; then ".join(levels) + "."
        if f.shared and f.barriers and not tree and not block_calls:
            staged = _first_per(f.shared, lambda s: (s.region, s.name))
            answer += (
                " Within the block, values pass through LDS "
                + ", ".join(f"`{s.name}`{self._in(s)} ({at(s)})" for s in staged)
                + ", synchronised by "
                + ", ".join(f"`{b.name}`{self._in(b)} ({at(b)})" for b in f.barriers)
                + "."
            )
            evidence += [e for s in staged for e in cite(s, s.name)] + [e for b in f.barriers for e in cite(b, b.name)]
        if counters:
            answer += (
                " "
                + joined([f"`{a.text}`{self._in(a)} ({at(a)})" for a in counters])
                + (" only counts" if len(counters) == 1 else " only count")
                + ": no value is summed through it."
            )
            evidence += [e for a in counters for e in cite(a)]
        if not f.cross_lane:
            answer += " It uses no shuffle or other cross-lane operation."
        return [
            self._item(
                "reduction_hierarchy",
                f"How does {self.kernel} reduce across threads, wavefronts, blocks and the grid?",
                answer,
                evidence,
            )
        ]

    def _multi_dimensional_block(self) -> bool:
        """Whether the kernel or its helpers read a y or z thread index: ``threadIdx.x == 0`` is then one lane per row."""
        return any(
            re.search(r"threadIdx\.[yz]|hipThreadIdx_[yz]|blockDim\.[yz]|hipBlockDim_[yz]", region.code)
            for region in (self.context.kernel, *self.context.helpers)
        )

    def _batch_indexed(self, store) -> bool:
        """Whether a store's block index is only the y or z one (``pivotidx[bid]`` with ``bid = hipBlockIdx_y``): the
        blocks of one batch instance are one, so there is nothing across blocks to combine."""
        if re.search(r"blockIdx\.x|hipBlockIdx_x|gridDim", store.expression):
            return False
        words = set(WORD.findall(_subscript(store).partition("[")[2]))
        by_block = [
            m
            for m in self.facts.thread_mapping
            if m.region == store.region and m.variable in words and _BLOCK.search(m.expression)
        ]
        return bool(by_block) and all(
            not re.search(r"blockIdx\.x|hipBlockIdx_x|threadIdx|hipThreadIdx", m.expression) for m in by_block
        )

    def _leads_on(self, loop) -> bool:
        """Whether a caller's chunk loop calls a region further down the kernel's paths (the 32-bit launcher), not
        only functions that lead to other kernels."""
        others = {r.name for r in (*self.context.path, self.context.kernel) if r.id != loop.region}
        region = self._region(loop.region)
        body = (cited_text(region, loop.start_line, loop.body_end) or "") if region and loop.body_end else ""
        called = set(re.findall(r"\b([A-Za-z_]\w*)\s*(?:<[^;]*?>)?\s*\(", body))
        return not body or bool(called & others)

    def _reduces_with(self, helper: str, calls: list[CallFact]) -> bool:
        """Whether the helper named ``helper``, or a helper it calls, makes one of ``calls`` (barriers, shuffles)."""
        regions = {c.region for c in calls}
        seen: set[str] = set()
        todo = [h for h in self.context.helpers if h.name == helper]
        while todo:
            region = todo.pop()
            if region.id in seen:
                continue
            seen.add(region.id)
            if region.id in regions:
                return True
            todo += [h for h in self.context.helpers if h.id not in seen and _calls_any(region, [h])]
        return False

    def _later_launch(self) -> tuple[LaunchFact, str] | None:
        """A launch that follows one of this kernel's launches in the same launcher, on the same path, and the
        kernel it starts."""
        own = sorted(self.facts.launches, key=lambda launch: (launch.launcher, launch.statement.start_line))
        for first in own:
            for launch, site in zip(self.facts.dispatch, self.context.dispatched_sites, strict=True):
                if (
                    launch.launcher == first.launcher
                    and launch.statement.start_line > first.statement.start_line
                    and site.kernel != self.context.kernel.id
                    and not _alternatives(first, launch)
                ):
                    return launch, _kernel_name(site.kernel_expr)
        return None

    # -- launch ---------------------------------------------------------------------------------

    def _launch(self) -> list[QAItem]:
        items = []
        for launch in _first_per(self.facts.launches, lambda launch: (launch.launcher, launch.statement.start_line)):
            items.append(self._launch_item(launch))
        return items

    def _launch_item(self, launch: LaunchFact) -> QAItem:
        statement = launch.statement
        config, config_evidence = _configuration(launch)
        if re.search(rf"\b{re.escape(self.facts.name)}\b", statement.text):
            answer = f"`{launch.launcher_name}` launches {self.short} {config} ({at(statement)})"
            evidence = cite(statement, self.facts.name)
        else:
            answer = (
                f"`{launch.launcher_name}` launches {self.short} {config} from the expansion of "
                f"`{statement.text}` ({at(statement)})"
            )
            evidence = cite(statement)
        evidence += config_evidence
        conditions = _stated_conditions(launch)
        if conditions:
            answer += ", on the path where " + " and ".join(_branch(c) for c in conditions)
            evidence += [e for c in conditions for e in cite(c)]
        if launch.loops:
            answer += ", once per round of " + " inside ".join(
                f"`{loop.text}` ({at(loop)})" for loop in reversed(launch.loops)
            )
            evidence += [e for loop in launch.loops for e in cite(loop)]
        answer += "."
        exits = [
            e
            for e in self.facts.early_exits
            if e.region == launch.launcher
            and e.start_line < statement.start_line
            and not e.after_work
            and _compatible(e.guards, launch)
        ]
        if exits:
            answer += (
                f" It is reached only past the early return{'s' if len(exits) > 1 else ''} "
                + "; ".join(f"`{e.text}` ({at(e)})" for e in exits)
                + "."
            )
            evidence += [x for e in exits for x in cite(e)]
        answer += _written_configuration(launch)
        evidence += [e for d in (*launch.declarations, *launch.writes) for e in cite(d, *_declared(launch, d))]
        evidence += [e for w in launch.writes if w.guard is not None for e in cite(w.guard)]
        if launch.live_for and set(launch.live_for) != set(self.context.entries):
            answer += f" `{launch.launcher_name}` runs for {names(launch.live_for)}."
        return self._item(
            "launch",
            f"How does `{launch.launcher_name}` launch {self.kernel} at line {statement.start_line}, with which "
            "grid and block, and under which conditions?",
            answer,
            evidence,
        )

    def _dispatch(self) -> list[QAItem]:
        items = []
        launchers = dict.fromkeys(launch.launcher for launch in self.facts.launches)
        for launcher_id in launchers:
            launches = [
                (launch, site)
                for launch, site in zip(self.facts.dispatch, self.context.dispatched_sites, strict=True)
                if launch.launcher == launcher_id
            ]
            kernels = {site.kernel for _, site in launches}
            if len(kernels) < 2:
                continue
            name = launches[0][0].launcher_name
            parts, evidence = [], []
            first = min(launch.statement.start_line for launch, _ in launches)
            unguarded = [
                e for e in self.facts.early_exits if e.region == launcher_id and not e.guards and not e.after_work
            ]
            for launch, site in launches:
                conditions = _stated_conditions(launch)
                when = " and ".join(_branch(c) for c in conditions) if conditions else "no branch condition encloses it"
                past = [e for e in unguarded if first <= e.start_line and e.end_line < launch.statement.start_line]
                if past:  # a return between the launches: the later ones need its condition false
                    when += ", past " + "; ".join(f"`{e.text}` ({at(e)})" for e in past)
                    evidence += [x for e in past for x in cite(e)]
                kernel = _kernel_name(site.kernel_expr)
                mine = " (this kernel)" if site.kernel == self.context.kernel.id else ""
                written = re.search(rf"\b{re.escape(kernel)}\b", launch.statement.text) is not None
                outer = re.match(r"#\s*define\s+(\w+)", launch.macro.text) if launch.macro is not None else None
                written_via = outer.group(1) if outer else launch.via  # the macro the statement itself calls
                how = "" if written or not written_via else f" (from the expansion of `{written_via}`)"
                named = f"`{kernel}`" if written or mine else kernel  # a name clang resolved, not in the text
                rounds = "".join(f", in `{loop.text}` ({at(loop)})" for loop in launch.loops)
                parts.append(f"{named}{mine}{how} at {at(launch.statement)} when {when}{rounds}")
                evidence += cite(launch.statement, kernel if written else "") + [e for c in conditions for e in cite(c)]
                evidence += [e for loop in launch.loops for e in cite(loop)]
            answer = f"`{name}` launches " + "; ".join(parts) + "."
            returns = [
                e
                for e in self.facts.early_exits
                if e.region == launcher_id and not e.guards and not e.after_work and e.end_line < first
            ]
            if returns:
                answer += (
                    " Before any launch it returns on " + "; ".join(f"`{e.text}` ({at(e)})" for e in returns) + "."
                )
                evidence += [x for e in returns for x in cite(e)]
            items.append(
                self._item(
                    "dispatch",
                    f"Which kernel does `{name}` launch under which condition, and when does it choose {self.kernel}?",
                    answer,
                    evidence,
                )
            )
        return items

    def _chunking(self) -> list[QAItem]:
        loops = [
            c
            for c in self.facts.chunking
            if self._region(c.region)
            and not all(_contradicted(c.guards, launch) for launch in self.facts.launches)
            and self._leads_on(c)
        ]
        if not loops:
            return []
        parts, evidence = [], []
        for loop in loops:
            part = f"`{loop.header_text()}` in `{self._region(loop.region).name}` ({at(loop)}{_only_when(loop.guards)})"
            if loop.steps:
                part += ", each round doing " + joined([f"`{step.text}` ({at(step)})" for step in loop.steps])
            parts.append(part)
            evidence += [cite(loop)] + [cite(g) for g in loop.guards] + [cite(step) for step in loop.steps]
        answer = "They loop in chunks: " + "; ".join(parts) + "."
        limits = [c for c in self.facts.size_limits if self._region(c.region)]
        if limits:
            answer += (
                " Sizes that no chunking covers are refused instead: "
                + "; ".join(f"`{c.text}` in `{self._region(c.region).name}` ({at(c)})" for c in limits)
                + "."
            )
            evidence += [cite(c) for c in limits]
        return [
            self._item(
                "chunking",
                f"How do the callers of {self.kernel} split a size too large for one launch's grid into several launches?",
                answer,
                evidence,
            )
        ]

    # -- constraints and edge cases -------------------------------------------------------------

    def _bounds_checks(self) -> list[QAItem]:
        positions = {
            m.variable
            for m in self.facts.thread_mapping
            if not m.expression.startswith("+=") and not _CALL.search(m.expression)  # not a pointer or a value loaded
        }
        exits = [
            b
            for b in self.facts.branches
            if b.returns and (positions & set(WORD.findall(b.text)) or THREAD_INDEX.search(b.text))
        ]  # ``if(bx == gridDim.x - 1) return;``: the threads or blocks that leave
        checks = sorted(
            _first_per([*self.facts.boundary_checks, *exits], lambda c: (c.region, c.start_line)),
            key=lambda c: (c.region != self.context.kernel.id, c.region, c.start_line),
        )
        mapped = {m.variable for m in self.facts.thread_mapping}
        mapped_in = _per_region(self.facts.thread_mapping)
        strided = []
        for loop in self.facts.loops:
            # a name mapped in another function is the helper's parameter; one the loop declares is its own counter
            own = mapped_in.get(loop.region, set()) | (mapped - _declared_in(loop.header))
            if (_thread_strided(loop.header, own) or _bounds_position(loop.header, own & positions)) and not (
                _relative_bound(loop.header, own)
            ):
                strided.append(loop)
        if not checks and not strided:
            return []
        answer = f"{self.short} tests the thread's position with " + "; ".join(
            f"`{c.text}`{self._in(c)} ({at(c)}{under(c)}{', returning' if getattr(c, 'returns', False) else ''})"
            for c in checks
        )
        if strided:
            bounds = [
                f"`{_loop_condition(loop.header)}` in `{loop.header}`{self._in(loop)} ({at(loop)}{under(loop)})"
                for loop in strided
            ]
            answer = (answer + "; and " if checks else f"{self.short} keeps its threads in range with ") + (
                "the bounds of its loops over the thread's elements: " + "; ".join(bounds)
            )
        return [
            self._item(
                "bounds_checks",
                f"Which bounds checks keep the threads of {self.kernel} inside the data?",
                answer + ".",
                [cite(c) for c in checks] + [cite(loop) for loop in strided],
            )
        ]

    def _listed(self, lead: str, located: list, evidence: list, shown=None, join=None, cited=cite) -> str:
        """ " Lead `a` (line 3); `b` in `helper` (line 9)." for the facts (``shown`` as their text, joined by "; "
        unless ``join`` says otherwise), their citations added to ``evidence``; "" for none."""
        if not located:
            return ""
        shown, join = shown or (lambda x: x.text), join or "; ".join
        evidence += [cited(x) for x in located]
        return lead + join([f"`{shown(x)}`{self._in(x)} ({at(x)})" for x in located]) + "."

    def _early_exits(self, launches: list[LaunchFact] | None = None) -> list:
        """The launchers' early returns that can run on the way to one of ``launches`` (all the kernel's launches
        by default): none of the ``if`` branches a return sits in is the one a launch's path does not take."""
        launches = self.facts.launches if launches is None else launches
        return [
            e
            for e in self.facts.early_exits
            if any(launch.launcher == e.region and _compatible(e.guards, launch) for launch in launches)
            and not any(_holds_launch(e, launch) for launch in launches)
        ]

    def _one_run_makes_both(self, one: LaunchFact, other: LaunchFact) -> bool:
        """No branch both pass is taken two ways, and the earlier launch is not in a block that returns before
        the later one."""
        if not _same_path(one, other):
            return False
        first, second = sorted((one, other), key=lambda launch: launch.statement.start_line)
        return not any(
            _holds_launch(e, first) and e.end_line < second.statement.start_line for e in self.facts.early_exits
        )

    def _quick_returns(self) -> list[QAItem]:
        exits = self._early_exits()
        if not exits:
            return []
        launchers = names(list(dict.fromkeys(r.name for e in exits if (r := self._region(e.region)))))
        parts = [
            f"`{e.text}` ({at(e)}{', after work of its own' if e.after_work else ''}){_only_when(e.guards)}"
            for e in exits
        ]
        evidence = [cite(e) for e in exits] + [cite(g) for e in exits for g in e.guards]
        return [
            self._item(
                "quick_returns",
                f"In which cases does {launchers} return before launching {self.kernel}?",
                "It returns early on " + "; ".join(parts) + ".",
                evidence,
            )
        ]

    def _negative_increments(self) -> list[QAItem]:
        if self.facts.launches and all(_unit_increment_only(launch) for launch in self.facts.launches):
            return []  # launched only for increments of 1: a negative one never reaches it
        return self._path_item(
            "negative_increments",
            [c for c in self.facts.negative_increments if self._flows_on(c)],
            f"What do the callers of {self.kernel} do when an increment is negative?",
            "They handle it in",
        )

    def _scalar_shortcuts(self) -> list[QAItem]:
        return self._path_item(
            "scalar_shortcuts",
            self.facts.scalar_shortcuts,
            f"Which values of alpha or beta let {self.kernel} or its callers skip or shorten the work?",
            "They test",
        )

    def _flows_on(self, statement: Located) -> bool:
        """Whether the variable a caller's statement sets reaches this kernel: it is an argument of the kernel's
        launch in that caller, or of a call there of the next function on the kernel's path (``shiftx`` of the
        tbmv launcher goes to the tbmv kernel, not to the copy launcher it also calls)."""
        declared = re.match(r"\s*(?:[\w:<>]+\s+)*?(\w+)\s*=(?!=)", statement.text)
        region = self._region(statement.region)
        if declared is None or region is None:
            return True
        variable = declared.group(1)
        launches = [launch for launch in self.facts.launches if launch.launcher == region.id]
        if launches:
            return any(variable in WORD.findall(launch.statement.text + launch.expansion) for launch in launches)
        callees = {r.name for r in (*self.context.path, self.context.kernel) if r.id != region.id}
        after = "\n".join(region.code.split("\n")[statement.end_line - region.start_line + 1 :])
        for call in re.finditer(r"\b(\w+)\s*(?:<[^;(]*?>)?\s*\(", after):
            if call.group(1) in callees and variable in WORD.findall(after[call.end() : after.find(";", call.end())]):
                return True
        return False

    def _path_item(self, kind: str, found: list[Located], question: str, lead: str) -> list[QAItem]:
        if not found:
            return []
        parts = [f"`{c.text}` in `{self._region(c.region).name}` ({at(c)})" for c in found if self._region(c.region)]
        return [self._item(kind, question, f"{lead} " + "; ".join(parts) + ".", [cite(c) for c in found])]

    # -- implementation sample -----------------------------------------------------------------

    def implementation(self) -> QAItem | None:
        """The kernel, the helpers that hold its math and its launcher, for an instruction naming the launch
        configuration, the path condition and every branch the kernel takes. None for a thin wrapper whose math
        sits in a helper this context does not hold."""
        f = self.facts
        if not f.launches:
            return None
        math = self._math_helpers()
        if not (f.stores or f.loops) and not math:
            return None
        every = _first_per(f.launches, lambda launch: (launch.launcher, launch.statement.start_line))
        launch = every[0]
        launches = [each for each in every if each.launcher == launch.launcher]
        elsewhere = list(dict.fromkeys(each.launcher_name for each in every if each.launcher != launch.launcher))
        launcher = self.context.region(launch.launcher)
        kernel = self.context.kernel
        entries = [e for e in self.context.entries if e in set(launch.live_for)] or self.context.entries
        instruction = (
            f"Write the HIP kernel {self.kernel} and the launcher `{launch.launcher_name}` that starts it for "
            f"{names(entries)}. Interface: `{f.signature.text}`. Contract: "
        )
        conditions = [c for each in launches for c in _stated_conditions(each)]
        contract = []
        for each in launches:
            text = f"launch it {_configuration(each)[0]} ({at(each.statement)})"
            stated = _stated_conditions(each)
            if stated:
                text += " on the path where " + " and ".join(_branch(c) for c in stated)
            contract.append(text)
        instruction += "; ".join(contract) + "."
        returns = self._early_exits(launches)
        if returns:
            instruction += (
                " Before launching, the launcher returns on "
                + "; ".join(f"`{e.text}` ({at(e)}){_only_when(e.guards)}" for e in returns)
                + "."
            )
        contract_lines = {each.statement.start_line for each in launches}
        others = [
            (each, site)
            for each, site in zip(f.dispatch, self.context.dispatched_sites, strict=True)
            if each.launcher == launch.launcher
            and site.kernel != kernel.id
            and each.statement.start_line not in contract_lines  # another overload named at the contract's launch
        ]
        along, apart = [], []
        for each, site in others:
            shared = [mine for mine in launches if self._one_run_makes_both(each, mine)]
            (along if shared else apart).append((each, site, shared))
        ahead = [(each, site) for each, site, shared in along if any(
            each.statement.start_line < mine.statement.start_line for mine in shared)]  # fmt: skip
        behind = [(each, site) for each, site, _ in along if (each, site) not in ahead]
        for placed, pairs in (("Before", ahead), ("After", behind)):
            if pairs:
                instruction += (
                    f" {placed} it, on a path its conditions do not rule out, the launcher also launches "
                    + joined([f"{_kernel_name(site.kernel_expr)} ({at(each.statement)})" for each, site in pairs])
                    + ", which this sample leaves as it is."
                )
        if apart:
            instruction += (
                " The launcher's other branches launch "
                + joined([f"{_kernel_name(site.kernel_expr)} ({at(each.statement)})" for each, site, _ in apart])
                + ", which this sample leaves as they are."
            )
        if elsewhere:
            instruction += f" (It is also launched from {names(elsewhere)}, not part of this sample.)"
        shown = {kernel.id, *(h.id for h in math)}
        branches = _first_per([b for b in f.branches if b.region in shown], lambda b: (b.region, b.start_line))
        if branches:
            instruction += (
                " Inside, it branches on "
                + "; ".join(f"`{b.text}`{self._in(b)} ({at(b)}{', returning' if b.returns else ''})" for b in branches)
                + "."
            )
        if math:
            instruction += f" Its math sits in {names([h.name for h in math])}, written out below too."
        blocks = [kernel, *math, launcher]
        response = "\n\n".join(f"```cpp\n{region.code}\n```" for region in blocks if region is not None)
        evidence = [
            Evidence(region=r.id, start_line=r.start_line, end_line=r.end_line, identifiers=[r.name])
            for r in blocks
            if r is not None
        ]
        evidence += [e for c in conditions for e in cite(c)] + [e for c in branches for e in cite(c)]
        evidence += [e for r in returns for e in cite(r)] + [e for r in returns for g in r.guards for e in cite(g)]
        return QAItem(
            category="implementation", kind="implementation", question=instruction, answer=response, evidence=evidence
        )

    def _math_helpers(self) -> list[Region]:
        """The helpers the kernel's work happens in, and those on the way to them (``rocblas_sum_reduce`` calling
        ``rocblas_reduction``), in the context's order."""
        helpers = self.context.helpers
        math = {h.id for h in helpers if _holds_math(self.facts, h)}
        grown = True
        while grown:
            callers = {
                h.id for h in helpers if h.id not in math and _calls_any(h, [r for r in helpers if r.id in math])
            }
            grown = bool(callers)
            math |= callers
        return [h for h in helpers if h.id in math]


def _contradicted(guards, launch: LaunchFact) -> bool:
    """Whether a caller's statement under ``guards`` sits in a branch whose condition, written the same way, the
    launch's path takes the other way (``if(transA == rocblas_operation_none)`` in a 64-bit wrapper, against a
    launch on the path where it does not hold): the statement never leads to that launch."""
    if not launch.conditions:
        return False
    return any(
        squash(c.condition) in squash(g.text) and (c.branch == "then") != g.holds
        for g in guards
        for c in launch.conditions
        if c.branch in ("then", "else") and c.condition
    )


def _compatible(guards, launch: LaunchFact) -> bool:
    """Whether a statement under ``guards`` can run on the path to ``launch``: no guard is a branch condition of the
    launch's path taken the other way."""
    taken = {c.start_line: c.branch == "then" for c in launch.conditions if c.branch in ("then", "else")}
    return all(taken.get(g.start_line, g.holds) == g.holds for g in guards)


def _holds_launch(exit_: EarlyExit, launch: LaunchFact) -> bool:
    """Whether ``launch`` sits inside the block that returns: the return comes after it, not before."""
    statement = launch.statement
    return launch.launcher == exit_.region and exit_.start_line <= statement.start_line <= exit_.end_line


def _same_path(one: LaunchFact, other: LaunchFact) -> bool:
    """Whether one run of the launcher can make both launches: no branch both pass is taken two ways."""
    taken = {c.start_line: c.branch for c in other.conditions}
    return all(taken.get(c.start_line, c.branch) == c.branch for c in one.conditions)


def _calls_any(region: Region, callees: list[Region]) -> bool:
    names_called = set(re.findall(r"\b([A-Za-z_]\w*)\s*(?:<[^;{}()]*>)?\s*\(", region.code))
    return any(callee.name in names_called and callee.name != region.name for callee in callees)


def _holds_math(facts: KernelFacts, helper: Region) -> bool:
    """A helper the kernel's work happens in: it stores to global memory, loops (``*_calc`` helpers) or reduces
    (``rocblas_dot_block_reduce``: barriers or cross-lane builtins)."""
    return any(fact.region == helper.id for fact in (*facts.stores, *facts.loops, *facts.barriers, *facts.cross_lane))


def _steps_with_thread_x(expression: str) -> bool:
    """Whether the expression is ``threadIdx.x`` plus terms that do not depend on the thread: one more per thread."""
    terms = top_level_terms(expression)
    thread_terms = [t for t in terms if any(x in t for x in _THREAD_X)]
    return len(thread_terms) == 1 and thread_terms[0] in _THREAD_X


def _stride_of(index: str, variable: str) -> str | None:
    """How the index scales ``variable``: "" when it adds it as is, the other factor when it multiplies it by one
    name (``i * incx``), None when the index combines it otherwise."""
    for term in top_level_terms(index):
        if not re.search(rf"\b{variable}\b", term):
            continue
        if term == variable:
            return ""
        factors = top_level_terms(term, "*")
        if len(factors) == 2 and variable in factors:
            other = factors[1] if factors[0] == variable else factors[0]
            inner = re.fullmatch(r"(?:\w+\()?([A-Za-z_]\w*)\)?", other)
            return inner.group(1) if inner else None
        return None
    return None


_NOTHING_ORDERED = ": no LDS access of this function lies between it and the neighbouring barriers"


def _fence(use: BarrierUse) -> str:
    writes = joined([f"`{a.text}` ({at(a)})" for a in (*use.written_before, *use.stored_before)])
    if writes:
        return f": a memory fence, not a barrier: this thread's writes before it, {writes}, become visible to other blocks before its later writes do"
    return ": a memory fence, not a barrier: it orders this thread's memory accesses as other blocks see them"


def _ordering(use: BarrierUse) -> str:
    if "threadfence" in use.barrier.name:
        return _fence(use)
    text = _publishing(use)
    if not use.overwritten_after:
        return text
    overwrites = joined([f"`{w.text}` ({at(w)})" for w in use.overwritten_after])
    if use.loop is not None and use.overwritten_after[0].start_line < use.barrier.start_line:
        overwrites = f"the next round of the loop `{use.loop.header}` ({at(use.loop)}), {overwrites},"
    if text == _NOTHING_ORDERED:
        return f": every thread of the block finishes reading the memory that {overwrites} then overwrites"
    return text + f", and every thread finishes reading the memory that {overwrites} then overwrites"


def _publishing(use: BarrierUse) -> str:
    written = [f"`{w.text}` ({at(w)})" for w in use.written_before]
    read = [f"`{r.text}` ({at(r)})" for r in use.read_after]
    if use.read_next_round and use.loop is not None:
        read.append(
            f"in the next round of the loop `{use.loop.header}` ({at(use.loop)}), "
            + joined([f"`{r.text}` ({at(r)})" for r in use.read_next_round])
        )
    stored = joined([f"`{a.text}` ({at(a)})" for a in use.stored_before])
    published = f"the global-memory stores before it, {stored}, are visible to the other threads of the block"
    if written and read:
        text = (
            f": the LDS writes before it, {joined(written)}, must be visible to every thread of the block before "
            f"the reads after it, {joined(read)}"
        )
        return text + (f"; and {published}" if stored else "")
    if written:
        return f": it completes the LDS writes {joined(written)} before the threads go on" + (
            f"; and {published}" if stored else ""
        )
    if stored:
        return f": {published} before they go on" + (f" to read LDS ({joined(read)})" if read else "")
    if read:
        return f": no thread reads LDS ({joined(read)}) before every thread has reached it"
    return _NOTHING_ORDERED


def _configuration(launch: LaunchFact) -> tuple[str, list[Evidence]]:
    if launch.via == "<<<>>>":
        via = "using the triple-chevron launch syntax"
    else:
        via = f"through `{launch.via}`" if launch.via else "through a macro"
    parts = [
        f"{what} `{text}`"
        for what, text in (
            ("grid", launch.grid),
            ("block", launch.block),
            ("dynamic shared memory", launch.shared_mem),
            ("stream", launch.stream),
        )
        if text.strip() and "`" not in text
    ]
    evidence: list[Evidence] = []
    if launch.macro is not None:
        name = re.match(r"\s*#\s*define\s+(\w+)", launch.macro.text)
        via += f", whose configuration comes from `{name.group(1) if name else launch.macro.text}` ({at(launch.macro)})"
        evidence = cite(launch.macro)
    if not parts:
        return via, evidence
    return f"{via} with " + (", ".join(parts[:-1]) + f" and {parts[-1]}" if len(parts) > 1 else parts[0]), evidence


def _written_configuration(launch: LaunchFact) -> str:
    text = "".join(f" `{d.text}` ({at(d)})." for d in launch.declarations)
    for write in launch.writes:
        if write.unconditional:
            when = "before the launch on every path"
        elif write.guard is not None:
            when = f"before the launch under `{write.guard.text}` ({at(write.guard)})"
        else:
            when = "on some paths before the launch"
        text += f" `{write.variable}` is reassigned {when}: `{write.text}` ({at(write)})."
    final = [w for w in launch.writes if w.unconditional]
    if final:
        last = {w.variable: w for w in final}
        text += " The launch uses " + joined([f"`{v}` from {at(w)}" for v, w in last.items()]) + "."
    return text


def _declared(launch: LaunchFact, located: Located) -> list[str]:
    return [v for v in plain(launch.grid, launch.block) if re.search(rf"\b{v}\b", located.text)]


def _stated_conditions(launch: LaunchFact):
    return list(launch.conditions)


def _written_out(condition) -> bool:
    return "".join(condition.condition.split()) in "".join(condition.text.split())


def _branch(condition) -> str:
    if not _written_out(condition):  # longer than the lines read: named by where it is, not quoted
        side = {"then": "holds", "else": "does not hold"}.get(condition.branch, f"takes {condition.branch}")
        return f"the condition at {at(condition)} {side}"
    if condition.branch == "then":
        return f"`{condition.condition}` holds ({at(condition)})"
    if condition.branch == "else":
        return f"`{condition.condition}` does not hold ({at(condition)})"
    if condition.label_line:
        return f"`{condition.condition}` takes `{condition.branch}` (lines {condition.start_line} and {condition.label_line})"
    return f"`{condition.condition}` takes the {condition.branch} branch ({at(condition)})"


def _kernel_name(expression: str) -> str:
    match = WORD.match(expression.strip("() "))
    return match.group(0) if match else expression


_COUNTS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _count(number: int, noun: str) -> str:
    """\"two barrier calls\": counts in words, which the grounding check does not read as stated numbers."""
    word = _COUNTS[number] if number < len(_COUNTS) else "several"
    return f"{word} {noun}{'' if number == 1 else 's'}"


_ELEMENTS_SHOWN = 16
_ONE_THREAD = re.compile(r"\b(?:tid|tx|ty|tz|lid|threadIdx\.[xyz]|hipThreadIdx_[xyz])\s*==\s*0\b")
_BLOCK = re.compile(r"blockIdx|hipBlockIdx")
_COUNTER = re.compile(r"\b(?:atomicAdd|atomicSub|atomicInc|atomicDec)\s*\([^,]+,\s*-?1u?\s*\)")
_ONE_FLAT_THREAD = re.compile(r"\b(?:tid|tx|lid|threadIdx\.x|hipThreadIdx_x)\s*==\s*0\b")  # one thread of the block


def _assignment(mapping) -> str:
    if re.match(r"(?:\+|-|\*|<<)= ", mapping.expression):
        return f"{mapping.variable} {mapping.expression}"
    return f"{mapping.variable} = {mapping.expression}"


def _one_thread(access) -> bool:
    """An access made under ``if(tid == 0)`` (its then-branch): by one thread, not each."""
    return any(_one_thread_guard(g) for g in getattr(access, "guards", []))


def _one_thread_guard(guard) -> bool:
    return bool(_ONE_THREAD.search(guard.text)) and guard.holds


def _key(access) -> tuple[str, str]:
    return (access.region, _subscript(access))


def _subscript(access) -> str:
    """``y[row * incy]`` of a store ``y[row * incy] = ...`` or of an access."""
    target = access.expression.split("=")[0].strip() if "=" in access.expression else access.expression
    return target if "[" in target else access.expression


def _thread_strided(header: str, mapped: set[str]) -> bool:
    """A ``for`` whose variable starts at the thread's position (``for(int i = tid; i < n; i += NB)``)."""
    if not header.startswith("for"):
        return False
    init = header.partition("(")[2].partition(";")[0]
    return bool(init) and (
        any(x in init for x in (*_THREAD_X, "threadIdx", "hipThreadIdx"))
        or bool(mapped & set(WORD.findall(init.partition("=")[2])))
    )


_CALL = re.compile(
    r"\b(?!(?:u?int\d*_t|size_t|int|long|unsigned|min|max|std::min|std::max)\b)[A-Za-z_][\w:]*\s*(?:<[^;()]*>)?\s*\("
)


def _bounds_position(header: str, positions: set[str]) -> bool:
    """A loop whose condition holds the thread's position against a bound (``for(i = 0; tx + i < n; i += NB)``)."""
    condition = _loop_condition(header)
    return bool(re.search(r"<=?|>=?", condition)) and bool(
        THREAD_INDEX.search(condition) or positions & set(WORD.findall(condition))
    )


def _relative_bound(header: str, mapped: set[str]) -> bool:
    """A loop bounded relative to the thread's own position (``k < tx + DIM_X / 2``): it walks a window of the
    thread's, not the data's extent. Each term of an ``&&`` is read on its own (``j < WIN && i < n - 1`` bounds
    the position ``i`` by ``n``)."""
    relative = []
    for term in _CONJUNCTS.split(_loop_condition(header)):
        bound = re.split(r"<=?|>=?|!=", term, maxsplit=1)
        if len(bound) != 2:
            continue
        relative.append(
            bool(THREAD_INDEX.search(bound[1]) or mapped & set(WORD.findall(bound[1])) - set(WORD.findall(bound[0])))
        )
    return bool(relative) and all(relative)


_CONJUNCTS = re.compile(r"&&")


def _declared_in(header: str) -> set[str]:
    """The counters a ``for`` header declares with a type (``for(int i = 0; ...)``: ``i``)."""
    init = header.partition("(")[2].partition(";")[0]
    return set(re.findall(r"\b(?:[\w:]+[\s*&]+)(\w+)\s*=", init))


def _per_region(mappings) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for mapping in mappings:
        found.setdefault(mapping.region, set()).add(mapping.variable)
    return found


def _loop_condition(header: str) -> str:
    parts = header.partition("(")[2].split(";")
    return parts[1].strip() if len(parts) > 2 else header


def _loop_variables(header: str) -> set[str]:
    """The variables a ``for`` sets up or steps (``for(int i = 0; i < N_TX; i++, tx += DIM_X)``: i and tx)."""
    if not header.startswith("for"):
        return set()
    clauses = header.partition("(")[2].rpartition(")")[0].split(";")
    init = re.findall(r"(\w+)\s*=(?!=)", clauses[0]) if clauses else []
    step = re.findall(r"(\w+)\s*(?:\+\+|--|[-+*/]=)|(?:\+\+|--)\s*(\w+)", clauses[-1]) if len(clauses) == 3 else []
    return {*init, *(a or b for a, b in step)}


_PREPROCESSOR_BRANCH = re.compile(r"^[ \t]*#[ \t]*(?:if|ifdef|ifndef|elif)\b", re.MULTILINE)
_COMBINING_KERNEL = re.compile(r"reduc|part2|final|combine", re.IGNORECASE)  # a kernel that sums the blocks' values


def _unit_increment_only(launch: LaunchFact) -> bool:
    """Whether the launch's path requires an increment of 1 (``incx == 1 && incy == 1`` holds)."""
    return any(
        (c.branch == "then" and "||" not in c.condition and re.search(r"\binc\w*\s*==\s*1\b", c.condition))
        or (c.branch == "else" and "&&" not in c.condition and re.search(r"\binc\w*\s*!=\s*1\b", c.condition))
        for c in launch.conditions
    )


def _guard_clause(guards) -> str:
    """ ", when `if(x)` holds (line 3)"" for a statement under branches, "" otherwise."""
    return f", when {_guarded_by(guards)}" if guards else ""


def _only_when(guards) -> str:
    if not guards:
        return ""
    return ", reached only when " + _guarded_by(guards)


def _guarded_by(guards) -> str:
    """``if(x)` holds (line 3) and `if(y)` does not hold (line 5)``: the branches a statement sits in."""
    return " and ".join(f"`{g.text}` {'holds' if g.holds else 'does not hold'} ({at(g)})" for g in guards)


_HALVING = re.compile(
    r"\bfor\s*\((?:[^;]*?\b(\w+)\s*=)[^;]*;[^;]*;\s*(?:\1\s*(?:/=\s*2|>>=\s*1)|\1\s*=\s*\1\s*(?:/\s*2|>>\s*1))"
)


def _tree_variables(tree: list) -> set[str]:
    """The halving strides and wavefront indices of an LDS tree (``s`` of ``sdata[tid + s]``, ``wave``)."""
    return {
        match.group(1) if hasattr(t, "header") and (match := _HALVING.search(t.header)) else getattr(t, "variable", "")
        for t in tree
    } - {""}


def _lds_tree(facts: KernelFacts) -> list:
    """What makes LDS a reduction across the block, as opposed to operand tiles: the loops that halve a stride LDS
    is read at (``for(s = NB / 2; s > 0; s /= 2)`` reading ``sdata[tid + s]``), or a wavefront index LDS is written
    at (``partial[wave]`` with ``wave = threadIdx.x / WF``)."""
    tree = []
    waves = {  # ``wave = threadIdx.x / WF``: one LDS slot per wavefront, summed after the barrier
        m.variable
        for m in facts.thread_mapping
        if re.search(r"(?:threadIdx\.x|hipThreadIdx_x|\btid\w*|\btx\b)\s*/", m.expression)
    }
    for mapping in facts.thread_mapping:
        if mapping.variable in waves and any(
            re.search(rf"\b{mapping.variable}\b", a.expression.partition("[")[2]) for a in facts.lds_accesses
        ):
            tree.append(mapping)
    for loop in facts.loops:
        match = _HALVING.search(loop.header)
        if match and any(
            re.search(rf"\b{match.group(1)}\b", a.expression.partition("[")[2]) for a in facts.lds_accesses
        ):
            tree.append(loop)
    return tree


def _alternatives(one: LaunchFact, other: LaunchFact) -> bool:
    """Whether two launches sit in different branches of one condition (no run makes both)."""
    branches = {(c.start_line, c.condition): c.branch for c in one.conditions}
    return any(branches.get((c.start_line, c.condition), c.branch) != c.branch for c in other.conditions)


def _first_per(items, key):
    seen, out = set(), []
    for item in items:
        k = key(item)
        if k not in seen:
            seen.add(k)
            out.append(item)
    return out


__all__ = ["CATEGORIES", "GENERATOR", "KINDS", "OfflineGenerator", "CallFact"]
