"""The `rocm-miner` command line."""

from __future__ import annotations

import argparse
import errno
import os
import signal
import sys
from pathlib import Path

from rich.console import Console
from rich.table import Table

from miner import __version__
from miner.arguments import OneLineParser, add_with_option, positive_int, with_pairs
from miner.errors import InputError, MinerError
from miner.progress import phase_bars
from miner.signals import Terminated, sigterm_stops


def build_parser() -> argparse.ArgumentParser:
    p = OneLineParser(prog="rocm-miner", description="Mine ROCm math libraries into context bundles.")
    p.add_argument("--version", action="version", version=f"rocm-miner {__version__}")
    p.add_argument("--debug", action="store_true", help="show tracebacks of internal errors")
    sub = p.add_subparsers(dest="command", required=True)

    def common(sp: argparse.ArgumentParser) -> None:
        sp.add_argument(
            "path", type=Path, nargs="?" if sp.prog.endswith(" mine") else None,
            help="library checkout (directory or git work tree)",
        )  # fmt: skip
        sp.add_argument("--library", help="rocblas, rocsolver, ... (detected when omitted)")
        sp.add_argument(
            "--rev", action="append", default=[],
            help="mine this git revision through a temporary worktree (mine: repeat it for a batch, one folder "
            "per revision under --out)",
        )  # fmt: skip
        add_with_option(sp)
        sp.add_argument("--jobs", type=positive_int, default=max(1, os.cpu_count() or 1), help="parse worker processes")
        sp.add_argument("--out", type=Path, default=Path("output"), help="output directory")
        sp.add_argument(
            "--cache",
            type=Path,
            default=None,
            help="cache directory (default: the shared one, $XDG_CACHE_HOME/rocm-miner or ~/.cache/rocm-miner)",
        )
        sp.add_argument(
            "--allow-missing-headers", action="store_true",
            help="parse even when a system header the library needs is missing (a degraded run: what rests on "
            "the TUs that stop at it is reported undecided)",
        )  # fmt: skip

    mine = sub.add_parser("mine", help="mine a checkout (or a batch of libraries x revisions) into context bundles")
    common(mine)
    mine.add_argument("--entry", default="*", metavar="GLOB", help="only entry points matching GLOB")
    mine.add_argument(
        "--batch", type=Path, metavar="JOBS.toml",
        help="mine every [[mine]] table of a jobs file (checkout, library, revisions, out, with) as one batch",
    )  # fmt: skip
    mine.add_argument(
        "--executor", choices=["local", "ray"], default="local",
        help="where parse and liveness workers run: local processes (--jobs of them) or a Ray cluster",
    )  # fmt: skip
    mine.add_argument(
        "--address", metavar="ADDR",
        help="with --executor ray: the cluster to join (`ray start --head` prints it; auto: the one on this machine); "
        "without, a local Ray of --jobs CPUs",
    )  # fmt: skip
    mine.add_argument(
        "--no-liveness", dest="liveness", action="store_false",
        help="skip per-entry liveness (every reached region is reported live)",
    )  # fmt: skip

    ep = sub.add_parser("entrypoints", help="list the public entry points of a checkout")
    ep.add_argument("path", type=Path)
    ep.add_argument("--library")

    mine.add_argument(
        "--strict", action="store_true", help="exit 1 when a TU did not parse completely (a degraded result)"
    )
    mine.add_argument("--qa", action="store_true", help="end with grounded QA from the offline static-fact generator")

    from miner.qa.cli import add_parser as add_qa_parser

    add_qa_parser(sub)

    from miner.verify.cli import add_parser as add_verify_parser

    add_verify_parser(sub)

    from miner.corpus.cli import add_parser as add_corpus_parser

    add_corpus_parser(sub)

    from miner.cache.cli import add_parser as add_cache_parser

    add_cache_parser(sub)

    from miner.diff.cli import add_parser as add_diff_parser

    add_diff_parser(sub)

    from miner.explain.cli import add_parser as add_explain_parser

    add_explain_parser(sub)

    from miner.report.cli import add_parser as add_report_parser

    add_report_parser(sub)

    graph = sub.add_parser("graph", help="show the traversal from one entry point as a tree")
    common(graph)
    graph.add_argument("entry", help="entry point name")
    return p


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)  # imports the stages' modules
    except KeyboardInterrupt:
        _say("interrupted")
        return 128 + signal.SIGINT
    console = Console(stderr=True)
    try:
        with sigterm_stops():
            if args.command == "entrypoints":
                return _entrypoints(args)
            if args.command == "mine":
                return _mine(args, console)
            if args.command == "graph":
                return _graph(args)
            if args.command == "verify":
                from miner.verify.cli import run as run_verify_command

                return run_verify_command(args, console)
            if args.command == "corpus":
                from miner.corpus.cli import run as run_corpus_command

                return run_corpus_command(args, console)
            if args.command == "cache":
                from miner.cache.cli import run as run_cache_command

                return run_cache_command(args, console)
            if args.command == "report":
                from miner.report.cli import run as run_report_command

                return run_report_command(args)
            if args.command == "explain":
                from miner.explain.cli import run as run_explain_command

                return run_explain_command(args)
            if args.command == "diff":
                from miner.diff.cli import run as run_diff_command

                return run_diff_command(args, console)
            if args.command == "qa":
                from miner.qa.cli import run as run_qa_command

                return run_qa_command(args, console)
    except MinerError as exc:
        _say(f"error: {exc}")
        return 2
    except BrokenPipeError:  # what reads the output stopped reading (`| head`)
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + signal.SIGPIPE
    except OSError as exc:  # a file the run must write cannot be (a full disk, a file where a folder must be)
        if args.debug or (exc.filename is None and exc.errno not in _STORAGE_ERRNOS):
            return _internal_error(exc, args.debug)
        _say(f"error: {f'{exc.filename}: ' if exc.filename else ''}{exc.strerror or exc}")
        return 74
    except KeyboardInterrupt as stop:
        terminated = isinstance(stop, Terminated)
        _say(f"{'terminated' if terminated else 'interrupted'}; finished work is cached, a re-run resumes")
        return 128 + (signal.SIGTERM if terminated else signal.SIGINT)
    except Exception as exc:  # never a traceback for the user unless asked
        return _internal_error(exc, args.debug)
    return 0


