"""An argument the call leaves out takes the callee's default (rocSOLVER's getf2 is called without
``permut_idx``, so ``if (permut_idx)`` launches nothing); a null pointer is the value 0."""

from __future__ import annotations

import pytest

from tests.liveness.test_relations import verdict, walk

GETF2 = """
void permut_init(int) {}
void panel(int) {}
template <typename T>
int getf2(int m, int offset = 0, T* permut = nullptr, int stride = 4)
{
    if(permut) permut_init(m);
    if(stride != 4) permut_init(offset);
    panel(m);
    return 0;
}
int left_out(int m) { return getf2<int>(m); }
int null_given(int m) { return getf2<int>(m, 0, (int*)nullptr); }
int pointer_given(int m, int* p) { return getf2<int>(m, 0, p); }
int stride_given(int m, int s) { return getf2<int>(m, 0, nullptr, s); }
"""


@pytest.mark.parametrize(
    ("entry", "permut_init"),
    [("left_out", "dead"), ("null_given", "dead"), ("pointer_given", "live"), ("stride_given", "live")],
)
def test_a_left_out_argument_takes_the_default(tmp_path, entry, permut_init):
    live, dead = walk(tmp_path, GETF2, entry)
    assert "panel" in live
    assert verdict("permut_init", live, dead) == permut_init
