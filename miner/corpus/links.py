"""Verify tasks linked to the library kernels they restate, so that a task and those kernels land in one split.

The link is what the task file says, nothing guessed from its name: a task whose description (its docstring's first
line) names a library entry point in parentheses, ``BLAS-1 axpy (rocblas_saxpy): ...``, is linked to that entry
point's live kernels, read from ``entries.jsonl`` of a mine of its library among the corpus's inputs."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from miner.corpus.inputs import MineInfo

_NAMED = re.compile(r"\s\(([A-Za-z]\w*_\w+)\)")  # " (rocblas_saxpy)", not "silu(a)"


@dataclass(frozen=True)
class TaskLink:
    task: str
    entry: str  # the entry point the task's description names ("" when none)
    kernels: tuple[str, ...]  # the kernel families the task's rows join
    note: str  # why it is linked or not


def task_links(tasks_dir: Path, tasks: Iterable[str], mines: Sequence[MineInfo]) -> dict[str, TaskLink]:
    return {task: _link(tasks_dir, task, mines) for task in sorted(set(tasks))}


def named_entry(source: str) -> str:
    """The entry point named in parentheses on the first line of a task file's docstring, or ""."""
    try:
        doc = ast.get_docstring(ast.parse(source)) or ""
    except SyntaxError:
        return ""
    found = _NAMED.search(doc.split("\n", 1)[0])
    return found.group(1) if found else ""


def _link(tasks_dir: Path, task: str, mines: Sequence[MineInfo]) -> TaskLink:
    try:
        entry = named_entry((tasks_dir / f"{task}.py").read_text(encoding="utf-8"))
    except OSError:
        return TaskLink(task, "", (), "task file not found")
    if not entry:
        return TaskLink(task, "", (), "names no library entry point")
    libraries = [m for m in mines if m.folder is not None and entry.startswith(f"{m.library}_")]
    if not libraries:
        return TaskLink(task, entry, (), "no mine of its library among the inputs")
    kernels = sorted({k for mine in libraries for k in _live_kernels(mine, entry)})
    if not kernels:
        return TaskLink(task, entry, (), "no live kernel of it in the mines")
    return TaskLink(task, entry, tuple(kernels), "linked")


def _live_kernels(mine: MineInfo, entry: str) -> set[str]:
    """The kernel families of ``entry`` (by their home library: ``@rocblas/...`` is rocBLAS's) in the mine."""
    assert mine.folder is not None
    file = mine.folder / "entries.jsonl"
    if not file.is_file():
        return set()
    needle = f'"{entry}"'.encode()
    found: set[str] = set()
    with open(file, "rb") as fh:
        for raw in fh:
            if needle not in raw:
                continue
            record = json.loads(raw)
            if record.get("name") != entry:
                continue
            for kernel in record.get("kernels", []):
                if kernel.get("live"):
                    region = kernel.get("region", "")
                    home = region[1:].split("/", 1)[0] if region.startswith("@") else mine.library
                    found.add(f"kernel:{home}:{kernel['name']}")
    return found
