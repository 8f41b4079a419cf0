"""The worker pool: a TU that hangs the parser is killed at its deadline and the rest go on."""

from __future__ import annotations

import os
import signal
from dataclasses import replace

from miner.models import ParsedTU, ParseFailed
from miner.parse.pool import ParsePool, _next_job, _shares
from miner.parse.worker import ParseJob, WorkerConfig, _serve

# Each level doubles the tokens: the preprocessor works on 2**40 tokens, effectively forever.
BOMB = "".join(f"#define A{i + 1} A{i} A{i}\n" for i in range(40)) + "#define A0 x\nint v = sizeof(A40);\n"


def test_hanging_tu_times_out_and_the_next_one_is_parsed(tmp_path):
    (tmp_path / "bomb.cpp").write_text(BOMB)
    (tmp_path / "fine.cpp").write_text("int fine_function(int x) { return x + 1; }\n")
    pool = ParsePool(WorkerConfig(root=str(tmp_path), launch_macros=(), kernel_macros=(), device_macros=()),
                     jobs=1, timeout_s=3)  # fmt: skip
    jobs = [ParseJob("bomb.cpp", ("-x", "c++", "-std=c++17"), "lp64"), ParseJob("fine.cpp", ("-x", "c++"), "lp64")]
    results = {r.path: r for r in pool.run(jobs)}
    assert isinstance(results["bomb.cpp"], ParseFailed) and results["bomb.cpp"].reason == "timeout"
    fine = results["fine.cpp"]
    assert isinstance(fine, ParsedTU) and [f.name for f in fine.functions] == ["fine_function"]


def test_dead_worker_is_recorded_as_a_crash_and_replaced(tmp_path):
    """A worker process that dies without answering (here: libclang cannot even load) is a
    `crash` for the TU it held, and the pool goes on with a fresh worker for the next TU."""
    (tmp_path / "a.cpp").write_text("int a();\n")
    (tmp_path / "b.cpp").write_text("int b();\n")
    (tmp_path / "not-a-library.so").write_text("this is not a shared object\n")
    config = WorkerConfig(root=str(tmp_path), launch_macros=(), kernel_macros=(), device_macros=(),
                          libclang=str(tmp_path / "not-a-library.so"))  # fmt: skip
    results = list(
        ParsePool(config, jobs=1, timeout_s=30).run([ParseJob("a.cpp", (), "lp64"), ParseJob("b.cpp", (), "lp64")])
    )
    assert [(r.path, r.reason) for r in results] == [("a.cpp", "crash"), ("b.cpp", "crash")]
    assert all("worker died" in r.detail for r in results)


def test_each_worker_takes_a_contiguous_share_then_steals_from_the_largest_share_left():
    jobs = [ParseJob(f"t{i}.cpp", (), "lp64") for i in range(7)]
    shares = _shares(jobs, 2)
    assert [[j.rel for j in s] for s in shares] == [
        ["t0.cpp", "t1.cpp", "t2.cpp"],
        ["t3.cpp", "t4.cpp", "t5.cpp", "t6.cpp"],
    ]
    taken = [_next_job(shares, 0).rel for _ in range(3)]
    assert taken == ["t0.cpp", "t1.cpp", "t2.cpp"]  # its own share, in order
    assert _next_job(shares, 1).rel == "t3.cpp"
    assert _next_job(shares, 0).rel == "t6.cpp"  # its share is empty: the other share's last job
    assert [j.rel for j in shares[1]] == ["t4.cpp", "t5.cpp"]


def test_two_workers_parse_every_tu_once(tmp_path):
    for i in range(5):
        (tmp_path / f"f{i}.cpp").write_text(f"int function_{i}(int x) {{ return x + {i}; }}\n")
    pool = ParsePool(WorkerConfig(root=str(tmp_path), launch_macros=(), kernel_macros=(), device_macros=()),
                     jobs=2, timeout_s=60)  # fmt: skip
    results = list(pool.run([ParseJob(f"f{i}.cpp", ("-x", "c++"), "lp64") for i in range(5)]))
    assert sorted(r.path for r in results) == [f"f{i}.cpp" for i in range(5)]
    assert all(isinstance(r, ParsedTU) for r in results)