_STORAGE_ERRNOS = (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO)


def _internal_error(exc: Exception, debug: bool) -> int:
    if debug:
        raise exc
    _say(f"internal error: {type(exc).__name__}: {exc} (re-run with --debug)")
    return 70


def _say(message: str) -> None:
    """One line on stderr, never wrapped."""
    print(f"rocm-miner: {' '.join(message.split())}", file=sys.stderr)


def _options(args):
    from miner.pipeline import MineOptions

    if len(args.rev) > 1 and args.command != "mine":
        raise InputError("one --rev at a time here")
    if args.path is None:
        raise InputError("give a checkout to mine, or --batch JOBS.toml")
    return MineOptions(
        path=args.path,
        library=args.library,
        out=args.out,
        jobs=args.jobs,
        entry_glob=getattr(args, "entry", "*") if args.command == "mine" else args.entry,
        rev=args.rev[0] if len(args.rev) == 1 else None,
        with_libraries=with_pairs(args.with_),
        cache_dir=args.cache,
        liveness=getattr(args, "liveness", True),
        allow_missing_headers=args.allow_missing_headers,
        executor=getattr(args, "executor", "local"),
        address=getattr(args, "address", None),
    )


def _entrypoints(args) -> int:
    from miner.parse.entrypoints import discover
    from miner.pipeline import open_checkout, resolve_profile

    with open_checkout(args.path, None) as checkout:
        profile = resolve_profile(checkout.root, args.library)
        entries, unreadable = discover(checkout.root, profile)
    for rel in unreadable:
        _say(f"warning: cannot read {rel}")
    for e in entries:
        print(f"{e.name}\t{e.variant}\t{e.header or e.exported_in}:{e.line}")
    return 0


