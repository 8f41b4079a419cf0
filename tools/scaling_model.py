"""Scaling on paper: the wall time of a cold mine on N cores of one machine, and on M machines of C cores, predicted
from one measured mine's output folder (``parse_report.jsonl``, ``summary.json``, ``run.json``).

The model, phase by phase:

- **Parse**: a list-scheduling simulation of the measured per-TU worker times (``seconds``, which include the
  liveness walk). The ``<pch:VARIANT>`` pseudo-TUs are built first, a run of the queue of their own; every TU starts
  after all of them (the parse stage waits for their results). Two orders: the mine's own (``miner/parse/queue.py``:
  jobs in path order; a worker takes the job after its last one while it still owns it, i.e. no other worker's
  last job lies between; else it starts a new run: the first job of a run nobody owns, or the middle of the largest
  run another worker owns; the workers' last jobs carry over from the PCH run to the TUs) and
  longest-processing-time-first. The critical path (longest PCH + longest TU) bounds it at any N. Every result
  passes through the driver, one at a time (unpickled, written to the cache: ``--driver-ms-per-mb`` of its pickled
  size), and a worker gets its next job only once the driver has taken its result (local processes and Ray actors
  alike: the executor's loop hands out jobs between results); a Ray task also pays ``--task-overhead-ms``. Workers
  start lazily in the mine; the model starts them all at once.
- **Parse residual**: the measured parse wall minus the simulated parse at the measured job count (entry discovery,
  starting the workers, reading the ``--with`` libraries' cached parses): serial, constant in N.
- **Serial phases**: graph and traversals (``analyse - liveness_analysis``) and bundle writing and the rest
  (``wall_seconds - parse - analyse``): constant in N.
- **Liveness analysis**: on the executor's workers (``miner/liveness/run.py``), all N of them, on one machine or
  many, Amdahl-shaped: ``L(n) = L(1) * ((1 - p) + p / n)`` with ``p`` fitted from the speed-up from 1 to 2 processes
  (``--liveness-speedup2``; the default 1.71 is rocSOLVER's 23.3 s at ``jobs=1`` against 13.3-14.0 s at ``jobs=2``
  in BENCHMARKS.md, 2026-12-04). Local workers, and on Ray the workers on the driver's machine, are forked and
  inherit the analyser; a Ray worker on another machine first receives it (graph + instantiated bodies, pickled
  once and put into the object store): ``--analyser-mb`` over the link to its machine (every machine pulls its copy
  at the link's full speed, at once), unpickled at ``--unpickle-mb-per-s``; it then shares the work the driver's
  machine has not done yet. The report also gives the start if every copy crossed the driver's one link in turn.
- **Data moved** (multi-machine rows only): each TU's result crosses the driver's link, one at a time, at
  ``--bandwidth-gbit``; its size is the mean size of the mine's parse cache entries (entry and instances: the
  pickled result), found through the cache's run records, or ``--bytes-per-tu``.

Assumptions: per-TU times do not change with N (no memory-bandwidth or memo effects: a worker's memo of walked
bodies makes a TU cheaper after its neighbours, which the mine's order keeps together and LPT does not); the
machines are as fast as the measured one; TUs of cached parses take no worker time (a mine with ``cache_hits``
spreads the worker time it measured evenly over its TUs); the ``--with`` libraries' TUs are not in the parse
report and are modelled only as far as the measured mine read them (from the cache, in the residual).

    python tools/scaling_model.py RUN_DIR [--markdown] [--cores 1,2,4,16,64,256] [--cores-per-machine 2]
        [--check RUN_DIR ...]
"""

from __future__ import annotations

import argparse
import bisect
import heapq
import json
import os
import sys
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

DEFAULT_CORES = (1, 2, 4, 16, 64, 256)
DEFAULT_LIVENESS_SPEEDUP2 = 1.71
DEFAULT_DRIVER_MS_PER_MB = 50.0  # 7.5 ms to unpickle and 2.9 ms to pickle a 204 KB rocBLAS entry (2026-12-07)
DEFAULT_BYTES_PER_TU = 200_000.0  # rocBLAS's mean entry, for a mine whose cache entries are not found
DEFAULT_ANALYSER_MB = 150.0  # to be measured: the pickled analyser (graph + instantiated bodies) of rocBLAS
DEFAULT_UNPICKLE_MB_PER_S = 100.0  # to be measured


