"""The worker sandbox: scrubbed environment, no network, killed whole on timeout."""

from __future__ import annotations

import os
from pathlib import Path

from miner.verify.sandbox import scrubbed_env


def test_scrubbed_env_drops_secrets_and_user_config(monkeypatch, tmp_path: Path):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "x")
    env = scrubbed_env(tmp_path, "cpu")
    assert "OPENAI_API_KEY" not in env and "AWS_SECRET_ACCESS_KEY" not in env
    assert env["HOME"] == str(tmp_path) and env["TRITON_INTERPRET"] == "1"
    assert os.environ["OPENAI_API_KEY"] == "sk-secret"


ADD = """
import os
import torch
import triton
import triton.language as tl


@triton.jit
def _add(a, b, out, M, N, sam, san, sbm, sbn, SCALE: tl.constexpr, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    r, c = i // N, i % N
    m = i < M * N
    tl.store(out + i, SCALE * (tl.load(a + r * sam + c * san, mask=m) + tl.load(b + r * sbm + c * sbn, mask=m)), mask=m)


def launch(a, b, out):
    M, N = a.shape
    if M * N:
        scale = 0.0 if ESCAPED else 1.0
        _add[(triton.cdiv(M * N, 1024),)](a, b, out, M, N, a.stride(0), a.stride(1), b.stride(0), b.stride(1), SCALE=scale, BLOCK=1024)
"""


def _verify(source: str, verifier):
    from miner.verify.evaluate import Candidate
    from miner.verify.tasks import load_task, task_file

    return verifier.verify(load_task(task_file("vector_add")), Candidate("triton", source))


def test_candidate_sees_no_secrets(monkeypatch, cpu_verifier):
    """The probe computes the right answer only when it cannot read a secret of the controller's environment."""
    from miner.verify.models import Outcome

    monkeypatch.setenv("SANDBOX_PROBE_SECRET", "secret")
    escaped = 'bool(os.environ.get("OPENAI_API_KEY") or os.environ.get("SANDBOX_PROBE_SECRET"))'
    verdict = _verify(ADD.replace("ESCAPED", escaped), cpu_verifier)
    assert verdict.outcome == Outcome.PASSED, verdict.reason


def test_a_connection_attempt_fails_and_is_reported(cpu_verifier):
    """The network namespace stops the connection to a live local server, and the attempt itself is the verdict."""
    import socket

    from miner.verify.models import Outcome

    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    probe = f"""
import socket
def _escaped():
    try:
        socket.create_connection(("127.0.0.1", {port}), timeout=1).close()
        return True
    except OSError:
        return False
"""
    try:
        verdict = _verify(probe + ADD.replace("ESCAPED", "_escaped()"), cpu_verifier)
    finally:
        server.close()
    assert verdict.sandbox["network_isolated"] is True
    assert verdict.outcome == Outcome.SUSPECTED_HACK, verdict.reason
    assert f"socket.connect(('127.0.0.1', {port}))" in verdict.reason


def test_timeout_kills_the_candidates_children_too(tmp_path, cpu_verifier):
    from miner.verify.evaluate import Candidate
    from miner.verify.models import Outcome
    from miner.verify.tasks import load_task, task_file

    pid_file = tmp_path / "child.pid"
    tmp_path.chmod(0o777)
    source = (
        "import subprocess, time\n"
        "def launch(a, b, out):\n"
        "    child = subprocess.Popen(['sleep', '1000'])\n"
        f"    open({str(pid_file)!r}, 'w').write(str(child.pid))\n"
        "    time.sleep(1000)\n"
    )
    verdict = cpu_verifier.verify(load_task(task_file("vector_add")), Candidate("triton", source))
    assert verdict.outcome == Outcome.TIMEOUT
    assert not _alive(int(pid_file.read_text()))


def test_memory_watchdog_kills_a_worker_over_its_limit():
    import pytest

    from miner.verify.sandbox import Limits, WorkerOverMemory, start_worker
    from miner.verify.tasks import task_file

    worker = start_worker("cpu", Limits())
    try:
        worker.wait_ready(120)
        worker.limits = Limits(host_memory_bytes=16 << 20)  # far below what a worker with torch holds
        slow = worker.workdir / "candidate.py"
        slow.write_text("import time\ntime.sleep(60)\n")
        load = {"op": "load", "task": str(task_file("vector_add")), "backend": "triton", "candidate": str(slow)}
        with pytest.raises(WorkerOverMemory):
            worker.call(load, timeout=30)
        assert worker.proc.poll() is not None
    finally:
        worker.close()


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "State:\tZ" not in state