def _mine(args, console: Console) -> int:
    from miner.pipeline import mine

    if args.batch is not None or len(args.rev) > 1:
        return _mine_batch(args, console)
    opts = _options(args)
    with phase_bars(console) as progress:
        summary = mine(opts, progress)
    table = Table(title=f"rocm-miner: {summary.library}", show_header=False)
    for key, value in summary.model_dump().items():
        table.add_row(key.replace("_", " "), str(value))
    Console().print(table)
    print(f"bundles: {opts.out / 'bundles.jsonl'}")
    for rel in summary.headers_unreadable:
        _say(f"warning: cannot read {rel}: the entry points it declares are not mined")
    for rel in summary.tus_not_utf8:
        _say(f"warning: {rel} is not UTF-8: mined, with its odd bytes shown as U+FFFD in bundle text")
    if summary.tus_fatal:
        _degraded(summary, console)
    if args.qa:
        from miner.qa.cli import print_summary, run_with_progress
        from miner.qa.run import QAOptions

        qa_options = QAOptions(bundles=opts.out, out=opts.out)
        print_summary(run_with_progress(qa_options, console), qa_options)
    return 1 if args.strict and summary.tus_fatal else 0


def _mine_batch(args, console: Console) -> int:
    from miner.batch.jobs import plan, plan_revisions, read_jobs_file
    from miner.batch.run import label, mine_batch, write_batch_summary

    if args.batch is not None and (args.path is not None or args.rev):
        raise InputError("--batch names the checkouts and revisions: give no checkout or --rev besides")
    if args.qa:
        raise InputError("--qa mines one checkout: run `rocm-miner qa` on each folder of the batch")
    if args.batch is not None:
        base = _options(argparse.Namespace(**{**vars(args), "path": Path("."), "rev": []}))
        plans = plan(read_jobs_file(args.batch), base)
    else:
        plans = plan_revisions(_options(argparse.Namespace(**{**vars(args), "rev": []})), args.rev)
    with phase_bars(console) as progress:
        summary = mine_batch(plans, progress)
    table = Table(title=f"rocm-miner: a batch of {len(plans)}")
    for column in ("mine", "library", "revision", "TUs", "from cache", "bundles", "kernels", "wall s", "error"):
        table.add_column(column)
    for opts, r in zip(plans, summary.revisions, strict=True):
        s = r.summary
        cells = [str(s.tus), str(s.cache_hits), str(s.bundles), str(s.kernels_reached), f"{s.wall_seconds:g}", ""] if s \
            else ["", "", "", "", "", r.error or ""]  # fmt: skip
        table.add_row(label(opts), r.library or "", r.revision or "working tree", *cells)
    Console().print(table)
    again = f"; parsed again after a worker died: {', '.join(summary.parsed_again)}" if summary.parsed_again else ""
    if summary.analysed_again:
        again += f"; liveness runs analysed again after a worker died: {summary.analysed_again}"
    print(f"TUs: {summary.tus}, parsed {summary.tu_parses}, from the cache {summary.from_cache}{again}; "
          f"{summary.executor} executor, {summary.workers} workers, {summary.wall_seconds:g} s")  # fmt: skip
    print(f"summary: {write_batch_summary(summary, args.out)}")
    failed = [r for r in summary.revisions if r.error]
    for r in failed:
        _say(f"error: {r.out}: {r.error}")
    degraded = [r for r in summary.revisions if r.summary and r.summary.tus_fatal]
    for r in degraded:
        _degraded(r.summary, console)
    return 2 if failed else (1 if args.strict and degraded else 0)


def _degraded(summary, console: Console) -> None:
    """One line, in colour, that the result is degraded: how many TUs did not parse completely, the commonest causes, what it costs."""
    n = summary.tus_fatal
    causes = "; ".join(f"{why} ({count})" for why, count in summary.tus_fatal_causes.items())
    line = (
        f"rocm-miner: DEGRADED: {n} TU{'s' if n != 1 else ''} did not parse completely: {causes}. "
        f"{summary.entries_undecided} entr{'ies' if summary.entries_undecided != 1 else 'y'} left undecided "
        f"(no kernel is called dead on such a parse); see parse_report.jsonl, and for a missing header run ./setup.sh"
    )
    console.print(line, style="bold red", markup=False, highlight=False, soft_wrap=True)


def _graph(args) -> int:
    from miner.pipeline import analyse, open_checkout
    from miner.traverse.render import render_tree

    opts = _options(args)
    with open_checkout(opts.path, opts.rev) as checkout:
        a = analyse(opts, checkout)
    if args.entry not in a.traversals:
        raise InputError(f"no entry point named {args.entry!r}")
    print(render_tree(a.graph, a.traversals[args.entry], a.liveness.get(args.entry)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
