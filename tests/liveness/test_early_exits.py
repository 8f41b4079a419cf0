"""Returns before a call are conditions on it: ``if (c) return`` as rocSOLVER writes it, but also inside a macro's
``do { ... } while (0)`` (rocBLAS's ``RETURN_ZERO_DEVICE_MEMORY_SIZE_IF_QUERIED(handle)``) and nested in another
``if`` (rocBLAS scal's ``if (host mode) { if (*alpha == 1) return; }``). Each has a twin that must add nothing."""

from __future__ import annotations

import clang.cindex as ci
import networkx as nx

from miner.liveness.analyse import LivenessAnalyser
from miner.models import FunctionFacts
from miner.parse.clang_facts import Extractor
from miner.parse.instances import InstanceWalker, instance_starts

PRELUDE = """
struct Handle { bool is_size_query() const; int mode; };
#define RETURN_IF_QUERIED(h) do { if((h)->is_size_query()) return 1; } while(0)
#define SKIP_IF_QUERIED(h) do { if((h)->is_size_query()) continue; return 1; } while(0)
void launch(int) {}
"""


def _conditions(tmp_path, body: str, prelude: str = "") -> tuple[str, ...]:
    """The runtime conditions on ``launch`` when walked from ``api(handle, n, alpha)``."""
    src = tmp_path / "lib.cpp"
    src.write_text(
        PRELUDE + prelude + "int api(Handle* handle, int n, const int* alpha)\n{\n" + body + "\n    return 0;\n}\n"
    )
    tu = ci.Index.create(excludeDecls=True).parse(str(src), args=["-x", "c++", "-std=c++17"])
    ex = Extractor(root=str(tmp_path), launch_macros=())
    instances = InstanceWalker(ex).walk(instance_starts(tu, ex), "lp64")
    g = nx.DiGraph()
    for usr in {i.usr for i in instances} | {c.target for i in instances for c in i.calls}:
        name = usr.split("@F@")[-1].split("#")[0]
        facts = FunctionFacts(usr, name, name, "function", "lib.cpp", 1, 100, 0, 1, "host")
        g.add_node(usr, defined=True, facts=facts, name=name, qualified_name=name, file="lib.cpp", line=1,
                   exec_space="host")  # fmt: skip
    root = next(i.usr for i in instances if "@F@api#" in i.usr)
    walk = LivenessAnalyser(g, {(i.usr, "lp64"): i for i in instances}).walk(root, "lp64")
    (launch,) = [n for n in walk.live if g.nodes[n]["name"] == "launch"]
    return walk.live[launch]


def test_a_return_in_a_macros_do_while_zero_guards_the_rest(tmp_path):
    conditions = _conditions(tmp_path, "    RETURN_IF_QUERIED(handle);\n    launch(n);")
    assert conditions == ("!(handle->is_size_query())",)


def test_a_do_while_zero_left_by_continue_guards_nothing(tmp_path):
    assert _conditions(tmp_path, "    SKIP_IF_QUERIED(handle);\n    launch(n);") == ()


def test_a_return_nested_in_an_if_guards_the_rest_with_both_conditions(tmp_path):
    body = "    if(handle->mode == 0)\n    {\n        if(*alpha == 1)\n            return 0;\n    }\n    launch(n);"
    assert _conditions(tmp_path, body) == ("!(handle->mode == 0 && *alpha == 1)",)


def test_a_nested_if_that_may_fall_through_guards_nothing(tmp_path):
    body = (
        "    if(handle->mode == 0)\n    {\n        if(*alpha == 1)\n            return 0;\n        n = 2;\n    }\n"
        "    if(n > 4)\n    {\n        if(*alpha == 2)\n            return 0;\n        else\n            n = 3;\n    }\n"
        "    launch(n);"
    )
    assert _conditions(tmp_path, body) == ()


def test_a_check_macros_status_local_is_named_by_the_macro(tmp_path):
    body = "    CHECK_STATUS(prepare(n));\n    launch(n);"
    prelude = (
        "int prepare(int);\n"
        "#define CHECK_STATUS(x) do { int TMP_STATUS = (x); if(TMP_STATUS != 0) return TMP_STATUS; } while(0)\n"
    )
    assert _conditions(tmp_path, body, prelude) == ("!(CHECK_STATUS(prepare(n)) returns)",)


def test_an_if_else_that_returns_on_both_sides_is_an_exit(tmp_path):
    body = (
        "    if(handle->is_size_query())\n    {\n        if(n <= 0)\n            return 2;\n        else\n"
        "            return 3;\n    }\n    launch(n);"
    )
    assert _conditions(tmp_path, body) == ("!(handle->is_size_query())",)
    falls_through = body.replace("            return 3;", "            n = 3;")
    assert _conditions(tmp_path, falls_through) == ()