@dataclass(frozen=True)
class Mine:
    """What the model reads of one mine's output folder."""

    library: str
    tus: tuple[tuple[str, float], ...]  # (path, worker seconds), sorted by path
    pch: tuple[tuple[str, float], ...]
    parse: float
    parse_workers: float
    analyse: float
    liveness: float
    wall: float
    jobs: int
    executor: str = "local"
    cache_hits: int = 0
    with_cached: dict[str, list[int]] = field(default_factory=dict)
    bytes_per_tu: float | None = None
    bytes_source: str = ""

    @property
    def serial_rest(self) -> float:
        """Entry writing and everything outside parse and analyse."""
        return max(0.0, self.wall - self.parse - self.analyse)

    @property
    def graph_traverse(self) -> float:
        return max(0.0, self.analyse - self.liveness)

    @property
    def worker_scale(self) -> float:
        """The share of the report's worker time this mine spent (below 1 where the cache served TUs)."""
        total = sum(s for _, s in self.tus + self.pch)
        if not self.cache_hits or total <= 0:
            return 1.0
        return min(1.0, self.parse_workers / total)


@dataclass(frozen=True)
class Setting:
    """Costs that are not in the measured mine."""

    liveness_speedup2: float = DEFAULT_LIVENESS_SPEEDUP2
    driver_ms_per_mb: float = DEFAULT_DRIVER_MS_PER_MB
    bandwidth_gbit: float = 1.0
    task_overhead_ms: float = 5.0
    bytes_per_tu: float | None = None  # overrides the mine's
    analyser_mb: float = DEFAULT_ANALYSER_MB  # the pickled liveness analyser a Ray worker receives
    unpickle_mb_per_s: float = DEFAULT_UNPICKLE_MB_PER_S


@dataclass(frozen=True)
class Prediction:
    cores: int
    machines: int
    parse_order: float  # the mine's order
    parse_lpt: float
    residual: float
    liveness: float
    graph_traverse: float
    serial_rest: float

    @property
    def wall(self) -> float:
        return self.parse_order + self.residual + self.liveness + self.graph_traverse + self.serial_rest

    def shares(self) -> dict[str, float]:
        return {
            "parse": self.parse_order,
            "parse residual (discovery, worker start)": self.residual,
            "liveness analysis": self.liveness,
            "graph + traversal": self.graph_traverse,
            "bundle writing and the rest": self.serial_rest,
        }


# ---------------------------------------------------------------------------------------------- reading a mine


def load_mine(run_dir: Path, cache_dir: Path | None = None) -> Mine:
    summary = json.loads((run_dir / "summary.json").read_text())
    run = json.loads((run_dir / "run.json").read_text()) if (run_dir / "run.json").exists() else {}
    options = run.get("options", {})
    tus, pch = [], []
    for line in (run_dir / "parse_report.jsonl").read_text().splitlines():
        if not line.strip():
            continue
        row = json.loads(line)
        seconds = float(row.get("seconds") or 0.0)
        (pch if row["path"].startswith("<pch:") else tus).append((row["path"], seconds))
    stages = summary["stage_seconds"]
    mine = Mine(
        library=summary.get("library", ""),
        tus=tuple(sorted(tus)),
        pch=tuple(sorted(pch)),
        parse=stages["parse"],
        parse_workers=stages.get("parse_workers", 0.0),
        analyse=stages.get("analyse", 0.0),
        liveness=stages.get("liveness_analysis", 0.0),
        wall=summary["wall_seconds"],
        jobs=int(options.get("jobs") or 1),
        executor=str(options.get("executor") or "local"),
        cache_hits=int(summary.get("cache_hits", 0)),
        with_cached=summary.get("with_tus", {}),
    )
    found = entry_bytes(run_dir, run, cache_dir)
    if found is not None:
        mine = replace(mine, bytes_per_tu=found[0], bytes_source=found[1])
    return mine


