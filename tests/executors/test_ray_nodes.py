"""A Ray cluster of two nodes on this machine (``ray.cluster_utils``, no network beyond it): a spec whose arguments
are shared runs in processes forked here and in actors on the other node; the other node dying loses nothing."""

from __future__ import annotations

import os
import threading

import pytest

from miner.executors import Lost, Tasks, WorkerSpec
from tests.executors import workers

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def cluster():
    from ray import cloudpickle
    from ray.cluster_utils import Cluster

    cloudpickle.register_pickle_by_value(workers)
    made = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, "include_dashboard": False})
    made.add_node(num_cpus=1)
    made.wait_for_nodes()
    yield made
    made.shutdown()


@pytest.fixture()
def executor(cluster):
    from miner.executors.ray_actors import RayExecutor

    made = RayExecutor(cluster.address)
    yield made
    made.close()


def _there(results: dict) -> list:
    return [k for k, r in results.items() if not isinstance(r, Lost) and r[0] != os.getpid()]


def test_shared_arguments_are_forked_here_and_sent_to_the_other_node(executor):
    spec = WorkerSpec("test", workers.Holder, ("tag",), shared=True)
    results = dict(executor.run(spec, Tasks([(i, ("wait", 0.5)) for i in range(16)])))
    assert sorted(results) == list(range(16))
    here = [k for k, r in results.items() if r[0] == os.getpid()]
    assert here and _there(results), "this node's forked worker and the other node's actor both took tasks"
    assert {r[1] for r in results.values()} == {"str"}


def test_the_other_node_dying_loses_no_task(cluster, executor):
    other = next(node for node in cluster.worker_nodes)
    spec = WorkerSpec("test", workers.Holder, ("tag",), shared=True)
    results: dict = {}
    killed = threading.Event()
    for key, result in executor.run(spec, Tasks([(i, ("wait", 0.5)) for i in range(16)])):
        results[key] = result
        if not killed.is_set() and _there(results):
            cluster.remove_node(other, allow_graceful=False)
            killed.set()
    assert killed.is_set(), "the other node took a task before it was killed"
    assert sorted(results) == list(range(16))
    assert not [r for r in results.values() if isinstance(r, Lost)]
    assert all(r.detail.startswith("worker died") for r in executor.retried)


def test_a_released_executor_closes_once_its_ray_has_stopped(cluster):
    from miner.executors.ray_actors import RayExecutor

    made = RayExecutor(cluster.address)
    made.release()
    made.release()
    made.close()
    assert not ray.is_initialized()
