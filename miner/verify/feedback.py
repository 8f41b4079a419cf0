"""Structured feedback for the next turn: compiler diagnostics with the candidate's lines, per-case failures,
resource usage and timings, as text the agent reads."""

from __future__ import annotations

from miner.verify.models import Outcome, Verdict

MAX_CASES = 6


def render(verdict: Verdict, source: str) -> str:
    lines = source.splitlines()
    out = [f"Verdict: {verdict.outcome.value}. {verdict.reason}".strip()]
    for d in verdict.diagnostics[:8]:
        where = f"line {d.line}: `{_line(lines, d.line)}` " if d.line else ""
        out.append(f"- compiler {d.severity}: {where}{d.message}")
    failing = [c for c in verdict.cases if c.outcome not in (Outcome.PASSED,)]
    for c in failing[:MAX_CASES]:
        shown = "" if c.shown else " (a hidden case)"
        out.append(f"- case {c.label}{shown}: {c.outcome.value}: {c.detail}")
        for n in c.lines[-2:]:
            out.append(f"  at line {n}: `{_line(lines, n)}`")
    if len(failing) > MAX_CASES:
        out.append(f"- and {len(failing) - MAX_CASES} more failing case(s)")
    for r in verdict.resources[:6]:
        fields = {k: v for k, v in r.model_dump().items() if v is not None and k not in ("kernel", "target")}
        out.append(f"- resources of {r.kernel} on {r.target}: " + ", ".join(f"{k}={v}" for k, v in fields.items()))
    for c in verdict.cases:
        if c.timing:
            t = c.timing
            out.append(f"- timing {c.label}: {t.candidate_us:.1f} us vs reference {t.reference_us:.1f} us "
                       f"(speedup {t.speedup:.2f}x){' FLAGGED: ' + '; '.join(t.flags) if t.flags else ''}")  # fmt: skip
    if verdict.correct:
        out.append("The kernel is correct. Make it faster if you can, keeping it correct on every case.")
    else:
        out.append("Fix the kernel. Answer with the complete corrected file in one code block.")
    return "\n".join(out)


def _line(lines: list[str], n: int | None) -> str:
    if n is None or not 1 <= n <= len(lines):
        return ""
    return lines[n - 1].strip()[:160]
