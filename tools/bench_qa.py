"""Throughput of `rocm-miner qa` against the scripted chat server, beside a floor: the bare openai client.

    python tools/bench_qa.py BUNDLES [--limit N] [--concurrency 64] [--latency SECONDS]

The server runs in its own process (its own core), answering every request with a grounded item
built from the prompt. Three figures, same server, same run:
  floor     the official client alone sending the pipeline's requests (prompts built beforehand), same concurrency
  pipeline  `run_qa` with a model: prompt rendering, client, JSON validation, grounding, journal
Each twice: end to end, and sustained (the rate at which the server saw requests, first to last).
  rerun     the same run again: everything cached, no request
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from miner.agent.client import AgentClient  # noqa: E402
from miner.agent.config import AgentConfig  # noqa: E402
from miner.qa.model_engine import ModelEngine  # noqa: E402
from miner.qa.prompts import load_prompts  # noqa: E402
from miner.qa.run import QAOptions, QASummary, plan_units, run_qa  # noqa: E402
from miner.qa.units import TASKS  # noqa: E402


def _serve(queue, stop, reset, latency: float = 0.0) -> None:
    from tests.support.chat_server import ScriptedChatServer
    from tests.support.qa_responder import QAResponder

    with ScriptedChatServer(QAResponder("good", delay_s=latency)) as server:
        queue.put(server.base_url)
        while not stop.is_set():
            if reset.wait(0.05):
                reset.clear()
                arrivals = list(server.arrivals)
                server.arrivals.clear()
                queue.put((len(arrivals), arrivals[-1] - arrivals[0] if len(arrivals) > 1 else 0.0))


def _arrivals(queue, reset) -> tuple[int, float]:
    """Requests the server saw since the last call, and the seconds between the first and the last."""
    reset.set()
    return queue.get(timeout=30)


async def _floor(config: AgentConfig, messages: list[list[dict]]) -> float:
    """The bare client sending the very requests the pipeline sent, prompts built beforehand."""
    async with AgentClient(config) as client:
        started = time.perf_counter()
        await asyncio.gather(*(client.chat(m) for m in messages))
        return time.perf_counter() - started


def _prompts(options: QAOptions, config: AgentConfig) -> list[list[dict]]:
    async def build() -> list[list[dict]]:
        async with AgentClient(config) as client:
            engine = ModelEngine(client, {task: load_prompts(task) for task in TASKS})
            units = plan_units(options, QASummary(generator=""))
            return [m for m in (engine.messages(u) for u in units) if m is not None]

    return asyncio.run(build())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("bundles", type=Path)
    parser.add_argument("--limit", type=int, default=100, help="bundles")
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument(
        "--latency", type=float, default=0.0, help="seconds the server takes per reply, as a model would"
    )
    args = parser.parse_args()

    queue, stop, reset = multiprocessing.Queue(), multiprocessing.Event(), multiprocessing.Event()
    server = multiprocessing.Process(target=_serve, args=(queue, stop, reset, args.latency), daemon=True)
    server.start()
    base_url = queue.get(timeout=30)
    config = AgentConfig(base_url=base_url, model="scripted", api_key="k", concurrency=args.concurrency)
    out = Path(tempfile.mkdtemp(prefix="bench-qa-"))
    try:
        options = QAOptions(bundles=args.bundles, out=out, agent=config, limit=args.limit)
        started = time.perf_counter()
        summary = run_qa(options)
        pipeline = time.perf_counter() - started
        seen, span = _arrivals(queue, reset)
        started = time.perf_counter()
        rerun = run_qa(options)
        cached = time.perf_counter() - started
        messages = _prompts(options, config)
        _arrivals(queue, reset)
        floor = asyncio.run(_floor(config, messages))
        floor_seen, floor_span = _arrivals(queue, reset)
    finally:
        stop.set()
        server.join(timeout=10)
        shutil.rmtree(out, ignore_errors=True)

    head = f"bundles {summary.bundles}, units {summary.units}, requests {summary.requests}"
    print(f"{head}, concurrency {args.concurrency}, server latency {args.latency} s")
    print(f"items kept {sum(summary.kept.values())}, dropped {dict(summary.dropped)}")
    print(f"floor     {len(messages) / floor:8.1f} req/s end to end ({floor:.2f} s, bare client, same requests)")
    print(f"          {(floor_seen - 1) / floor_span:8.1f} req/s sustained (server side, first to last request)")
    print(f"pipeline  {summary.requests / pipeline:8.1f} req/s end to end ({pipeline:.2f} s, loading to writing)")
    print(f"          {(seen - 1) / span:8.1f} req/s sustained (server side, first to last request)")
    print(f"rerun     {cached:8.2f} s ({rerun.units_cached} of {rerun.units} units cached, no request sent)")


if __name__ == "__main__":
    main()
