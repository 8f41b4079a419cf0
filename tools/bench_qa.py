"""Throughput of `rocm-miner qa` against the scripted chat server, beside a floor: the bare openai client.

    python tools/bench_qa.py BUNDLES [--limit N] [--concurrency 64]

The server runs in its own process (its own core), answering every request with a grounded item
built from the prompt. Three figures, same server, same run:
  floor     the official client alone: as many trivial requests as the pipeline sends, same concurrency
  pipeline  `run_qa` with a model: prompt rendering, client, JSON validation, grounding, journal
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
from miner.qa.run import QAOptions, run_qa  # noqa: E402


def _serve(queue, stop) -> None:
    from tests.support.chat_server import ScriptedChatServer
    from tests.support.qa_responder import QAResponder

    with ScriptedChatServer(QAResponder("good")) as server:
        queue.put(server.base_url)
        stop.wait()


async def _floor(config: AgentConfig, requests: int) -> float:
    from tests.support.chat_server import Reply  # noqa: F401  (the server answers any body)

    async with AgentClient(config) as client:
        messages = [
            {"role": "system", "content": "instruction half"},
            {"role": "user", "content": "### region a.hpp:1-1 (kernel: k)\n1| k();\nCategories: launch"},
        ]
        started = time.perf_counter()
        await asyncio.gather(*(client.chat(messages) for _ in range(requests)))
        return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("bundles", type=Path)
    parser.add_argument("--limit", type=int, default=100, help="bundles")
    parser.add_argument("--concurrency", type=int, default=64)
    args = parser.parse_args()

    queue, stop = multiprocessing.Queue(), multiprocessing.Event()
    server = multiprocessing.Process(target=_serve, args=(queue, stop), daemon=True)
    server.start()
    base_url = queue.get(timeout=30)
    config = AgentConfig(base_url=base_url, model="scripted", api_key="k", concurrency=args.concurrency)
    out = Path(tempfile.mkdtemp(prefix="bench-qa-"))
    try:
        options = QAOptions(bundles=args.bundles, out=out, agent=config, limit=args.limit)
        started = time.perf_counter()
        summary = run_qa(options)
        pipeline = time.perf_counter() - started
        started = time.perf_counter()
        rerun = run_qa(options)
        cached = time.perf_counter() - started
        floor = asyncio.run(_floor(config, summary.requests))
    finally:
        stop.set()
        server.join(timeout=10)
        shutil.rmtree(out, ignore_errors=True)

    print(
        f"bundles {summary.bundles}, units {summary.units}, requests {summary.requests}, concurrency {args.concurrency}"
    )
    print(f"items kept {sum(summary.kept.values())}, dropped {dict(summary.dropped)}")
    print(f"floor     {summary.requests / floor:8.1f} req/s  ({floor:.2f} s, bare client, same number of requests)")
    print(f"pipeline  {summary.requests / pipeline:8.1f} req/s  ({pipeline:.2f} s, including loading and planning)")
    print(
        f"rerun     {cached:8.2f} s    ({rerun.units_cached} of {rerun.units} units cached, {rerun.requests} requests)"
    )


if __name__ == "__main__":
    main()
