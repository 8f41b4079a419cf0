"""LivenessAnalyser on a hand-built graph and hand-built instances, and InstanceWalker on a
small C++ file parsed by libclang: constant propagation, and where it must stop."""

from __future__ import annotations

import clang.cindex as ci
import networkx as nx

from miner.liveness.analyse import LivenessAnalyser
from miner.models import CallSite, Decision, FunctionFacts, Guard, Instance, InstanceCall, Traversal
from miner.parse.clang_facts import Extractor
from miner.parse.instances import InstanceWalker, instance_starts

INC_IS_ONE = ("binary", "==", ("param", "inc"), ("const", 1))


def _graph() -> nx.DiGraph:
    g = nx.DiGraph()
    for usr, space in (("api", "host"), ("tmpl", "host"), ("unit_kernel", "global"), ("strided_kernel", "global")):
        facts = FunctionFacts(usr, usr, usr, "function", "lib.cpp", 1, 100, 0, 1, space)
        g.add_node(usr, defined=True, facts=facts, name=usr, qualified_name=usr, file="lib.cpp", line=1,
                   exec_space=space)  # fmt: skip
    g.add_edge(
        "api", "tmpl", kind="call", resolution="clang", sites=[CallSite("call", "tmpl", ("tmpl",), ("",), "clang", 5)]
    )
    for k, line in (("unit_kernel", 20), ("strided_kernel", 30)):
        g.add_edge(
            "tmpl", k, kind="launch", resolution="clang", sites=[CallSite("launch", k, (k,), ("",), "clang", line)]
        )
    return g


def _instances(written: tuple[str, ...]) -> dict:
    api = Instance("api", "", (), (InstanceCall("tmpl", "", 5, (), (("const", 0),)),))
    tmpl = Instance(
        "tmpl", "", ("inc",),
        (InstanceCall("unit_kernel", "", 20, (Guard(INC_IS_ONE, True, "inc == 1", 15),)),
         InstanceCall("strided_kernel", "", 30, (Guard(INC_IS_ONE, False, "inc == 1", 15),))),
        written=written,
    )  # fmt: skip
    return {("api", "lp64"): api, ("tmpl", "lp64"): tmpl}


def _traversal() -> Traversal:
    return Traversal("api", "api", (
        Decision("api", None, 0, "included"), Decision("tmpl", "api", 1, "included"),
        Decision("unit_kernel", "tmpl", 2, "included"), Decision("strided_kernel", "tmpl", 2, "included"),
    ))  # fmt: skip


def test_a_constant_argument_decides_the_callee_branch():
    v = LivenessAnalyser(_graph(), _instances(written=())).verdicts(_traversal(), "lp64")
    assert v["strided_kernel"].live
    assert (v["unit_kernel"].live, v["unit_kernel"].reason) == (False, "constant")
    assert "inc = 0 (lib.cpp:5)" in v["unit_kernel"].detail


def test_a_parameter_the_callee_writes_is_not_propagated():
    v = LivenessAnalyser(_graph(), _instances(written=("inc",))).verdicts(_traversal(), "lp64")
    assert v["unit_kernel"].live and v["strided_kernel"].live
    assert v["unit_kernel"].conditions == ("inc == 1",)


def test_a_missing_instantiated_body_leaves_everything_below_live():
    instances = _instances(written=())
    del instances[("tmpl", "lp64")]
    v = LivenessAnalyser(_graph(), instances).verdicts(_traversal(), "lp64")
    assert all(verdict.live for verdict in v.values())


SOURCE = """
template <typename T> void kernel_like(T* x) {}
template <typename T> int norm(T* x, int inc, int n)
{
    if(inc == 0)
        inc = 1;
    if(n > 0)
        kernel_like(x);
    if constexpr(sizeof(T) == 8)
        return 1;
    return 0;
}
int api(float* x, int n) { return norm(x, 0, n); }
"""


def test_the_walker_records_written_parameters_and_folded_branches(tmp_path):
    src = tmp_path / "lib.cpp"
    src.write_text(SOURCE)
    tu = ci.Index.create(excludeDecls=True).parse(str(src), args=["-x", "c++", "-std=c++17"])
    ex = Extractor(root=str(tmp_path), launch_macros=())
    instances = {
        i.usr.split("@")[-1].split("<")[0].split("#")[0]: i
        for i in InstanceWalker(ex).walk(instance_starts(tu, ex), "lp64")
    }
    norm = instances["norm"]
    assert norm.params == ("x", "inc", "n")
    assert norm.written == ("inc",)
    assert (9, False, True) in norm.decided  # sizeof(float) == 8 folds false
    api_call = next(c for c in instances["api"].calls if "norm" in c.target)
    assert api_call.args == (("param", "x"), ("const", 0), ("param", "n"))
    launch = next(c for c in norm.calls if "kernel_like" in c.target)
    assert [g.text for g in launch.guards] == ["n > 0"]


