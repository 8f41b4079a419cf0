"""The environment a verdict was reached in: GPU, driver, CUDA or ROCm, compilers and library versions."""

from __future__ import annotations

import functools
import importlib.metadata
import platform
import re
import shutil
import subprocess
import sys
from typing import Any


@functools.cache
def environment(device: str) -> dict[str, Any]:
    import torch

    env: dict[str, Any] = {
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "torch": torch.__version__,
        "triton": _version("triton"),
        "cuda": torch.version.cuda,
        "rocm": torch.version.hip,
        "device": device,
        "hipcc": _tool_version(["hipcc", "--version"], r"HIP version: (\S+)"),
        "nvcc": _tool_version(["nvcc", "--version"], r"release (\S+),"),
    }
    if device == "cuda" and torch.cuda.is_available():
        props = torch.cuda.get_device_properties(0)
        env["gpu"] = props.name
        env["gpu_count"] = torch.cuda.device_count()
        env["compute_capability"] = f"{props.major}.{props.minor}"
        env["driver"] = _tool_version(["nvidia-smi", "--query-gpu=driver_version", "--format=csv,noheader"], r"(\S+)")
    return env


def _version(distribution: str) -> str | None:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return None


def _tool_version(cmd: list[str], pattern: str) -> str | None:
    if shutil.which(cmd[0]) is None:
        return None
    try:
        out = subprocess.run(
            cmd,
            capture_output=True,
            text=True,
            timeout=30,
            env={"HIP_PLATFORM": "amd", "PATH": "/usr/local/cuda/bin:/usr/bin:/bin"},
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    m = re.search(pattern, out.stdout + out.stderr)
    return m.group(1) if m else None
