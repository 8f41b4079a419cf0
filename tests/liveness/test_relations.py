"""Value ranges beyond constants, on small C++ files parsed by libclang and walked as an entry would be:
function results read from their returns, constant tuning tables, ternaries, doubling loops, what a
``while`` loop leaves behind, and relations between variables that the branches on the way establish.
Each has a twin where the fact does not hold, which must stay live."""

from __future__ import annotations

import clang.cindex as ci
import networkx as nx
import pytest

from miner.liveness.analyse import LivenessAnalyser
from miner.models import FunctionFacts
from miner.parse.clang_facts import Extractor
from miner.parse.instances import InstanceWalker, instance_starts

STD_MIN = """namespace std {
template <class T> const T& min(const T& a, const T& b) { return b < a ? b : a; }
}
"""


def walk(tmp_path, source: str, entry: str = "api"):
    """Parse ``source``, walk its instances from ``entry``; the names of the functions that can be called,
    and of those a branch rules out."""
    src = tmp_path / "lib.cpp"
    src.write_text(STD_MIN + source)
    tu = ci.Index.create(excludeDecls=True).parse(str(src), args=["-x", "c++", "-std=c++17"])
    ex = Extractor(root=str(tmp_path), launch_macros=())
    instances = InstanceWalker(ex).walk(instance_starts(tu, ex), "lp64")
    g = nx.DiGraph()
    for usr in {i.usr for i in instances} | {c.target for i in instances for c in i.calls}:
        name = usr.split("@F@")[-1].split("#")[0].split("<")[0]
        facts = FunctionFacts(usr, name, name, "function", "lib.cpp", 1, 100, 0, 1, "host")
        g.add_node(usr, defined=True, facts=facts, name=name, qualified_name=name, file="lib.cpp", line=1,
                   exec_space="host")  # fmt: skip
    root = next(i.usr for i in instances if i.usr.split("@F@")[-1].startswith(f"{entry}#"))
    result = LivenessAnalyser(g, {(i.usr, "lp64"): i for i in instances}).walk(root, "lp64")
    live = {g.nodes[n]["name"] for n in result.live}
    dead = {g.nodes[callee]["name"] for (_, _, callee) in result.guarded_dead} - live
    return live, dead


def verdict(name: str, live: set[str], dead: set[str]) -> str:
    """ "live" or "dead" when the walk says exactly one of them about ``name``."""
    assert (name in live) != (name in dead), f"{name}: live {name in live}, ruled out {name in dead}"
    return "live" if name in live else "dead"


SUMMARY = """
void gemm_only(int) {}
void syrk_kernels(int) {}
inline bool use_only_gemm(int n, int k) { return k >= 500 && n < 4000; }
int syrk(int n, int k)
{
    if(use_only_gemm(n, k)) { gemm_only(0); return 0; }
    syrk_kernels(0);
    return 0;
}
int api(int n) { int jb = 0; for(int j = 0; j < n; j += BLOCK) { jb = std::min(n - j, BLOCK); syrk(n, jb); } return 0; }
"""


@pytest.mark.parametrize(("block", "gemm_can_run"), [(128, False), (512, True)])
def test_a_predicate_function_is_read_from_its_return(tmp_path, block, gemm_can_run):
    live, dead = walk(tmp_path, f"#define BLOCK {block}\n" + SUMMARY)
    assert "syrk_kernels" in live
    assert verdict("gemm_only", live, dead) == ("live" if gemm_can_run else "dead")


TABLE = """
int blksize(int m)
{
    int sizes[][3] = {{16, 32, 64}, {32, 64, LAST}};
    int blk = sizes[m % 2][m % 3];
    if(blk == 1)
        blk = std::min(m, 512);
    return blk;
}
void library_trsm(int) {}
void own_trsm(int) {}
int api(int m)
{
    if(m < 2) return 0;
    int blk = blksize(m);
    if(blk == 0) { library_trsm(m); return 0; }
    own_trsm(blk);
    return 0;
}
"""


@pytest.mark.parametrize(("last", "library_can_run"), [(128, False), (0, True)])
def test_a_tuning_table_without_a_zero_rules_out_the_zero_path(tmp_path, last, library_can_run):
    live, dead = walk(tmp_path, TABLE.replace("LAST", str(last)))
    assert "own_trsm" in live
    assert verdict("library_trsm", live, dead) == ("live" if library_can_run else "dead")


DOUBLING = """
void fast32(int) {}
void fallback64(int) {}
int gemm_64(long long m, long long k)
{
    bool dims_32bit = m <= 2147483647 && k <= 2147483647;
    if(dims_32bit) { fast32(0); return 0; }
    fallback64(0);
    return 0;
}
template <bool LEFT> int trmm(SIZE m, SIZE n)
{
    SIZE k = LEFT ? m : n;
    for(long long k_sub = 32; k_sub < k; k_sub *= 2)
        gemm_64(LEFT ? k_sub : m, k_sub);
    return 0;
}
int api(SIZE m, SIZE n) { return trmm<true>(m, n); }
"""


