"""What every executor must do, checked on each (local processes here, Ray in test_ray.py)."""

from __future__ import annotations

from miner.executors import Lost, Tasks, WorkerSpec
from tests.executors.workers import Doer

SPEC = WorkerSpec("test", Doer, ("built",))


def run(executor, tasks, **kw) -> dict:
    return dict(executor.run(SPEC, Tasks(list(enumerate(tasks))), **kw))


def check_every_task_is_answered_by_a_built_worker(executor) -> None:
    results = run(executor, [("echo", i) for i in range(6)])
    assert sorted(results) == list(range(6))
    assert all(r[0] == "built" and r[1] == i for i, r in results.items())
    assert 1 <= len({r[2] for r in results.values()}) <= 2, "no more workers than the executor has"


def check_a_task_whose_worker_died_is_given_to_another(executor, tmp_path) -> None:
    results = run(executor, [("echo", 0), ("die-once", str(tmp_path / "marker")), ("echo", 2)])
    assert results[1][1] == str(tmp_path / "marker") and not isinstance(results[1], Lost)
    assert [(r.spec, r.key) for r in executor.retried] == [("test", 1)]


def check_a_task_that_kills_every_worker_is_lost_after_two_tries_and_the_rest_go_on(executor) -> None:
    results = run(executor, [("die", 0), ("echo", 1), ("echo", 2)])
    assert isinstance(results[0], Lost) and (results[0].reason, results[0].tries) == ("crash", 2)
    assert [results[1][1], results[2][1]] == [1, 2]


def check_a_task_past_its_deadline_is_lost_and_the_rest_go_on(executor) -> None:
    results = run(executor, [("sleep", 60), ("echo", 1), ("echo", 2)], timeout_s=3)
    assert isinstance(results[0], Lost) and results[0].reason == "timeout"
    assert [results[1][1], results[2][1]] == [1, 2]


def check_a_task_that_raises_is_lost_once_with_the_error(executor) -> None:
    results = run(executor, [("raise", "this"), ("echo", 1)])
    assert isinstance(results[0], Lost) and results[0].reason == "error" and results[0].tries == 1
    assert "cannot do this" in results[0].detail and results[1][1] == 1
    assert not executor.retried
