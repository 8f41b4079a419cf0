"""The body reader: the compiled one (miner/parse/_flat.c) and its twin through the Python bindings give the same
rows, and the instance walk gives the same instances with either, on every TU of both example libraries."""

from __future__ import annotations

import clang.cindex as ci
import pytest

from miner.parse import cursor_tree
from miner.parse.clang_facts import Extractor
from miner.parse.instances import InstanceWalker, instance_starts
from miner.parse.instances import cursors as instance_cursors
from miner.pipeline import make_recipe, resolve_profile
from miner.source.files import translation_units
from tests.conftest import TINYBLAS, TINYSOLVER

SOURCE = """
#include <fake_system.h>
namespace ns {
static int counter = 0;
struct S { int v; int get() const { return v; } };
template <typename T> T twice(T x, T y = T(2)) { return x * y; }
int helper(int& out, const int* table, int n) { out = n; return table[0]; }
}
#define CHECK(e) do { int s_ = (e); if (s_ != 0) return s_; } while (0)
int api(int n, float alpha, const float* beta)
{
    static const int sizes[3] = {1, 2, 4};
    int local = n > 2 ? sizes[1] : -sizes[2];
    local += 3; ++local; local <<= 1;
    int* p = &local;
    ns::S s{local};
    double d = alpha * 2.0;
    char buf[8];
    sys_copy(buf, &local, sizeof(local));
    CHECK(ns::helper(local, sizes, n));
    for (int i = 0; i < n; i += 2) { if (i == 3) break; ns::counter++; }
    while (local < 10 && *beta != 0.0f) local = local * 2;
    return ns::twice(s.get()) + static_cast<int>(d) + *p + ns::twice<long>(n);
}
"""


def _bodies(tu: ci.TranslationUnit, extractor: Extractor) -> list[ci.Cursor]:
    """The bodies of the TU's own functions and of the instances they call."""
    functions = list(instance_starts(tu, extractor))
    for fn in list(functions):
        for node in fn.walk_preorder():
            target = node.referenced if node.kind == ci.CursorKind.CALL_EXPR else None
            definition = target.get_definition() if target is not None else None
            if definition is not None and str(definition.location.file) == tu.spelling:
                functions.append(definition)
    bodies = {}
    for fn in functions:
        for ch in fn.get_children():
            if ch.kind == ci.CursorKind.COMPOUND_STMT:
                bodies[ch.hash] = ch
    return list(bodies.values())


def _flags(top) -> list[tuple]:
    """Each node's quiet flag and what it unwraps to (as its kind and line), in visit order."""
    out, stack = [], [top]
    while stack:
        node = stack.pop()
        inner = cursor_tree.unwrap(node)
        out.append((node.quiet, inner.kind, inner.line, inner is node))
        stack.extend(reversed(node.children))
    return out


def test_the_compiled_reader_is_built():
    assert cursor_tree._flat is not None, "miner/parse/_flat.c is not built: pip install -e . (needs a C compiler)"


