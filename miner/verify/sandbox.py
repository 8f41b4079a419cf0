"""Worker processes that run candidates: own session and process group, scrubbed environment, no network,
memory and file-size limits, killed whole on timeout. A pool keeps spares started ahead, so the seconds a
worker spends importing torch and creating its device context overlap the previous candidate.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import json
import os
import resource
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import time
from collections import deque
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from miner.verify import wire
from miner.verify.memory import host_share, peak_resident, reset_peak

REPO_ROOT = Path(__file__).resolve().parents[2]
CLONE_NEWNET = 0x40000000
NOBODY = 65534
PASSED_ENV = ("CUDA_VISIBLE_DEVICES", "LD_LIBRARY_PATH", "TRITON_LIBCUDA_PATH", "CUDA_HOME", "TRITON_PTXAS_PATH")
PASSED_ENV_PREFIXES = ("NCCL_", "NVSHMEM_", "TORCH_SYMM_MEM_")  # multicast stays off where the machine says so


@dataclass(frozen=True)
class Limits:
    """What a worker may use; the controller enforces them from outside."""

    host_memory_bytes: int = field(default_factory=lambda: host_share(2))
    """The most any case may use: a share of the machine (the controller's per-case limit is usually far lower)."""
    file_size_bytes: int = 2 << 30
    isolate_network: bool = True
    drop_privileges: bool = True
    """When started as root, the worker continues as nobody (it cannot signal the controller or write outside its
    dir), where nobody can read the Python installation and the repository; the verdict records the uid it ran as."""


class WorkerDied(Exception):
    """The worker exited (crash, signal, or the candidate called exit) before answering."""

    def __init__(self, message: str, *, returncode: int | None, stderr_tail: str) -> None:
        super().__init__(message)
        self.returncode = returncode
        self.stderr_tail = stderr_tail


class WorkerTimedOut(Exception):
    """The worker did not answer in time; it has been killed with its process group."""


class WorkerOverMemory(Exception):
    """The worker's resident memory passed the limit; it has been killed with its process group."""


@dataclass
class Worker:
    proc: subprocess.Popen
    sock: socket.socket
    workdir: Path
    device: str
    limits: Limits
    started: float = field(default_factory=time.monotonic)
    ready: dict[str, Any] | None = None
    case_limit: int | None = None
    """Resident memory the current case may use; the machine share when unset."""

    @property
    def pid(self) -> int:
        return self.proc.pid

    def wait_ready(self, timeout: float) -> dict[str, Any]:
        if self.ready is None:
            self.ready, _ = self.call(None, timeout=timeout)
        return self.ready

    def call(
        self, header: dict[str, Any] | None, blobs: list[bytes] = (), *, timeout: float
    ) -> tuple[dict[str, Any], list[bytes]]:
        """Send a command (or nothing) and wait for the answer; on timeout or death the worker is killed."""
        try:
            if header is not None:
                reset_peak(self.pid)
                wire.send(self.sock, header, list(blobs))
            reply = wire.recv(self.sock, time.monotonic() + timeout, self._watch)
            self._over(peak_resident(self.pid), "peak")
            return reply
        except wire.WireTimeout as exc:
            self.kill()
            raise WorkerTimedOut(f"no answer within {timeout:.0f} s") from exc
        except (wire.WireClosed, BrokenPipeError, ConnectionResetError) as exc:
            rc = self._reap()
            raise WorkerDied(_death(rc), returncode=rc, stderr_tail=self.stderr_tail()) from exc

    @property
    def memory_limit(self) -> int:
        return min(self.limits.host_memory_bytes, self.case_limit or self.limits.host_memory_bytes)

    def _watch(self) -> None:
        self._over(_rss_bytes(self.pid), "")

    def _over(self, rss: int | None, kind: str) -> None:
        if rss is not None and rss > self.memory_limit:
            self.kill()
            what = f"{kind} resident memory" if kind else "resident memory"
            raise WorkerOverMemory(f"{what} {rss >> 20} MiB over the {self.memory_limit >> 20} MiB limit")

    def stderr_tail(self, limit: int = 4000) -> str:
        try:
            data = (self.workdir / "stderr.txt").read_bytes()
        except OSError:
            return ""
        return data[-limit:].decode(errors="replace")

    def _reap(self) -> int | None:
        try:
            return self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill()
            return self.proc.returncode

    def kill(self) -> None:
        """Kill the worker's whole process group (the candidate's children too)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=10)
        self.sock.close()

    def close(self) -> None:
        self.kill()
        shutil.rmtree(self.workdir, ignore_errors=True)


def child_processes(pid: int) -> list[str]:
    """Processes ``pid`` started that are still there (running or unreaped), as ``name (pid N)``."""
    out = []
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    for tid in tids:
        try:
            with open(f"/proc/{pid}/task/{tid}/children") as f:
                pids = f.read().split()
        except OSError:
            continue
        for child in pids:
            try:
                with open(f"/proc/{child}/comm") as f:
                    out.append(f"{f.read().strip()} (pid {child})")
            except OSError:
                out.append(f"pid {child}")
    return out


def _death(rc: int | None) -> str:
    if rc is None:
        return "worker vanished"
    if rc < 0:
        return f"crashed with {signal.Signals(-rc).name}"
    return f"exited with status {rc}"


def _rss_bytes(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def scrubbed_env(workdir: Path, device: str) -> dict[str, str]:
    """Only what a worker needs: no API keys, no user configuration, a private home, cache and temp dir."""
    exe_dir = str(Path(sys.executable).parent)
    env = {
        "PATH": f"{exe_dir}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
        "HOME": str(workdir),
        "TMPDIR": str(workdir),
        "TRITON_CACHE_DIR": str(workdir / "triton-cache"),
        "PYTHONPATH": os.pathsep.join(
            [str(REPO_ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
        ),
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONNOUSERSITE": "1",
        "PYTHONUNBUFFERED": "1",
        "LANG": "C.UTF-8",
        "OMP_NUM_THREADS": "1",
    }
    for key, value in os.environ.items():
        if key in PASSED_ENV or key.startswith(PASSED_ENV_PREFIXES):
            env[key] = value
    if device == "cpu":
        env["TRITON_INTERPRET"] = "1"
        env["CUDA_VISIBLE_DEVICES"] = ""
    return env


def confine(limits: Limits, device: str) -> dict[str, Any]:
    """Called by the worker itself, first thing, while it is still single-threaded: limits, a network
    namespace of its own, then an unprivileged user. Returns what held, for the verdict's record."""
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_size_bytes, limits.file_size_bytes))
    if device == "cpu":  # a GPU context maps far more address space than it uses, so GPU workers are watched instead
        resource.setrlimit(resource.RLIMIT_AS, (limits.host_memory_bytes, limits.host_memory_bytes))
    network_isolated = False
    if limits.isolate_network:
        libc = ctypes.CDLL(None, use_errno=True)
        network_isolated = libc.unshare(CLONE_NEWNET) == 0
    user = os.getuid()
    if limits.drop_privileges and user == 0:
        os.setgroups([])
        os.setgid(NOBODY)
        os.setuid(NOBODY)
        user = os.getuid()
    return {"network_isolated": network_isolated, "uid": user}