@pytest.mark.parametrize(("size", "fallback_can_run"), [("int", False), ("long long", True)])
def test_a_doubling_loop_bounded_by_a_32_bit_size_stays_32_bit(tmp_path, size, fallback_can_run):
    live, dead = walk(tmp_path, DOUBLING.replace("SIZE", size))
    assert "fast32" in live
    assert verdict("fallback64", live, dead) == ("live" if fallback_can_run else "dead")


POTF2 = """
void small_kernel(int) {}
void general_kernel(int) {}
int potf2(int n)
{
    if(n <= 64) { small_kernel(n); return 0; }
    general_kernel(n);
    return 0;
}
"""

LAST_BLOCK = (
    POTF2
    + """int api(int n)
{
    if(n <= 64)
        return potf2(n);
    int j = 0;
    while(j < n - 64)
    {
        int jb = std::min(n - j, 64);
        potf2(jb);
        j += 64;
    }
    if(j < n)
    {
        MOVE
        potf2(n - j);
    }
    return 0;
}
"""
)


@pytest.mark.parametrize(("move", "general_can_run"), [("", False), ("j -= 100;", True)])
def test_the_last_block_after_a_while_loop_is_bounded_by_the_loop_exit(tmp_path, move, general_can_run):
    live, dead = walk(tmp_path, LAST_BLOCK.replace("MOVE", move))
    assert "small_kernel" in live
    assert verdict("general_kernel", live, dead) == ("live" if general_can_run else "dead")


def test_a_loop_left_by_break_says_nothing_after_it(tmp_path):
    source = LAST_BLOCK.replace("MOVE", "").replace("j += 64;", "j += 64; if(jb == 7) break;")
    live, _ = walk(tmp_path, source)
    assert "general_kernel" in live


MACRO_IF = """
void pivoting_kernel(int) {}
void no_pivot_kernel(int) {}
#define RUN_SMALL(DIM) \\
    if(pivot)          \\
        pivoting_kernel(DIM); \\
    else                      \\
        no_pivot_kernel(DIM)
int run_small(int m, bool pivot) { RUN_SMALL(16); return 0; }
int api(int m) { return run_small(m, PIVOT); }
"""


@pytest.mark.parametrize(("pivot", "live_kernel", "dead_kernel"), [("true", "pivoting_kernel", "no_pivot_kernel"),
                                                                   ("false", "no_pivot_kernel", "pivoting_kernel")])  # fmt: skip
def test_an_if_written_by_a_macro_is_decided_by_a_fixed_argument(tmp_path, pivot, live_kernel, dead_kernel):
    live, dead = walk(tmp_path, MACRO_IF.replace("PIVOT", pivot))
    assert live_kernel in live and dead_kernel in dead and dead_kernel not in live


def test_an_if_written_by_a_macro_stays_live_when_nothing_fixes_it(tmp_path):
    live, _ = walk(tmp_path, MACRO_IF.replace("return run_small(m, PIVOT)", "return run_small(m, m > 3)"))
    assert {"pivoting_kernel", "no_pivot_kernel"} <= live


def test_one_macro_line_calling_one_function_under_two_guards_keeps_both_calls(tmp_path):
    source = MACRO_IF.replace("no_pivot_kernel(DIM)", "pivoting_kernel(DIM + 1)")
    live, dead = walk(tmp_path, source.replace("PIVOT", "false"))
    assert "pivoting_kernel" in live and not dead


RECURSION = """
void fast32(int) {}
void fallback64(int) {}
int gemm_64(long long m, long long lda)
{
    if(lda <= 2147483647) { fast32(0); return 0; }
    fallback64(0);
    return 0;
}
int recursive(int m, long long lda)
{
    if(m <= 1)
        return gemm_64(m, lda);
    return recursive(m - 1, lda);
}
int api(LDA lda) { return recursive(100, lda); }
"""


@pytest.mark.parametrize(("lda", "fallback_can_run"), [("int", False), ("long long", True)])
def test_a_deep_recursion_keeps_what_every_level_passes_on(tmp_path, lda, fallback_can_run):
    live, dead = walk(tmp_path, RECURSION.replace("LDA", lda))
    assert "fast32" in live
    assert verdict("fallback64", live, dead) == ("live" if fallback_can_run else "dead")


