"""The `diff` subcommand: per entry point, what changed between two revisions of a library."""

from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

from miner.arguments import add_with_option, positive_int, with_pairs
from miner.models import EntryDiff, ReleaseDiff, RevisionSide
from miner.progress import phase_bars


def add_parser(sub) -> None:
    p = sub.add_parser(
        "diff",
        help="what changed for each entry point between two revisions (mined through temporary worktrees)",
        description="Mines OLD and NEW of the checkout at PATH (the checkout itself is never touched) into "
        "OUT/old and OUT/new, and writes OUT/diff.json: per entry point unchanged, changed, added or removed; "
        "for a changed one, its regions that changed (comments, whitespace and calls to excluded code aside) "
        "and the kernels whose liveness changed. A --with library is mined at the same revision when its "
        "repository has it, else as its working tree is.",
    )
    p.add_argument("path", type=Path, help="library checkout (a git work tree)")
    p.add_argument("old", help="the earlier revision (tag, branch or commit)")
    p.add_argument("new", help="the later revision")
    p.add_argument("--library", help="rocblas, rocsolver, ... (detected when omitted)")
    add_with_option(p)
    p.add_argument("--out", type=Path, default=None, help="output directory (default: output/diff-OLD-NEW)")
    p.add_argument("--jobs", type=positive_int, default=max(1, os.cpu_count() or 1), help="parse worker processes")
    p.add_argument("--cache", type=Path, default=None, help="cache directory (default: the shared one)")
    p.add_argument("--allow-missing-headers", action="store_true",
                   help="parse even when a system header the library needs is missing (a degraded run)")  # fmt: skip
    p.add_argument("--all", action="store_true", help="list unchanged and not mined entries in the table too")


def run(args: argparse.Namespace, console: Console) -> int:
    from miner.diff.run import DiffOptions, diff_revisions

    out = args.out or Path("output") / f"diff-{_slug(args.old)}-{_slug(args.new)}"
    opts = DiffOptions(
        path=args.path,
        old=args.old,
        new=args.new,
        out=out,
        library=args.library,
        with_libraries=with_pairs(args.with_),
        jobs=args.jobs,
        cache_dir=args.cache,
        allow_missing_headers=args.allow_missing_headers,
    )
    with phase_bars(console) as progress:
        report = diff_revisions(opts, progress)
    print_report(report, show_unchanged=args.all)
    print(f"diff: {out / 'diff.json'}")
    return 0


def print_report(report: ReleaseDiff, *, show_unchanged: bool = False) -> None:
    console = Console() if sys.stdout.isatty() else Console(width=200)  # a log keeps whole names
    for side in (report.old, report.new):
        console.print(_side_line(report.library, side), markup=False, highlight=False)
    table = Table(title=f"{report.library}: {report.old.revision} -> {report.new.revision}")
    for column in ("entry", "verdict", "regions changed / added / removed", "live kernels"):
        table.add_column(column)
    for d in report.entries:
        if d.verdict not in ("unchanged", "not mined") or show_unchanged:
            table.add_row(d.entry, d.verdict, d.note or _regions_cell(d), _live_cell(d))
    console.print(table)
    counts = ", ".join(f"{n} {verdict}" for verdict, n in report.counts.items())
    console.print(f"{len(report.entries)} entry points: {counts} ({report.seconds:.1f} s)", markup=False)


def _side_line(library: str, side: RevisionSide) -> str:
    others = "".join(f", with {name} at {rev}" for name, rev in side.with_libraries.items())
    line = (
        f"{library} {side.revision} ({side.commit[:10]}{others}): {side.tus} TUs, {side.tus_parsed} parsed, "
        f"{side.tus - side.tus_parsed} from the cache"
    )
    for name, (tus, parsed) in side.with_tus.items():
        line += f"; {name}: {tus} TUs, {parsed} parsed"
    return line


def _regions_cell(d: EntryDiff) -> str:
    if d.verdict != "changed":
        return ""
    n = {c: sum(1 for r in d.regions if r.change == c) for c in ("changed", "added", "removed")}
    names = ", ".join(sorted({r.name for r in d.regions}))
    return f"{n['changed']} / {n['added']} / {n['removed']}" + (f": {names}" if names else "")


def _live_cell(d: EntryDiff) -> str:
    parts = [f"+{k}" for k in d.live_added] + [f"-{k}" for k in d.live_removed]
    dead = [f"{k.name} added, dead" for k in d.kernels if k.change == "added" and not k.live]
    return "; ".join(parts + dead) if parts or dead else ("unchanged" if d.verdict == "changed" else "")


def _slug(rev: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", rev)