def entry_bytes(run_dir: Path, run: dict, cache_dir: Path | None = None) -> tuple[float, str] | None:
    """The mean size of the mine's own parse cache entries (entry + instances), and where it was found: the cache's
    run record of this output folder (else of this library and commit); the units of records of its ``--with``
    libraries' checkouts are left out."""
    if cache_dir is None:
        from miner.cache.home import default_cache_dir

        cache_dir = default_cache_dir()
    records = []
    for path in sorted((cache_dir / "runs").glob("*.json")):
        try:
            records.append(json.loads(path.read_text()))
        except (OSError, ValueError):
            continue
    out = str(run_dir.resolve())
    commit = run.get("checkout", {}).get("commit")
    mine = next((r for r in records if r.get("out") == out), None)
    how = "its run record"
    if mine is None:
        mine = next(
            (r for r in records if r.get("library") == run.get("library") and commit and r.get("commit") == commit),
            None,
        )
        how = "the run record of its library and commit"
    if mine is None:
        return None
    others = set(mine.get("with_libraries", {}).values())
    theirs = {u for r in records if r.get("root") in others and not r.get("with_libraries") for u in r.get("units", [])}
    units = [u for u in mine.get("units", []) if u.startswith("parse/") and u not in theirs]
    sizes = []
    for unit in units:
        size = sum(_size(cache_dir / f"{unit}{suffix}") for suffix in (".pkl", ".instances"))
        if size:
            sizes.append(size)
    if not sizes:
        return None
    left_out = f", {len(theirs)} units of --with libraries left out" if theirs else ""
    return sum(sizes) / len(sizes), f"{len(sizes)} cache entries from {how}{left_out}"


def _size(path: Path) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


# ---------------------------------------------------------------------------------------------- the simulation


Picker = Callable[[int], int | None]  # worker -> index of its next job, None when none is left


class RunQueue:
    """``miner/parse/queue.py``'s policy on job positions (path order): a worker takes the job after its last one
    while it still owns it (its own cursor is the nearest before it), else starts a new run: the first job of a run
    nobody owns, or the middle of the largest run another worker owns (the earliest of the largest). Its cursors
    outlive a run of jobs, as the queue's do (the TUs' run follows the PCH run in one queue)."""

    def __init__(self) -> None:
        self.pending: list[int] = []
        self.cursor: dict[int, int] = {}

    def add(self, positions: Sequence[int]) -> None:
        self.pending = sorted(self.pending + list(positions))

    def take(self, worker: int) -> int | None:
        pending = self.pending
        if not pending:
            return None
        owners = self._owners()
        at = None
        if worker in self.cursor:
            after = bisect.bisect_right(pending, self.cursor[worker])
            if after < len(pending) and owners[after] == worker:
                at = after
        if at is None:
            runs: list[tuple[int, int, int | None]] = []  # (start, end, owner) in pending's positions
            for i, owner in enumerate(owners):
                if runs and runs[-1][2] == owner:
                    runs[-1] = (runs[-1][0], i + 1, owner)
                else:
                    runs.append((i, i + 1, owner))
            start, end, owner = min(runs, key=lambda r: (r[0] - r[1], r[0]))
            at = start if owner is None else (start + end) // 2
        job = pending.pop(at)
        self.cursor[worker] = job
        return job

    def _owners(self) -> list[int | None]:
        marks = sorted((pos, worker) for worker, pos in self.cursor.items())
        owners: list[int | None] = []
        i, owner = 0, None
        for pos in self.pending:
            while i < len(marks) and marks[i][0] < pos:
                owner = marks[i][1]
                i += 1
            owners.append(owner)
        return owners


def _run_picker(queue: RunQueue, n_jobs: int) -> Picker:
    offset = max([*queue.pending, *queue.cursor.values()], default=-1) + 1
    queue.add(range(offset, offset + n_jobs))

    def pick(worker: int) -> int | None:
        job = queue.take(worker)
        return None if job is None else job - offset

    return pick


def _queue_picker(order: Sequence[int]) -> Picker:
    queue = deque(order)
    return lambda worker: queue.popleft() if queue else None


