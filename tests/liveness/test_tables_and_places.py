"""Block sizes chosen from tuning tables, and the values locals hold where they are read.

rocSOLVER picks its block sizes from two-dimensional tables searched by interval (``size[get_index(rows,
M, m)][get_index(cols, N, n)]``, a table per branch of ``if (ISBATCHED)``), hands its own trsm to rocBLAS only where the table says 0, and computes
a panel width once per loop iteration (``jb = std::min(n - j, nb)`` under ``while (j < n - nb)``). Each
pattern has a twin where the fact does not hold, which must stay live."""

from __future__ import annotations

import pytest

from tests.liveness.test_relations import verdict, walk

SEARCH = """
int get_index(int* intervals, int max, int dim)
{
    int i;
    for(i = 0; i < max; ++i)
    {
        if(dim <= intervals[i])
            break;
    }
    return i;
}
"""

BLOCKED = (
    SEARCH
    + """
void library_trsm_small() {}
void library_trsm_large() {}
void library_trsm(int m, int n)
{
    if(n <= 64) library_trsm_small();
    else library_trsm_large();
}
void own_kernels() {}
template <bool BATCHED>
int blksize(int m, int n)
{
    int blk;
    if(BATCHED)
    {
        int M = 2;
        int N = 3;
        int rows[] = {40, 176};
        int cols[] = {448, 768, 7680};
        int size[][4] = {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}};
        blk = size[get_index(rows, M, m)][get_index(cols, N, n)];
    }
    else
    {
        int M = 2;
        int N = 3;
        int rows[] = {40, 176};
        int cols[] = {448, 768, 7680};
        int size[][4] = {TABLE};
        blk = size[get_index(rows, M, m)][get_index(cols, N, n)];
    }
    if(blk == 1)
        blk = std::min(m, 512);
    return blk;
}
int trsm(int m, int n)
{
    int blk = blksize<false>(m, n);
    if(blk == 0)
        library_trsm(m, n);
    else
        own_kernels();
    return 0;
}
int fixed(int n) { return trsm(FIXED, n); }
int any(int m, int n) { return trsm(m, n); }
"""
)

# row 0: m <= 40, row 1: 40 < m <= 176, row 2: m > 176; columns likewise by n
ROWS_WITHOUT_ZERO_BUT_LAST = "{1, 1, 1, 1}, {16, 16, 32, 32}, {1, 64, 0, 0}"
ZERO_ONLY_FOR_SMALL_N = "{1, 1, 1, 1}, {0, 16, 32, 32}, {1, 64, 0, 0}"


@pytest.mark.parametrize(
    ("table", "fixed", "library"),
    [
        (ROWS_WITHOUT_ZERO_BUT_LAST, 100, "dead"),  # row 1 has no 0: own kernels only
        (ROWS_WITHOUT_ZERO_BUT_LAST, 180, "live"),  # row 2 has zeros for n > 768
        (ZERO_ONLY_FOR_SMALL_N, 100, "live"),
    ],
)
def test_a_table_row_without_zero_never_hands_over(tmp_path, table, fixed, library):
    live, dead = walk(tmp_path, BLOCKED.replace("TABLE", table).replace("FIXED", str(fixed)), "fixed")
    assert "own_kernels" in live
    assert verdict("library_trsm", live, dead) == library


@pytest.mark.parametrize(("table", "small"), [(ROWS_WITHOUT_ZERO_BUT_LAST, "dead"), (ZERO_ONLY_FOR_SMALL_N, "live")])
def test_what_the_table_says_narrows_the_arguments_handed_over(tmp_path, table, small):
    """m = 180 is row 2, whose zeros are for n > 768: rocBLAS gets n > 768, never its small kernels; with a
    zero at n <= 448 in row 1 (m = 100) it may."""
    fixed = 180 if table == ROWS_WITHOUT_ZERO_BUT_LAST else 100
    live, dead = walk(tmp_path, BLOCKED.replace("TABLE", table).replace("FIXED", str(fixed)), "fixed")
    assert "library_trsm_large" in live
    assert verdict("library_trsm_small", live, dead) == small


def test_a_row_with_zeros_leaves_any_size_live(tmp_path):
    live, dead = walk(tmp_path, BLOCKED.replace("TABLE", ROWS_WITHOUT_ZERO_BUT_LAST), "any")
    assert {"own_kernels", "library_trsm", "library_trsm_small", "library_trsm_large"} <= live


