"""Ray actors on a local Ray (no network beyond this machine); skipped where Ray is not installed."""

from __future__ import annotations

import pytest

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
