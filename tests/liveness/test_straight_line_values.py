"""A local given a constant just before a call holds that constant at the call, whatever other values it
takes elsewhere in the function (rocSOLVER's larft sets ``trans`` before each gemv/trmv; larf sets it
under ``if (leftside)``). Where a jump, an escaping address, a loop or a reference parameter could change
it in between, the value is not assumed."""

from __future__ import annotations

import pytest

from tests.liveness.test_relations import verdict, walk

TRMV = """
void trmv_n() {}
void trmv_t() {}
void trmv(int trans) {
    if(trans == 0) trmv_n();
    else trmv_t();
}
"""

PER_CALL = (
    TRMV
    + """
int larft(int n) {
    int trans;
    trans = 1;
    trmv(trans);
    if(n > 4) {
        trans = 0;
        trmv(trans);
    }
    return 0;
}
int only_last(int n) {
    int trans = 1;
    trans = 0;
    trmv(trans);
    return 0;
}
"""
)


def test_a_constant_set_just_before_a_call_is_what_the_call_gets(tmp_path):
    live, dead = walk(tmp_path, PER_CALL, "larft")
    assert "trmv_n" in live and "trmv_t" in live  # both calls run
    live, dead = walk(tmp_path, PER_CALL, "only_last")
    assert verdict("trmv_t", live, dead) == "dead"
    assert "trmv_n" in live


BRANCH = (
    TRMV
    + """
int larf(int side) {
    bool leftside = (side == 7);
    int trans = 0;
    if(leftside)
    {
        trans = 1;
    }
    trmv(trans);
    return 0;
}
int left(int n) { return larf(7); }
int right(int n) { return larf(8); }
int either(int side) { return larf(side); }
"""
)


@pytest.mark.parametrize(
    ("entry", "transposed", "plain"),
    [("left", "live", "dead"), ("right", "dead", "live"), ("either", "live", "live")],
)
def test_a_constant_set_in_a_branch_follows_the_branch(tmp_path, entry, transposed, plain):
    live, dead = walk(tmp_path, BRANCH, entry)
    assert verdict("trmv_t", live, dead) == transposed
    assert verdict("trmv_n", live, dead) == plain


NOT_ASSUMED = (
    TRMV
    + """
void change(int* p) { *p = 0; }
void change_ref(int& r) { r = 0; }
void look(const int& r) {}
int escapes(int n) {
    int trans = 1;
    int* p = &trans;
    trans = 1;
    change(p);
    trmv(trans);
    return 0;
}
int by_reference(int n) {
    int trans = 1;
    change_ref(trans);
    trmv(trans);
    return 0;
}
int by_const_reference(int n) {
    int trans = 1;
    look(trans);
    trmv(trans);
    return 0;
}
int in_a_loop(int n) {
    int trans = 1;
    for(int i = 0; i < n; ++i) {
        trmv(trans);
        trans = 0;
    }
    return 0;
}
int jumped(int n) {
    int trans = 0;
    if(n > 2) goto skip;
    trans = 1;
skip:
    trmv(trans);
    return 0;
}
int in_a_lambda(int n) {
    int trans = 1;
    auto reset = [&]() { trans = 0; };
    trans = 1;
    reset();
    trmv(trans);
    return 0;
}
int g_mode = 1;
void flip() { g_mode = 0; }
int a_global(int n) {
    g_mode = 1;
    flip();
    trmv(g_mode);
    return 0;
}
int a_static(int n) {
    static int mode = 1;
    trmv(mode);
    mode = 0;
    return 0;
}
int switched(int n) {
    int trans = 0;
    switch(n) {
    case 0:
        trans = 1;
    case 1:
        trmv(trans);
    }
    return 0;
}
"""
)


@pytest.mark.parametrize(
    "entry", ["escapes", "by_reference", "in_a_loop", "in_a_lambda", "a_global", "a_static", "jumped", "switched"]
)
def test_a_value_something_else_may_change_is_not_assumed(tmp_path, entry):
    live, dead = walk(tmp_path, NOT_ASSUMED, entry)
    assert "trmv_n" in live and "trmv_t" in live


def test_a_const_reference_changes_nothing(tmp_path):
    live, dead = walk(tmp_path, NOT_ASSUMED, "by_const_reference")
    assert verdict("trmv_n", live, dead) == "dead"


IN_PLACE = """
void zero_if_alpha_zero() {}
void outofplace_kernel() {}
void recursive_kernel() {}
template <typename T>
const T* as_const(T* array) { return array; }
template <typename T>
int trmm_template(const T* dB, T* dC, int batch_count) {
    bool inplace = (dB == dC) || batch_count != 1;
    if(!inplace) {
        zero_if_alpha_zero();
        outofplace_kernel();
        return 0;
    }
    recursive_kernel();
    return 0;
}
template <typename T>
int trmm_call(T* B, int batch_count) { return trmm_template(as_const<T>(B), B, batch_count); }
int solver(float* B) { return trmm_call(B, 1); }
int user(const float* B, float* C) { return trmm_template(B, C, 1); }
"""


@pytest.mark.parametrize(("entry", "outofplace"), [("solver", "dead"), ("user", "live")])
def test_the_same_pointer_through_an_identity_cast_is_in_place(tmp_path, entry, outofplace):
    live, dead = walk(tmp_path, IN_PLACE, entry)
    assert "recursive_kernel" in live
    assert verdict("outofplace_kernel", live, dead) == outofplace


SHAPE = """
void left_kernel() {}
void right_kernel() {}
int get_shape(int side, int trans) {
    int shape = -1;
    if(side == 141) {
        if(trans == 111) shape = 0;
        else shape = 1;
    }
    else if(side == 142) {
        if(trans == 111) shape = 6;
        else shape = 7;
    }
    return shape;
}
int trmm(int side, int trans) {
    int shape = get_shape(side, trans);
    if(shape == 0 || shape == 1) left_kernel();
    else if(shape == 6 || shape == 7) right_kernel();
    return 0;
}
int left(int trans) { return trmm(141, trans); }
int any_side(int side) { return trmm(side, 111); }
"""


def test_a_result_set_in_nested_branches_follows_the_arguments(tmp_path):
    live, dead = walk(tmp_path, SHAPE, "left")
    assert "left_kernel" in live
    assert verdict("right_kernel", live, dead) == "dead"
    live, dead = walk(tmp_path, SHAPE, "any_side")
    assert "left_kernel" in live and "right_kernel" in live
