"""Memory limits of a worker. Per case: a small multiple of the bytes of the case's inputs and outputs, plus
what the runtime itself needs, never more than the worker's share of the machine (every worker that may run at
once gets one). Resident memory is read from outside the worker, its peak reset before each command."""

from __future__ import annotations

import contextlib
import os

RUNTIME_HOST_BYTES = {"cpu": 768 << 20, "cuda": 4 << 30}
"""Host memory the runtime needs besides the case. On CPU measured: a worker holds 278 MiB resident after importing
torch 2.13 and Triton 3.6, 361 MiB at its peak running softmax, gemm and layernorm under the interpreter; about
twice that. On a GPU the CUDA libraries and context add a few GiB (not measured here)."""
RUNTIME_DEVICE_BYTES = 1 << 30
"""Device memory besides the case: the 256 MiB L2 flush buffer, allocator rounding, Triton's scratch."""
CASE_FACTOR = 8
"""Copies of a case a worker may hold: the harness's own (poison, read-back) and the candidate's scratch."""
STORE_BUDGET = 1 << 30
"""Bytes of timed outputs the worker keeps for the after-the-fact check (fewer kept repetitions when outputs are big)."""
MACHINE_FRACTION = 0.8


def case_bytes(tensors: list) -> int:
    return sum(t.numel() * t.element_size() for t in tensors)


def host_limit(nbytes: int, device: str, share: int) -> int:
    return min(share, RUNTIME_HOST_BYTES[device] + CASE_FACTOR * nbytes)


def device_limit(nbytes: int, kept_bytes: int, share: int) -> int:
    return min(share, RUNTIME_DEVICE_BYTES + CASE_FACTOR * nbytes + kept_bytes)


def host_share(workers: int) -> int:
    """This worker's share of the machine's memory when ``workers`` workers may hold memory at once."""
    total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    return int(total * MACHINE_FRACTION) // max(1, workers)


def device_share(idle_workers: int) -> int:
    """Device memory the active worker may use: idle spares hold a context and a flush buffer each."""
    import torch

    if not torch.cuda.is_available():
        return 0
    _, total = torch.cuda.mem_get_info()
    return int(total * 0.9) - idle_workers * RUNTIME_DEVICE_BYTES


def peak_resident(pid: int) -> int | None:
    """The process's peak resident memory (VmHWM) since it started or since the last reset_peak."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        return None
    return None


def reset_peak(pid: int) -> None:
    """Start a new peak (writing 5 to clear_refs); without permission the peak keeps counting from earlier."""
    with contextlib.suppress(OSError), open(f"/proc/{pid}/clear_refs", "w") as f:
        f.write("5")
