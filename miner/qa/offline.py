"""The deterministic QA generator: every question and answer is built from static facts and cites their lines.

Answers state facts in the code's own words (quoted in backticks) and never a number that is not
in the cited lines, so every item passes the grounding check by construction; the run still checks
each one, and counts what fails.
"""

from __future__ import annotations

import re

from miner.models import Evidence, KernelFacts, LaunchFact, Located, QAItem
from miner.qa.context import KernelContext

GENERATOR = "static-facts/1"
CATEGORIES = ("semantics", "indexing", "memory", "synchronization", "reduction", "launch", "constraints")
_MAX_LAUNCHES = 3
_MAX_LISTED = 6
_WORD = re.compile(r"[A-Za-z_]\w*")


def _cite(located: Located, *identifiers: str) -> list[Evidence]:
    """The located lines, and the preprocessor lines around them when the answer mentions those."""
    evidence = [
        Evidence(
            region=located.region,
            start_line=located.start_line,
            end_line=located.end_line,
            identifiers=[i for i in dict.fromkeys(identifiers) if i],
        )
    ]
    evidence += [Evidence(region=located.region, start_line=n, end_line=n) for n in located.directive_lines]
    if getattr(located, "label_line", 0):
        evidence.append(Evidence(region=located.region, start_line=located.label_line, end_line=located.label_line))
    return evidence


def _at(located: Located) -> str:
    if located.start_line == located.end_line:
        return f"line {located.start_line}"
    return f"lines {located.start_line}-{located.end_line}"


def _under(located: Located) -> str:
    if not located.directive:
        return ""
    return f", inside `{located.directive}` ({', '.join(f'line {n}' for n in located.directive_lines)})"


def _names(items: list[str]) -> str:
    quoted = [f"`{i}`" for i in items]
    if len(quoted) <= 2:
        return " and ".join(quoted)
    return ", ".join(quoted[:-1]) + f" and {quoted[-1]}"


