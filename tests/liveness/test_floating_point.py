"""Scalars that decide a path: rocSOLVER hands rocBLAS ``&one`` (a host ``T one = 1``) as ``alpha``, and rocBLAS's
trsm launcher reads it into ``alpha_h`` (``alpha_h = *alpha``, or a ``hipMemcpy`` of ``*alpha`` in device pointer
mode) before ``if (alpha_h == T(0.0))`` launches the kernel that zeroes the matrix. Floating-point values are
carried only where they are integers held exactly, and never take part in integer reasoning. Each pattern has
twins where the value is not known, which must stay live."""

from __future__ import annotations

import pytest

from tests.liveness.test_relations import verdict, walk

TRSM = """
typedef unsigned long size_t;
typedef int hipError_t;
extern "C" hipError_t hipMemcpyAsync(void* dst, const void* src, size_t size, int kind, void* stream);
extern "C" hipError_t hipStreamSynchronize(void* stream);
#define RETURN_IF_HIP_ERROR(X) do { hipError_t status_ = X; if(status_ != 0) return 1; } while(0)
void set_matrix_zero(int) {}
void substitution(int) {}
void scale_in_place(float*) {}
struct handle_t { int mode; };
template <typename T>
int trsm_launcher(handle_t* handle, int m, const T* alpha)
{
    REPOINT
    T alpha_h;
    if(handle->mode == 0)
        alpha_h = *alpha;
    else
    {
        RETURN_IF_HIP_ERROR(hipMemcpyAsync(&alpha_h, alpha, SIZE, 2, nullptr));
        SYNC
    }
    if(alpha_h == T(0.0))
    {
        set_matrix_zero(m);
        return 0;
    }
    substitution(m);
    return 0;
}
template <typename T>
int trsm_template(handle_t* handle, int m, const T* alpha)
{
    return trsm_launcher(handle, m, alpha);
}
int api(handle_t* handle, int m, const float* user_alpha)
{
    float one = ONE;
    HANDED
    return trsm_template(handle, m, ALPHA);
}
"""
PLAIN = {
    "REPOINT": "", "SIZE": "sizeof(T)", "SYNC": "RETURN_IF_HIP_ERROR(hipStreamSynchronize(nullptr));", "HANDED": "",
    "ALPHA": "&one",
}  # fmt: skip


def _trsm(tmp_path, **changes: str):
    source = TRSM
    for key, value in {**PLAIN, **changes}.items():
        source = source.replace(key, value)
    return walk(tmp_path, source)


@pytest.mark.parametrize(
    ("one", "zero_can_run", "substitution_can_run"), [("1", False, True), ("0", True, False), ("-1.0f", False, True)]
)
def test_a_host_scalar_handed_by_address_decides_the_alpha_zero_branch(
    tmp_path, one, zero_can_run, substitution_can_run
):
    live, dead = _trsm(tmp_path, ONE=one)
    assert verdict("set_matrix_zero", live, dead) == ("live" if zero_can_run else "dead")
    assert verdict("substitution", live, dead) == ("live" if substitution_can_run else "dead")


@pytest.mark.parametrize(
    "changes",
    [
        {"ALPHA": "user_alpha"},  # the caller's own pointer: any value
        {"ONE": "0.5f"},  # not an integer
        {"ONE": "1.0f / 3"},  # arithmetic
        {"HANDED": "scale_in_place(&one);"},  # its address given where it may be written
        {"HANDED": "one = 0;"},  # reassigned before the call
        {"REPOINT": "T zero = 0; if(m > 4) alpha = &zero;"},  # the launcher points elsewhere
        {"SIZE": "2"},  # a copy of part of the value
        {"SYNC": ""},  # an asynchronous copy nothing waits for: it may land after the branch
        {"HANDED": "float& alias = one; alias = 0;"},  # written through a reference
        {"HANDED": "float other = 1; (m > 0 ? one : other) = 0;"},  # one of two, for all we know
        {"REPOINT": "*const_cast<T*>(alpha) = 0;"},  # written once const is cast away
    ],
)
def test_a_scalar_not_known_at_the_branch_leaves_both_paths_live(tmp_path, changes):
    live, dead = _trsm(tmp_path, **changes)
    expect_zero = changes.get("HANDED") == "one = 0;"
    assert "set_matrix_zero" in live
    assert verdict("substitution", live, dead) == ("dead" if expect_zero else "live")


DISPATCH = """
void alpha_one_kernel(int) {}
void general_kernel(int) {}
template <typename T>
int dispatch(int n, const T alpha, const T beta)
{
    if(alpha == 1.0 && beta == 0.0)
        alpha_one_kernel(n);
    else
        general_kernel(n);
    return 0;
}
template <typename T>
int syrk(int n, const T* alpha, const T* beta)
{
    return dispatch(n, *alpha, -*beta);
}
int api(int n)
{
    double one = 1, zero = 0, alpha = ALPHA;
    return syrk(n, &alpha, &zero);
}
"""


@pytest.mark.parametrize(("alpha", "general_can_run"), [("1", False), ("-1", True)])
def test_a_scalar_passed_by_value_after_dereferencing_decides_the_kernel(tmp_path, alpha, general_can_run):
    live, dead = walk(tmp_path, DISPATCH.replace("ALPHA", alpha))
    assert verdict("general_kernel", live, dead) == ("live" if general_can_run else "dead")
    assert verdict("alpha_one_kernel", live, dead) == ("dead" if general_can_run else "live")


COPY_THEN_WRITE = """
typedef unsigned long size_t;
extern "C" int hipMemcpy(void* dst, const void* src, size_t size, int kind);
void zero_kernel(int) {}
void other_kernel(int) {}
int launcher(int c, const float* alpha)
{
    float x;
    if(c)
        x = *alpha;
    else
    {
        do { int status = hipMemcpy(&x, alpha, sizeof(float), 2); if(status) x = 0; } while(0);
    }
    if(x == 0) zero_kernel(0); else other_kernel(0);
    return 0;
}
int api(int c) { float one = 1; return launcher(c, &one); }
"""


def test_a_copy_followed_by_another_write_in_its_statement_decides_nothing(tmp_path):
    live, dead = walk(tmp_path, COPY_THEN_WRITE)
    assert {"zero_kernel", "other_kernel"} <= live and not dead


@pytest.mark.parametrize("half", ["__fp16", "_Float16"])
def test_a_value_converted_to_half_precision_is_unknown(tmp_path, half):
    """4097 is 4096 in half precision: the conversion may round, so nothing is decided."""
    source = f"""
void exact_kernel(int) {{}}
void rounded_kernel(int) {{}}
void launcher({half} h) {{ int k = h; if(k == 4097) exact_kernel(0); else rounded_kernel(0); }}
int api() {{ float f = 4097; launcher(f); return 0; }}
"""
    live, dead = walk(tmp_path, source)
    assert "rounded_kernel" in live


def test_an_integer_assigned_through_a_conditional_may_be_either(tmp_path):
    source = """
void one_kernel(int) {}
void other_kernel(int) {}
void launcher(int c, int n, int m) { (c ? n : m) = 0; if(n == 1) one_kernel(0); else other_kernel(0); }
int api(int c) { launcher(c, 1, 2); return 0; }
"""
    live, dead = walk(tmp_path, source)
    assert {"one_kernel", "other_kernel"} <= live