@functools.cache
def _nobody_can_run_python() -> bool:
    """Whether an unprivileged user can reach the interpreter, its packages and this repository."""
    import importlib.util

    paths = [Path(sys.executable).resolve(), REPO_ROOT / "miner" / "verify" / "worker.py"]
    for name in ("torch", "triton"):
        spec = importlib.util.find_spec(name)
        if spec and spec.origin:
            paths.append(Path(spec.origin).resolve())
    return all(_world_readable(p) for p in paths)


def _world_readable(path: Path) -> bool:
    try:
        if not path.stat().st_mode & stat.S_IROTH:
            return False
        return all(parent.stat().st_mode & stat.S_IXOTH for parent in path.parents)
    except OSError:
        return False


def start_worker(device: str, limits: Limits = Limits()) -> Worker:
    """Start a worker process; it imports torch (and Triton), sets up the device and then says it is ready."""
    workdir = Path(tempfile.mkdtemp(prefix="rocm-miner-worker-"))
    if limits.drop_privileges and not _nobody_can_run_python():
        limits = replace(limits, drop_privileges=False)
    if limits.drop_privileges and os.getuid() == 0:
        os.chown(workdir, NOBODY, NOBODY)
    parent, child = socket.socketpair()
    with open(workdir / "stdout.txt", "wb") as out, open(workdir / "stderr.txt", "wb") as err:  # noqa: SIM117
        proc = subprocess.Popen(
            [sys.executable, "-m", "miner.verify.worker", str(child.fileno()), device, json.dumps(asdict(limits))],
            cwd=workdir,
            env=scrubbed_env(workdir, device),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            pass_fds=(child.fileno(),),
            start_new_session=True,
        )
    child.close()
    return Worker(proc=proc, sock=parent, workdir=workdir, device=device, limits=limits)


class WorkerPool:
    """Fresh workers on demand, ``spares`` of them started ahead; each worker serves one candidate."""

    def __init__(
        self, device: str, *, spares: int = 1, limits: Limits = Limits(), ready_timeout: float = 300.0
    ) -> None:
        self.device = device
        self.limits = limits
        self.ready_timeout = ready_timeout
        self._spares: deque[Worker] = deque(start_worker(device, limits) for _ in range(spares))
        self._target = spares

    def take(self) -> Worker:
        worker = self._spares.popleft() if self._spares else start_worker(self.device, self.limits)
        while len(self._spares) < self._target:
            self._spares.append(start_worker(self.device, self.limits))
        worker.wait_ready(self.ready_timeout)
        return worker

    def close(self) -> None:
        while self._spares:
            self._spares.popleft().close()

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
