"""``rocm-miner verify``: the generate → verify → reflect loop over tasks, or one candidate checked by hand."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table

from miner.arguments import positive_int
from miner.bundle.write import atomic_file, make_dir
from miner.errors import InputError, OutputError
from miner.verify.errors import CandidateError, VerifyEnvironmentError

if TYPE_CHECKING:  # imported where they are used: the loop brings PyTorch in
    from miner.verify.loop import LoopSummary
    from miner.verify.store import AttemptStore


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("verify", help="generate, verify and time HIP/Triton kernels against PyTorch references")
    p.add_argument("tasks", nargs="?", help="task names (comma-separated), a task file or folder, or 'all'")
    p.add_argument("--candidate", type=Path, metavar="FILE", help="verify this kernel file for the one TASK given")
    p.add_argument("--backend", choices=["triton", "hip"], help="default: from the candidate's extension, else triton")
    p.add_argument("--attempts", type=positive_int, default=1, help="independent attempts per task")
    p.add_argument("--turns", type=positive_int, default=3, help="generate → verify → reflect turns per attempt")
    p.add_argument("--out", type=Path, default=Path("output/verify"), help="output directory")
    p.add_argument("--device", choices=["cuda", "cpu"], help="default: cuda when a GPU is visible")
    p.add_argument(
        "--executor",
        choices=["local", "ray"],
        default="local",
        help="local: a worker process here; ray: one evaluator actor per GPU of the cluster",
    )
    p.add_argument("--address", help="with --executor ray: the cluster to join (ray start --head prints it)")
    p.add_argument("--agent-config", type=Path, help="TOML file with the agent's settings ([agent] table)")
    p.add_argument("--model", help="model name (default: OPENAI_MODEL)")
    p.add_argument("--concurrency", type=positive_int, help="requests in flight to the model")


def run(args: argparse.Namespace, console: Console) -> int:
    if not args.tasks:
        raise InputError("give TASKS (names, a task file or folder, or 'all')")
    try:
        import torch
    except ImportError:
        raise VerifyEnvironmentError("PyTorch is not installed: pip install -e '.[verify]'") from None
    from miner.verify.evaluate import VerifyOptions
    from miner.verify.tasks import find_tasks, load_task

    device = args.device or ("cuda" if torch.cuda.is_available() else "cpu")
    if device == "cuda" and not torch.cuda.is_available():
        raise InputError("--device cuda, but no GPU is visible")
    options = VerifyOptions.for_device(device)
    paths = find_tasks(args.tasks)
    if not paths:
        raise InputError(f"no task files in {args.tasks}")
    if args.candidate is not None:
        if len(paths) != 1:
            raise InputError("--candidate checks one task: give exactly one TASK")
        return _one_candidate(args, load_task(paths[0]), options)
    tasks = [load_task(p) for p in paths]
    return _loop(args, tasks, options, console)


def _one_candidate(args: argparse.Namespace, task, options) -> int:
    from miner.verify.evaluate import Candidate, Verifier

    path: Path = args.candidate
    if not path.is_file():
        raise CandidateError("no such file", path=str(path))
    backend = args.backend or ("hip" if path.suffix in (".hip", ".cpp", ".cu") else "triton")
    if backend == "hip" and not task.hip_signature:
        raise InputError(f"task {task.name} has no HIP launcher signature")
    try:
        source = path.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise CandidateError(f"cannot read: {exc}", path=str(path)) from None
    make_dir(args.out)
    with Verifier(options) as verifier:
        verdict = verifier.verify(task, Candidate(backend, source, f"candidate{path.suffix}"))
    table = Table(title=f"{task.name} · {backend} · {verdict.platform}")
    for col in ("case", "shown", "outcome", "detail", "speedup"):
        table.add_column(col)
    for c in verdict.cases:
        table.add_row(c.label, "yes" if c.shown else "held back", c.outcome.value, c.detail[:120],
                      f"{c.timing.speedup:.2f}x" if c.timing else "")  # fmt: skip
    Console().print(table)
    _write(args.out / "verdict.json", verdict.model_dump_json(indent=1))
    print(f"{verdict.outcome.value}: {verdict.reason}")
    return 0 if verdict.outcome.value == "passed" else 1


def _write(path: Path, text: str) -> None:
    try:
        with atomic_file(path) as fh:
            fh.write(text.encode())
    except OSError as exc:
        raise OutputError(f"cannot write {path}: {exc.strerror}") from None


def _loop(args: argparse.Namespace, tasks, options, console: Console) -> int:
    from miner.agent.client import AgentClient
    from miner.agent.config import AgentConfig
    from miner.executors import make_executor
    from miner.verify.executors import WorkerEvaluator
    from miner.verify.fingerprint import environment
    from miner.verify.loop import LoopOptions, run_loop
    from miner.verify.store import AttemptStore

    config = AgentConfig.from_env(args.agent_config, model=args.model, concurrency=args.concurrency)
    if not config.model:
        raise InputError("no model: set OPENAI_MODEL or pass --model")
    backend = args.backend or "triton"
    if backend == "hip" and (missing := [t.name for t in tasks if not t.hip_signature]):
        raise InputError(f"no HIP launcher signature for: {', '.join(missing)}")
    store = AttemptStore(args.out)
    loop_options = LoopOptions(backend=backend, attempts=args.attempts, turns=args.turns)
    evaluator = WorkerEvaluator(options, make_executor(args.executor, jobs=1, address=args.address))
    env = environment(options.device)
    _write(args.out / "run.json", json.dumps({
        "tasks": [t.name for t in tasks], "backend": backend, "attempts": args.attempts, "turns": args.turns,
        "model": config.model, "sampling": config.sampling, "base_url": config.base_url, "device": options.device,
        "executor": args.executor, "environment": env,
    }, indent=1))  # fmt: skip

    async def go() -> LoopSummary:
        async with AgentClient(config) as client:
            return await run_loop(tasks, client, evaluator, store, loop_options, env, lambda m: console.print(m))

    try:
        summary = asyncio.run(go())
    finally:
        evaluator.close()
    _print_summary(summary, store)
    if summary.undone:
        print(f"rocm-miner: {sum(summary.undone.values())} attempts not done ({_counts(summary.undone)}); "
              "a re-run retries them", file=sys.stderr)  # fmt: skip
        return 1
    return 0


def _counts(counter: Counter) -> str:
    return ", ".join(f"{reason} {n}" for reason, n in sorted(counter.items()))


def _print_summary(summary: LoopSummary, store: AttemptStore) -> None:
    records = store.records()
    finals = [r for r in records if r["last_turn"]]
    passing = {r["key"].rsplit(":turn", 1)[0] for r in records if r["verdict"] and r["verdict"]["correct"]}
    table = Table(title="rocm-miner verify", show_header=False)
    table.add_row("attempts run / already done", f"{summary.run} / {summary.skipped}")
    if summary.undone:
        table.add_row("attempts to redo (re-run)", _counts(summary.undone))
    table.add_row("attempts passing (any turn)", str(len(passing)))
    table.add_row("mean reward per turn", f"{sum(r['reward'] for r in records) / max(len(records), 1):.3f}")
    table.add_row("records", f"{store.path} ({len(finals)} attempts)")
    if damaged := store.damaged:
        table.add_row("damaged lines skipped", str(damaged))
    Console().print(table)
