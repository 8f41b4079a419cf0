"""A function body read out of libclang once, as a tree of Python nodes that carry the facts the walk asks of them.

The instance walk asks for the children, kind, spelling, type and extent of most nodes several times, and for
what each name refers to. Every such question is a C call through ctypes with Python objects made for its
answer, so the walk spent most of its time in the bindings. ``tree`` asks them all once per node, in C
(``miner/parse/_flat.c``) when it is built, else through the bindings; a ``Node`` or ``Ref`` answers them from
Python and hands any other attribute to its libclang cursor, made when first needed.
"""

from __future__ import annotations

import ctypes
from collections.abc import Iterator

import clang.cindex as ci

try:
    from miner.parse import _flat
except ImportError:  # built without a C compiler: the same rows, through the bindings
    _flat = None

K = ci.CursorKind
_RECURSE = 2  # CXChildVisit_Recurse
_NAMED = frozenset(k.value for k in (K.VAR_DECL, K.PARM_DECL, K.DECL_REF_EXPR, K.MEMBER_REF_EXPR, K.CALL_EXPR))
_REFERRING = frozenset(k.value for k in (K.DECL_REF_EXPR, K.MEMBER_REF_EXPR, K.CALL_EXPR))
_CALLABLE = frozenset(k.value for k in (K.FUNCTION_DECL, K.CXX_METHOD, K.FUNCTION_TEMPLATE))
_FUNCTIONS = frozenset(
    k.value for k in (K.FUNCTION_DECL, K.CXX_METHOD, K.FUNCTION_TEMPLATE, K.CONSTRUCTOR, K.DESTRUCTOR,
                      K.CONVERSION_FUNCTION)
)  # fmt: skip
_OPERATORS = {K.UNARY_OPERATOR.value: "Unary", K.BINARY_OPERATOR.value: "Binary",
              K.COMPOUND_ASSIGNMENT_OPERATOR.value: "Binary"}  # fmt: skip
_KINDS = {k.value: k for k in ci.CursorKind.get_all_kinds()}
_PASS_THROUGH = {K.UNEXPOSED_EXPR, K.PAREN_EXPR}  # what ``unwrap`` looks through
_CURSOR_SIZE = ctypes.sizeof(ci.Cursor)
evaluate = None if _flat is None else _flat.evaluate
"""(a body's cursors, a node's index) -> clang's constant value of the node: int, float or None. A node of the compiled
reader exists only once ``tree`` has bound it."""


class _Body:
    """What the nodes of one tree share: the TU and the raw cursors their own are made from."""

    __slots__ = ("tu", "cursors", "refs")

    def __init__(self, tu: ci.TranslationUnit, cursors: bytes, refs: bytes) -> None:
        self.tu, self.cursors, self.refs = tu, cursors, refs

    def cursor(self, table: bytes, index: int) -> ci.Cursor:
        c = ci.Cursor.from_buffer_copy(table, index * _CURSOR_SIZE)
        c._tu = self.tu
        return c


class _RefMethods:
    __slots__ = ()

    @property
    def cursor(self) -> ci.Cursor:
        if self._cursor is None:
            self._cursor = self._body.cursor(self._body.refs, self._i)
        return self._cursor

    def get_usr(self) -> str:
        return self.usr if self.usr is not None else self.cursor.get_usr()

    def __getattr__(self, name: str):
        return getattr(self.cursor, name)


class _NodeMethods:
    """``quiet``: nothing in the node declares a variable, calls, assigns, increments, decrements or takes an
    address, so it writes no variable."""

    __slots__ = ()

    def get_children(self) -> Iterator[Node]:
        return iter(self.children)

    @property
    def cursor(self) -> ci.Cursor:
        if self._cursor is None:
            self._cursor = self._body.cursor(self._body.cursors, self._i)
        return self._cursor

    def __getattr__(self, name: str):
        return getattr(self.cursor, name)


if _flat is not None:  # the compiled reader makes its nodes and references as these, in C

    class Ref(_RefMethods, _flat.RefBase):
        """What a name in a body refers to: its kind, spelling, canonical type kind (``tk``), whether it is a
        function's own non-static local, whether it is declared in a system header, and (a function's) USR."""

        __slots__ = ()

    class Node(_NodeMethods, _flat.NodeBase):
        """One node of a body. ``spelling`` is read for declarations and names; ``referenced`` for names and
        calls; ``automatic`` for variables; ``op`` for operators. Any other attribute is its cursor's."""

        __slots__ = ()

