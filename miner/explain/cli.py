"""The `explain` subcommand: why each region of an entry point's bundle is there, or why a function is not."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from miner.explain.read import read_entry
from miner.explain.reasons import explain_entry
from miner.models import Explanation


def add_parser(sub) -> None:
    p = sub.add_parser(
        "explain",
        help="why a function is (or is not) in an entry point's bundle, from an output folder alone",
        description="For FUNCTION, or every region of ENTRY's bundle: the call path from the entry point with "
        "each edge's resolution and conditions, the rule that let the traversal follow it, and its liveness "
        "verdict with the deciding line. For a function not in the bundle: the rule that excluded it, the "
        "boundary the traversal stopped at, or that nothing reaches it.",
    )
    p.add_argument("out", type=Path, help="output folder of `rocm-miner mine`")
    p.add_argument("entry", help="entry point name, e.g. rocblas_sgemv")
    p.add_argument("function", nargs="?", help="a function (name or qualified name); all regions when omitted")
    p.add_argument("--json", action="store_true", help="one JSON object per explanation")


def run(args: argparse.Namespace) -> int:
    data = read_entry(args.out, args.entry)
    if data.bundle is None:
        why = data.not_reached or {}
        line = f"{args.entry}: in no bundle: {why.get('reason', 'no record')}" + (
            f" ({why['detail']})" if why.get("detail") else ""
        )
        print(json.dumps({"entry": args.entry, "status": "no bundle", **why}) if args.json else line)
        return 0
    for explanation in explain_entry(args.out, data, args.entry, args.function):
        print(explanation.model_dump_json() if args.json else render(explanation))
    return 0


def render(x: Explanation) -> str:
    head = f"{x.entry} › {x.function}"
    if x.status == "in bundle":
        lines = [f"{head}  [{x.role}, {x.file}:{x.line}]"]
        lines += ["  path:"] + [f"    {_step_text(i, s)}" for i, s in enumerate(x.path)]
        if not x.path:
            lines.append("    (no call edge from the entry's own region reaches it)")
        lines.append(f"  kept: {x.rule}")
        lines.append(f"  verdict: {_verdict_text(x)}")
        return "\n".join(lines)
    if x.status == "reached, not bundled":
        return f"{head}  [{x.file}:{x.line}]\n  reached, its code not in the bundle\n  verdict: {_verdict_text(x)}"
    if x.status in ("excluded", "boundary"):
        what = f"excluded by {x.rule}" if x.status == "excluded" else f"a {x.rule} boundary: the traversal stops there"
        where = f", declared in {x.file}" if x.file else ""
        return f"{head}\n  {what}{where}\n  called from: " + "; ".join(x.called_from)
    if x.status == "other entries":
        return f"{head}\n  not reached from {x.entry}; its bundle holds it for: {', '.join(x.elsewhere)}"
    others = (
        f"; it is in the bundles of {len(x.elsewhere)} other entries ({', '.join(x.elsewhere[:5])}{', ...' if len(x.elsewhere) > 5 else ''})"
        if x.elsewhere
        else ""
    )
    return (
        f"{head}\n  nothing reaches it from {x.entry}: no region, exclusion or boundary of its bundle names it{others}"
    )


def _step_text(i: int, s) -> str:
    if i == 0:
        return f"{s.name} ({s.role}, {s.file}:{s.line})"
    conditions = f" if {' && '.join(s.conditions)}" if s.conditions else ""
    return f"-> {s.edge} at {s.call_at} [{s.resolution}]{conditions}: {s.name} ({s.role}, {s.file}:{s.line})"


def _verdict_text(x: Explanation) -> str:
    if x.live is None:
        return "not decided"
    if x.live:
        return "live" + (
            f"; it runs at least when {' && '.join(f'({c})' for c in x.conditions)}" if x.conditions else ""
        )
    if not x.reason:  # host code: its kernels' verdicts are stored, not its own
        return "no path that runs for this entry reaches it (host code: no deciding line is stored for it)"
    return f"dead ({x.reason}) at {x.decided_at}" + (f": {x.detail}" if x.detail else "")