class OfflineGenerator:
    def __init__(self, context: KernelContext, facts: KernelFacts) -> None:
        self.context = context
        self.facts = facts
        self.kernel = f"`{facts.name}`"

    def _region_name(self, region_id: str) -> str:
        region = self.context.region(region_id)
        return region.name if region is not None else ""

    def items(self, categories: tuple[str, ...] = CATEGORIES) -> list[QAItem]:
        out: list[QAItem] = []
        for category in categories:
            out += getattr(self, f"_{category}")()
        return out

    def _item(self, category: str, question: str, answer: str, evidence: list) -> QAItem:
        flat = [e for cited in evidence for e in (cited if isinstance(cited, list) else [cited])]
        unique = list({e.model_dump_json(): e for e in flat}.values())
        return QAItem(category=category, question=question, answer=answer, evidence=unique)

    # -- categories ---------------------------------------------------------------------------

    def _semantics(self) -> list[QAItem]:
        f = self.facts
        items = []
        params = [p for p in f.params if p]
        answer = f"{self.kernel} is a kernel"
        if f.template_params:
            answer += f" templated on {_names(f.template_params)}"
        answer += f" that takes {_names(params)}." if params else " that takes no parameters."
        if f.launch_bounds:
            answer += f" Its launch bounds come from `{f.launch_bounds}`."
        names = [_last_word(p) for p in params + f.template_params]
        items.append(
            self._item(
                "semantics",
                f"What are the template and runtime parameters of the kernel {self.kernel}?",
                answer,
                [_cite(f.signature, f.name, *names)],
            )
        )
        calls = _first_per_name(f.helpers)
        if calls:
            parts = [f"`{c.name}` ({_at(c)}: `{c.text}`)" for c in calls[:_MAX_LISTED]]
            items.append(
                self._item(
                    "semantics",
                    f"Which device helpers does {self.kernel} call, and where?",
                    f"{self.kernel} calls " + "; ".join(parts) + ".",
                    [_cite(c, c.name) for c in calls[:_MAX_LISTED]],
                )
            )
        if f.loops:
            parts = []
            for loop in f.loops[:_MAX_LISTED]:
                level = "an outermost loop" if loop.depth == 1 else "a loop nested inside the one before it"
                unroll = f", unrolled by `#pragma unroll {loop.unroll}`" if loop.unroll not in ("", "full") else ""
                if loop.unroll == "full":
                    unroll = ", fully unrolled by `#pragma unroll`"
                parts.append(f"{level}, `{loop.header}` ({_at(loop)}{unroll}{_under(loop)})")
            items.append(
                self._item(
                    "semantics",
                    f"What loops does {self.kernel} run, and how are they nested?",
                    f"{self.kernel} has " + "; then ".join(parts) + ".",
                    [_cite(loop, *_loop_variables(loop.header)) for loop in f.loops[:_MAX_LISTED]],
                )
            )
        return items

    def _indexing(self) -> list[QAItem]:
        mappings = self.facts.thread_mapping[:_MAX_LISTED]
        if not mappings:
            return []
        parts = [f"`{m.variable} = {m.expression}` ({_at(m)}{_under(m)})" for m in mappings]
        return [
            self._item(
                "indexing",
                f"How does {self.kernel} map threads and blocks to the elements it works on?",
                f"{self.kernel} computes " + "; ".join(parts) + ".",
                [_cite(m, m.variable, *_thread_names(m.expression)) for m in mappings],
            )
        ]

    def _memory(self) -> list[QAItem]:
        f = self.facts
        items = []
        if f.global_accesses:
            accesses = f.global_accesses[:_MAX_LISTED]
            parts = [f"`{a.expression}` ({_at(a)})" for a in accesses]
            items.append(
                self._item(
                    "memory",
                    f"Which global-memory accesses of {self.kernel} are indexed by the thread's position or by a stride?",
                    f"{self.kernel} accesses " + "; ".join(parts) + ".",
                    [
                        _cite(a, _WORD.match(a.expression).group(0) if _WORD.match(a.expression) else "")
                        for a in accesses
                    ],
                )
            )
        if f.shared:
            parts = [f"`{s.declaration}` in `{self._region_name(s.region)}` ({_at(s)})" for s in f.shared[:_MAX_LISTED]]
            items.append(
                self._item(
                    "memory",
                    f"What `__shared__` (LDS) memory does {self.kernel} use, directly or through its device helpers?",
                    "It declares " + "; ".join(parts) + ".",
                    [_cite(s, s.name) for s in f.shared[:_MAX_LISTED]],
                )
            )
        return items

    def _synchronization(self) -> list[QAItem]:
        f = self.facts
        calls = _first_per_place(f.barriers + f.atomics + f.cross_lane)[:_MAX_LISTED]
        if not calls:
            return [
                self._item(
                    "synchronization",
                    f"Do the threads of {self.kernel} synchronise or communicate with each other?",
                    f"No: neither {self.kernel} nor the device helpers it calls in this bundle use a barrier, an atomic "
                    "operation or a cross-lane (shuffle, DPP, ballot) builtin; each thread works on its own elements.",
                    [_cite(f.signature, f.name)],
                )
            ]
        parts = [f"`{c.name}` in `{self._region_name(c.region)}` ({_at(c)}{_under(c)})" for c in calls]
        return [
            self._item(
                "synchronization",
                f"How do the threads of {self.kernel} synchronise or communicate?",
                "Through " + "; ".join(parts) + ".",
                [_cite(c, c.name) for c in calls],
            )
        ]

    def _reduction(self) -> list[QAItem]:
        f = self.facts
        reductions = _first_per_place(f.reductions)[:_MAX_LISTED]
        if not reductions and not (f.cross_lane or f.atomics):
            return []
        parts = [f"`{c.text}` in `{self._region_name(c.region)}` ({_at(c)})" for c in reductions]
        lanes = _first_per_place(f.cross_lane + f.atomics)[:3]
        if lanes:
            parts += [f"`{c.name}` in `{self._region_name(c.region)}` ({_at(c)})" for c in lanes]
        staged = f.shared[:2] if reductions else []
        parts += [f"partial results staged in `{s.name}` ({_at(s)})" for s in staged]
        return [
            self._item(
                "reduction",
                f"How does {self.kernel} combine values across threads?",
                "It reduces through " + "; ".join(parts) + ".",
                [_cite(c, c.name) for c in reductions + lanes] + [_cite(s, s.name) for s in staged],
            )
        ]

    def _launch(self) -> list[QAItem]:
        items = []
        seen: set[tuple[str, int]] = set()
        for launch in self.facts.launches:
            if (launch.launcher, launch.statement.start_line) in seen or len(seen) >= _MAX_LAUNCHES:
                continue
            seen.add((launch.launcher, launch.statement.start_line))
            items.append(self._launch_item(launch))
        return items

    def _launch_item(self, launch: LaunchFact) -> QAItem:
        config = _config(launch)
        statement = launch.statement
        if re.search(rf"\b{re.escape(self.facts.name)}\b", statement.text):
            answer = f"`{launch.launcher_name}` launches {self.kernel} {config} ({_at(statement)})"
            shown = [v for v in _plain(launch.grid, launch.block) if re.search(rf"\b{v}\b", statement.text)]
            evidence = _cite(statement, self.facts.name, *shown)
        else:
            answer = (
                f"`{launch.launcher_name}` launches {self.kernel} {config} from the expansion of "
                f"`{statement.text}` ({_at(statement)})"
            )
            evidence = _cite(statement)
        conditions = [c for c in launch.conditions if "".join(c.condition.split()) in "".join(c.text.split())]
        if conditions:
            answer += ", on the path where " + " and ".join(_branch(c) for c in conditions)
            evidence += [e for c in conditions for e in _cite(c)]
        answer += "."
        for declaration in launch.declarations:
            answer += f" `{declaration.text}` ({_at(declaration)})."
            declared = [v for v in _plain(launch.grid, launch.block) if re.search(rf"\b{v}\b", declaration.text)]
            evidence += _cite(declaration, *declared)
        return self._item(
            "launch",
            f"How does `{launch.launcher_name}` launch {self.kernel}, and under which conditions?",
            answer,
            evidence,
        )

    def _constraints(self) -> list[QAItem]:
        f = self.facts
        items = []
        if f.boundary_checks:
            checks = f.boundary_checks[:_MAX_LISTED]
            parts = [
                f"`if{c.text}` ({_at(c)}{_under(c)})" if c.text.startswith("(") else f"`{c.text}` ({_at(c)})"
                for c in checks
            ]
            items.append(
                self._item(
                    "constraints",
                    f"Which bounds checks keep the threads of {self.kernel} inside the data?",
                    f"{self.kernel} guards its work with " + "; ".join(parts) + ".",
                    [_cite(c) for c in checks],
                )
            )
        exits = f.early_exits[:_MAX_LISTED]
        if exits:
            launchers = _names(list(dict.fromkeys(self._region_name(e.region) for e in exits)))
            parts = [f"`{e.text}` ({_at(e)})" for e in exits]
            items.append(
                self._item(
                    "constraints",
                    f"In which cases does {launchers} return before launching {self.kernel}?",
                    "It returns early on " + "; ".join(parts) + ".",
                    [_cite(e) for e in exits],
                )
            )
        return items

    # -- implementation sample -----------------------------------------------------------------

    def implementation(self) -> QAItem | None:
        f = self.facts
        if not f.launches:
            return None
        launch = f.launches[0]
        launcher = self.context.region(launch.launcher)
        kernel = self.context.kernel
        entries = self.context.entries
        shown = _names(entries[:_MAX_LISTED]) + (
            " and the other entries of its family" if len(entries) > _MAX_LISTED else ""
        )
        instruction = (
            f"Write the HIP kernel {self.kernel} and the launcher `{launch.launcher_name}` that starts it for {shown}. "
            f"Interface: `{f.signature.text}`. Contract: launch it {_config(launch)}"
        )
        conditions = [c for c in launch.conditions if "".join(c.condition.split()) in "".join(c.text.split())]
        if conditions:
            instruction += ", on the path where " + " and ".join(_branch(c) for c in conditions)
        instruction += "."
        helpers = list(dict.fromkeys(h.name for h in self.context.helpers))
        if helpers:
            instruction += f" The device helpers {_names(helpers[:_MAX_LISTED])} are available."
        response = f"```cpp\n{kernel.code}\n```\n\n```cpp\n{launcher.code}\n```"
        evidence = [
            Evidence(region=kernel.id, start_line=kernel.start_line, end_line=kernel.end_line, identifiers=[f.name]),
            Evidence(
                region=launcher.id,
                start_line=launcher.start_line,
                end_line=launcher.end_line,
                identifiers=[launch.launcher_name],
            ),
        ]
        evidence += [e for c in conditions for e in _cite(c)]
        return QAItem(category="implementation", question=instruction, answer=response, evidence=evidence)