else:

    class Ref(_RefMethods):  # type: ignore[no-redef]
        __slots__ = ("kind", "spelling", "tk", "automatic", "system", "usr", "_body", "_i", "_cursor")

    class Node(_NodeMethods):  # type: ignore[no-redef]
        __slots__ = ("kind", "children", "spelling", "tk", "line", "offset", "end_line", "end_offset", "file", "op",
                     "automatic", "referenced", "_unwrapped", "quiet", "_body", "_i", "_cursor")  # fmt: skip


def raw(c: ci.Cursor | Node | Ref) -> ci.Cursor:
    """The libclang cursor, for a C call."""
    return c.cursor if type(c) in (Node, Ref) else c


def tree(root: ci.Cursor) -> Node:
    """``root`` and everything below it, in one visit."""
    body = _Body(root._tu, b"", b"")
    if _flat is not None:
        _bind()
        top, cursors, refs = _flat.flatten(bytes(root), body)
    else:
        top, cursors, refs = _nodes(_rows(root), body)
    body.cursors, body.refs = bytes(cursors), bytes(refs)
    return top


def _nodes(rows: tuple, body: _Body) -> tuple[Node, bytearray, bytearray]:
    """The tree of ``_rows``, as ``_flat.flatten`` builds it."""
    found, cursors, refs = rows
    nodes: list[Node] = []
    shared: dict[int, Ref] = {}  # by index: a declaration named many times is one reference
    new = Node.__new__
    for i, (kind, parent, spelling, tk, line, offset, end_line, end_offset, file, op, automatic, ref) in enumerate(
        found
    ):
        node = new(Node)
        node.kind = _KINDS[kind]
        node.children = []
        if spelling is not None:
            node.spelling = spelling
        node.tk = tk
        node.line, node.offset, node.end_line, node.end_offset, node.file = line, offset, end_line, end_offset, file
        if op is not None:
            node.op = op
        if automatic is not None:
            node.automatic = automatic
        if kind in _REFERRING:
            if ref is not None and ref[-1] not in shared:
                shared[ref[-1]] = _ref(ref, body)
            node.referenced = None if ref is None else shared[ref[-1]]
        node._body, node._i, node._cursor = body, i, None
        nodes.append(node)
        if parent >= 0:
            nodes[parent].children.append(node)
    for node in reversed(nodes):  # children before their parents
        node.quiet = not _writes(node) and all(child.quiet for child in node.children)
        node._unwrapped = None
        if node.kind in _PASS_THROUGH and len(node.children) == 1:
            child = node.children[0]
            node._unwrapped = child if child._unwrapped is None else child._unwrapped
    return nodes[0], cursors, refs


def _writes(node: Node) -> bool:
    """A node that declares a variable, calls, assigns, increments, decrements or takes an address."""
    kind = node.kind
    if kind in (K.VAR_DECL, K.CALL_EXPR, K.COMPOUND_ASSIGNMENT_OPERATOR):
        return True
    if kind == K.BINARY_OPERATOR:
        return node.op == "="
    return kind == K.UNARY_OPERATOR and node.op in ("++", "--", "&")


def _ref(row: tuple, body: _Body) -> Ref:
    ref = Ref.__new__(Ref)
    kind, ref.spelling, ref.tk, ref.automatic, ref.system, ref.usr, ref._i = row
    ref.kind = _KINDS[kind]
    ref._body, ref._cursor = body, None
    return ref


def rows_of(top: Node) -> list[tuple]:
    """A tree as the rows ``_rows`` gives (for comparing the two readers)."""
    out: list[tuple] = []
    stack: list[tuple[Node, int]] = [(top, -1)]
    while stack:
        node, parent = stack.pop()
        ref = getattr(node, "referenced", None) if node.kind.value in _REFERRING else None
        out.append((
            node.kind.value, parent, node.spelling if node.kind.value in _NAMED else None, node.tk, node.line,
            node.offset, node.end_line, node.end_offset, node.file, node.op if node.kind.value in _OPERATORS else None,
            node.automatic if node.kind == K.VAR_DECL else None,
            None if ref is None else (ref.kind.value, ref.spelling, ref.tk, ref.automatic, ref.system, ref.usr, ref._i),
        ))  # fmt: skip
        here = len(out) - 1
        stack.extend((child, here) for child in reversed(node.children))
    return out


_bound = False


def _bind() -> None:
    global _bound
    if not _bound:
        by_id = [None] * (max(_KINDS) + 1)
        for value, kind in _KINDS.items():
            by_id[value] = kind
        _flat.bind(ci.conf.lib._name, Node, Ref, by_id)
        _bound = True


def unwrap(c: ci.Cursor | Node) -> ci.Cursor | Node:
    """``c`` below the parentheses and implicit conversions that wrap it alone."""
    if type(c) is Node:
        inner = c._unwrapped
        return c if inner is None else inner
    while c.kind in _PASS_THROUGH:
        kids = list(c.get_children())
        if len(kids) != 1:
            break
        c = kids[0]
    return c


