"""Ctrl-C and SIGTERM: the main process stops the run and says so; the processes it starts stay quiet."""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import time

import pytest

from miner.signals import Terminated, children_ignore_ctrl_c, sigterm_stops


def _wait_for_sigterm() -> None:
    time.sleep(30)


def test_sigterm_stops_the_main_process_as_ctrl_c_does_and_the_handler_is_restored_after():
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(Terminated), sigterm_stops():
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # the handler runs at the next bytecode; this is never reached in full
    assert isinstance(Terminated(), KeyboardInterrupt)  # every "stop the run" path catches it
    assert signal.getsignal(signal.SIGTERM) == before


def test_a_process_forked_inside_dies_of_sigterm_instead_of_raising():
    with sigterm_stops():
        child = mp.get_context("fork").Process(target=_wait_for_sigterm)
        child.start()
        time.sleep(0.2)
        child.terminate()
        child.join(timeout=10)
    assert child.exitcode == -signal.SIGTERM


def test_processes_started_inside_ignore_ctrl_c_and_the_main_process_does_not():
    with children_ignore_ctrl_c():
        child = mp.get_context("spawn").Process(target=_wait_for_sigterm)
        child.start()
    try:
        os.kill(child.pid, signal.SIGINT)
        child.join(timeout=1)
        assert child.is_alive()
    finally:
        child.terminate()
        child.join(timeout=10)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
