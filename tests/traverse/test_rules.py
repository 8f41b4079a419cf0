"""Traversal rules: which rule decides each kind of node."""

from __future__ import annotations

import pytest

from miner.source.profile import load_profile
from miner.traverse.rules import RuleSet


def node(name, file, *, qualified=None, defined=True, space="host"):
    return {"name": name, "qualified_name": qualified or name, "file": file, "defined": defined, "exec_space": space}


ROCBLAS_CASES = [
    ("logging", node("log_trace", "library/src/include/logging.hpp"), "exclude", "deny_names:log_*"),
    ("numerics", node("rocblas_internal_check_numerics_vector_template", "library/src/check_numerics_vector.cpp"),
     "exclude", "deny_names:*check_numerics*"),
    ("handle-method", node("get_stream", "library/src/include/handle.hpp", qualified="_rocblas_handle::get_stream"),
     "exclude", "deny_names:_rocblas_handle::*"),
    ("memory-size-query", node("rocblas_set_optimal_device_memory_size", "library/src/handle.cpp"),
     "exclude", "deny_names:*device_memory_size*"),
    ("host-utility", node("rocblas_is_complex_helper", "library/src/include/utility.hpp"),
     "exclude", "deny_host_paths:library/src/include/utility.hpp"),
    ("device-helper-in-utility", node("load_scalar", "library/src/include/utility.hpp", space="host_device"),
     "follow", ""),
    ("std", node("min", "/usr/include/c++/12/bits/stl_algobase.h", qualified="std::min", defined=False),
     "boundary", "std"),
    ("hip-runtime", node("hipMemcpyAsync", "/usr/include/hip/hip_runtime_api.h", defined=False),
     "boundary", "hip-runtime"),
    ("tensile", node("runContractionProblem", "library/src/include/tensile_host.hpp", defined=False),
     "boundary", "generated"),
    ("undefined", node("rocblas_declared_only", "library/src/include/foo.hpp", defined=False),
     "boundary", "undefined"),
    ("kernel", node("rocblas_scal_kernel", "library/src/blas1/rocblas_scal_kernels.hpp", space="global"),
     "follow", ""),
    ("client-code", node("testing_scal", "clients/gtest/scal_gtest.cpp"), "exclude", "deny_paths:clients/*"),
]  # fmt: skip


@pytest.mark.parametrize(("data", "action", "rule"), [c[1:] for c in ROCBLAS_CASES], ids=[c[0] for c in ROCBLAS_CASES])
def test_rocblas_rules(data, action, rule):
    v = RuleSet(load_profile("rocblas")).classify(data)
    assert (v.action, v.rule) == (action, rule)


def test_rocsolver_calls_into_rocblas_without_its_checkout_are_other_library():
    rules = RuleSet(load_profile("rocsolver"))
    v = rules.classify(node("rocblas_internal_gemm_template", "library/src/include/rocblas.hpp", defined=False))
    assert (v.action, v.rule) == ("boundary", "other-library")


def test_other_library_code_follows_that_librarys_rules():
    rules = RuleSet(load_profile("rocsolver"), other_rules={"@rocblas/": RuleSet(load_profile("rocblas"))})
    v = rules.classify(node("log_trace", "@rocblas/library/src/include/logging.hpp"))
    assert (v.action, v.rule) == ("exclude", "rocblas:deny_names:log_*")
    assert (
        rules.classify(node("rocblas_scal_kernel", "@rocblas/library/src/blas1/k.hpp", space="global")).action
        == "follow"
    )
