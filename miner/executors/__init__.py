"""Where a stage's work runs: local worker processes (the default) or Ray actors on a cluster. Parse, liveness
analysis and verification hand an executor a ``WorkerSpec`` and a ``Source`` of tasks and read back results; none
of them knows which executor it was given."""

from __future__ import annotations

from miner.executors.base import Executor, ExecutorError, Inbox, Lost, Retried, Source, Tasks, WorkerSpec
from miner.executors.local import LocalExecutor

__all__ = [
    "Executor", "ExecutorError", "Inbox", "LocalExecutor", "Lost", "Retried", "Source", "Tasks", "WorkerSpec",
    "make_executor",
]  # fmt: skip


def make_executor(kind: str = "local", *, jobs: int = 1, address: str | None = None) -> Executor:
    """``local``: ``jobs`` worker processes here. ``ray``: the Ray cluster at ``address`` (``auto`` finds the one
    ``ray start`` started here), else a local Ray with ``jobs`` CPUs."""
    if kind == "local":
        return LocalExecutor(jobs)
    if kind == "ray":
        from miner.executors.ray_actors import RayExecutor

        return RayExecutor(address, num_cpus=None if address else jobs)
    raise ExecutorError(f"unknown executor {kind!r} (local or ray)")
