"""How rocm-miner's processes take Ctrl-C and SIGTERM: the main process stops the run and says so in one line;
the worker processes it started stay quiet and are stopped by it."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator


class Terminated(KeyboardInterrupt):
    """SIGTERM reached the main process: the run stops as on Ctrl-C, finished work kept."""


@contextlib.contextmanager
def sigterm_stops() -> Iterator[None]:
    """Inside, SIGTERM raises ``Terminated`` in this process; a process forked from it dies of SIGTERM as usual."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    main = os.getpid()

    def on_sigterm(signum: int, frame: object) -> None:
        if os.getpid() != main:
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)
            return
        raise Terminated

    previous = signal.signal(signal.SIGTERM, on_sigterm)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


@contextlib.contextmanager
def children_ignore_ctrl_c() -> Iterator[None]:
    """Processes started inside ignore SIGINT from their first instruction on, Python's start-up included. Ctrl-C
    reaches the terminal's whole process group; the main process alone reports it and stops the workers."""
    if threading.current_thread() is not threading.main_thread():  # a thread cannot set handlers; it can block
        blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            yield
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
