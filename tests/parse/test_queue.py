"""The parse queue on local workers: a TU that hangs the parser is killed at its deadline and the rest go on; a
worker that dies is replaced and its TU parsed again; revisions sharing the queue parse a shared TU once."""

from __future__ import annotations

import os
import signal
from dataclasses import replace
from pathlib import Path

from miner.executors import LocalExecutor
from miner.executors.local import serve
from miner.models import ParsedTU, ParseFailed
from miner.parse.cache import Head
from miner.parse.queue import ParseQueue, _Stream
from miner.parse.worker import ParseJob, WorkerConfig

# Each level doubles the tokens: the preprocessor works on 2**40 tokens, effectively forever.
BOMB = "".join(f"#define A{i + 1} A{i} A{i}\n" for i in range(40)) + "#define A0 x\nint v = sizeof(A40);\n"
CXX = ("-x", "c++", "-std=c++17")


def _config(root: Path, **kw) -> WorkerConfig:
    return WorkerConfig(root=str(root), launch_macros=(), kernel_macros=(), device_macros=(), **kw)


def _parse(root: Path, jobs: list[ParseJob], workers: int = 1, timeout_s: float = 60, **kw) -> list:
    with ParseQueue(LocalExecutor(workers)) as queue:
        queue.allow(timeout_s)
        return list(queue.run(_config(root, **kw), jobs))


def test_hanging_tu_times_out_and_the_next_one_is_parsed(tmp_path):
    (tmp_path / "bomb.cpp").write_text(BOMB)
    (tmp_path / "fine.cpp").write_text("int fine_function(int x) { return x + 1; }\n")
    results = {
        r.path: r
        for r in _parse(tmp_path, [ParseJob("bomb.cpp", CXX, "lp64"), ParseJob("fine.cpp", CXX, "lp64")], timeout_s=3)
    }
    assert isinstance(results["bomb.cpp"], ParseFailed) and results["bomb.cpp"].reason == "timeout"
    fine = results["fine.cpp"]
    assert isinstance(fine, ParsedTU) and [f.name for f in fine.functions] == ["fine_function"]


def test_a_worker_that_cannot_parse_at_all_costs_each_tu_a_crash_and_the_queue_goes_on(tmp_path):
    """Here libclang cannot even load: each TU is a `crash` saying why, and every TU gets its answer."""
    (tmp_path / "a.cpp").write_text("int a();\n")
    (tmp_path / "b.cpp").write_text("int b();\n")
    (tmp_path / "not-a-library.so").write_text("this is not a shared object\n")
    with ParseQueue(LocalExecutor(1)) as queue:
        config = _config(tmp_path, libclang=str(tmp_path / "not-a-library.so"))
        results = list(queue.run(config, [ParseJob("a.cpp", (), "lp64"), ParseJob("b.cpp", (), "lp64")]))
    assert [(r.path, r.reason) for r in results] == [("a.cpp", "crash"), ("b.cpp", "crash")]
    assert all("not-a-library.so" in r.detail for r in results), results


def test_a_worker_dead_before_its_job_is_sent_is_replaced_and_the_job_parsed_by_the_next(tmp_path, monkeypatch):
    (tmp_path / "a.cpp").write_text("int a_function(int x) { return x; }\n")
    (tmp_path / "b.cpp").write_text("int b_function(int x) { return x; }\n")
    executor = LocalExecutor(1)
    start, started = executor._start, []

    def dead_on_arrival(spec, index):
        slot = start(spec, index)
        if not started:
            slot.process.kill()
            slot.process.join()
        started.append(slot)
        return slot

    monkeypatch.setattr(executor, "_start", dead_on_arrival)
    with ParseQueue(executor) as queue:
        results = {
            r.path: r
            for r in queue.run(_config(tmp_path), [ParseJob("a.cpp", CXX, "lp64"), ParseJob("b.cpp", CXX, "lp64")])
        }
    assert all(isinstance(r, ParsedTU) for r in results.values()) and len(started) == 2
    assert [r.key.rel for r in executor.retried] == ["a.cpp"]


def test_workers_take_runs_of_neighbouring_jobs_and_split_the_largest_run_left(tmp_path):
    queue = ParseQueue(LocalExecutor(2))
    jobs: list = [ParseJob(f"t{i}.cpp", (), "lp64") for i in range(8)]
    queue._enqueue(_Stream(0, _config(tmp_path), "c", None, None, None), jobs)

    def taken(worker: int) -> str:
        return queue.take(worker)[0].rel

    assert [taken(0), taken(1)] == ["t0.cpp", "t4.cpp"]  # the second worker splits the first's run
    assert [taken(0), taken(0), taken(0)] == ["t1.cpp", "t2.cpp", "t3.cpp"]
    assert taken(0) == "t6.cpp"  # its run reached the other's: the middle of the largest run left (t5, t6, t7)
    assert [taken(1), taken(1)] == ["t5.cpp", "t7.cpp"]
    assert queue.take(0) is None


