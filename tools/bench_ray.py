"""Benchmark: the verify loop on Ray, with 1 evaluator actor and with one per GPU, in the same run.

The agent is the scripted OpenAI-compatible server of the tests on 127.0.0.1, answering every task with our own
Triton solution (a per-attempt comment keeps candidates distinct), so what is timed is the loop and the verifier.
Each row is a fresh run of tasks × attempts into its own ``attempts.jsonl``: verified candidates per minute, the
scaling against the 1-actor row, and how many candidates each GPU verified (by the UUID its verdicts record).
``--kill-after S`` kills one busy evaluator actor S seconds into the last row and then checks the records: every
attempt present exactly once, each verdict from a live actor.

    python tools/bench_ray.py [--device cuda|cpu] [--actors 1,2] [--attempts 2] [--tasks all] [--kill-after 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.support.chat_server import Reply, ScriptedChatServer  # noqa: E402

SOLUTIONS = Path(__file__).resolve().parents[1] / "tasks" / "solutions" / "triton"


def solution_reply(body: dict) -> Reply:
    prompt = body["messages"][1]["content"]
    name = prompt.split("Task `", 1)[1].split("`", 1)[0]
    source = (SOLUTIONS / f"{name}.py").read_text()
    return Reply(content=f"```python\n{source}\n# {time.monotonic_ns()}\n```")


async def _kill_one_busy(evaluator, after_s: float, killed: list[str]) -> None:
    await asyncio.sleep(after_s)
    while not evaluator.busy:
        await asyncio.sleep(0.05)
    actor, candidate = next(iter(evaluator.busy.items()))
    evaluator.executor.ray.kill(actor, no_restart=True)
    killed.append(candidate)


def run_row(tasks, actors: int, args, out: Path, server: ScriptedChatServer, kill_after: float | None) -> dict:
    from miner.agent.client import AgentClient
    from miner.agent.config import AgentConfig
    from miner.executors.ray_actors import RayExecutor
    from miner.verify.evaluate import VerifyOptions
    from miner.verify.executors import WorkerEvaluator
    from miner.verify.fingerprint import environment
    from miner.verify.loop import LoopOptions, run_loop
    from miner.verify.store import AttemptStore

    options = VerifyOptions.for_device(args.device)
    evaluator = WorkerEvaluator(options, RayExecutor(), workers=actors)
    store = AttemptStore(out)
    killed: list[str] = []
    env = environment(args.device)

    async def go() -> float:
        config = AgentConfig(base_url=server.base_url, model="scripted", api_key="k", concurrency=64, max_retries=2)
        async with AgentClient(config) as client:
            warm = [evaluator(tasks[0], _candidate(tasks[0])) for _ in range(evaluator.count)]
            await asyncio.gather(*warm)  # actors started and their first worker warm: not part of the rate
            killer = asyncio.create_task(_kill_one_busy(evaluator, kill_after, killed)) if kill_after else None
            t0 = time.perf_counter()
            await run_loop(tasks, client, evaluator, store, LoopOptions(attempts=args.attempts, turns=1), env)
            wall = time.perf_counter() - t0
            if killer:
                killer.cancel()
            return wall

    try:
        wall = asyncio.run(go())
    finally:
        evaluator.close()
    records = store.records()
    keys = Counter(r["key"] for r in records)
    expected = {f"{t.name}:{t.hash}:triton:attempt{a}:turn0" for t in tasks for a in range(args.attempts)}
    passed = sum(1 for r in records if r["verdict"] and r["verdict"]["outcome"] == "passed")
    per_gpu = Counter(r["verdict"].get("gpu") or "none" for r in records if r["verdict"])
    return {
        "actors": actors, "candidates": len(records), "passed": passed, "wall_s": round(wall, 1),
        "per_minute": round(60 * len(records) / wall, 1), "killed": len(killed), "replaced": evaluator.replaced,
        "missing": len(expected - keys.keys()), "duplicated": sum(1 for n in keys.values() if n > 1),
        "per_gpu": dict(sorted(per_gpu.items())),
    }  # fmt: skip


def _candidate(task):
    from miner.verify.evaluate import Candidate

    return Candidate("triton", (SOLUTIONS / f"{task.name}.py").read_text())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--device", default="cuda", choices=["cuda", "cpu"])
    ap.add_argument("--actors", default="1,all", help="actor counts, one row each; 'all' = one per GPU")
    ap.add_argument("--attempts", type=int, default=2)
    ap.add_argument("--tasks", default="all")
    ap.add_argument("--kill-after", type=float, help="kill one busy actor this many seconds into the last row")
    ap.add_argument("--out", type=Path, help="keep each row's attempts.jsonl here")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    import ray

    from miner.verify.tasks import find_tasks, load_task

    tasks = [load_task(p) for p in find_tasks(args.tasks)]
    ray.init(include_dashboard=False, log_to_driver=False)
    gpus = int(ray.cluster_resources().get("GPU", 0))
    cpus = int(ray.cluster_resources().get("CPU", 1))
    ray.shutdown()
    every = gpus if args.device == "cuda" else max(cpus - 1, 1)
    counts = list(dict.fromkeys(every if c == "all" else int(c) for c in args.actors.split(",")))
    rows = []
    with ScriptedChatServer(solution_reply) as server, tempfile.TemporaryDirectory() as tmp:
        base = args.out or Path(tmp)
        for i, n in enumerate(counts):
            kill = args.kill_after if i == len(counts) - 1 else None
            rows.append(run_row(tasks, n, args, base / f"actors{n}", server, kill))
            print(json.dumps(rows[-1]), flush=True)
    one = rows[0]["per_minute"] / rows[0]["actors"]
    print(f"\n{len(tasks)} tasks x {args.attempts} attempts, device {args.device}, {gpus} GPU(s) seen by Ray")
    print("| actors | candidates | passed | wall s | verified per minute | scaling vs linear | killed | replaced | missing | duplicated | candidates per GPU |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        scaling = r["per_minute"] / (one * r["actors"])
        print(f"| {r['actors']} | {r['candidates']} | {r['passed']} | {r['wall_s']} | {r['per_minute']} | "
              f"{scaling:.2f} | {r['killed']} | {r['replaced']} | {r['missing']} | {r['duplicated']} | "
              f"{' / '.join(map(str, r['per_gpu'].values()))} |")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
