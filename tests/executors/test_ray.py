"""Ray actors on a local Ray (no network beyond this machine); skipped where Ray is not installed."""

from __future__ import annotations

import os
import threading
import time

import pytest

from miner.executors import Tasks, WorkerSpec
from tests.executors import common, workers

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def executor():
    from ray import cloudpickle

    from miner.executors.ray_actors import RayExecutor

    cloudpickle.register_pickle_by_value(workers)  # the actors need not import the tests
    made = RayExecutor(num_cpus=2)
    yield made
    made.close()


@pytest.fixture(autouse=True)
def fresh(executor):
    executor.retried.clear()


def test_every_task_is_answered_by_a_built_worker(executor):
    common.check_every_task_is_answered_by_a_built_worker(executor)


def test_a_task_whose_worker_died_is_given_to_another(executor, tmp_path):
    common.check_a_task_whose_worker_died_is_given_to_another(executor, tmp_path)


def test_a_task_that_kills_every_worker_is_lost_after_two_tries_and_the_rest_go_on(executor):
    common.check_a_task_that_kills_every_worker_is_lost_after_two_tries_and_the_rest_go_on(executor)


def test_a_task_past_its_deadline_is_lost_and_the_rest_go_on(executor):
    common.check_a_task_past_its_deadline_is_lost_and_the_rest_go_on(executor)


def test_a_task_that_raises_is_lost_once_with_the_error(executor):
    common.check_a_task_that_raises_is_lost_once_with_the_error(executor)


def test_shared_arguments_stay_here_and_this_nodes_workers_are_forked(executor):
    from ray.util import placement_group_table

    _all_cpus_free()  # the earlier tests' actors gone: the node's CPUs can be held for forked workers
    lock = threading.Lock()  # cannot be pickled: it reaches the workers only by forking
    spec = WorkerSpec("test", workers.Holder, (lock,), shared=True)
    results = dict(executor.run(spec, Tasks([(i, ("wait", 0.2)) for i in range(6)])))
    assert sorted(results) == list(range(6))
    assert set(results.values()) == {(os.getpid(), "lock")}
    assert all(g["state"] == "REMOVED" for g in placement_group_table().values()), "the node's CPUs are given back"
    assert _all_cpus_free()


def _all_cpus_free() -> bool:
    deadline = time.monotonic() + 10
    while ray.available_resources().get("CPU") != 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    return ray.available_resources().get("CPU") == 2
