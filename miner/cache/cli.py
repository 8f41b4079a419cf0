"""The `cache` subcommand: what the shared cache holds (``info``) and least-recently-used pruning (``prune``)."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from miner.arguments import byte_size
from miner.cache.home import default_cache_dir
from miner.cache.inventory import Inventory, take_inventory
from miner.cache.prune import prune
from miner.errors import InputError


def add_parser(sub) -> None:
    cache = sub.add_parser("cache", help="what the shared cache holds, and pruning it")
    actions = cache.add_subparsers(dest="cache_command", required=True)
    info = actions.add_parser("info", help="the cache's size, per section and per library and revision mined")
    info.add_argument("--json", action="store_true", help="print it as JSON")
    cut = actions.add_parser("prune", help="remove the least recently used parses and stores down to a size")
    cut.add_argument("--max-size", type=byte_size, required=True, metavar="SIZE", help="e.g. 2G, 500M, 0")
    cut.add_argument("--dry-run", action="store_true", help="say what would go, remove nothing")
    for sp in (info, cut):
        sp.add_argument("--cache", type=Path, default=None, help="cache directory (default: the shared one)")


def run(args: argparse.Namespace, console: Console) -> int:
    cache_dir = (args.cache or default_cache_dir()).resolve()
    if not cache_dir.is_dir():
        raise InputError("no cache here (nothing was mined with it yet)", path=str(cache_dir))
    if args.cache_command == "info":
        inventory = take_inventory(cache_dir)
        if args.json:
            print(json.dumps(_as_json(inventory), indent=2))
        else:
            _print_inventory(inventory)
        return 0
    result = prune(cache_dir, args.max_size, dry_run=args.dry_run)
    verb = "would remove" if args.dry_run else "removed"
    print(
        f"{cache_dir}: {verb} {len(result.removed)} least recently used units ({_size(result.before_bytes - result.after_bytes)}), "
        f"{_size(result.before_bytes)} -> {_size(result.after_bytes)}; {result.temporaries} leftover temporaries"
    )
    for name in result.runs_forgotten:
        print(f"  nothing is left of {name}")
    return 0


def _as_json(inv: Inventory) -> dict:
    return {
        "cache": str(inv.cache_dir),
        "total_bytes": inv.total_bytes,
        "sections": {name: {"units": n, "bytes": size} for name, (n, size) in inv.sections.items()},
        "unrecorded": {"units": inv.unrecorded[0], "bytes": inv.unrecorded[1]},
        "runs": [
            {
                "library": u.run.library,
                "revision": u.run.revision,
                "commit": u.run.commit,
                "root": u.run.root,
                "out": u.run.out,
                "with": u.run.with_libraries,
                "last_mined": u.run.last_mined,
                "units": len(u.run.units),
                "units_present": u.units_present,
                "tus_present": u.tus_present,
                "bytes_present": u.bytes_present,
                "bytes_shared": u.bytes_shared,
            }
            for u in inv.runs
        ],
    }


def _print_inventory(inv: Inventory) -> None:
    out = Console()
    if not out.is_terminal:
        out = Console(width=160)  # a pipe or a file gets whole lines
    sections = ", ".join(f"{name} {n} ({_size(size)})" for name, (n, size) in inv.sections.items())
    out.print(f"{inv.cache_dir}: {_size(inv.total_bytes)} — {sections}", markup=False, highlight=False)
    table = Table("library", "revision", "last mined", "parses", "held", "shared", "units left", "with")
    for u in inv.runs:
        table.add_row(
            u.run.library,
            u.run.revision,
            time.strftime("%Y-%m-%d %H:%M", time.localtime(u.run.last_mined)),
            str(u.tus_present),
            _size(u.bytes_present),
            _size(u.bytes_shared),
            f"{u.units_present}/{len(u.run.units)}",
            ", ".join(u.run.with_libraries),
        )
    out.print(table)
    n, size = inv.unrecorded
    if n:
        out.print(f"{n} units ({_size(size)}) no recorded run uses (older runs, or pruned ones)", highlight=False)


def _size(n: int) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(n) < 1024 or unit == "GiB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TiB"