def test_each_job_is_prepared_as_it_is_sent_after_the_results_before_it(tmp_path):
    for name in ("a", "b"):
        (tmp_path / f"{name}.cpp").write_text("int NAME(int x) { return x; }\n")
    pool = ParsePool(WorkerConfig(root=str(tmp_path), launch_macros=(), kernel_macros=(), device_macros=()),
                     jobs=1, timeout_s=30)  # fmt: skip
    results: list[str] = []
    prepared: list[tuple[str, int]] = []

    def prepare(job: ParseJob) -> ParseJob:
        prepared.append((job.rel, len(results)))
        return replace(job, args=(*job.args, f"-DNAME={job.rel[0]}_fn"))  # the job sent is the one prepared

    jobs = [ParseJob("a.cpp", ("-x", "c++"), "lp64"), ParseJob("b.cpp", ("-x", "c++"), "lp64")]
    for result in pool.run(jobs, prepare):
        results.append(result.path)
        assert isinstance(result, ParsedTU) and [f.name for f in result.functions] == [f"{result.path[0]}_fn"]
    assert prepared == [("a.cpp", 0), ("b.cpp", 1)]


def test_a_worker_ignores_ctrl_c_from_its_start_and_the_main_process_alone_stops_it(tmp_path):
    """Ctrl-C reaches the terminal's whole process group; a worker that took it would die with a traceback
    of its own mid-parse (even during Python's start-up) instead of leaving the interrupt to the main process."""
    (tmp_path / "fine.cpp").write_text("int fine_function(int x) { return x + 1; }\n")
    pool = ParsePool(WorkerConfig(root=str(tmp_path), launch_macros=(), kernel_macros=(), device_macros=()),
                     jobs=1, timeout_s=60)  # fmt: skip
    slot = pool._start(0)
    try:
        os.kill(slot.process.pid, signal.SIGINT)
        slot.conn.send(ParseJob("fine.cpp", ("-x", "c++"), "lp64"))
        result = slot.conn.recv()
    finally:
        slot.conn.close()
        slot.process.join(timeout=30)
    assert isinstance(result, ParsedTU) and [f.name for f in result.functions] == ["fine_function"]
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # the main process still takes it


def test_a_worker_whose_main_process_is_gone_stops_quietly():
    class GoneParent:
        def recv(self):
            return ParseJob("a.cpp", (), "lp64")

        def send(self, result):
            raise BrokenPipeError(32, "Broken pipe")

    _serve(GoneParent(), lambda job: ParseFailed(job.rel, "crash", ""))  # returns, no traceback


def test_a_worker_dead_before_its_job_is_sent_is_a_crash_for_that_job_and_replaced(tmp_path, monkeypatch):
    (tmp_path / "a.cpp").write_text("int a_function(int x) { return x; }\n")
    (tmp_path / "b.cpp").write_text("int b_function(int x) { return x; }\n")
    pool = ParsePool(WorkerConfig(root=str(tmp_path), launch_macros=(), kernel_macros=(), device_macros=()),
                     jobs=1, timeout_s=60)  # fmt: skip
    start, started = pool._start, []

    def dead_on_arrival(share):
        slot = start(share)
        if not started:
            slot.process.kill()
            slot.process.join()
        started.append(slot)
        return slot

    monkeypatch.setattr(pool, "_start", dead_on_arrival)
    results = {
        r.path: r
        for r in pool.run([ParseJob("a.cpp", ("-x", "c++"), "lp64"), ParseJob("b.cpp", ("-x", "c++"), "lp64")])
    }
    assert isinstance(results["a.cpp"], ParseFailed) and results["a.cpp"].reason == "crash"
    assert isinstance(results["b.cpp"], ParsedTU) and len(started) == 2
