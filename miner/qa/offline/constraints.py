"""Bounds checks, early exits before a launch, negative increments, scalar shortcuts. Mixed into ``OfflineGenerator``."""

from __future__ import annotations

import re

from miner.models import (
    LaunchFact,
    Located,
    QAItem,
)
from miner.qa.facts import THREAD_INDEX
from miner.qa.facts.kernel import CALLER_HOPS
from miner.qa.offline.shared import (
    _CALL,
    _bounds_position,
    _compatible,
    _declared_in,
    _first_per,
    _guarded_by,
    _holds_launch,
    _loop_condition,
    _only_when,
    _per_region,
    _relative_bound,
    _same_path,
    _thread_strided,
    _unit_increment_only,
)
from miner.qa.wording import (
    WORD,
    at,
    cite,
    joined,
    names,
    under,
)

_CALLERS_SHOWN = 4


def _numerics_check(exit_) -> bool:
    """A return of a ``check_numerics`` debugging branch, or the failure of a numerics check passed on
    (``if(gemm_check_numerics_status != rocblas_status_success) return gemm_check_numerics_status;``)."""
    return "check_numerics" in exit_.text or any("check_numerics" in g.text for g in exit_.guards)


class ConstraintsAndEdgeCases:
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
        """The early returns that can run on the way to one of ``launches`` (all the kernel's launches by default):
        the launchers' (none of the ``if`` branches a return sits in is the one a launch's path does not take, and
        the returning block holds no launch of the kernel) and those of the callers on the way to a launcher."""
        launches = self.facts.launches if launches is None else launches
        found: list = []
        for launch in launches:
            own, callers = self._exits_before(launch)
            found += [e for e in (*callers, *own) if e not in found]
        return found

    def _exits_before(self, launch: LaunchFact) -> tuple[list, list]:
        """The launcher's early returns before ``launch``, and those of the regions on the paths from the entry
        points to the launcher before their call of the next region, in path order."""
        own = [
            e
            for e in self.facts.early_exits
            if e.region == launch.launcher
            and e.end_line < launch.statement.start_line
            and _compatible(e.guards, launch)
            and not any(_holds_launch(e, each) for each in self.facts.launches)
        ]
        hops = self._callers(launch)
        near = list(hops)
        callers = sorted(
            (
                e
                for e in self.facts.early_exits
                if e.region in near and e.region != launch.launcher and not _numerics_check(e)
            ),
            key=lambda e: (-hops[e.region], e.region, e.start_line),
        )
        return own, callers

    def _callers(self, launch: LaunchFact) -> dict[str, int]:
        """The regions that call the launcher on the way from the entry points, and how many calls up each is:
        the launcher's callers and theirs, the callers only where more share it, none where many do (their
        own checks vary by entry family)."""
        hops: dict[str, int] = {}
        for path in self.context.call_paths:
            if path and path[-1] == launch.launcher:
                for distance, region in enumerate(reversed(path[:-1]), start=1):
                    hops[region] = min(hops.get(region, distance), distance)
        near = {r: d for r, d in hops.items() if d <= CALLER_HOPS}
        if len(near) > _CALLERS_SHOWN:
            near = {r: d for r, d in hops.items() if d == 1}
        return near if len(near) <= _CALLERS_SHOWN else {}

    def _guarded_calls(self, launch: LaunchFact) -> list:
        """The calls on the way to the launcher (from the nearby callers) that sit in ``if`` branches."""
        near = self._callers(launch)
        return [
            call
            for call in self.facts.path_calls
            if call.region in near and (call.callee in near or call.callee == launch.launcher) and call.guards
        ]

    def _call_text(self, call) -> str:
        caller, callee = self._region(call.region), self._region(call.callee)
        if caller is None or callee is None:
            return ""
        return f"`{caller.name}` calls `{callee.name}` (line {call.start_line}) only when {_guarded_by(call.guards)}"

    def _exit_text(self, exit_, named: bool = True) -> str:
        """ "`if(k == 0) return ...` in `caller` (line 9), after `if(alpha == 0) k = 0;` (line 8)"."""
        region = self._region(exit_.region) if named else None
        where = f" in `{region.name}`" if region is not None else ""
        text = f"`{exit_.text}`{where} ({at(exit_)}{', after work of its own' if exit_.after_work else ''})"
        if exit_.feeds:
            text += ", after " + joined([f"`{f.text}` ({at(f)})" for f in exit_.feeds])
        return text + _only_when(exit_.guards)

    @staticmethod
    def _exit_evidence(exit_) -> list:
        return [e for located in (exit_, *exit_.guards, *exit_.feeds) for e in cite(located)]

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
        regions = list(dict.fromkeys(r.name for e in exits if (r := self._region(e.region))))
        return [
            self._item(
                "quick_returns",
                f"In which cases does {names(regions)} return before launching {self.kernel}?",
                "It returns early on " + "; ".join(self._exit_text(e, len(set(regions)) > 1) for e in exits) + ".",
                [x for e in exits for x in self._exit_evidence(e)],
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
