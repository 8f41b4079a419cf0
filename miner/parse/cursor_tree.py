"""A function body read out of libclang once, as a tree of Python nodes.

The instance walk asks for the children and kind of most nodes several times (a condition is
reduced to an expression, then walked for calls; a loop body is searched for writes, then walked).
Each ``Cursor.get_children()`` is a C call with one Python callback per child, so the walk spent
most of its time there. One recursive visit builds the whole tree instead; a ``Node`` answers
``kind`` and ``get_children()`` from Python and hands every other attribute to its cursor.
"""

from __future__ import annotations

from collections.abc import Iterator

import clang.cindex as ci

_RECURSE = 2  # CXChildVisit_Recurse


class Node:
    __slots__ = ("cursor", "kind", "children")

    def __init__(self, cursor: ci.Cursor) -> None:
        self.cursor = cursor
        self.kind = ci.CursorKind.from_id(cursor._kind_id)
        self.children: list[Node] = []

    def get_children(self) -> Iterator[Node]:
        return iter(self.children)

    def __getattr__(self, name: str):
        return getattr(self.cursor, name)


def raw(c: ci.Cursor | Node) -> ci.Cursor:
    """The libclang cursor, for a C call."""
    return c.cursor if isinstance(c, Node) else c


def tree(root: ci.Cursor) -> Node:
    """``root`` and everything below it, in one visit."""
    lib = ci.conf.lib
    equal = lib.clang_equalCursors
    tu = root._tu
    top = Node(root)
    stack = [top]

    def visit(child: ci.Cursor, parent: ci.Cursor, _data) -> int:
        while len(stack) > 1 and not equal(stack[-1].cursor, parent):
            stack.pop()
        child._tu = tu
        node = Node(child)
        stack[-1].children.append(node)
        stack.append(node)
        return _RECURSE

    lib.clang_visitChildren(root, ci.callbacks["cursor_visit"](visit), None)
    return top


_referenced = None


def referenced_if(node: Node | ci.Cursor, kinds: frozenset[int]) -> ci.Cursor | None:
    """What ``node`` refers to, when its kind id is one of ``kinds``; a quicker ``Cursor.referenced``
    for the walk, which asks it of every name in a body and wants only the functions."""
    global _referenced
    if _referenced is None:
        fn = ci.conf.lib["clang_getCursorReferenced"]  # a fresh pointer: no null check on each result
        fn.argtypes, fn.restype = [ci.Cursor], ci.Cursor
        _referenced = fn
    cursor = raw(node)
    ref = _referenced(cursor)
    if ref._kind_id not in kinds:
        return None
    ref._tu = cursor._tu
    return ref
