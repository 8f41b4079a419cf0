"""Barriers and what they order, communication between threads, the reduction hierarchy. Mixed into
``OfflineGenerator``."""

from __future__ import annotations

import re

from miner.models import (
    CallFact,
    LaunchFact,
    QAItem,
)
from miner.qa.context import cited_text
from miner.qa.offline.kinds import _MAX_THREAD_LOOPS
from miner.qa.offline.shared import (
    _BLOCK,
    _COMBINING_KERNEL,
    _COUNTER,
    _PREPROCESSOR_BRANCH,
    _alternatives,
    _calls_any,
    _count,
    _first_per,
    _guard_clause,
    _kernel_name,
    _lds_tree,
    _one_thread,
    _one_thread_guard,
    _ordering,
    _subscript,
    _tree_variables,
)
from miner.qa.wording import (
    WORD,
    at,
    cite,
    joined,
    under,
)

_LOCK_STEP_SHOWN = 8


class SynchronizationAndReduction:
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
        if self._waits_on_other_blocks():
            return []  # blocks that hand work to each other through global memory: not a reduction tree
        tree = _lds_tree(f)
        summing = [a for a in f.atomics if not _COUNTER.search(a.text)]
        serial = [] if tree else self._serial_combines()
        if not (tree or f.cross_lane or f.reductions or summing or serial):
            return []  # LDS and barriers alone (operand tiles): no reduction this reading can describe
        levels, evidence = [], []
        reducing = {t.region for t in tree} | {c.region for c in (*f.reductions, *f.cross_lane)}
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
            key=lambda loop: (  # the loops of the function that reduces first, then the kernel's own
                loop.region not in reducing,
                loop.region != self.context.kernel.id,
                loop.region,
                loop.start_line,
            ),
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
            syncs = [b for b in f.barriers if "threadfence" not in b.name]
            barriers = [b for b in syncs if b.region in tree_regions] or syncs
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
                    and not any(b.region == a.region and loop.body_end < b.start_line < a.start_line for b in syncs)
                ]
                if lock_step:
                    offsets = _first_per(lock_step, _subscript)
                    levels[-1] += ", then within one wavefront in lock step, with no barrier, reading " + joined(
                        [f"`{_subscript(a)}` ({at(a)})" for a in offsets[:_LOCK_STEP_SHOWN]]
                    )
                    fences = [
                        b
                        for b in f.barriers
                        if "threadfence" in b.name
                        and b.region == loop.region
                        and lock_step[0].start_line <= b.start_line <= lock_step[-1].start_line
                    ]
                    if fences:
                        evidence += [e for b in fences for e in cite(b, b.name)]
                        levels[-1] += (
                            f" (with a `__threadfence` between the steps, lines {fences[0].start_line}-{fences[-1].start_line})"
                        )
                    if len(offsets) > _LOCK_STEP_SHOWN:
                        levels[-1] += f" and further slots up to line {offsets[-1].start_line}"
                    evidence += [e for a in offsets[:_LOCK_STEP_SHOWN] for e in cite(a)]
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
        if serial:
            parts = []
            for loop in serial:
                guard = next(g for g in loop.guards if _one_thread_guard(g))
                parts.append(
                    f"the threads for which `{guard.text}` holds ({at(guard)}) add up the LDS partials in "
                    f"`{loop.header}`{self._in(loop)} ({at(loop)})"
                )
                evidence += cite(loop) + cite(guard)
            levels.append("across the block, after a barrier, " + "; ".join(parts))
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
            elif (
                not per_block
                and (result := [s for s in f.stores if _one_thread(s) and s.region in reducing])
                and (tree or f.cross_lane)
            ):  # a store of another function holds no result of this one's reduction (lasyf's ``*info``)
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
        if f.shared and f.barriers and not tree and not block_calls and not serial:
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

    def _serial_combines(self) -> list:
        """Loops that a few threads run after a barrier to add up the other threads' LDS partials
        (``if(ty == 0) for(i = 1; i < DIM_Y; i++) val += sum[i * DIM_X + tx];``)."""
        f = self.facts
        return _first_per(
            [
                loop
                for loop in f.loops
                if loop.accumulates
                and _one_thread(loop)
                and any(
                    a.region == loop.region and loop.start_line <= a.start_line <= loop.body_end for a in f.lds_accesses
                )
                and any(
                    b.region == loop.region and b.start_line < loop.start_line and "threadfence" not in b.name
                    for b in f.barriers
                )
            ],
            lambda loop: (loop.region, loop.start_line),
        )

    def _waits_on_other_blocks(self) -> bool:
        """A loop that spins on memory other blocks write (``while(w_completed_sec[batchid] < block_iter)
        __threadfence();``)."""
        fences = [b for b in self.facts.barriers if "threadfence" in b.name]
        return any(
            loop.header.startswith("while")
            and "[" in loop.header
            and any(b.region == loop.region and loop.start_line <= b.start_line <= loop.body_end for b in fences)
            for loop in self.facts.loops
        )

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
