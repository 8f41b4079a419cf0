"""The `qa` subcommand: arguments, progress bar and summary table around ``run_qa``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from miner.arguments import positive_int
from miner.errors import InputError
from miner.qa.offline import CATEGORIES

if TYPE_CHECKING:  # the run's modules (the openai client among them) load only when QA runs
    from miner.qa.run import DryRun, QAOptions, QASummary


def add_parser(sub) -> None:
    qa = sub.add_parser("qa", help="grounded question-answer pairs from context bundles")
    qa.add_argument("bundles", type=Path, help="bundles.jsonl, or the output directory of `rocm-miner mine`")
    qa.add_argument("--out", type=Path, default=None, help="output directory (default: beside the bundles)")
    qa.add_argument(
        "--model", help="model name; without one (here, in --config or OPENAI_MODEL) QA is generated offline"
    )
    qa.add_argument("--base-url", help="OpenAI-compatible endpoint (default OPENAI_BASE_URL)")
    qa.add_argument("--config", type=Path, help="TOML file with an [agent] table (model, base_url, prices, ...)")
    qa.add_argument("--concurrency", type=positive_int, help="requests in flight (default 8)")
    qa.add_argument("--temperature", type=float)
    qa.add_argument("--seed", type=int)
    qa.add_argument("--max-tokens", type=positive_int)
    qa.add_argument("--categories", default=",".join(CATEGORIES), help=f"comma-separated, of: {', '.join(CATEGORIES)}")
    qa.add_argument("--limit", type=positive_int, help="only the first N bundles")
    qa.add_argument(
        "--offline", action="store_true", help="use the static-fact generator even when a model is configured"
    )
    qa.add_argument("--no-implementation", action="store_true", help="QA pairs only, no implementation samples")
    qa.add_argument("--prompt-version", default="v1")
    qa.add_argument("--dry-run", action="store_true", help="print what a run would request, and stop")
    qa.add_argument(
        "--since", type=Path, metavar="OLD_QA",
        help="an earlier QA run (its folder or qa.jsonl), e.g. of the previous release: its items of kernels whose "
        "context is unchanged are carried over, only changed and new contexts are generated",
    )  # fmt: skip


def options_from_args(args: argparse.Namespace) -> QAOptions:
    from miner.agent.config import AgentConfig
    from miner.qa.run import QAOptions

    agent = None
    if not args.offline:
        agent = AgentConfig.from_env(
            args.config,
            model=args.model,
            base_url=args.base_url,
            concurrency=args.concurrency,
            temperature=args.temperature,
            seed=args.seed,
            max_tokens=args.max_tokens,
        )
    out = args.out or (args.bundles if args.bundles.is_dir() else args.bundles.parent)
    categories = tuple(c.strip() for c in args.categories.split(",") if c.strip())
    if not categories:
        raise InputError(f"--categories names none; give some of: {', '.join(CATEGORIES)}")
    return QAOptions(
        bundles=args.bundles,
        out=out,
        agent=agent,
        categories=categories,
        tasks=("qa",) if args.no_implementation else ("qa", "implementation"),
        limit=args.limit,
        dry_run=args.dry_run,
        prompt_version=args.prompt_version,
        since=args.since,
    )


def run(args: argparse.Namespace, console: Console) -> int:
    options = options_from_args(args)
    result = run_with_progress(options, console)
    from miner.qa.run import DryRun

    if isinstance(result, DryRun):
        print(
            f"{result.units} units, {result.cached} already done; {result.requests} requests "
            f"(plus at most one regeneration each), ~{result.prompt_tokens:,} prompt tokens, "
            f"at most {result.max_completion_tokens:,} completion tokens"
        )
        return 0
    print_summary(result, options)
    degraded = _degraded_mine(options.bundles)
    if degraded:
        print(f"rocm-miner: warning: {degraded}", file=sys.stderr)
    if result.units_failed:
        failed = ", ".join(f"{reason} {n}" for reason, n in sorted(result.units_failed.items()))
        kept = "; qa.jsonl and qa_summary.json are still those of the last complete run" if result.outputs_kept else ""
        print(f"rocm-miner: {sum(result.units_failed.values())} units not done ({failed}); a re-run retries them{kept}",
              file=sys.stderr)  # fmt: skip
        return 1
    return 0


def _degraded_mine(bundles: Path) -> str:
    """What the mine that made these bundles says of TUs that did not parse completely, "" if nothing."""
    folder = bundles if bundles.is_dir() else bundles.parent
    try:
        summary = json.loads((folder / "summary.json").read_text())
        incomplete, undecided = int(summary.get("tus_fatal", 0)), int(summary.get("entries_undecided", 0))
    except (OSError, ValueError, TypeError, AttributeError):
        return ""
    if not incomplete:
        return ""
    return (
        f"the mine in {folder} is degraded: {incomplete} TUs did not parse completely and {undecided} entries are "
        f"undecided, so these items may name kernels that never run (mine again after ./setup.sh)"
    )


def run_with_progress(options: QAOptions, console: Console) -> QASummary | DryRun:
    """``run_qa`` with a progress bar that appears once there is work (so input errors print alone)."""
    bar = Progress(
        TextColumn("qa"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console, transient=True
    )
    task = None

    def progress(done: int, total: int) -> None:
        nonlocal task
        if task is None:
            bar.start()
            task = bar.add_task("qa", total=total)
        bar.update(task, completed=done, total=total)

    try:
        from miner.qa.run import run_qa

        return run_qa(options, progress)
    finally:
        if task is not None:
            bar.stop()


def print_summary(summary: QASummary, options: QAOptions) -> None:
    table = Table(title=f"rocm-miner qa: {summary.generator}", show_header=False)
    rows = {
        "bundles (with a live kernel)": f"{summary.bundles} ({summary.bundles_with_kernels})",
        "kernels": summary.kernels,
        "units (cached)": f"{summary.units} ({summary.units_cached})",
        "kept": sum(summary.kept.values()),
        "kept per category": ", ".join(f"{k} {v}" for k, v in sorted(summary.kept.items())),
        "dropped": ", ".join(f"{k} {v}" for k, v in sorted(summary.dropped.items())) or "0",
        "flagged by static facts": summary.flagged,
        "requests (retries)": f"{summary.requests} ({summary.retries})",
        "tokens (prompt / completion)": f"{summary.prompt_tokens:,} / {summary.completion_tokens:,}",
        "seconds": summary.seconds,
    }
    if summary.cost_usd is not None:
        rows["cost (USD)"] = summary.cost_usd
    if summary.since is not None:
        s = summary.since
        rows["since: carried over"] = f"{s.carried} units ({s.carried_records} items), no request"
        rows["since: regenerated"] = f"{s.regenerated} units (changed or new kernel contexts)"
        rows["since: replaced, dropped"] = (
            f"{s.replaced} earlier units of changed contexts; {s.dropped} of kernels that are gone "
            f"({s.dropped_records} items)"
        )
    if summary.units_failed:
        rows["units to redo (re-run)"] = ", ".join(f"{k} {v}" for k, v in sorted(summary.units_failed.items()))
    if summary.families_below_five_categories:
        rows["families with < 5 categories"] = len(summary.families_below_five_categories)
    for key, value in rows.items():
        table.add_row(key, str(value))
    Console().print(table)
    unchanged = " (unchanged: this run left units undone)" if summary.outputs_kept else ""
    print(f"qa: {options.out / 'qa.jsonl'}{unchanged}")