RECURSION_GROWING_OFFSET = """
void fast32(int) {}
void fallback64(int) {}
int gemm_64(long long m, long long lda)
{
    if(lda <= 2147483647) { fast32(0); return 0; }
    fallback64(0);
    return 0;
}
int recursive(int m, long long lda, long long offset)
{
    if(m <= 1)
        return gemm_64(m, lda);
    recursive(m / 2, lda, offset + m * lda);
    gemm_64(m, lda);
    return recursive(m - m / 2, lda, offset);
}
int api(LDA lda, int n)
{
    recursive(n, lda, 0);
    return recursive(n, 64, 0);
}
"""


@pytest.mark.parametrize(("lda", "fallback_can_run"), [("int", False), ("long long", True)])
def test_a_recursion_whose_offsets_grow_without_bound_keeps_a_32_bit_lda(tmp_path, lda, fallback_can_run):
    """rocBLAS's recursive trmm: the offsets grow at every level, so its argument contexts are widened; a
    ``lda`` that one caller passes as 64 and another as a 32-bit value is still 32-bit in the hull (it was
    dropped once the offsets had forced many contexts, and the 64-bit source GEMM looked reachable)."""
    live, dead = walk(tmp_path, RECURSION_GROWING_OFFSET.replace("LDA", lda))
    assert "fast32" in live
    assert verdict("fallback64", live, dead) == ("live" if fallback_can_run else "dead")


IF_ELSE_LOOPS = (
    POTF2
    + """int api(int n, bool upper)
{
    if(n <= 64)
        return potf2(n);
    int j = 0;
    if(upper)
    {
        while(j < n - 64) { potf2(64); j += 64; }
    }
    else
    {
        while(j < n - OTHER) { potf2(64); j += 64; }
    }
    if(j < n)
        potf2(n - j);
    return 0;
}
"""
)


@pytest.mark.parametrize(("other", "general_can_run"), [("64", False), ("32", True)])
def test_what_both_branches_loops_leave_behind_holds_after_the_if(tmp_path, other, general_can_run):
    live, dead = walk(tmp_path, IF_ELSE_LOOPS.replace("OTHER", other))
    assert "small_kernel" in live
    assert verdict("general_kernel", live, dead) == ("live" if general_can_run else "dead")


SMALL_TRSM = """
void library_trsm(int) {}
void own_trsm(int) {}
int trsm(int m)
{
    int blk = std::min(m, 512);
    if(blk == 0) { library_trsm(m); return 0; }
    own_trsm(blk);
    return 0;
}
"""

LOOP_BLOCK = (
    SMALL_TRSM
    + """int api(int n)
{
    int jb;
    for(int k = 0; k < n; k += NB)
    {
        BEFORE
        jb = std::min(n - k LESS, NB);
        trsm(jb);
    }
    return 0;
}
"""
)


@pytest.mark.parametrize(
    ("before", "less", "library_can_run"),
    [("", "", False), ("", "- 1", True), ("k += 1;", "", True)],
    ids=["block-in-loop", "block-can-be-empty", "variable-written-in-body"],
)
def test_a_loop_condition_bounds_a_local_assigned_in_its_body(tmp_path, before, less, library_can_run):
    source = LOOP_BLOCK.replace("BEFORE", before).replace("LESS", less).replace("NB", "64")
    live, dead = walk(tmp_path, source)
    assert "own_trsm" in live
    assert verdict("library_trsm", live, dead) == ("live" if library_can_run else "dead")


def test_a_loop_condition_says_nothing_about_a_local_assigned_before_the_loop(tmp_path):
    api = LOOP_BLOCK[LOOP_BLOCK.index("int api") :]
    before_loop = """int api(int n)
{
    int k = n;
    int jb = std::min(n - k, 64);
    for(k = 0; k < n; k += 64)
    {
        trsm(jb);
    }
    return 0;
}
"""
    live, dead = walk(tmp_path, LOOP_BLOCK.replace(api, before_loop))
    assert verdict("library_trsm", live, dead) == "live"


SAME_VECTOR = """
void magnitude_kernel(int) {}
void dot_kernel(int) {}
int dot(int n, const float* x, int incx, const float* y, int incy)
{
    if(x != y || incx != incy) { dot_kernel(n); return 0; }
    magnitude_kernel(n);
    return 0;
}
int norm2(int n, const float* x, int incx, const float* y) { return dot(n, x, incx, Y, incx); }
int api(int n, const float* x, int incx, const float* y) { return norm2(n, x, incx, y); }
"""


@pytest.mark.parametrize(("y", "dot_can_run"), [("x", False), ("y", True)])
def test_the_same_vector_passed_twice_decides_a_pointer_comparison(tmp_path, y, dot_can_run):
    live, dead = walk(tmp_path, SAME_VECTOR.replace("Y", y))
    assert verdict("dot_kernel", live, dead) == ("live" if dot_can_run else "dead")
    assert verdict("magnitude_kernel", live, dead) == "live"