PANELS = """
void restricted_kernel() {}
void general_kernel() {}
void syrk(int n, int k)
{
    if(k % 8 == 0) restricted_kernel();
    else general_kernel();
}
int potrf(int uplo, int n)
{
    int nb = 180;
    if(n <= SWITCH) return 0;
    int jb, j = 0;
    if(uplo == 1)
    {
        while(j < n - SWITCH)
        {
            jb = std::min(n - j, nb);
            if(j + jb < n) syrk(n - j - jb, jb);
            j += nb;
        }
    }
    else
    {
        while(j < n - SWITCH)
        {
            jb = std::min(n - j, nb);
            if(j + jb < n) syrk(n - j - jb, jb);
            j += nb;
        }
    }
    return 0;
}
"""


@pytest.mark.parametrize(("switch", "restricted"), [(180, "dead"), (100, "live")])
def test_a_width_assigned_in_two_loops_is_read_where_it_was_set(tmp_path, switch, restricted):
    """``jb`` is set in both loops; each read sees its own loop's assignment, where ``j < n - 180`` makes
    ``n - j`` more than 180, so ``jb`` is 180 and ``180 % 8 != 0``. With a switch size below the block the
    last panel may be narrower, and any width is possible."""
    live, dead = walk(tmp_path, PANELS.replace("SWITCH", str(switch)), "potrf")
    assert "general_kernel" in live
    assert verdict("restricted_kernel", live, dead) == restricted


OUTER = (
    SEARCH
    + """
void zero_width_kernel() {}
void panel_kernel() {}
void panel(int m)
{
    if(m == 0) zero_width_kernel();
    panel_kernel();
}
int getrf_blksize(int dim, bool pivot)
{
    int sizes[] = {0, 1, 64};
    int npvt[] = {0, -1, -64};
    int intervals[] = {64, 512};
    int blk;
    if(pivot)
        blk = sizes[get_index(intervals, 2, dim)];
    else
        blk = npvt[get_index(intervals, 2, dim)];
    if(blk == 1 || blk == -1)
        blk *= dim;
    return blk;
}
void unblocked() {}
int getrf(int m, int n, bool pivot)
{
    if(m <= 0 || n <= 0)
        return 0;
    int dim = std::min(m, n);
    int blk = getrf_blksize(dim, pivot);
    EARLY_EXIT
    bool whole = false;
    if(blk < 0)
    {
        whole = true;
        blk = -blk;
    }
    for(int j = 0; j < dim; j += blk)
    {
        int jb = std::min(dim - j, blk);
        panel(jb);
    }
    return 0;
}
int pivoting(int m, int n) { return getrf(m, n, true); }
int not_pivoting(int m, int n) { return getrf(m, n, false); }
"""
)


@pytest.mark.parametrize("entry", ["pivoting", "not_pivoting"])
@pytest.mark.parametrize(
    ("exit", "zero_width"), [("if(blk == 0) { unblocked(); return 0; }", "dead"), ("unblocked();", "live")]
)
def test_a_negated_block_size_after_an_early_exit_is_positive(tmp_path, entry, exit, zero_width):
    """``blk`` is 0, 64 or ``1 * dim`` (pivoting) or 0, -64 or ``-1 * dim`` (``blk *= dim``); after ``if (blk ==
    0) return`` and ``if (blk < 0) blk = -blk`` it is positive, so each panel is at least one column wide."""
    live, dead = walk(tmp_path, OUTER.replace("EARLY_EXIT", exit), entry)
    assert "panel_kernel" in live
    assert verdict("zero_width_kernel", live, dead) == zero_width


WRITTEN_TABLE = (
    SEARCH
    + """
void never_zero() {}
void when_zero() {}
void zero_it(int* t) { t[0] = 0; }
int api(int m)
{
    int sizes[] = {16, 32};
    int intervals[] = {64};
    WRITE
    int blk = sizes[get_index(intervals, 1, m)];
    if(blk == 0) when_zero();
    never_zero();
    return 0;
}
"""
)


@pytest.mark.parametrize("write", ["zero_it(sizes);", "int* alias = sizes; zero_it(alias);", "sizes[1] = 0;"])
def test_a_table_something_may_write_is_not_read_as_declared(tmp_path, write):
    live, dead = walk(tmp_path, WRITTEN_TABLE.replace("WRITE", write), "api")
    assert {"never_zero", "when_zero"} <= live


def test_an_unwritten_table_is_read_as_declared(tmp_path):
    live, dead = walk(tmp_path, WRITTEN_TABLE.replace("WRITE", ""), "api")
    assert verdict("when_zero", live, dead) == "dead"