EARLY_RETURN = """
template <bool BATCHED> void recursive_path(int n) {}
template <bool BATCHED> void general_path(int n) {}
template <bool BATCHED> int syrk(int n, int batch_count)
{
    if(!BATCHED && batch_count == 1)
        return recursive_path<BATCHED>(n), 0;
    general_path<BATCHED>(n);
    return 0;
}
int api(int n) { return syrk<false>(n, 1); }
"""


def test_code_after_an_early_return_is_guarded_by_its_negation(tmp_path):
    src = tmp_path / "lib.cpp"
    src.write_text(EARLY_RETURN)
    tu = ci.Index.create(excludeDecls=True).parse(str(src), args=["-x", "c++", "-std=c++17"])
    ex = Extractor(root=str(tmp_path), launch_macros=())
    syrk = next(i for i in InstanceWalker(ex).walk(instance_starts(tu, ex), "lp64") if "syrk" in i.usr)
    general = next(c for c in syrk.calls if "general_path" in c.target)
    assert [(g.text, g.want) for g in general.guards] == [("!BATCHED && batch_count == 1", False)]
    recursive = next(c for c in syrk.calls if "recursive_path" in c.target)
    assert [(g.text, g.want) for g in recursive.guards] == [("!BATCHED && batch_count == 1", True)]


RANGE_64 = """
void source_fallback(int x) {}
void generated_path(int x) {}
int gemm_64(long long m, long long lda)
{
    bool dims_32bit = m <= 2147483647;
    bool leading_32bit = lda <= 2147483647;
    if(dims_32bit && leading_32bit)
    {
        generated_path(0);
        return 0;
    }
    source_fallback(0);
    return 1;
}
int api(int m, int lda) { return gemm_64(m, (long long)lda); }
"""


def test_a_32_bit_argument_rules_out_the_64_bit_fallback(tmp_path):
    from miner.liveness.domain.evaluate import interval, truthiness

    src = tmp_path / "lib.cpp"
    src.write_text(RANGE_64)
    tu = ci.Index.create(excludeDecls=True).parse(str(src), args=["-x", "c++", "-std=c++17"])
    ex = Extractor(root=str(tmp_path), launch_macros=())
    instances = {i.usr: i for i in InstanceWalker(ex).walk(instance_starts(tu, ex), "lp64")}
    gemm = next(i for u, i in instances.items() if "gemm_64" in u)
    api = next(i for u, i in instances.items() if u.endswith("@F@api#I#I#"))
    call = next(c for c in api.calls if "gemm_64" in c.target)
    i32 = (-(2**31), 2**31 - 1)
    assert call.args == (("param", "m"), ("param", "lda")) and call.ranges == (i32, i32)  # lda stays 32-bit
    fallback = next(c for c in gemm.calls if "source_fallback" in c.target)
    (guard,) = fallback.guards
    assert (guard.text, guard.want) == ("dims_32bit && leading_32bit", False)
    assert truthiness(interval(guard.expr, {"m": i32, "lda": i32}, dict(gemm.locals))) is True


def test_one_usr_with_different_bodies_per_variant_is_walked_per_variant():
    g = _graph()
    guard = Guard(INC_IS_ONE, True, "inc == 1", 15, ((15, 40),))
    lp64 = Instance("tmpl", "", ("inc",), (InstanceCall("unit_kernel", "", 20, (guard,)),))
    ilp64 = Instance(
        "tmpl", "", ("inc",),
        (InstanceCall("strided_kernel", "", 30, ()), InstanceCall("unit_kernel", "", 20, (guard, guard))),
    )  # fmt: skip
    api = Instance("api", "", (), (InstanceCall("tmpl", "", 5, (), (("const", 1),)),))
    analyser = LivenessAnalyser(
        g, {("api", "lp64"): api, ("api", "ilp64"): api, ("tmpl", "lp64"): lp64, ("tmpl", "ilp64"): ilp64}
    )
    assert set(analyser.walk("api", "lp64").live) == {"api", "tmpl", "unit_kernel"}
    assert set(analyser.walk("api", "ilp64").live) == {"api", "tmpl", "unit_kernel", "strided_kernel"}