def test_compiled_and_python_rows_agree(tmp_path):
    src = tmp_path / "lib.cpp"
    src.write_text(SOURCE)
    (tmp_path / "system").mkdir()
    (tmp_path / "system" / "fake_system.h").write_text("void sys_copy(void*, const void*, unsigned long);\n")
    args = ["-x", "c++", "-std=c++17", "-isystem", str(tmp_path / "system")]
    tu = ci.Index.create(excludeDecls=True).parse(str(src), args=args)
    assert not [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Error]
    extractor = Extractor(root=str(tmp_path), launch_macros=())
    bodies = _bodies(tu, extractor)
    assert len(bodies) >= 3  # api, helper, S::get
    cursor_tree._bind()
    for body in bodies:
        top, cursors, refs = cursor_tree._flat.flatten(bytes(body), cursor_tree._Body(tu, b"", b""))
        twin_rows, twin_cursors, twin_refs = cursor_tree._rows(body)
        assert cursor_tree.rows_of(top) == twin_rows
        assert bytes(cursors) == bytes(twin_cursors) and bytes(refs) == bytes(twin_refs)
        twin = cursor_tree._nodes(cursor_tree._rows(body), None)[0]
        assert cursor_tree.rows_of(twin) == twin_rows
        assert _flags(top) == _flags(twin)
    api = next(b for b in bodies if b.semantic_parent.spelling == "api")
    rows = cursor_tree.rows_of(cursor_tree.tree(api))
    kinds = {r[0] for r in rows}
    assert {ci.CursorKind.COMPOUND_ASSIGNMENT_OPERATOR.value, ci.CursorKind.CONDITIONAL_OPERATOR.value} <= kinds
    ops = {r[9] for r in rows if r[9] is not None}
    assert {"+=", "<<=", "++", "&", "*", ">", "<", "==", "!=", "&&"} <= ops
    sizes = next(r for r in rows if r[0] == ci.CursorKind.VAR_DECL.value and r[2] == "sizes")
    assert sizes[10] is False  # a static local is not automatic
    local = next(r for r in rows if r[0] == ci.CursorKind.VAR_DECL.value and r[2] == "local")
    assert local[10] is True and local[8] == str(src)
    memcpy = next(r[11] for r in rows if r[0] == ci.CursorKind.CALL_EXPR.value and r[2] == "sys_copy")
    assert memcpy[4] is True and memcpy[5] is None  # declared in a system header: no USR asked
    flags = _flags(cursor_tree.tree(api))
    assert any(quiet for quiet, *_ in flags) and not flags[0][0]  # the body writes; some of its parts do not
    assert any(not same for *_, same in flags)  # some nodes are wrapped in implicit conversions
    # clang's constant evaluator, read in C for a node and through the bindings for its cursor, agrees
    values, stack = [], [cursor_tree.tree(api)]
    while stack:
        node = stack.pop()
        stack.extend(node.children)
        if node.kind.is_expression():
            values.append((instance_cursors._constant(node), instance_cursors._constant(node.cursor)))
    assert all(c == b and type(c) is type(b) for c, b in values)
    assert {type(c) for c, _ in values} == {int, float, type(None)}
    # a declaration named many times is one reference, in both readers (its USR is read once)
    for top in (cursor_tree.tree(api), cursor_tree._nodes(cursor_tree._rows(api), None)[0]):
        named, stack = [], [top]
        while stack:
            node = stack.pop()
            stack.extend(node.children)
            if node.kind == ci.CursorKind.DECL_REF_EXPR and node.spelling == "local":
                named.append(node.referenced)
        assert len(named) > 3 and all(ref is named[0] for ref in named)


@pytest.mark.parametrize("library", [TINYBLAS, TINYSOLVER], ids=["tinyblas", "tinysolver"])
def test_walks_agree_with_either_reader(tmp_path, monkeypatch, library):
    others = {"tinyblas": TINYBLAS} if library == TINYSOLVER else {}
    profile = resolve_profile(library, None)
    recipe = make_recipe(library, profile, tmp_path / "stubs", others)
    index = ci.Index.create(excludeDecls=True)
    extractor = Extractor(root=str(library), launch_macros=profile.launch_macros)
    compiled, python = InstanceWalker(extractor), InstanceWalker(extractor)
    walked = 0
    for rel in translation_units(library, profile):
        tu = index.parse(str(library / rel), args=recipe.args(rel), options=0x01)
        variant = recipe.variant(rel)
        ours = compiled.walk(instance_starts(tu, extractor), variant)
        with monkeypatch.context() as m:
            m.setattr(cursor_tree, "_flat", None)
            theirs = python.walk(instance_starts(tu, extractor), variant)
        assert repr(ours) == repr(theirs), rel
        walked += len(ours)
    assert walked > 20


def test_no_memo_of_an_earlier_body_is_read(tmp_path, monkeypatch):
    """The walk's per-node memos are keyed by node ids; a body's nodes are freed once it is walked, so the next
    body's nodes may reuse their ids. The reassignment scan of a body must start with those memos empty."""
    src = tmp_path / "lib.cpp"
    src.write_text(SOURCE)
    (tmp_path / "fake_system.h").write_text("void sys_copy(void*, const void*, unsigned long);\n")
    tu = ci.Index.create(excludeDecls=True).parse(str(src), args=["-x", "c++", "-std=c++17", "-isystem", str(tmp_path)])
    extractor = Extractor(root=str(tmp_path), launch_macros=())
    walker = InstanceWalker(extractor)
    scan = InstanceWalker._reassigned_locals
    seen = []

    def checked(self, body):
        seen.append((len(self._targets), len(self._written_memo), len(self._exprs)))
        return scan(self, body)

    monkeypatch.setattr(InstanceWalker, "_reassigned_locals", checked)
    walker.walk(instance_starts(tu, extractor), "lp64")
    assert len(seen) >= 3 and all(sizes == (0, 0, 0) for sizes in seen)
