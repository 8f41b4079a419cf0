"""How the kernel is launched: grid, block and conditions, dispatch between kernels, chunking. Mixed into
``OfflineGenerator``."""

from __future__ import annotations

import re

from miner.models import (
    LaunchFact,
    QAItem,
)
from miner.qa.offline.shared import (
    _branch,
    _compatible,
    _configuration,
    _contradicted,
    _declared,
    _first_per,
    _guarded_by,
    _kernel_name,
    _only_when,
    _stated_conditions,
    _written_configuration,
)
from miner.qa.wording import (
    at,
    cite,
    joined,
    names,
)


class Launch:
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
        if launch.macro_guards:
            answer += f", and inside the macro when {_guarded_by(launch.macro_guards)}"
            evidence += [e for g in launch.macro_guards for e in cite(g)]
        if launch.loops:
            answer += ", once per round of " + " inside ".join(
                f"`{loop.text}` ({at(loop)})" for loop in reversed(launch.loops)
            )
            evidence += [e for loop in launch.loops for e in cite(loop)]
        answer += "."
        own, callers = self._exits_before(launch)
        if own:
            answer += (
                f" It is reached only past the early return{'s' if len(own) > 1 else ''} "
                + "; ".join(self._exit_text(e, named=False) for e in own)
                + "."
            )
        if callers:
            answer += (
                " On the way from the entry point, its callers return first on "
                + "; ".join(self._exit_text(e) for e in callers)
                + "."
            )
        evidence += [x for e in (*own, *callers) for x in self._exit_evidence(e)]
        calls = [(call, text) for call in self._guarded_calls(launch) if (text := self._call_text(call))]
        if calls:
            answer += " On the way, " + "; ".join(text for _, text in calls) + "."
            evidence += [x for call, _ in calls for located in (call, *call.guards) for x in cite(located)]
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
            exits = [e for e in self.facts.launcher_exits if e.region == launcher_id]
            for launch, site in launches:
                conditions = _stated_conditions(launch)
                when = " and ".join(_branch(c) for c in conditions) if conditions else "no branch condition encloses it"
                past = [
                    e
                    for e in exits
                    if first <= e.start_line
                    and e.end_line < launch.statement.start_line
                    and not e.after_work
                    and _compatible(e.guards, launch)
                ]
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
                if launch.macro_guards:
                    when += f", inside the macro when {_guarded_by(launch.macro_guards)}"
                    evidence += [e for g in launch.macro_guards for e in cite(g)]
                rounds = "".join(f", in `{loop.text}` ({at(loop)})" for loop in launch.loops)
                parts.append(f"{named}{mine}{how} at {at(launch.statement)} when {when}{rounds}")
                evidence += cite(launch.statement, kernel if written else "") + [e for c in conditions for e in cite(c)]
                evidence += [e for loop in launch.loops for e in cite(loop)]
            answer = f"`{name}` launches " + "; ".join(parts) + "."
            returns = [e for e in exits if e.end_line < first]
            if returns:
                answer += (
                    " Before any launch it returns on "
                    + "; ".join(self._exit_text(e, named=False) for e in returns)
                    + "."
                )
                evidence += [x for e in returns for x in self._exit_evidence(e)]
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
