"""tools/scaling_model.py on synthetic mines whose predicted wall is known by hand."""

from __future__ import annotations

import importlib.util
import json
import sys
from dataclasses import replace
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[2] / "tools" / "scaling_model.py"
_spec = importlib.util.spec_from_file_location("scaling_model", _PATH)
sm = importlib.util.module_from_spec(_spec)
sys.modules["scaling_model"] = sm
_spec.loader.exec_module(sm)

EXACT = sm.Setting(liveness_speedup2=1.0, driver_ms_per_mb=0.0, task_overhead_ms=0.0, bytes_per_tu=0.0, analyser_mb=0.0)


def _write_run(
    folder: Path,
    tus: list[float],
    *,
    pch: tuple[float, ...] = (),
    parse: float,
    analyse: float,
    liveness: float,
    wall: float,
    jobs: int = 2,
    cache_hits: int = 0,
    library: str = "lib",
    executor: str | None = None,
) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    rows = [{"path": f"<pch:v{i}>", "seconds": s, "liveness_seconds": 0.0} for i, s in enumerate(pch)]
    rows += [{"path": f"src/tu{i:03d}.cpp", "seconds": s, "liveness_seconds": 0.0} for i, s in enumerate(tus)]
    (folder / "parse_report.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    stages = {"parse": parse, "parse_workers": sum(tus) + sum(pch), "analyse": analyse, "liveness_analysis": liveness}
    summary = {"library": library, "cache_hits": cache_hits, "stage_seconds": stages, "wall_seconds": wall}
    (folder / "summary.json").write_text(json.dumps(summary))
    options = {"jobs": jobs} if executor is None else {"jobs": jobs, "executor": executor}
    (folder / "run.json").write_text(json.dumps({"library": library, "options": options}))
    return folder


def _load(folder: Path, tmp_path: Path):
    return sm.load_mine(folder, cache_dir=tmp_path / "no-cache")


@pytest.mark.parametrize("order", ["mine", "lpt"])
def test_four_tus_of_one_second_on_two_workers_take_two_seconds(order):
    assert sm.simulate([1.0] * 4, 2, order) == pytest.approx(2.0)
    assert sm.simulate([1.0] * 4, 1, order) == pytest.approx(4.0)
    assert sm.simulate([1.0] * 4, 64, order) == pytest.approx(1.0)


@pytest.mark.parametrize("workers", [2, 4, 64, 256])
def test_the_longest_tu_bounds_the_parse_at_any_core_count(workers):
    assert sm.simulate([10.0, 1.0, 1.0, 1.0], workers, "mine") == pytest.approx(10.0)
    assert sm.simulate([10.0, 1.0, 1.0, 1.0], workers, "lpt") == pytest.approx(10.0)


def _takes(n_jobs: int, workers: list[int]) -> list[int | None]:
    queue = sm.RunQueue()
    queue.add(range(n_jobs))
    return [queue.take(w) for w in workers]


def test_the_mines_order_splits_the_largest_run_in_the_middle():
    # worker 0 starts at t0 and owns the rest; worker 1 starts in the middle of t1..t7 (t4); each goes on from there
    assert _takes(8, [0, 1, 0, 1, 0, 1, 0, 1, 0]) == [0, 4, 1, 5, 2, 6, 3, 7, None]
    assert sm.simulate([1.0] * 8, 2, "mine") == pytest.approx(4.0)
    # a third worker takes the middle of the earliest of the two largest runs (t1..t3 of worker 0: t2); worker 0,
    # whose next job t6 another owns (worker 1's last job t5 is nearer), takes the middle of the run t6..t7 (t7)
    assert _takes(8, [0, 1, 2, 0, 1, 2, 0, 1, 2]) == [0, 4, 2, 1, 5, 3, 7, 6, None]


def test_the_mines_order_keeps_a_run_whole_where_lpt_starts_the_long_tu_first():
    # mine: worker 0 runs t0..t3 (0-4 s), worker 1 t4..t6 (0-3 s), then its 5 s t7 (3-8 s)
    assert sm.simulate([1.0] * 7 + [5.0], 2, "mine") == pytest.approx(8.0)
    # LPT: worker 0 runs t7 (0-5 s), worker 1 t0..t4 (0-5 s); then t5 and t6 one each (5-6 s)
    assert sm.simulate([1.0] * 7 + [5.0], 2, "lpt") == pytest.approx(6.0)
    # the long TU first in path order: worker 0 holds it, worker 1 runs t4..t7 (0-4 s), then splits t1..t3 at t2
    # (4-5 s) and goes on to t3 (5-6 s); worker 0 ends with t1 (5-6 s)
    assert sm.simulate([5.0] + [1.0] * 7, 2, "mine") == pytest.approx(6.0)


def test_the_pch_run_leaves_the_workers_cursors_for_the_tus():
    # positions: <pch:v0> 0 and <pch:v1> 1 (worker 0, worker 1), then t0..t3 at 2..5. Every TU comes after worker
    # 1's last job, so worker 0 asks first but splits them in the middle: t2 and t3 (1-3 s), then t1 (3-4 s);
    # worker 1 goes on from the start: t0 (1-4 s). A fresh queue would give t0 to worker 0.
    queue = sm.RunQueue()
    assert sm.simulate([1.0, 1.0], 2, "mine", queue=queue) == pytest.approx(1.0)
    assert sm.simulate([3.0, 1.0, 1.0, 1.0], 2, "mine", start=1.0, queue=queue) == pytest.approx(4.0)
    assert queue.cursor == {0: 3, 1: 2}


def test_the_mines_order_is_the_parse_queues():
    import random

    from miner.parse.queue import ParseQueue, _Entry

    for seed in range(100):
        rnd = random.Random(seed)
        n, workers = rnd.randint(1, 30), rnd.randint(1, 8)
        queue = ParseQueue(executor=None)
        queue._pending = [_Entry(f"src/tu{i:03d}.cpp", 0, i) for i in range(n)]
        model = sm.RunQueue()
        model.add(range(n))
        for _ in range(n + 2):
            worker = rnd.randrange(workers)
            entry = queue._next(worker)
            if entry is not None:
                queue._pending.remove(entry)
                queue._cursor[worker] = entry
            assert model.take(worker) == (None if entry is None else entry.seq), seed


def test_the_driver_takes_results_one_at_a_time(tmp_path):
    assert sm.simulate([1.0] * 4, 4, "lpt", driver_s=0.5) == pytest.approx(3.0)
    # a worker waits for the driver before its next TU; a worker that did not would be done at 3.5 s
    assert sm.simulate([1.0] * 4, 2, "mine", driver_s=0.5) == pytest.approx(3.5)
    assert sm.simulate([1.0] * 4, 2, "mine", driver_s=0.5, overhead_s=0.25, wait_for_driver=False) == pytest.approx(3.5)
    # a Ray worker waits too (the executor hands out tasks between results) and pays its task overhead: t0 and t2
    # 0-1.25 s, taken 1.25-1.75 and 1.75-2.25 s; t1 1.75-3 s, t3 2.25-3.5 s, taken 3-3.5 and 3.5-4 s
    run = _write_run(tmp_path / "run", [1.0] * 4, parse=2.0, analyse=0.0, liveness=0.0, wall=2.0)
    setting = sm.Setting(driver_ms_per_mb=500.0, task_overhead_ms=250.0, bytes_per_tu=1e6)
    assert sm.parse_seconds(_load(run, tmp_path), 2, "mine", setting, ray=True) == pytest.approx(4.0)


def test_pch_builds_come_first_and_the_serial_part_stays(tmp_path):
    run = _write_run(tmp_path / "run", [1.0] * 4, pch=(2.0,), parse=4.0, analyse=3.0, liveness=2.0, wall=8.0)
    mine = _load(run, tmp_path)
    assert (mine.graph_traverse, mine.serial_rest) == (pytest.approx(1.0), pytest.approx(1.0))
    assert sm.residual_seconds(mine, EXACT) == pytest.approx(0.0)  # PCH 2 s, then 4 × 1 s on 2 workers
    one = sm.predict(mine, 1, EXACT)
    assert (one.parse_order, one.wall) == (pytest.approx(6.0), pytest.approx(10.0))
    many = sm.predict(mine, 256, EXACT)
    assert (many.parse_order, many.parse_lpt, many.wall) == (pytest.approx(3.0),) * 2 + (pytest.approx(7.0),)
    lim = sm.limits(mine, EXACT)
    assert lim.serial == pytest.approx(4.0)  # graph 1 + writing 1 + liveness 2 (no speed-up given)
    assert lim.serial_fraction == pytest.approx(0.4)
    assert lim.critical_path == pytest.approx(3.0)
    assert lim.ceiling == pytest.approx(10.0 / 7.0)
    assert lim.ceiling_cluster == pytest.approx(10.0 / 7.0)  # no analyser to send in EXACT
    started = sm.limits(mine, replace(EXACT, analyser_mb=100.0, bandwidth_gbit=0.8, unpickle_mb_per_s=50.0))
    assert started.ceiling_cluster == pytest.approx(10.0 / 12.0)  # + 2 s pickling, 1 s over the link, 2 s unpickling


def test_liveness_runs_on_every_worker_and_other_machines_ray_workers_start_late(tmp_path):
    run = _write_run(tmp_path / "run", [1.0] * 8, parse=7.0, analyse=2.0, liveness=2.0, wall=9.0, jobs=2)
    mine = _load(run, tmp_path)
    # all parallel (speed-up 2 from 1 to 2); a 100 MB analyser: 2 s to pickle, 1 s over a 0.8 Gbit/s link, 2 s to
    # unpickle
    setting = sm.Setting(liveness_speedup2=2.0, driver_ms_per_mb=0.0, task_overhead_ms=0.0, bytes_per_tu=0.0,
                         analyser_mb=100.0, bandwidth_gbit=0.8, unpickle_mb_per_s=50.0)  # fmt: skip
    assert sm.analyser_start(setting, 4) == pytest.approx(5.0)
    assert sm.residual_seconds(mine, setting) == pytest.approx(3.0)  # 7 s measured, 4 s simulated
    assert sm.liveness_seconds(mine, 1, setting) == pytest.approx(4.0)
    local = sm.predict(mine, 8, setting)  # forked: no start
    assert (local.parse_order, local.liveness, local.wall) == (
        pytest.approx(1.0),
        pytest.approx(0.5),
        pytest.approx(4.5),
    )
    assert sm.predict(mine, 8, setting, ray=True).liveness == pytest.approx(0.5)  # one machine: forked on Ray too
    # 4 machines × 2 cores: the driver's 2 forked workers finish the 4 s in 2 s, before the others' 5 s start
    cluster = sm.predict(mine, 8, setting, machines=4)
    assert (cluster.parse_order, cluster.liveness, cluster.wall) == (
        pytest.approx(1.0),
        pytest.approx(2.0),
        pytest.approx(6.0),
    )
    # an 8 MB analyser starts the others at 0.4 s: then 2 workers × 0.8 s + 6 × 0.4 s share the 4 s
    small = replace(setting, analyser_mb=8.0)
    assert sm.analyser_start(small, 4) == pytest.approx(0.4)
    assert sm.predict(mine, 8, small, machines=4).liveness == pytest.approx(0.8)
    # Amdahl-shaped: speed-up 1.6 from 1 to 2 is a parallel part of 0.75; L(2) = 2 s gives L(1) = 3.2 s: 0.8 s
    # serial, 2.4 s on the driver's 2 workers (the others start too late)
    amdahl = replace(setting, liveness_speedup2=1.6)
    assert sm.liveness_seconds(mine, 1, amdahl) == pytest.approx(3.2)
    assert sm.predict(mine, 8, amdahl, machines=4).liveness == pytest.approx(0.8 + 1.2)
    assert sm.predict(mine, 64, replace(amdahl, analyser_mb=8.0), machines=32).liveness == pytest.approx(
        0.8 + (2.4 + 62 * 0.4) / 64
    )


def test_data_moved_crosses_the_link_in_multi_machine_runs(tmp_path):
    run = _write_run(tmp_path / "run", [1.0] * 4, parse=2.0, analyse=0.0, liveness=0.0, wall=2.0)
    mine = _load(run, tmp_path)
    slow = sm.Setting(bandwidth_gbit=0.008, driver_ms_per_mb=0.0, task_overhead_ms=0.0, bytes_per_tu=1e6)  # 1 s a TU
    assert sm.parse_seconds(mine, 4, "lpt", slow) == pytest.approx(1.0)
    assert sm.parse_seconds(mine, 4, "lpt", slow, machines=2, ray=True) == pytest.approx(5.0)


def test_cache_entry_sizes_come_from_the_run_record(tmp_path):
    run = _write_run(tmp_path / "run", [1.0], parse=1.0, analyse=0.0, liveness=0.0, wall=1.0)
    cache = tmp_path / "cache"
    (cache / "parse" / "aa").mkdir(parents=True)
    (cache / "parse" / "aa" / "k1.pkl").write_bytes(b"x" * 1000)
    (cache / "parse" / "aa" / "k1.instances").write_bytes(b"x" * 500)
    (cache / "parse" / "aa" / "k2.pkl").write_bytes(b"x" * 2500)
    (cache / "parse" / "aa" / "w.pkl").write_bytes(b"x" * 9999)
    (cache / "runs").mkdir()
    units = ["parse/aa/k1", "parse/aa/k2", "parse/aa/w", "places/p"]
    record = {"library": "lib", "out": str(run.resolve()), "root": "/src/lib", "units": units,
              "with_libraries": {"other": "/src/other"}}  # fmt: skip
    other = {"library": "other", "out": "/x", "root": "/src/other", "units": ["parse/aa/w"], "with_libraries": {}}
    (cache / "runs" / "a.json").write_text(json.dumps(record))
    (cache / "runs" / "b.json").write_text(json.dumps(other))
    mine = sm.load_mine(run, cache_dir=cache)
    assert mine.bytes_per_tu == pytest.approx(2000.0)


def test_cached_tus_take_no_worker_time(tmp_path):
    run = _write_run(tmp_path / "run", [1.0] * 4, parse=1.0, analyse=0.0, liveness=0.0, wall=1.0, cache_hits=2)
    summary = json.loads((run / "summary.json").read_text())
    summary["stage_seconds"]["parse_workers"] = 2.0
    (run / "summary.json").write_text(json.dumps(summary))
    mine = _load(run, tmp_path)
    assert mine.worker_scale == pytest.approx(0.5)
    assert sm.residual_seconds(mine, EXACT) == pytest.approx(0.0)  # 4 × 0.5 s on 2 workers
    assert sm.predict(mine, 2, EXACT).parse_order == pytest.approx(2.0)  # a cold mine parses them all


def test_check_prints_predicted_against_measured(tmp_path, capsys):
    base = _write_run(tmp_path / "base", [1.0] * 4, parse=2.0, analyse=1.0, liveness=0.0, wall=4.0, jobs=2)
    one = _write_run(tmp_path / "one", [1.0] * 4, parse=4.0, analyse=1.0, liveness=0.0, wall=5.0, jobs=1)
    ray = _write_run(tmp_path / "ray", [1.0] * 4, parse=2.0, analyse=1.0, liveness=0.0, wall=5.0, executor="ray")
    local = _write_run(tmp_path / "local", [1.0] * 4, parse=2.0, analyse=1.0, liveness=0.0, wall=4.0, executor="local")
    argv = [str(base), "--markdown", "--cores", "1,2,4", "--liveness-speedup2", "1", "--driver-ms-per-mb", "0",
            "--bytes-per-tu", "0", "--task-overhead-ms", "0", "--analyser-mb", "100", "--unpickle-mb-per-s", "50",
            "--cache", str(tmp_path / "none"), "--check", str(one), str(base), str(ray), str(local)]  # fmt: skip
    assert sm.main(argv) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith(f"| {one} "))
    assert "| 6.0 | 5.0 | +20.0% |" in row  # 4 s parse + 1 s analyse + 1 s the rest, against 5 s measured
    row = next(line for line in out.splitlines() if line.startswith(f"| {ray} "))
    # on one machine Ray's liveness workers are forked too (no analyser to send): 2 s parse + 1 s graph + 1 s the
    # rest, against 5 s measured (Ray's own start)
    assert row.startswith(f"| {ray} | ray | 2 | 2.0 / 2.0 | 0.0 / 0.0 | 4.0 | 5.0 | -20.0% |")
    row = next(line for line in out.splitlines() if line.startswith(f"| {local} "))
    assert row.startswith(f"| {local} | local | 2 | 2.0 / 2.0 | 0.0 / 0.0 | 4.0 | 4.0 | +0.0% |")
    assert "0 by construction" in out
    assert "serial fraction" in out and "attack next" in out
