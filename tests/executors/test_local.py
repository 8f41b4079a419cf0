"""Local worker processes."""

from __future__ import annotations

from miner.executors import LocalExecutor, WorkerSpec
from tests.executors import common
from tests.executors.common import run


def test_every_task_is_answered_by_a_built_worker():
    common.check_every_task_is_answered_by_a_built_worker(LocalExecutor(2))


def test_a_task_whose_worker_died_is_given_to_another(tmp_path):
    common.check_a_task_whose_worker_died_is_given_to_another(LocalExecutor(1), tmp_path)


def test_a_task_that_kills_every_worker_is_lost_after_two_tries_and_the_rest_go_on():
    common.check_a_task_that_kills_every_worker_is_lost_after_two_tries_and_the_rest_go_on(LocalExecutor(1))


def test_a_task_past_its_deadline_is_lost_and_the_rest_go_on():
    common.check_a_task_past_its_deadline_is_lost_and_the_rest_go_on(LocalExecutor(1))


def test_a_task_that_raises_is_lost_once_with_the_error():
    common.check_a_task_that_raises_is_lost_once_with_the_error(LocalExecutor(1))


def test_two_workers_share_the_tasks():
    results = run(LocalExecutor(2), [("sleep", 0.3) for _ in range(4)])
    assert len({r[2] for r in results.values()}) == 2


def test_workers_start_only_as_tasks_come_for_them():
    executor = LocalExecutor(4)
    results = run(executor, [("echo", 0)])
    assert list(results) == [0]
    assert len(executor._slots) == 1


def test_shared_arguments_are_inherited_by_forking_not_sent():
    """A spec with shared arguments is forked from the process that built them: an object pickling refuses
    still reaches the worker."""
    unpicklable = lambda: "made here"  # noqa: E731 - a lambda is what pickle refuses
    spec = WorkerSpec("test", _Calls, (unpicklable,), shared=True)
    from miner.executors import Tasks

    assert dict(LocalExecutor(1).run(spec, Tasks([(0, "go")]))) == {0: "made here"}


class _Calls:
    def __init__(self, fn) -> None:
        self.fn = fn

    def __call__(self, task) -> str:
        return self.fn()


def test_a_worker_that_cannot_be_built_stops_the_run_with_why():
    import pytest

    from miner.executors import ExecutorError, Tasks

    spec = WorkerSpec("test", _Unbuildable)
    with pytest.raises(ExecutorError, match="the test workers cannot start: RuntimeError: no device here"):
        dict(LocalExecutor(1).run(spec, Tasks([(0, "go")])))


class _Unbuildable:
    def __init__(self) -> None:
        raise RuntimeError("no device here")
