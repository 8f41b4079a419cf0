"""`rocm-miner qa`: bundles in, grounded QA records out, resumable, with a summary of what it cost."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from miner.agent.client import AgentClient
from miner.agent.config import AgentConfig
from miner.bundle.write import make_dir, write_json_atomic, write_jsonl_atomic
from miner.errors import InputError
from miner.models import BundleForQA, QAUnit, Role
from miner.qa.context import kernel_contexts
from miner.qa.journal import Journal
from miner.qa.model_engine import ModelEngine
from miner.qa.offline import CATEGORIES
from miner.qa.offline_engine import OfflineEngine
from miner.qa.prompts import PROMPTS_DIR, load_prompts
from miner.qa.since import SinceCounts, carry_over, open_earlier, settle
from miner.qa.units import TASKS, KernelWork, Preparer, Unit, compute_facts

Progress = Callable[[int, int], None]
_CHARS_PER_TOKEN = 3.5


@dataclass(frozen=True)
class QAOptions:
    bundles: Path
    out: Path
    agent: AgentConfig | None = None  # None: the offline static-fact generator
    categories: tuple[str, ...] = CATEGORIES
    tasks: tuple[str, ...] = TASKS
    limit: int | None = None  # bundles
    dry_run: bool = False
    prompts_dir: Path = PROMPTS_DIR
    prompt_version: str = "v1"
    jobs: int = field(default_factory=lambda: os.cpu_count() or 1)  # processes reading kernel facts
    since: Path | None = None  # an earlier QA run (folder or qa.jsonl): carry over its units of unchanged contexts


@dataclass
class QASummary:
    generator: str
    bundles: int = 0
    bundles_with_kernels: int = 0
    kernels: int = 0
    units: int = 0
    units_cached: int = 0
    units_failed: Counter = field(default_factory=Counter)  # transient request failures, redone by a re-run
    kept: Counter = field(default_factory=Counter)  # per category
    dropped: Counter = field(default_factory=Counter)  # per reason
    flagged: int = 0
    requests: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    retries: int = 0
    cost_usd: float | None = None
    seconds: float = 0.0
    families_below_five_categories: list[str] = field(default_factory=list)
    outputs_kept: bool = False  # units were left undone, and qa.jsonl is still that of the last complete run
    since: SinceCounts | None = None  # with ``--since``: carried, regenerated, replaced and dropped

    def to_json(self) -> dict:
        saved = {k: v for k, v in self.__dict__.items() if k not in ("outputs_kept", "since")}
        out = {k: (dict(v) if isinstance(v, Counter) else v) for k, v in saved.items()}
        if self.since is not None:
            out["since"] = self.since.to_json()
        out["kept_total"] = sum(self.kept.values())
        out["dropped_total"] = sum(self.dropped.values())
        return out


@dataclass(frozen=True)
class DryRun:
    units: int
    cached: int
    requests: int  # for the units not cached, one each (a regeneration may add one)
    prompt_tokens: int  # estimated
    max_completion_tokens: int


def read_bundles(path: Path, limit: int | None = None) -> Iterator[BundleForQA]:
    file = path / "bundles.jsonl" if path.is_dir() else path
    if not file.is_file():
        raise InputError(f"no bundles at {path} (expected bundles.jsonl or a mine output directory)")
    with open(file, "rb") as fh:  # lines are decoded one by one, so that a bad byte is reported with its line
        for number, raw in enumerate(fh, 1):
            if limit is not None and number > limit:
                return
            if raw.strip():
                yield _bundle(_decoded(raw, file, number), file, number)


def _decoded(raw: bytes, file: Path, number: int) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{file}:{number}: not UTF-8 text ({exc.reason} at byte {exc.start + 1})") from None


def _bundle(line: str, file: Path, number: int) -> BundleForQA:
    try:
        return BundleForQA.model_validate_json(line)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise InputError(f"{file}:{number}: not a bundle ({where}: {first['msg']})") from None


def plan_units(options: QAOptions, summary: QASummary) -> list[Unit]:
    """Every (live kernel region, task) unit of the bundles, in the order the kernels first appear: a kernel that
    several bundles hold is one unit, not one per bundle."""
    unknown = sorted(set(options.categories) - set(CATEGORIES))
    if unknown:
        raise InputError(f"unknown QA categories: {', '.join(unknown)} (known: {', '.join(CATEGORIES)})")
    bundles = []
    for bundle in read_bundles(options.bundles, options.limit):
        summary.bundles += 1
        summary.bundles_with_kernels += any(r.role == Role.KERNEL and r.live_for for r in bundle.regions)
        bundles.append(bundle)
    contexts = kernel_contexts(bundles)
    summary.kernels = len(contexts)
    work = [KernelWork(context) for context in contexts]
    return [Unit(kernel, task, options.categories) for kernel in work for task in options.tasks]


def run_qa(options: QAOptions, progress: Progress | None = None) -> QASummary | DryRun:
    started = time.perf_counter()
    offline = options.agent is None or not options.agent.model
    summary = QASummary(generator=OfflineEngine.generator if offline else f"model:{options.agent.model}")
    # A model run starts preparing kernels (in worker processes) while the bundles load.
    with Preparer(options.jobs) if not (offline or options.dry_run) else contextlib.nullcontext() as preparer:
        units = plan_units(options, summary)
        if not options.dry_run:
            make_dir(options.out)
        earlier = open_earlier(options.since) if options.since is not None else None
        journal = Journal(options.out / "qa_units.jsonl", writable=not options.dry_run)
        try:
            if offline:
                keys = _run_offline(options, units, journal, summary, progress, earlier)
            else:
                prompts = {task: load_prompts(task, options.prompt_version, options.prompts_dir) for task in TASKS}
                keys = asyncio.run(_run_model(options, units, prompts, journal, summary, progress, preparer, earlier))
            if isinstance(keys, DryRun):
                return keys
        finally:
            journal.close()
    if earlier is not None and summary.since is not None:
        settle(summary.since, units, keys, journal, earlier)
    _summarise(units, keys, journal, summary, options)
    summary.seconds = round(time.perf_counter() - started, 2)
    if summary.units_failed and _complete_outputs(options.out):
        summary.outputs_kept = True
    else:
        _write_outputs(options.out, keys, journal, summary)
    return summary


def _complete_outputs(out: Path) -> bool:
    """Whether ``out`` holds the qa.jsonl and summary of a run that left no unit undone: an incomplete run
    (a server down, a wrong endpoint) must not replace them, its finished units wait in the journal."""
    try:
        previous = json.loads((out / "qa_summary.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(previous, dict) and not previous.get("units_failed") and (out / "qa.jsonl").is_file()


def _write_outputs(out: Path, keys: list[str], journal: Journal, summary: QASummary) -> None:
    records = (
        r.model_dump(mode="json") for k in dict.fromkeys(keys) if k in journal.units for r in journal.units[k].records
    )
    write_jsonl_atomic(out / "qa.jsonl", records)
    write_json_atomic(out / "qa_summary.json", summary.to_json())


def _run_offline(options, units, journal, summary, progress, earlier) -> list[str] | DryRun:
    engine = OfflineEngine()
    keys = [engine.key(u) for u in units]
    summary.units_cached = sum(k in journal for k in keys)
    if options.dry_run:
        carried = sum(k not in journal and k in earlier for k in keys) if earlier else 0
        return DryRun(len(units), summary.units_cached + carried, 0, 0, 0)
    if earlier is not None:
        summary.since = carry_over(units, keys, journal, earlier)
    _compute_facts([u for u, k in zip(units, keys, strict=True) if k not in journal], options.jobs)
    for done, (unit, key) in enumerate(zip(units, keys, strict=True), 1):
        if key not in journal:
            journal.append(engine.run(unit))
        if progress:
            progress(done, len(units))
    return keys


async def _run_model(options, units, prompts, journal, summary, progress, preparer, earlier) -> list[str] | DryRun:
    async with AgentClient(options.agent) as client:
        engine = ModelEngine(client, prompts)
        keys = [engine.key(u) for u in units]
        if earlier is not None and not options.dry_run:
            summary.since = carry_over(units, keys, journal, earlier)
        todo = [(u, k) for u, k in zip(units, keys, strict=True) if k not in journal and not (earlier and k in earlier)]
        if options.dry_run:
            chars = 0
            requests = 0
            for unit, _ in todo:
                messages = engine.messages(unit)
                if messages is not None:
                    requests += 1
                    chars += sum(len(m["content"]) for m in messages)
            return DryRun(
                units=len(units),
                cached=len(units) - len(todo),
                requests=requests,
                prompt_tokens=int(chars / _CHARS_PER_TOKEN),
                max_completion_tokens=requests * options.agent.max_tokens,
            )
        done = len(units) - len(todo)
        summary.units_cached = done - (summary.since.carried if summary.since else 0)
        if progress:
            progress(done, len(units))

        prepared: dict[int, asyncio.Future] = {}
        for unit, _ in todo:
            if id(unit.work) not in prepared:
                prepared[id(unit.work)] = asyncio.wrap_future(preparer.prepare(unit.work))
        in_progress = asyncio.Semaphore(2 * options.agent.concurrency)

        async def one(unit: Unit, key: str) -> tuple[QAUnit | None, str | None]:
            await prepared[id(unit.work)]
            async with in_progress:
                return await engine.run(unit, key)

        tasks = [asyncio.ensure_future(one(u, k)) for u, k in todo]
        try:
            for finished in asyncio.as_completed(tasks):
                unit_result, failure = await finished
                if unit_result is not None:
                    journal.append(unit_result)
                else:
                    summary.units_failed[failure] += 1
                done += 1
                if progress:
                    progress(done, len(units))
        finally:
            await _cancel(tasks)
        return keys


async def _cancel(tasks: list[asyncio.Future]) -> None:
    """Stops the units still in flight and collects every outcome, so no task's exception goes unretrieved."""
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def _compute_facts(units: list[Unit], jobs: int) -> None:
    compute_facts(list({id(u.work): u.work for u in units}.values()), jobs)


def _summarise(units: list[Unit], keys: list[str], journal: Journal, summary: QASummary, options: QAOptions) -> None:
    categories_per_family: dict[str, set[str]] = {}
    for unit, key in zip(units, keys, strict=True):
        summary.units += 1
        entry = journal.units.get(key)
        if entry is None:
            continue
        summary.requests += entry.requests
        summary.prompt_tokens += entry.prompt_tokens
        summary.completion_tokens += entry.completion_tokens
        summary.retries += entry.retries
        summary.dropped.update(entry.dropped)
        for record in entry.records:
            summary.kept[record.category] += 1
            summary.flagged += bool(record.flags)
            if record.kind == "qa":
                for family in unit.context.families:
                    categories_per_family.setdefault(family, set()).add(record.category)
    summary.families_below_five_categories = sorted(f for f, c in categories_per_family.items() if len(c) < 5)
    prices = options.agent.prices if options.agent is not None else None
    if prices is not None and prices.configured:
        cost = summary.prompt_tokens * prices.prompt + summary.completion_tokens * prices.completion
        summary.cost_usd = round(cost / 1e6, 4)
