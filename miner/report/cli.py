"""The `report` subcommand: a static HTML page of a mined library, optionally with a release diff's verdicts."""

from __future__ import annotations

import argparse
import os
import time
from pathlib import Path

from miner.arguments import positive_int


def add_parser(sub) -> None:
    p = sub.add_parser(
        "report",
        help="one static HTML page of a mined library: entry search, call graphs, verdicts, code (no server)",
    )
    p.add_argument("out", type=Path, help="output folder of `rocm-miner mine`")
    p.add_argument("--diff", type=Path, help="a diff.json of `rocm-miner diff` (or its folder) whose NEW is OUT")
    p.add_argument("--html", type=Path, default=None, help="where to write the page (default: OUT/report.html)")
    p.add_argument("--jobs", type=positive_int, default=max(1, os.cpu_count() or 1), help="graphs drawn at once")


def run(args: argparse.Namespace) -> int:
    from miner.report.build import build_report

    start = time.perf_counter()
    result = build_report(args.out, args.html, args.diff, args.jobs)
    seconds = time.perf_counter() - start
    print(
        f"report: {result.path} ({result.families} families, {result.entries} entry points, "
        f"{result.bytes / 1e6:.1f} MB, {seconds:.1f} s)"
    )
    return 0