def simulate(
    durations: Sequence[float],
    workers: int,
    order: str = "mine",
    *,
    start: float = 0.0,
    driver_s: float = 0.0,
    overhead_s: float = 0.0,
    wait_for_driver: bool = True,
    queue: RunQueue | None = None,
) -> float:
    """When the last result of ``durations`` (in path order) is taken by the driver, on ``workers`` workers free
    at ``start``. ``order``: ``mine`` (the parse queue's runs of neighbours, on ``queue``'s cursors where given:
    these jobs come after every job it has seen) or ``lpt``."""
    if not durations:
        return start
    workers = max(1, min(workers, len(durations)))
    if order == "lpt":
        pick = _queue_picker(sorted(range(len(durations)), key=lambda i: (-durations[i], i)))
    else:
        pick = _run_picker(RunQueue() if queue is None else queue, len(durations))
    running: list[tuple[float, int]] = []
    for w in range(workers):
        job = pick(w)
        if job is not None:
            heapq.heappush(running, (start + durations[job] + overhead_s, w))
    driver_free = start
    end = start
    while running:
        finish, w = heapq.heappop(running)
        driver_free = max(finish, driver_free) + driver_s
        end = max(end, driver_free)
        job = pick(w)
        if job is not None:
            free = driver_free if wait_for_driver else finish
            heapq.heappush(running, (free + durations[job] + overhead_s, w))
    return end


def parse_seconds(
    mine: Mine,
    workers: int,
    order: str,
    setting: Setting,
    *,
    machines: int = 1,
    ray: bool = False,
    tu_scale: float | None = None,
) -> float:
    """The simulated parse phase: the PCH run, then the TUs."""
    scale = mine.worker_scale if tu_scale is None else tu_scale
    size = setting.bytes_per_tu if setting.bytes_per_tu is not None else mine.bytes_per_tu
    size = DEFAULT_BYTES_PER_TU if size is None else size
    driver_s = size / 1e6 * setting.driver_ms_per_mb / 1e3
    if machines > 1:
        driver_s += size * 8 / (setting.bandwidth_gbit * 1e9)
    overhead_s = setting.task_overhead_ms / 1e3 if ray else 0.0
    kw = {"driver_s": driver_s, "overhead_s": overhead_s, "queue": RunQueue()}
    pch_end = simulate([s * scale for _, s in mine.pch], workers, "mine", **kw)
    return simulate([s * scale for _, s in mine.tus], workers, order, start=pch_end, **kw)


