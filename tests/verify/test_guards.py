"""The worker's guards, piece by piece: the audit hook, the read-back through aliases, the reservoir of timed
outputs, per-case memory limits and processes left behind."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import torch

from miner.verify import memory
from miner.verify.integrity import Guarded, Reader
from miner.verify.repetitions import Reservoir
from miner.verify.sandbox import Limits, WorkerOverMemory, child_processes, start_worker
from tests.verify.conftest import REPO

HOOK_SCRIPT = """
import json, socket, subprocess, sys
sys.path[:0] = [{repo!r}, {tmp!r}]
from miner.verify.attempts import AttemptRecorder
recorder = AttemptRecorder([{toolchain!r}])
import candidate, faketriton.build

def everything():
    candidate.spawn()
    candidate.lookup()
    faketriton.build.compile()

everything()  # not while candidate code runs: nothing recorded
with recorder.active():
    everything()
print(json.dumps(recorder.take()))
"""


def test_the_audit_hook_records_the_candidate_but_not_the_toolchain_nor_outside_candidate_code(tmp_path: Path):
    (tmp_path / "candidate.py").write_text(
        "import socket, subprocess\n"
        "def spawn():\n    subprocess.run(['true'])\n"
        "def lookup():\n    socket.getaddrinfo('localhost', 80)\n"
    )
    (tmp_path / "faketriton").mkdir()
    (tmp_path / "faketriton" / "__init__.py").write_text("")
    (tmp_path / "faketriton" / "build.py").write_text(
        "import subprocess\ndef compile():\n    subprocess.run(['true'])\n"
    )
    script = HOOK_SCRIPT.format(repo=str(REPO), tmp=str(tmp_path), toolchain=str(tmp_path / "faketriton"))
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, check=True)
    attempts = json.loads(done.stdout.strip().splitlines()[-1])
    assert attempts == [
        "subprocess.Popen('true', ['true'], None, None)",
        "socket.getaddrinfo('localhost', 80, 0, 0, 0)",
    ]


class _Lazy(torch.Tensor):
    pass


def test_reads_go_through_the_alias_and_every_kind_of_tampering_is_named():
    reader = Reader(torch)
    out = torch.zeros(4)
    guard = Guarded.of("out", out, reader)
    assert guard.problems(reader) == []
    out.fill_(2.0)
    out.__class__ = _Lazy
    assert "out became a _Lazy" in guard.problems(reader)[0]
    assert reader.raw_bytes(guard.alias) == torch.full((4,), 2.0).numpy().tobytes()

    replaced = torch.zeros(4)
    replaced.contiguous = lambda: None
    assert "contiguous replaced" in Guarded.of("x", replaced, reader).problems(reader)[0]

    moved = torch.zeros(4)
    guard = Guarded.of("y", moved, reader)
    moved.data = torch.ones(4)
    assert "no longer views the memory" in guard.problems(reader)[0]


def test_a_patched_tensor_method_is_reported_and_reads_do_not_call_it():
    reader = Reader(torch)
    t = torch.arange(3.0)
    torch.Tensor.contiguous = lambda self, *a, **k: (_ for _ in ()).throw(AssertionError("called"))
    try:
        assert reader.replaced() == ["torch.Tensor.contiguous"]
        assert reader.raw_bytes(reader.alias(t)) == torch.arange(3.0).numpy().tobytes()
    finally:
        del torch.Tensor.contiguous
    assert reader.replaced() == []


def test_a_torch_function_mode_left_active_is_named():
    from torch.overrides import TorchFunctionMode

    reader = Reader(torch)
    assert reader.modes_left() == []
    mode = TorchFunctionMode()
    mode.__enter__()
    try:
        assert reader.modes_left() == ["left a torch function mode active"]
    finally:
        mode.__exit__(None, None, None)


def test_the_reservoir_keeps_every_rep_alike_and_copies_only_those_it_keeps():
    rng = random.Random(0)
    counts = [0] * 10
    for _ in range(3000):
        reservoir = Reservoir(2, rng.randbytes)
        for rep in range(10):
            reservoir.offer(rep, rep, lambda: None)
        for rep, _ in reservoir.kept():
            counts[rep] += 1
    assert all(abs(c / 3000 - 0.2) < 0.04 for c in counts), counts
    taken: list[int] = []
    reservoir = Reservoir(1, rng.randbytes)
    for rep in range(1000):
        reservoir.offer(rep, rep, lambda rep=rep: taken.append(rep))
    assert taken[0] == 0 and len(taken) < 30 and reservoir.kept()[0][0] == taken[-1]


def test_a_case_limit_is_a_multiple_of_its_bytes_under_the_machine_share():
    share = memory.host_share(2)
    small = memory.host_limit(1 << 20, "cpu", share)
    assert small == memory.RUNTIME_HOST_BYTES["cpu"] + memory.CASE_FACTOR * (1 << 20) < 1 << 30
    assert memory.host_limit(1 << 40, "cpu", share) == share
    assert share < os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2


def test_a_brief_spike_over_the_case_limit_is_caught_from_the_peak(tmp_path: Path):
    """A candidate that takes 256 MiB and gives it back within one command is never seen by the resident-memory
    poll (the answer comes first); the peak read after the answer catches it."""
    worker = start_worker("cpu", Limits())
    try:
        worker.wait_ready(120)
        spike = worker.workdir / "candidate.py"
        spike.write_text(
            textwrap.dedent("""
            hoard = b"x" * (256 << 20)
            del hoard
            def launch(a, b, out):
                pass
            """)
        )
        worker.case_limit = memory.peak_resident(worker.pid) + (128 << 20)
        load = {"op": "load", "task": str(REPO / "tasks" / "vector_add.py"), "backend": "triton"}
        with pytest.raises(WorkerOverMemory, match="peak resident memory"):
            worker.call({**load, "candidate": str(spike)}, timeout=60)
    finally:
        worker.close()


def test_processes_left_behind_are_seen():
    sleeper = subprocess.Popen(["sleep", "30"])
    try:
        assert any(p.endswith(f"(pid {sleeper.pid})") for p in child_processes(os.getpid()))
    finally:
        sleeper.kill()
        sleeper.wait()
    assert not any(p.endswith(f"(pid {sleeper.pid})") for p in child_processes(os.getpid()))
