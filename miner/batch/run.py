"""A batch: every revision's checkout opened first (a bad one is told before any parse), every revision parsed at
once into one queue on one executor (one thread per revision, each waiting on its own results), then each
revision analysed and written in turn, exactly as a mine of it alone would (``pipeline.finish_mine``)."""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from pathlib import Path

from miner.bundle.write import make_dir
from miner.cache import lock as cache_lock
from miner.collector import rarely_collected
from miner.errors import MinerError
from miner.executors import Executor
from miner.models import BatchRevision, BatchSummary, RunSummary
from miner.parse.queue import ParseQueue
from miner.pipeline import (
    MineOptions,
    Parsed,
    cache_folder,
    executor_for,
    finish_mine,
    open_checkout,
    parse_inputs,
    resolve_profile,
)

Progress = Callable[[str, int, int], None]


def label(opts: MineOptions) -> str:
    """How progress and the summary name a mine of the batch: its output folder."""
    return opts.out.name if opts.out.name else str(opts.out)


def mine_batch(plans: list[MineOptions], progress: Progress) -> BatchSummary:
    start = time.perf_counter()
    for opts in plans:
        make_dir(opts.out, "output directory")
    first = plans[0]
    with contextlib.ExitStack() as stack:
        stack.enter_context(rarely_collected())
        checkouts = [stack.enter_context(open_checkout(opts.path, opts.rev)) for opts in plans]
        for opts, checkout in zip(plans, checkouts, strict=True):
            resolve_profile(checkout.root, opts.library)  # not a checkout of a known library: told before parsing
        stack.enter_context(cache_lock.shared(cache_folder(first)))
        executor = stack.enter_context(executor_for(first))
        with ParseQueue(executor) as queue:
            parsed = _parse_all(plans, checkouts, queue, progress)
        workers = executor.workers
        results: list[RunSummary | MinerError] = []
        for i, (opts, p) in enumerate(zip(plans, parsed, strict=True)):
            if isinstance(p, MinerError):
                results.append(p)
                continue
            last = i == len(plans) - 1
            try:
                results.append(finish_mine(p, opts, _labelled(progress, opts), executor, time.perf_counter(), last))
            except MinerError as exc:
                results.append(exc)
        again = _parsed_again(executor, plans)
        analysed_again = sum(1 for r in executor.retried if r.spec == "liveness")
    summary = _summary(plans, results, again, first, workers, time.perf_counter() - start)
    return summary.model_copy(update={"analysed_again": analysed_again})


def _parse_all(plans, checkouts, queue: ParseQueue, progress: Progress) -> list[Parsed | MinerError]:
    """Each revision's parse, in a thread of its own; its jobs come into the queue in the batch's order."""
    out: list[Parsed | MinerError | BaseException | None] = [None] * len(plans)

    def parse(i: int) -> None:
        try:
            out[i] = parse_inputs(plans[i], checkouts[i], _labelled(progress, plans[i]), queue, order=i)
        except BaseException as exc:  # noqa: BLE001 - told in the main thread
            out[i] = exc

    threads = [threading.Thread(target=parse, args=(i,), name=f"parse-{i}", daemon=True) for i in range(len(plans))]
    for t in threads:
        t.start()
    for t in threads:
        while t.is_alive():
            t.join(0.2)  # a join with a timeout lets Ctrl-C through
    for result in out:
        if isinstance(result, BaseException) and not isinstance(result, MinerError):
            raise result
    return out  # type: ignore[return-value]


def _labelled(progress: Progress, opts: MineOptions) -> Progress:
    name = label(opts)
    return lambda phase, done, total: progress(f"{name}: {phase}", done, total)


def _parsed_again(executor: Executor, plans: list[MineOptions]) -> list[str]:
    """TUs whose worker died, given to another: ``LABEL:PATH``."""
    return sorted(
        {f"{label(plans[r.key.order])}:{r.key.rel.split(chr(0))[0]}" for r in executor.retried if r.spec == "parse"}
    )


def _summary(plans, results, again: list[str], first: MineOptions, workers: int, wall: float) -> BatchSummary:
    revisions, tus, hits = [], 0, 0
    for opts, result in zip(plans, results, strict=True):
        common = dict(library=opts.library, checkout=str(opts.path), revision=opts.rev, out=str(opts.out))
        if isinstance(result, MinerError):
            revisions.append(BatchRevision(**common, error=str(result)))
            continue
        common["library"] = result.library
        revisions.append(BatchRevision(**common, summary=result))
        tus += result.tus + sum(n for n, _ in result.with_tus.values())
        hits += result.cache_hits + sum(h for _, h in result.with_tus.values())
    return BatchSummary(
        revisions=revisions, tus=tus, tu_parses=tus - hits, from_cache=hits, parsed_again=again,
        executor=first.executor, workers=workers, wall_seconds=round(wall, 2),
    )  # fmt: skip


def write_batch_summary(summary: BatchSummary, out: Path) -> Path:
    from miner.bundle.write import write_json_atomic

    path = out / "batch.json"
    write_json_atomic(path, summary.model_dump(mode="json"))
    return path