def test_a_pointer_moved_before_the_comparison_is_no_longer_the_same(tmp_path):
    moved = SAME_VECTOR.replace("Y", "x").replace("    if(x != y", "    if(n > 4) x += incx;\n    if(x != y")
    live, dead = walk(tmp_path, moved)
    assert verdict("dot_kernel", live, dead) == "live"


WHILE_BLOCK = (
    SMALL_TRSM
    + """int api(int n)
{
    int jb, j = 0;
    while(j < n - 64)
    {
        jb = std::min(n - j - 64, 64);
        BEFORE
        j += 64;
        AFTER
    }
    return 0;
}
"""
)


@pytest.mark.parametrize(
    ("before", "after", "library_can_run"),
    [("trsm(jb);", "", False), ("", "jb = std::min(n - j - 64, 64); trsm(jb);", True)],
    ids=["before-the-step", "assigned-after-the-step"],
)
def test_a_while_condition_holds_until_the_body_writes_its_variables(tmp_path, before, after, library_can_run):
    live, dead = walk(tmp_path, WHILE_BLOCK.replace("BEFORE", before).replace("AFTER", after))
    assert "own_trsm" in live
    assert verdict("library_trsm", live, dead) == ("live" if library_can_run else "dead")


ARG_CHECK = """
enum status { success, invalid_size, proceed };
void negative_path(int) {}
void main_path(int) {}
status check(int n, int k)
{
    if(SIZES)
        return invalid_size;
    if(!n)
        return success;
    return proceed;
}
int impl(int n, int k)
{
    status st = check(n, k);
    MOVE
    if(st != proceed)
        return st;
    if(n < 0) { negative_path(n); return 0; }
    main_path(n);
    return 0;
}
int api(int n, int k) { return impl(n, k); }
"""


@pytest.mark.parametrize(
    ("sizes", "move", "negative_can_run"),
    [("n < 0 || k < 0", "", False), ("k < 0", "", True), ("n < 0 || k < 0", "n -= k;", True)],
    ids=["checked", "not-checked", "written-after-the-check"],
)
def test_an_argument_check_bounds_the_arguments_on_the_path_it_lets_through(tmp_path, sizes, move, negative_can_run):
    live, dead = walk(tmp_path, ARG_CHECK.replace("SIZES", sizes).replace("MOVE", move))
    assert "main_path" in live
    assert verdict("negative_path", live, dead) == ("live" if negative_can_run else "dead")


BLOCK_RECURSIVE = """
void fast32(int) {}
void fallback64(int) {}
int gemm_64(long long m)
{
    if(m <= 2147483647) { fast32(0); return 0; }
    fallback64(0);
    return 0;
}
int recursive(SIZE n)
{
    int nb = 16, n_nb, rem;
    SIZE i_start = 0;
    n_nb = n / nb;
    for(nb = 16, i_start = 16; i_start < n; i_start += nb, nb *= 2)
    {
        int stride = nb * 2;
        n_nb = (n - i_start) / stride;
        rem  = (n - i_start) % stride;
        if(rem >= nb)
        {
            rem = 0;
            n_nb += 1;
        }
        if(rem != 0)
        {
            long long i1 = i_start + (long long)n_nb * stride;
            long long n1 = n - i1;
            gemm_64(n1);
        }
    }
    return 0;
}
int api(SIZE n) { if(n < 0) return 1; return recursive(n); }
"""


@pytest.mark.parametrize(("size", "fallback_can_run"), [("int", False), ("long long", True)])
def test_a_block_recursion_over_a_32_bit_size_passes_32_bit_sizes(tmp_path, size, fallback_can_run):
    live, dead = walk(tmp_path, BLOCK_RECURSIVE.replace("SIZE", size))
    assert "fast32" in live
    assert verdict("fallback64", live, dead) == ("live" if fallback_can_run else "dead")


STATUS_LOOP = (
    SMALL_TRSM
    + """int api(int n)
{
    int status = 0;
    for(int k = 0; k < n && status == 0; k += 64)
    {
        int jb = std::min(n - k LESS, 64);
        if(n - k - jb > 0)
            status = trsm(jb);
        else
            trsm(jb);
    }
    return status;
}
"""
)


@pytest.mark.parametrize(("less", "library_can_run"), [("", False), ("- 1", True)])
def test_a_value_assigned_where_the_loop_condition_holds_keeps_it_after_the_body_writes(
    tmp_path, less, library_can_run
):
    live, dead = walk(tmp_path, STATUS_LOOP.replace("LESS", less))
    assert "own_trsm" in live
    assert verdict("library_trsm", live, dead) == ("live" if library_can_run else "dead")