def _config(launch: LaunchFact) -> str:
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
    if not parts:
        return via
    return f"{via} with " + (", ".join(parts[:-1]) + f" and {parts[-1]}" if len(parts) > 1 else parts[0])


def _branch(condition) -> str:
    if condition.branch == "then":
        return f"`{condition.condition}` holds ({_at(condition)})"
    if condition.branch == "else":
        return f"`{condition.condition}` does not hold ({_at(condition)})"
    if condition.label_line:
        return f"`{condition.condition}` takes `{condition.branch}` (lines {condition.start_line} and {condition.label_line})"
    return f"`{condition.condition}` takes the {condition.branch} branch ({_at(condition)})"


def _last_word(declaration: str) -> str:
    words = _WORD.findall(declaration.split("=")[0])
    return words[-1] if words else ""


def _plain(*expressions: str) -> list[str]:
    return [e for e in expressions if re.fullmatch(r"[A-Za-z_]\w*", e)]


def _thread_names(expression: str) -> list[str]:
    return [w for w in _WORD.findall(expression) if w in ("threadIdx", "blockIdx", "blockDim", "gridDim")][:2]


def _loop_variables(header: str) -> list[str]:
    return _WORD.findall(header)[1:2]


def _first_per_name(calls):
    seen, out = set(), []
    for c in calls:
        if c.name not in seen:
            seen.add(c.name)
            out.append(c)
    return out


def _first_per_place(calls):
    seen, out = set(), []
    for c in calls:
        key = (c.region, c.name)
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out
