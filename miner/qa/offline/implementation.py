"""The implementation sample: the instruction and the code that holds the kernel's math. Mixed into
``OfflineGenerator``."""

from __future__ import annotations

from miner.models import (
    Evidence,
    QAItem,
    Region,
)
from miner.qa.offline.shared import (
    _branch,
    _calls_any,
    _configuration,
    _first_per,
    _guarded_by,
    _holds_math,
    _kernel_name,
    _stated_conditions,
)
from miner.qa.wording import (
    at,
    cite,
    joined,
    names,
)


class ImplementationSample:
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
            if each.macro_guards:
                text += f", inside the macro when {_guarded_by(each.macro_guards)}"
            if each.loops:
                text += ", once per round of " + " inside ".join(
                    f"`{loop.text}` ({at(loop)})" for loop in reversed(each.loops)
                )
            contract.append(text)
        instruction += "; ".join(contract) + "."
        returns = self._early_exits(launches)
        if returns:
            instruction += (
                " Before launching, "
                + (
                    "the launcher returns on "
                    if all(e.region == launch.launcher for e in returns)
                    else "the launcher and its callers return on "
                )
                + "; ".join(self._exit_text(e, e.region != launch.launcher) for e in returns)
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
        evidence += [e for loop in (x for each in launches for x in each.loops) for e in cite(loop)]
        evidence += [e for guard in (g for each in launches for g in each.macro_guards) for e in cite(guard)]
        evidence += [x for r in returns for x in self._exit_evidence(r)]
        return QAItem(
            category="implementation", kind="implementation", question=instruction, answer=response, evidence=evidence
        )

    def _math_helpers(self) -> list[Region]:
        """The helpers the kernel's work happens in, those on the way to them (``rocblas_sum_reduce`` calling
        ``rocblas_reduction``) and the other overloads of those the entries' instantiations call (the plain-pointer
        ``cond_load_ptr_batch`` of the strided entries beside the batched one), in the context's order."""
        helpers = self.context.helpers
        math = {h.id for h in helpers if _holds_math(self.facts, h)}
        grown = True
        while grown:
            callers = {
                h.id for h in helpers if h.id not in math and _calls_any(h, [r for r in helpers if r.id in math])
            }
            grown = bool(callers)
            math |= callers
        shown = {h.name for h in helpers if h.id in math}
        math |= {h.id for h in helpers if h.name in shown}  # every overload some entry's instantiation calls
        return [h for h in helpers if h.id in math]