def liveness_seconds(mine: Mine, cores: int, setting: Setting, *, machines: int = 1, ray: bool = False) -> float:
    """``L(cores)`` from the measured ``L(jobs)`` (see the module docstring). On Ray the driver's machine's workers
    are forked and start at once; the other machines' start once the analyser reached them (``analyser_start``), and
    share what work is left by then."""
    p = _parallel_part(setting.liveness_speedup2)
    one = mine.liveness / ((1 - p) + p / max(1, mine.jobs))
    serial, parallel = one * (1 - p), one * p
    if not ray or machines <= 1 or cores <= 1:
        return serial + parallel / max(1, cores)
    here = max(1, cores // machines)
    start = analyser_start(setting, machines)
    together = (parallel + (cores - here) * start) / cores
    return serial + (together if together > start else parallel / here)


def analyser_start(setting: Setting, machines: int) -> float:
    """When a Ray liveness worker on another machine than the driver's can start: the analyser pickled once on the
    driver, moved to its machine over the link (every machine pulls its copy at the link's speed, at once) and
    unpickled in the worker (pickling measured at about the speed of unpickling)."""
    move = setting.analyser_mb * 8 / (setting.bandwidth_gbit * 1e3) if machines > 1 else 0.0
    unpickle = setting.analyser_mb / setting.unpickle_mb_per_s if setting.unpickle_mb_per_s > 0 else 0.0
    return move + 2 * unpickle


def _parallel_part(speedup2: float) -> float:
    return min(1.0, max(0.0, 2 * (1 - 1 / speedup2))) if speedup2 > 0 else 0.0


def residual_seconds(mine: Mine, setting: Setting) -> float:
    """The measured parse wall that the simulation at the measured job count does not explain."""
    ray = mine.executor == "ray"
    return max(0.0, mine.parse - parse_seconds(mine, mine.jobs, "mine", setting, ray=ray))


def predict(mine: Mine, cores: int, setting: Setting, *, machines: int = 1, ray: bool | None = None) -> Prediction:
    """A cold mine of ``mine``'s checkout on ``cores`` cores spread over ``machines`` machines (Ray where there are
    several, unless ``ray`` says)."""
    ray = machines > 1 if ray is None else ray
    cold = replace(mine, cache_hits=0)
    return Prediction(
        cores=cores,
        machines=machines,
        parse_order=parse_seconds(cold, cores, "mine", setting, machines=machines, ray=ray),
        parse_lpt=parse_seconds(cold, cores, "lpt", setting, machines=machines, ray=ray),
        residual=residual_seconds(mine, setting),
        liveness=liveness_seconds(mine, cores, setting, machines=machines, ray=ray),
        graph_traverse=mine.graph_traverse,
        serial_rest=mine.serial_rest,
    )


@dataclass(frozen=True)
class Limits:
    one_core: float
    serial: float  # what no core count shortens on one machine: residual, graph, writing, liveness's serial part
    serial_fraction: float
    amdahl: float
    critical_path: float  # longest PCH + longest TU
    ceiling: float  # one machine, infinitely many cores
    ceiling_cluster: float  # infinitely many machines (Ray): the serial part, the critical path, a worker's start


def limits(mine: Mine, setting: Setting) -> Limits:
    one = predict(mine, 1, setting).wall
    p = _parallel_part(setting.liveness_speedup2)
    live_one = liveness_seconds(mine, 1, setting)
    serial = residual_seconds(mine, setting) + mine.graph_traverse + mine.serial_rest + live_one * (1 - p)
    critical = max((s for _, s in mine.pch), default=0.0) + max((s for _, s in mine.tus), default=0.0)
    floor_cluster = serial + critical + analyser_start(setting, 2)
    return Limits(
        one_core=one,
        serial=serial,
        serial_fraction=serial / one if one else 0.0,
        amdahl=one / serial if serial else float("inf"),
        critical_path=critical,
        ceiling=one / (serial + critical) if serial + critical else float("inf"),
        ceiling_cluster=one / floor_cluster if floor_cluster else float("inf"),
    )


# ---------------------------------------------------------------------------------------------- output


def _table(header: list[str], rows: list[list[str]], markdown: bool) -> str:
    if markdown:
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        return "\n".join(lines + ["| " + " | ".join(r) + " |" for r in rows])
    widths = [max(len(c) for c in col) for col in zip(header, *rows, strict=True)]
    return "\n".join("  ".join(c.rjust(w) for c, w in zip(r, widths, strict=True)) for r in [header, *rows])


def report(mine: Mine, setting: Setting, cores: Sequence[int], per_machine: int, markdown: bool) -> str:
    one = predict(mine, 1, setting).wall
    rows = []
    last: tuple[Prediction, Prediction | None] | None = None
    for n in cores:
        local = predict(mine, n, setting)
        machines = n // per_machine if n >= 2 * per_machine and n % per_machine == 0 else 0
        cluster = predict(mine, n, setting, machines=machines) if machines else None
        rows.append([
            str(n),
            f"{local.parse_lpt:.1f}",
            f"{local.parse_order:.1f}",
            f"{local.liveness:.1f}",
            f"{local.residual + local.graph_traverse + local.serial_rest:.1f}",
            f"{local.wall:.1f}",
            f"{one / local.wall:.1f}x",
            f"{machines}×{per_machine}" if cluster else "–",
            f"{cluster.parse_order:.1f}" if cluster else "–",
            f"{cluster.liveness:.1f}" if cluster else "–",
            f"{cluster.wall:.1f}" if cluster else "–",
            f"{one / cluster.wall:.1f}x" if cluster else "–",
        ])  # fmt: skip
        last = (local, cluster)
    header = ["cores", "parse LPT s", "parse mine's order s", "liveness s", "serial s", "wall s", "speed-up",
              "machines", "parse s", "liveness s", "wall s", "speed-up"]  # fmt: skip
    lim = limits(mine, setting)
    size = setting.bytes_per_tu if setting.bytes_per_tu is not None else mine.bytes_per_tu
    size_note = mine.bytes_source if setting.bytes_per_tu is None and mine.bytes_per_tu is not None else "given"
    if size is None:
        size, size_note = DEFAULT_BYTES_PER_TU, "not found: rocBLAS's mean assumed"
    longest = max(mine.tus, key=lambda t: t[1], default=("", 0.0))
    out = [
        f"{mine.library}: {len(mine.tus)} TUs, {len(mine.pch)} PCH; measured with jobs {mine.jobs}: wall "
        f"{mine.wall:.1f} s, parse {mine.parse:.1f} s (workers {mine.parse_workers:.1f} s), liveness "
        f"{mine.liveness:.1f} s, graph + traversal {mine.graph_traverse:.1f} s, writing and the rest "
        f"{mine.serial_rest:.1f} s; parse residual {residual_seconds(mine, setting):.1f} s",
        f"per-TU result {size / 1e3:.0f} KB ({size_note}); driver {setting.driver_ms_per_mb:g} ms/MB; link "
        f"{setting.bandwidth_gbit:g} Gbit/s; Ray task overhead {setting.task_overhead_ms:g} ms; liveness speed-up "
        f"1→2 {setting.liveness_speedup2:g} (parallel part {_parallel_part(setting.liveness_speedup2):.2f}); "
        f"Ray liveness worker start {analyser_start(setting, 2):.1f} s (analyser {setting.analyser_mb:g} MB over the "
        f"link, unpickled at {setting.unpickle_mb_per_s:g} MB/s: both to be measured)",
    ]
    if mine.cache_hits:
        out.append(f"note: {mine.cache_hits} TUs came from the cache; their report times are used for the cold model")
    for name, (count, cached) in sorted(mine.with_cached.items()):
        out.append(f"note: --with {name}: {cached} of {count} TUs from the cache (their reading is in the residual)")
    out += [
        "",
        "one machine (local processes) | M machines × C cores (Ray; liveness on every worker after its start)",
        "",
    ]
    out.append(_table(header, rows, markdown))
    out += [
        "",
        f"1 core: {lim.one_core:.1f} s; serial part {lim.serial:.1f} s = serial fraction {lim.serial_fraction:.3f} "
        f"(Amdahl ceiling {lim.amdahl:.1f}x); critical path {lim.critical_path:.1f} s ({longest[0]} "
        f"{longest[1]:.1f} s); speed-up ceiling {lim.ceiling:.1f}x on one machine, {lim.ceiling_cluster:.1f}x on "
        f"machines of {per_machine} cores (a Ray liveness worker's start added)",
    ]
    if last is not None:
        local, cluster = last
        for label, pred in (("one machine", local), (f"{cluster and cluster.machines}×{per_machine}", cluster)):
            if pred is None:
                continue
            shares = pred.shares()
            top = max(shares, key=lambda k: shares[k])
            parts = ", ".join(f"{k} {v:.1f} s ({v / pred.wall:.0%})" for k, v in shares.items())
            bound = ""
            if top == "parse" and pred.parse_order <= 1.05 * lim.critical_path + 0.5:
                bound = f": bound by the critical path (split or speed up {longest[0]})"
            out.append(f"{pred.cores} cores, {label}: {parts}; attack next: {top}{bound}")
        if cluster is not None:
            shared = (cluster.machines - 1) * setting.analyser_mb * 8 / (setting.bandwidth_gbit * 1e3)
            out.append(
                f"note: if every machine pulled its copy of the analyser through the driver's one link, the "
                f"{cluster.machines}×{per_machine} liveness would start {shared:.1f} s later, not "
                f"{analyser_start(setting, 2) - analyser_start(setting, 1):.1f} s"
            )
    return "\n".join(out)


def check(
    mine: Mine, base: Path, runs: Sequence[Path], setting: Setting, markdown: bool, cache_dir: Path | None
) -> str:
    """Predicted against measured wall for each of ``runs`` (mines of ``mine``'s library; ``base`` is its folder),
    each on one machine with its ``options.jobs`` workers of its ``options.executor`` (``local`` where not recorded;
    a Ray cluster's own size is not recorded: its mines are compared at ``--jobs``)."""
    rows, live = [], {}
    for run_dir in runs:
        other = load_mine(run_dir, cache_dir)
        if other.library != mine.library:
            rows.append([str(run_dir), other.executor, str(other.jobs), "–", "–", "–", f"{other.wall:.1f}", "–",
                         f"skipped: {other.library}, not {mine.library}"])  # fmt: skip
            continue
        ray = other.executor == "ray"
        scale = other.worker_scale if other.cache_hits else 1.0
        parse = parse_seconds(mine, other.jobs, "mine", setting, ray=ray, tu_scale=scale)
        pred = replace(predict(mine, other.jobs, setting, ray=ray), parse_order=parse)
        notes = [f"{other.cache_hits} TUs cached"] if other.cache_hits else []
        if run_dir.resolve() == base.resolve():
            notes.append("the model's own run: 0 by construction")
        note = "; ".join(notes)
        rows.append([
            str(run_dir), other.executor, str(other.jobs),
            f"{pred.parse_order + pred.residual:.1f} / {other.parse:.1f}",
            f"{pred.liveness:.1f} / {other.liveness:.1f}",
            f"{pred.wall:.1f}", f"{other.wall:.1f}", f"{(pred.wall - other.wall) / other.wall:+.1%}", note,
        ])  # fmt: skip
        live.setdefault(other.jobs, []).append(other.liveness)  # Ray's workers on one machine are forked too
    header = ["run", "executor", "jobs", "parse pred / meas s", "liveness pred / meas s", "predicted wall s",
              "measured wall s", "error", "note"]  # fmt: skip
    out = [_table(header, rows, markdown)]
    if 1 in live and 2 in live and min(live[2]) > 0:
        fitted = min(live[1]) / min(live[2])
        out.append(f"measured liveness speed-up 1→2: {fitted:.2f} (pass --liveness-speedup2 {fitted:.2f} to use it)")
    return "\n".join(out)


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("run_dir", type=Path, help="a cold mine's output folder")
    ap.add_argument("--cores", default=",".join(map(str, DEFAULT_CORES)), help="core counts (default %(default)s)")
    ap.add_argument("--cores-per-machine", type=int, default=2, help="C of the M×C rows (default %(default)s)")
    ap.add_argument("--liveness-speedup2", type=float, default=DEFAULT_LIVENESS_SPEEDUP2)
    ap.add_argument("--driver-ms-per-mb", type=float, default=DEFAULT_DRIVER_MS_PER_MB)
    ap.add_argument("--bandwidth-gbit", type=float, default=1.0, help="the driver's link (default %(default)s)")
    ap.add_argument("--task-overhead-ms", type=float, default=5.0, help="Ray dispatch per task (default %(default)s)")
    ap.add_argument("--bytes-per-tu", type=float, help="a TU's pickled result (default: from the cache's entries)")
    ap.add_argument(
        "--analyser-mb",
        type=float,
        default=DEFAULT_ANALYSER_MB,
        help="the pickled liveness analyser a Ray worker receives (default %(default)s; to be measured)",
    )
    ap.add_argument(
        "--unpickle-mb-per-s",
        type=float,
        default=DEFAULT_UNPICKLE_MB_PER_S,
        help="a Ray worker's unpickling of the analyser (default %(default)s; to be measured)",
    )
    ap.add_argument("--cache", type=Path, help="the shared cache folder (default: the user's)")
    ap.add_argument("--check", type=Path, nargs="+", metavar="RUN_DIR", help="measured mines to compare with")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args(argv)
    setting = Setting(
        liveness_speedup2=args.liveness_speedup2,
        driver_ms_per_mb=args.driver_ms_per_mb,
        bandwidth_gbit=args.bandwidth_gbit,
        task_overhead_ms=args.task_overhead_ms,
        bytes_per_tu=args.bytes_per_tu,
        analyser_mb=args.analyser_mb,
        unpickle_mb_per_s=args.unpickle_mb_per_s,
    )
    mine = load_mine(args.run_dir, args.cache)
    cores = [int(c) for c in args.cores.split(",") if c.strip()]
    print(report(mine, setting, cores, max(1, args.cores_per_machine), args.markdown))
    if args.check:
        print()
        print(check(mine, args.run_dir, args.check, setting, args.markdown, args.cache))
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    sys.exit(main())
