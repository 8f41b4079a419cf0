"""The progress bar of the long commands (mine, diff): one bar per phase, on a terminal only."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn


@contextlib.contextmanager
def phase_bars(console: Console) -> Iterator[Callable[[str, int, int], None]]:
    """A ``progress(phase, done, total)`` callback that draws a bar per phase while the block runs."""
    with Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
        console=console, transient=True, disable=not console.is_terminal,
    ) as bar:  # fmt: skip
        tasks: dict[str, int] = {}

        def progress(phase: str, done: int, total: int) -> None:
            if phase not in tasks:
                tasks[phase] = bar.add_task(phase, total=total)
            bar.update(tasks[phase], completed=done)

        yield progress
