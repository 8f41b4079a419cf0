"""HIP candidates: compile with hipcc for AMD targets and read each kernel's resource report (works on a CPU-only
machine), reject kernels over the target's LDS or register limits, and build a loadable library for the GPU at
hand: hipcc on ROCm, or nvcc through the HIP-on-CUDA header layer in hip_on_cuda/ on an NVIDIA GPU."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from miner.verify.models import Diagnostic, KernelResources, Outcome
from miner.verify.tasks import Task

SHIM_DIR = Path(__file__).resolve().parent / "hip_on_cuda"
COMPILE_TIMEOUT_S = 180
TARGET_LIMITS = {
    # LDS bytes per workgroup, VGPRs (arch + acc) and SGPRs per wave: CDNA2 / CDNA1 ISA limits
    "gfx90a": {"lds": 65536, "vgprs": 512, "sgprs": 102},
    "gfx908": {"lds": 65536, "vgprs": 512, "sgprs": 102},
}
_REMARK = re.compile(r"^(?P<file>[^:]+):(?P<line>\d+):\d+: remark:\s+(?P<key>[^:]+?):\s*(?P<value>\S+)")
_DIAG = re.compile(
    r"^(?P<file>[^:\s]+):(?P<line>\d+):(?:\d+:)?\s*(?P<sev>error|warning|fatal error)\s*:?\s*(?P<msg>.*)$"
)
_LDS_ERROR = re.compile(r"local memory \((\d+)\) exceeds limit \((\d+)\)")
_CUDA_SHARED_ERROR = re.compile(r"uses too much shared data \((0x[0-9a-f]+) bytes, (0x[0-9a-f]+) max\)")
_PTXAS_FN = re.compile(r"Function properties for (\S+)|Compiling entry function '(\S+)'")
_PTXAS_USED = re.compile(r"Used (\d+) registers.*?(?:(\d+) bytes smem)?")
_PTXAS_SPILL = re.compile(r"(\d+) bytes spill stores, (\d+) bytes spill loads")


@dataclass
class HipBuild:
    outcome: Outcome | None = None
    reason: str = ""
    resources: list[KernelResources] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)
    shared_object: str | None = None
    symbol: str = ""
    params: list[list[str]] = field(default_factory=list)
    platform: str = ""
    info: dict[str, Any] = field(default_factory=dict)


def parse_signature(signature: str) -> tuple[str, list[list[str]]]:
    """``void scal(int n, float alpha, float* x, int incx, hipStream_t stream)`` → ``scal``, [[name, kind], ...]."""
    m = re.fullmatch(r"\s*void\s+(\w+)\s*\((.*)\)\s*", signature)
    if not m:
        raise ValueError(f"not a launcher signature: {signature!r}")
    params = []
    for raw in m.group(2).split(","):
        decl = raw.strip()
        name = re.findall(r"\w+", decl)[-1]
        if "hipStream_t" in decl:
            kind = "stream"
        elif "*" in decl:
            kind = "ptr"
        elif re.match(r"(const\s+)?(int|int32_t|int64_t|long)\b", decl):
            kind = "int"
        elif re.match(r"(const\s+)?(float|double)\b", decl):
            kind = "float"
        else:
            raise ValueError(f"unsupported parameter {decl!r} in {signature!r}")
        params.append([name, kind])
    return m.group(1), params


def parse_resource_remarks(text: str, target: str) -> list[KernelResources]:
    """Per-kernel resources from ``-Rpass-analysis=kernel-resource-usage`` remarks."""
    keys = {
        "SGPRs": "sgprs", "VGPRs": "vgprs", "AGPRs": "agprs", "ScratchSize [bytes/lane]": "scratch_bytes_per_lane",
        "Occupancy [waves/SIMD]": "occupancy_waves_per_simd", "SGPRs Spill": "sgpr_spills",
        "VGPRs Spill": "vgpr_spills", "LDS Size [bytes/block]": "lds_bytes",
    }  # fmt: skip
    out: list[KernelResources] = []
    for line in text.splitlines():
        m = _REMARK.match(line)
        if not m:
            continue
        key, value = m.group("key").strip(), m.group("value")
        if key == "Function Name":
            out.append(KernelResources(kernel=value, target=target))
        elif out and key in keys and value.lstrip("-").isdigit():
            setattr(out[-1], keys[key], int(value))
    return out


def parse_ptxas(text: str) -> list[KernelResources]:
    """Per-kernel registers, shared memory and spills from ``nvcc -Xptxas -v``."""
    out: list[KernelResources] = []
    for line in text.splitlines():
        if fn := _PTXAS_FN.search(line):
            name = fn.group(1) or fn.group(2)
            if not out or out[-1].kernel != name:
                out.append(KernelResources(kernel=name, target="cuda"))
        elif out and (spill := _PTXAS_SPILL.search(line)):
            out[-1].spill_bytes = int(spill.group(1)) + int(spill.group(2))
        elif out and (used := _PTXAS_USED.search(line)):
            out[-1].registers = int(used.group(1))
            smem = re.search(r"(\d+) bytes smem", line)
            out[-1].shared_bytes = int(smem.group(1)) if smem else 0
    return out


def parse_diagnostics(text: str, filename: str) -> list[Diagnostic]:
    out = []
    for line in text.splitlines():
        m = _DIAG.match(line.strip())
        if m and Path(m.group("file")).name == filename:
            out.append(Diagnostic(line=int(m.group("line")), severity=m.group("sev"), message=m.group("msg")[:500]))
        elif line.startswith("error:"):
            out.append(Diagnostic(line=None, severity="error", message=line[6:].strip()[:500]))
    return out


def over_limits(resources: list[KernelResources]) -> list[str]:
    bad = []
    for r in resources:
        limits = TARGET_LIMITS.get(r.target)
        if not limits:
            continue
        if (r.lds_bytes or 0) > limits["lds"]:
            bad.append(f"{r.kernel} uses {r.lds_bytes} bytes of LDS, over the {limits['lds']} of {r.target}")
        if (r.vgprs or 0) + (r.agprs or 0) > limits["vgprs"]:
            bad.append(f"{r.kernel} uses {r.vgprs} VGPRs + {r.agprs} AGPRs, over the {limits['vgprs']} of {r.target}")
        if (r.sgprs or 0) > limits["sgprs"]:
            bad.append(f"{r.kernel} uses {r.sgprs} SGPRs, over the {limits['sgprs']} of {r.target}")
    return bad


def hipcc() -> str | None:
    return shutil.which("hipcc")


def build_hip(task: Task, source: str, *, device: str, targets: tuple[str, ...] = ("gfx90a",)) -> HipBuild:
    """Compile-check for each AMD target (where hipcc exists), then build for the device; failures are values."""
    build = HipBuild()
    if not task.hip_signature:
        build.outcome, build.reason = Outcome.COMPILE, f"task {task.name} has no HIP launcher signature"
        return build
    build.symbol, build.params = parse_signature(task.hip_signature)
    work = Path(tempfile.mkdtemp(prefix="rocm-miner-hip-"))
    src = work / "candidate.hip"
    src.write_text(source)
    if hipcc():
        for target in targets:
            if not _amd_check(build, src, target):
                return build
    else:
        build.info["amd_check"] = "skipped: hipcc is not installed on this machine"
    if device == "cuda":
        _build_for_gpu(build, src, work)
    return build


def _amd_check(build: HipBuild, src: Path, target: str) -> bool:
    cmd = [hipcc(), f"--offload-arch={target}", "-O3", "-c", str(src), "-o", str(src.with_suffix(f".{target}.o")),
           "-Rpass-analysis=kernel-resource-usage"]  # fmt: skip
    proc = _run(cmd, {"HIP_PLATFORM": "amd"})
    build.info.setdefault("hipcc_flags", " ".join(cmd[1:3] + cmd[-1:]))
    text = proc.stdout + proc.stderr
    build.resources += parse_resource_remarks(text, target)
    build.diagnostics += parse_diagnostics(text, src.name)
    if lds := _LDS_ERROR.search(text):
        build.outcome = Outcome.RESOURCE_LIMIT
        build.reason = f"{target}: LDS {lds.group(1)} bytes exceeds the limit of {lds.group(2)}"
        return False
    if proc.returncode != 0:
        build.outcome, build.reason = Outcome.COMPILE, f"hipcc ({target}): " + _first_error(text)
        return False
    if bad := over_limits(build.resources):
        build.outcome, build.reason = Outcome.RESOURCE_LIMIT, "; ".join(bad)
        return False
    return True


def _build_for_gpu(build: HipBuild, src: Path, work: Path) -> None:
    import torch

    out = work / "candidate.so"
    if torch.version.hip:
        cmd = [hipcc() or "hipcc", "--offload-arch=native", "-O3", "-shared", "-fPIC", str(src), "-o", str(out)]
        proc, build.platform = _run(cmd, {"HIP_PLATFORM": "amd"}), f"rocm {torch.version.hip} (hipcc)"
    else:
        nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
        cmd = [nvcc, "-x", "cu", "-arch=native", "-O3", "-shared", "-Xcompiler", "-fPIC", "-Xptxas", "-v",
               "-I", str(SHIM_DIR), str(src), "-o", str(out)]  # fmt: skip
        proc = _run(cmd, {})
        version = re.search(r"release (\S+),", _run([nvcc, "--version"], {}).stdout)
        build.platform = f"hip-on-cuda ({torch.cuda.get_device_name()}, nvcc {version.group(1) if version else '?'})"
        build.resources += parse_ptxas(proc.stderr)
    build.info["gpu_build"] = " ".join(str(c) for c in cmd[1:] if not str(c).startswith(str(work)))
    text = proc.stdout + proc.stderr
    build.diagnostics += parse_diagnostics(text, src.name)
    if shared := _CUDA_SHARED_ERROR.search(text):
        build.outcome = Outcome.RESOURCE_LIMIT
        build.reason = (
            f"cuda: shared memory {int(shared.group(1), 16)} bytes exceeds the limit of {int(shared.group(2), 16)}"
        )
        return
    if proc.returncode != 0 or not out.exists():
        build.outcome, build.reason = Outcome.COMPILE, "GPU build: " + _first_error(text)
        return
    build.shared_object = str(out)


def _run(cmd: list[str], extra_env: dict[str, str]) -> subprocess.CompletedProcess:
    env = {**os.environ, **extra_env}
    try:
        return subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=COMPILE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(cmd, 124, "", f"error: compiler timed out after {COMPILE_TIMEOUT_S} s")
    except OSError as exc:
        return subprocess.CompletedProcess(cmd, 127, "", f"error: {exc}")


def _first_error(text: str) -> str:
    for line in text.splitlines():
        if "error" in line:
            return line.strip()[:500]
    return text.strip()[-500:]
