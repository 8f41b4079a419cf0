"""A Ray cluster of two nodes on this machine (``ray.cluster_utils``, no network beyond it): a spec whose arguments
are shared runs in processes forked here and in actors on the other node; the other node dying loses nothing."""

from __future__ import annotations

import multiprocessing
import os
import threading
import time

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

    if not cluster.worker_nodes:  # a test before killed it
        cluster.add_node(num_cpus=1)
        cluster.wait_for_nodes()
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


class _FirstForTheActor:
    """A task keyed ``first`` for the actor (worker 1) before anything else; the others for whoever is free."""

    def __init__(self, first: tuple, others: list[tuple]) -> None:
        self.first = [("first", first)]
        self.others = list(enumerate(others))

    def take(self, worker: int):
        if worker and self.first:
            return self.first.pop(0)
        if self.others:
            return self.others.pop(0)
        return self.first.pop(0) if self.first else None

    def exhausted(self) -> bool:
        return not self.first and not self.others

    def wait(self, timeout: float) -> None:
        pass

    def cancelled(self) -> bool:
        return False


def test_a_task_the_actor_died_on_keeps_its_tries_on_the_forked_workers(executor):
    spec = WorkerSpec("test", workers.Doer, ("built",), shared=True)
    results = dict(executor.run(spec, _FirstForTheActor(("die", 0), [("sleep", 1.0)] * 6)))
    assert [results[i][1] for i in range(6)] == [1.0] * 6
    lost = results["first"]
    assert isinstance(lost, Lost) and (lost.reason, lost.tries) == ("crash", 2)
    # one retry only, the actor's: the forked worker that died on it second had the task's second try
    assert [(r.key, r.detail.startswith("worker died (Actor")) for r in executor.retried] == [("first", True)]


def test_the_other_node_dying_hands_its_task_to_the_forked_workers(cluster, executor):
    other = next(node for node in cluster.worker_nodes)
    spec = WorkerSpec("test", workers.Holder, ("tag",), shared=True)
    start = time.monotonic()
    killed = threading.Event()

    def kill_once_the_actor_holds_the_long_task() -> None:
        while not killed.is_set() and time.monotonic() - start < 60:
            if any(key == "first" and not isinstance(handle, multiprocessing.Process)
                   for handle, key in executor.running()):  # fmt: skip
                cluster.remove_node(other, allow_graceful=False)
                killed.set()
            time.sleep(0.05)

    watcher = threading.Thread(target=kill_once_the_actor_holds_the_long_task)
    watcher.start()
    results = dict(executor.run(spec, _FirstForTheActor(("wait", 20.0), [("wait", 1.0)] * 8)))
    watcher.join()
    assert killed.is_set(), "the actor took the long task"
    assert sorted(results, key=str) == [*range(8), "first"]
    assert not [r for r in results.values() if isinstance(r, Lost)]
    assert results["first"][0] == os.getpid(), "done again by the forked worker"
    assert [(r.spec, r.key) for r in executor.retried] == [("test", "first")]
    assert time.monotonic() - start < 50, "no wait for a replacement actor that has no node"


def test_a_released_executor_closes_once_its_ray_has_stopped(cluster):
    from miner.executors.ray_actors import RayExecutor

    made = RayExecutor(cluster.address)
    made.release()
    made.release()
    made.close()
    assert not ray.is_initialized()
