"""HIP: compile-only checks with Debian's hipcc for gfx90a (resources from the compiler's report, LDS limit), the
launcher signatures, and (on a GPU) execution of the BLAS-1 solutions."""

from __future__ import annotations

import shutil

import pytest

from miner.verify.evaluate import Candidate
from miner.verify.hip_backend import build_hip, over_limits, parse_ptxas, parse_resource_remarks, parse_signature
from miner.verify.models import KernelResources, Outcome
from miner.verify.tasks import find_tasks, load_task, task_file
from tests.verify.conftest import ADVERSARIAL, SOLUTIONS

HIP_SOLUTIONS = sorted((SOLUTIONS / "hip").glob("*.hip"))
WITH_HIP_LAUNCHER = [p for p in find_tasks("all") if load_task(p).hip_signature is not None]

REMARKS = """\
k.hip:2:1: remark: Function Name: scal [-Rpass-analysis=kernel-resource-usage]
k.hip:2:1: remark:     SGPRs: 14 [-Rpass-analysis=kernel-resource-usage]
k.hip:2:1: remark:     VGPRs: 5 [-Rpass-analysis=kernel-resource-usage]
k.hip:2:1: remark:     AGPRs: 0 [-Rpass-analysis=kernel-resource-usage]
k.hip:2:1: remark:     ScratchSize [bytes/lane]: 0 [-Rpass-analysis=kernel-resource-usage]
k.hip:2:1: remark:     Occupancy [waves/SIMD]: 8 [-Rpass-analysis=kernel-resource-usage]
k.hip:2:1: remark:     SGPRs Spill: 0 [-Rpass-analysis=kernel-resource-usage]
k.hip:2:1: remark:     VGPRs Spill: 0 [-Rpass-analysis=kernel-resource-usage]
k.hip:2:1: remark:     LDS Size [bytes/block]: 1024 [-Rpass-analysis=kernel-resource-usage]
"""


def test_resource_remarks_are_parsed_per_kernel():
    (r,) = parse_resource_remarks(REMARKS, "gfx90a")
    assert (r.kernel, r.sgprs, r.vgprs, r.agprs, r.scratch_bytes_per_lane) == ("scal", 14, 5, 0, 0)
    assert (r.occupancy_waves_per_simd, r.sgpr_spills, r.vgpr_spills, r.lds_bytes) == (8, 0, 0, 1024)


def test_limits_reject_lds_and_registers_over_the_target():
    ok = KernelResources(kernel="k", target="gfx90a", lds_bytes=65536, vgprs=256, agprs=0, sgprs=100)
    assert over_limits([ok]) == []
    assert "LDS" in over_limits([ok.model_copy(update={"lds_bytes": 65540})])[0]
    assert "VGPRs" in over_limits([ok.model_copy(update={"vgprs": 300, "agprs": 256})])[0]


def test_ptxas_report_is_parsed():
    text = (
        "ptxas info    : Compiling entry function '_Z4scalifPfi' for 'sm_90'\n"
        "ptxas info    : Function properties for _Z4scalifPfi\n"
        "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
        "ptxas info    : Used 10 registers, used 0 barriers, 1024 bytes smem, 372 bytes cmem[0]\n"
    )
    (r,) = parse_ptxas(text)
    assert (r.kernel, r.registers, r.shared_bytes, r.spill_bytes) == ("_Z4scalifPfi", 10, 1024, 0)


def test_hipcc_is_installed_and_some_tasks_have_a_hip_launcher():
    assert shutil.which("hipcc"), "setup.sh installs hipcc"
    assert HIP_SOLUTIONS and len(WITH_HIP_LAUNCHER) >= len(HIP_SOLUTIONS)


@pytest.mark.parametrize("path", WITH_HIP_LAUNCHER, ids=lambda p: p.stem)
def test_hip_signatures_name_the_task_arguments(path):
    task = load_task(path)
    _, params = parse_signature(task.hip_signature)
    assert [n for n, k in params if k != "stream"] == [a.name for a in task.args]


@pytest.mark.parametrize("path", HIP_SOLUTIONS, ids=lambda p: p.stem)
def test_hip_solution_compiles_for_gfx90a_within_limits(path):
    build = build_hip(load_task(task_file(path.stem)), path.read_text(), device="cpu")
    assert build.outcome is None, build.reason
    assert build.resources and all(r.vgprs and r.sgprs and r.occupancy_waves_per_simd for r in build.resources)


def test_hip_kernel_over_the_lds_limit_is_a_resource_limit_failure(cpu_verifier):
    source = (ADVERSARIAL / "hip" / "over_lds.hip").read_text()
    verdict = cpu_verifier.verify(load_task(task_file("scal")), Candidate("hip", source, "candidate.hip"))
    assert verdict.outcome == Outcome.RESOURCE_LIMIT
    assert "80000" in verdict.reason


def test_hip_compile_error_maps_to_the_candidate_line(cpu_verifier):
    source = (SOLUTIONS / "hip" / "scal.hip").read_text().replace("x[i * incx] *= alpha;", "x[i * incx] *= beta;")
    verdict = cpu_verifier.verify(load_task(task_file("scal")), Candidate("hip", source, "candidate.hip"))
    assert verdict.outcome == Outcome.COMPILE
    assert any(d.line == 5 and "beta" in d.message for d in verdict.diagnostics)


def test_hip_on_a_cpu_machine_is_compile_only(cpu_verifier):
    source = (SOLUTIONS / "hip" / "axpy.hip").read_text()
    verdict = cpu_verifier.verify(load_task(task_file("axpy")), Candidate("hip", source, "candidate.hip"))
    assert verdict.outcome == Outcome.NOT_RUN and verdict.compiled and not verdict.executed and not verdict.correct


@pytest.mark.gpu
@pytest.mark.parametrize("path", HIP_SOLUTIONS, ids=lambda p: p.stem)
def test_hip_solution_passes_on_gpu(path, gpu_verifier):
    verdict = gpu_verifier.verify(load_task(task_file(path.stem)), Candidate("hip", path.read_text(), "candidate.hip"))
    assert verdict.outcome == Outcome.PASSED, verdict.reason
    assert verdict.platform.startswith(("hip-on-cuda", "rocm"))
