"""Which overloads of a helper a call can reach: by its number of arguments and by the namespace it names."""

from __future__ import annotations

from miner.qa.overloads import argument_count, qualifier, reachable
from tests.qa.test_grounding import _region


def _helper(code: str, qualified_name: str):
    name = qualified_name.rpartition("::")[2]
    return _region("device_helper", name, code, 50).model_copy(update={"qualified_name": qualified_name})


ONE_SCALAR = _helper("template <typename T>\n__device__ T load_scalar(T x)\n{\n    return x;\n}", "load_scalar")
STRIDED = _helper(
    "template <typename T>\n__device__ T load_scalar(const T* x, int idx, long inc)\n{\n    return x[idx * inc];\n}",
    "load_scalar",
)
GLOBAL_CONJ = _helper("template <typename T>\n__device__ T conj(const T& z)\n{\n    return z;\n}", "conj")
STD_CONJ = _helper(
    "template <typename T>\n__device__ T conj(const cplx<T>& z)\n{\n    return {z.x, -z.y};\n}", "std::conj"
)


def test_a_call_reaches_only_the_overloads_that_take_its_arguments() -> None:
    assert argument_count("auto beta = load_scalar(beta_host_device);", "load_scalar") == 1
    assert argument_count("auto a = load_scalar(alpha, batch, stride_alpha);", "load_scalar") == 3
    assert argument_count("f(load_scalar(", "load_scalar") is None  # the call runs on past the line
    assert reachable(ONE_SCALAR, "auto beta = load_scalar(beta_host_device);", "load_scalar")
    assert not reachable(STRIDED, "auto beta = load_scalar(beta_host_device);", "load_scalar")


def test_a_qualified_call_reaches_only_its_namespace_and_an_unqualified_one_no_std_overload() -> None:
    assert qualifier("return std::conj(z);", "conj") == "std"
    assert qualifier("T v = CONJ ? conj(x[i]) : x[i];", "conj") == ""
    assert reachable(STD_CONJ, "return std::conj(z);", "conj")
    assert not reachable(GLOBAL_CONJ, "return std::conj(z);", "conj")
    assert reachable(GLOBAL_CONJ, "T v = CONJ ? conj(x[i]) : x[i];", "conj")
    assert not reachable(STD_CONJ, "T v = CONJ ? conj(x[i]) : x[i];", "conj")