_GLOBAL, _DEVICE, _HOST = 1, 2, 4
_ATTRIBUTES = {K.CUDAGLOBAL_ATTR: _GLOBAL, K.CUDADEVICE_ATTR: _DEVICE, K.CUDAHOST_ATTR: _HOST}


def cuda_attributes(fn: ci.Cursor) -> tuple[bool, bool, bool]:
    """Whether a function is marked ``__global__``, ``__device__``, ``__host__`` (its children before its body)."""
    if _flat is not None:
        _bind()
        bits = _flat.attributes(bytes(fn))
    else:
        bits = 0
        for ch in fn.get_children():
            if ch.kind in (K.COMPOUND_STMT, K.CXX_TRY_STMT):
                break  # attributes come before the body
            bits |= _ATTRIBUTES.get(ch.kind, 0)
    return bool(bits & _GLOBAL), bool(bits & _DEVICE), bool(bits & _HOST)


def type_kind(c: ci.Cursor | Node | Ref) -> int:
    """The id of the canonical type kind of a node, reference or cursor (ids the bindings do not name included)."""
    return c.tk if type(c) in (Node, Ref) else c.type.get_canonical()._kind_id


def is_automatic(c: ci.Cursor | Node | Ref) -> bool:
    """A non-static local of a function: only that call's own statements change it."""
    if type(c) is Ref or (type(c) is Node and c.kind == K.VAR_DECL):
        return c.automatic
    return _automatic(raw(c))


def _automatic(c: ci.Cursor) -> bool:
    parent = c.semantic_parent
    return parent is not None and parent._kind_id in _FUNCTIONS and c.storage_class != ci.StorageClass.STATIC


# ---------------------------------------------------------------- the same rows through the bindings


def _rows(root: ci.Cursor) -> tuple[list[tuple], bytearray, bytearray]:
    lib = ci.conf.lib
    equal = lib.clang_equalCursors
    tu = root._tu
    rows: list[tuple] = []
    cursors, refs = bytearray(), bytearray()
    stack: list[tuple[ci.Cursor, int]] = []
    seen: dict[bytes, tuple] = {}

    def add(c: ci.Cursor, parent: int) -> None:
        c._tu = tu
        rows.append(_row(c, parent, refs, seen))
        cursors.extend(bytes(c))
        stack.append((c, len(rows) - 1))

    def visit(child: ci.Cursor, parent: ci.Cursor, _data) -> int:
        while len(stack) > 1 and not equal(stack[-1][0], parent):
            stack.pop()
        add(child, stack[-1][1])
        return _RECURSE

    add(root, -1)
    lib.clang_visitChildren(root, ci.callbacks["cursor_visit"](visit), None)
    return rows, cursors, refs


def _row(c: ci.Cursor, parent: int, refs: bytearray, seen: dict[bytes, tuple]) -> tuple:
    kind = c._kind_id
    start, end = c.extent.start, c.extent.end
    ref = None
    if kind in _REFERRING and (target := c.referenced) is not None:
        ref = seen.get(key := bytes(target))
        if ref is None:
            system = target.location.is_in_system_header
            usr = target.get_usr() if not system and target._kind_id in _CALLABLE else None
            ref = seen[key] = (target._kind_id, target.spelling, target.type.get_canonical()._kind_id,
                               _automatic(target), system, usr, len(refs) // _CURSOR_SIZE)  # fmt: skip
            refs.extend(key)
    return (
        kind,
        parent,
        c.spelling if kind in _NAMED else None,
        c.type.get_canonical()._kind_id,
        start.line,
        start.offset,
        end.line,
        end.offset,
        start.file.name if start.file is not None else None,
        operator_spelling(c, _OPERATORS[kind]) if kind in _OPERATORS else None,
        _automatic(c) if kind == K.VAR_DECL.value else None,
        ref,
    )


_OPERATOR_CALLS: dict[str, tuple] = {}


def operator_spelling(c: ci.Cursor, what: str) -> str:
    """The operator of a ``what`` ("Binary" or "Unary") operator cursor, as written (``+=``, ``++``)."""
    calls = _OPERATOR_CALLS.get(what)
    if calls is None:
        kind = ci.conf.lib[f"clang_getCursor{what}OperatorKind"]  # fresh pointers: argument types of our own
        kind.argtypes, kind.restype = [ci.Cursor], ctypes.c_int
        spelling = ci.conf.lib[f"clang_get{what}OperatorKindSpelling"]
        spelling.argtypes, spelling.restype = [ctypes.c_int], ci._CXString
        spelling.errcheck = ci._CXString.from_result
        calls = _OPERATOR_CALLS[what] = (kind, spelling)
    return calls[1](calls[0](c))
