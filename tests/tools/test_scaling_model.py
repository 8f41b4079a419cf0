"""tools/scaling_model.py on synthetic mines whose predicted wall is known by hand."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

_PATH = Path(__file__).resolve().parents[2] / "tools" / "scaling_model.py"
_spec = importlib.util.spec_from_file_location("scaling_model", _PATH)
sm = importlib.util.module_from_spec(_spec)
sys.modules["scaling_model"] = sm
_spec.loader.exec_module(sm)

EXACT = sm.Setting(liveness_speedup2=1.0, driver_ms_per_mb=0.0, task_overhead_ms=0.0, bytes_per_tu=0.0)


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
) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    rows = [{"path": f"<pch:v{i}>", "seconds": s, "liveness_seconds": 0.0} for i, s in enumerate(pch)]
    rows += [{"path": f"src/tu{i:03d}.cpp", "seconds": s, "liveness_seconds": 0.0} for i, s in enumerate(tus)]
    (folder / "parse_report.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    stages = {"parse": parse, "parse_workers": sum(tus) + sum(pch), "analyse": analyse, "liveness_analysis": liveness}
    summary = {"library": library, "cache_hits": cache_hits, "stage_seconds": stages, "wall_seconds": wall}
    (folder / "summary.json").write_text(json.dumps(summary))
    (folder / "run.json").write_text(json.dumps({"library": library, "options": {"jobs": jobs}}))
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


def test_the_mines_order_takes_contiguous_shares_and_lpt_does_not():
    # shares [1, 1] and [1, 3]: the second worker reaches its 3 s TU only at 1 s; LPT starts it first
    assert sm.simulate([1.0, 1.0, 1.0, 3.0], 2, "mine") == pytest.approx(4.0)
    assert sm.simulate([1.0, 1.0, 1.0, 3.0], 2, "lpt") == pytest.approx(3.0)
    # shares [4, 1] and [1, 1]: the second worker, done at 2 s, steals the first share's last TU (else 5 s)
    assert sm.simulate([4.0, 1.0, 1.0, 1.0], 2, "mine") == pytest.approx(4.0)


def test_the_driver_takes_results_one_at_a_time():
    assert sm.simulate([1.0] * 4, 4, "lpt", driver_s=0.5) == pytest.approx(3.0)
    # a local worker waits for the driver before its next TU, a Ray worker does not but pays its task overhead
    assert sm.simulate([1.0] * 4, 2, "mine", driver_s=0.5) == pytest.approx(3.5)
    assert sm.simulate([1.0] * 4, 2, "mine", driver_s=0.5, overhead_s=0.25, wait_for_driver=False) == pytest.approx(3.5)


def test_pch_builds_come_first_and_the_serial_part_stays(tmp_path):
    run = _write_run(tmp_path / "run", [1.0] * 4, pch=(2.0,), parse=4.0, analyse=3.0, liveness=2.0, wall=8.0)
    mine = _load(run, tmp_path)
    assert (mine.graph_traverse, mine.serial_rest) == (pytest.approx(1.0), pytest.approx(1.0))
    assert sm.residual_seconds(mine, EXACT) == pytest.approx(0.0)  # PCH 2 s, then 4 × 1 s on 2 workers
    one = sm.predict(mine, 1, EXACT)
    assert (one.parse_order, one.wall) == (pytest.approx(6.0), pytest.approx(10.0))
    many = sm.predict(mine, 256, EXACT)
    assert (many.parse_order, many.parse_lpt, many.wall) == (pytest.approx(3.0),) * 2 + (pytest.approx(7.0),)
    lim = sm.limits(mine, EXACT, per_machine=2)
    assert lim.serial == pytest.approx(4.0)  # graph 1 + writing 1 + liveness 2 (no speed-up given)
    assert lim.serial_fraction == pytest.approx(0.4)
    assert lim.critical_path == pytest.approx(3.0)
    assert lim.ceiling == pytest.approx(10.0 / 7.0)


def test_liveness_scales_on_one_machine_only_and_the_residual_is_serial(tmp_path):
    run = _write_run(tmp_path / "run", [1.0] * 8, parse=7.0, analyse=2.0, liveness=2.0, wall=9.0, jobs=2)
    mine = _load(run, tmp_path)
    setting = sm.Setting(liveness_speedup2=2.0, driver_ms_per_mb=0.0, task_overhead_ms=0.0, bytes_per_tu=0.0)
    assert sm.residual_seconds(mine, setting) == pytest.approx(3.0)  # 7 s measured, 4 s simulated
    assert sm.liveness_seconds(mine, 1, setting) == pytest.approx(4.0)
    local = sm.predict(mine, 8, setting)
    assert (local.parse_order, local.liveness, local.wall) == (
        pytest.approx(1.0),
        pytest.approx(0.5),
        pytest.approx(4.5),
    )
    cluster = sm.predict(mine, 8, setting, machines=4)
    assert (cluster.parse_order, cluster.liveness, cluster.wall) == (
        pytest.approx(1.0),
        pytest.approx(2.0),
        pytest.approx(6.0),
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
    argv = [str(base), "--markdown", "--cores", "1,2,4", "--liveness-speedup2", "1", "--driver-ms-per-mb", "0",
            "--bytes-per-tu", "0", "--cache", str(tmp_path / "none"), "--check", str(one), str(base)]  # fmt: skip
    assert sm.main(argv) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith(f"| {one} "))
    assert "| 6.0 | 5.0 | +20.0% |" in row  # 4 s parse + 1 s analyse + 1 s the rest, against 5 s measured
    assert "0 by construction" in out
    assert "serial fraction" in out and "attack next" in out
