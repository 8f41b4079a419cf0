"""What a kernel computes: its signature, the helpers that hold its math, its loops, what it writes. Mixed into
``OfflineGenerator``."""

from __future__ import annotations

from miner.models import (
    Evidence,
    QAItem,
    Region,
)
from miner.qa.offline.shared import _count, _first_per, _guarded_by
from miner.qa.overloads import declarator, qualifier, reachable
from miner.qa.wording import (
    WORD,
    at,
    cite,
    last_word,
    names,
    under,
)


class Semantics:
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
