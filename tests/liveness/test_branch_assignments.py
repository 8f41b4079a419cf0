"""A local assigned in branches has, where it is read, the values of the assignments that can reach there:
rocSOLVER's larf sets ``trans`` only ``if (leftside)``, larft sets it before each call inside its loop.
Each pattern has a twin where another assignment can reach the read, which must stay live."""

from __future__ import annotations

import pytest

from tests.liveness.test_relations import verdict, walk

LIBRARY = """
void gemvn(int) {}
void gemvt(int) {}
void library_gemv(int trans, int m) { if(trans == 0) gemvn(m); else gemvt(m); }
"""

LARF = (
    LIBRARY
    + """
template <bool COMPLEX>
int larf(int side, int m)
{
    bool leftside = (side == 1);
    int trans = 0;
    if(leftside)
        trans = COMPLEX ? 2 : 1;
    library_gemv(trans, m);
    return 0;
}
int left(int m) { return larf<false>(1, m); }
int right(int m) { return larf<false>(0, m); }
int any_side(int side, int m) { return larf<false>(side, m); }
"""
)


@pytest.mark.parametrize(
    ("entry", "gemvn", "gemvt"),
    [("left", "dead", "live"), ("right", "live", "dead"), ("any_side", "live", "live")],
)
def test_an_assignment_in_a_branch_that_holds_replaces_the_initial_value(tmp_path, entry, gemvn, gemvt):
    live, dead = walk(tmp_path, LARF, entry)
    assert (verdict("gemvn", live, dead), verdict("gemvt", live, dead)) == (gemvn, gemvt)


LARFT = (
    LIBRARY
    + """
int larft(int storev, int k)
{
    int trans = 0;
    for(int i = 1; i < k; ++i)
    {
        if(storev == 1)
        {
            trans = 2;
            library_gemv(trans, i);
        }
        else
        {
            trans = 0;
            library_gemv(trans, i);
        }
        trans = 0;
        OTHER_USE
    }
    return 0;
}
int api(int k) { return larft(1, k); }
"""
)


def test_an_assignment_just_before_the_read_in_a_loop_is_the_value_read(tmp_path):
    live, dead = walk(tmp_path, LARFT.replace("OTHER_USE", ""))
    assert verdict("gemvn", live, dead) == "dead"  # storev == 1: trans = 2 right before the call


FIRST_READ = (
    LIBRARY
    + """
int api(int k)
{
    int trans = 1;
    for(int i = 1; i < k; ++i)
    {
        library_gemv(trans, i);
        trans = 0;
    }
    return 0;
}
"""
)


def test_an_assignment_after_the_read_in_a_loop_comes_round_to_it(tmp_path):
    live, dead = walk(tmp_path, FIRST_READ)
    assert (verdict("gemvn", live, dead), verdict("gemvt", live, dead)) == ("live", "live")


COME_ROUND = (
    LIBRARY
    + """
int api(int m)
{
    int trans = 1;
    do
    {
        library_gemv(trans, m);
        trans = 0;
    } while(--m > 0);
    return 0;
}
"""
)


def test_a_do_while_loop_brings_a_later_assignment_back_to_the_read(tmp_path):
    live, dead = walk(tmp_path, COME_ROUND)
    assert verdict("gemvn", live, dead) == "live"