def test_two_workers_parse_every_tu_once(tmp_path):
    for i in range(5):
        (tmp_path / f"f{i}.cpp").write_text(f"int function_{i}(int x) {{ return x + {i}; }}\n")
    results = _parse(tmp_path, [ParseJob(f"f{i}.cpp", ("-x", "c++"), "lp64") for i in range(5)], workers=2)
    assert sorted(r.path for r in results) == [f"f{i}.cpp" for i in range(5)]
    assert all(isinstance(r, ParsedTU) for r in results)


def test_each_job_is_prepared_as_it_is_sent_after_the_results_before_it(tmp_path):
    for name in ("a", "b"):
        (tmp_path / f"{name}.cpp").write_text("int NAME(int x) { return x; }\n")
    results: list[str] = []
    prepared: list[tuple[str, int]] = []

    def prepare(job: ParseJob) -> ParseJob:
        prepared.append((job.rel, len(results)))
        return replace(job, args=(*job.args, f"-DNAME={job.rel[0]}_fn"))  # the job sent is the one prepared

    jobs = [ParseJob("a.cpp", ("-x", "c++"), "lp64"), ParseJob("b.cpp", ("-x", "c++"), "lp64")]
    with ParseQueue(LocalExecutor(1)) as queue:
        for result in queue.run(_config(tmp_path), jobs, prepare, keep=lambda r: results.append(r.path)):
            assert isinstance(result, ParsedTU) and [f.name for f in result.functions] == [f"{result.path[0]}_fn"]
    assert prepared == [("a.cpp", 0), ("b.cpp", 1)]


def test_revisions_sharing_the_queue_parse_a_shared_path_once_and_the_cache_answers_the_later(tmp_path):
    """The later revision's job of a path waits for the earlier's; once that one is stored, ``recheck`` (the
    cache) answers for it and no worker parses it. A path of one revision alone is parsed."""
    for name in ("old", "new"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "same.cpp").write_text("int same(int x) { return x; }\n")
    (tmp_path / "new" / "added.cpp").write_text("int added(int x) { return x; }\n")
    stored: list[str] = []
    head = Head("clang", ("same.cpp",), 0, None, ())
    with ParseQueue(LocalExecutor(2)) as queue:
        import threading

        out: dict[int, list] = {}

        def revision(order: int, name: str, rels: list[str]) -> None:
            jobs = [ParseJob(rel, CXX, "lp64") for rel in rels]

            def recheck(rel: str) -> Head | None:
                return head if rel in stored else None

            out[order] = list(queue.run(_config(tmp_path / name), jobs, order=order, recheck=recheck,
                                        keep=lambda r: stored.append(r.path)))  # fmt: skip

        threads = [threading.Thread(target=revision, args=(1, "new", ["added.cpp", "same.cpp"])),
                   threading.Thread(target=revision, args=(0, "old", ["same.cpp"]))]  # fmt: skip
        for t in threads:
            t.start()
        for t in threads:
            t.join(60)
    assert sorted(stored) == ["added.cpp", "same.cpp"], "each path parsed once"
    answers = [("parsed" if isinstance(r, ParsedTU) else "cache", order, _path(r)) for order in out for r in out[order]]
    assert sorted(a for a in answers if a[2] == "same.cpp") in (
        [("cache", 1, "same.cpp"), ("parsed", 0, "same.cpp")],
        [("cache", 0, "same.cpp"), ("parsed", 1, "same.cpp")],  # the later revision's thread came first
    )
    assert ("parsed", 1, "added.cpp") in answers


def _path(result) -> str:
    return result.path if isinstance(result, ParsedTU) else result[0]


def test_a_worker_ignores_ctrl_c_from_its_start_and_the_main_process_alone_stops_it(tmp_path):
    """Ctrl-C reaches the terminal's whole process group; a worker that took it would die with a traceback
    of its own mid-parse (even during Python's start-up) instead of leaving the interrupt to the main process."""
    (tmp_path / "fine.cpp").write_text("int fine_function(int x) { return x + 1; }\n")
    queue = ParseQueue(LocalExecutor(1))
    slot = LocalExecutor(1)._start(queue.spec, 0)
    try:
        os.kill(slot.process.pid, signal.SIGINT)
        slot.conn.send(("c", _config(tmp_path), ParseJob("fine.cpp", ("-x", "c++"), "lp64")))
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

    from miner.executors import WorkerSpec

    serve(GoneParent(), WorkerSpec("parse", _Echo))  # returns, no traceback


class _Echo:
    def __call__(self, job):
        return ParseFailed(job.rel, "crash", "")


def test_a_parse_asked_for_after_the_queue_closed_closes_it_again(tmp_path):
    """A cached parse gone between the peek and the read is parsed after the run's queue closed: no driver thread
    and no worker may outlive that parse."""
    (tmp_path / "late.cpp").write_text("int late_function(int x) { return x; }\n")
    queue = ParseQueue(LocalExecutor(1))
    queue.allow(60)
    queue.close()
    results = list(queue.run(_config(tmp_path), [ParseJob("late.cpp", CXX, "lp64")]))
    assert [r.path for r in results] == ["late.cpp"] and isinstance(results[0], ParsedTU)
    assert queue._driver is None
