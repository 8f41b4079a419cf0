"""Branch conditions as a reader would write them: negations pushed inward (``!(n <= 0 || incx <= 0)`` is
``n > 0 && incx > 0``), double negations dropped (``!(!handle)`` is ``handle``), and the operands an entry's
instance decides folded away (``using_rocblas_float && incx == 1`` is ``incx == 1`` for float). The text is parsed
with tree-sitter; a condition it cannot parse whole is returned as it came."""

from __future__ import annotations

from functools import lru_cache

import tree_sitter as ts

from miner.parse.treesitter_facts import parser

_NEGATED = {"==": "!=", "!=": "==", "<": ">=", "<=": ">", ">": "<=", ">=": "<"}
_PREFIX = "bool __c = "


@lru_cache(maxsize=8192)
def simplify(condition: str) -> str:
    tree = parser().parse((_PREFIX + condition + ";").encode())
    if tree.root_node.has_error:
        return condition
    declarator = next((n for n in _walk(tree.root_node) if n.type == "init_declarator"), None)
    value = declarator.child_by_field_name("value") if declarator is not None else None
    if value is None:
        return condition
    return _positive(value)


def _walk(node: ts.Node):
    yield node
    for child in node.children:
        yield from _walk(child)


def _text(node: ts.Node) -> str:
    return " ".join(node.text.decode(errors="replace").split())


def _inner(node: ts.Node) -> ts.Node:
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    return node


def _operator(node: ts.Node) -> str:
    found = node.child_by_field_name("operator")
    return found.type if found is not None else ""


def _positive(node: ts.Node) -> str:
    node = _inner(node)
    if node.type == "unary_expression" and _operator(node) == "!":
        return _negative(node.child_by_field_name("argument"))
    if node.type == "binary_expression" and _operator(node) in ("&&", "||"):
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        return f"{_operand(_positive(left), _operator(node))} {_operator(node)} {_operand(_positive(right), _operator(node))}"
    return _text(node)


def _negative(node: ts.Node) -> str:
    node = _inner(node)
    operator = _operator(node)
    if node.type == "unary_expression" and operator == "!":
        return _positive(node.child_by_field_name("argument"))
    if node.type == "binary_expression" and operator in ("&&", "||"):
        flipped = "||" if operator == "&&" else "&&"
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        return f"{_operand(_negative(left), flipped)} {flipped} {_operand(_negative(right), flipped)}"
    if node.type == "binary_expression" and operator in _NEGATED:
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        return f"{_text(left)} {_NEGATED[operator]} {_text(right)}"
    text = _text(node)
    simple = node.type in ("identifier", "field_expression", "call_expression", "qualified_identifier")
    return f"!{text}" if simple else f"!({text})"


def _operand(text: str, joined_by: str) -> str:
    """``text`` as an operand of ``joined_by``, in parentheses when it joins by the other operator."""
    other = " || " if joined_by == "&&" else " && "
    if other in text and not (text.startswith("(") and text.endswith(")")):
        return f"({text})"
    return text


def fold(condition: str, known: tuple[bool | None, ...]) -> str:
    """``condition`` with the operands of its ``&&`` / ``||`` chain (in order, through parentheses) replaced by
    what ``known`` says of each (None: undecided) and the chain reduced; as it came when its operands do not
    number ``len(known)`` or the whole is decided."""
    tree = parser().parse((_PREFIX + condition + ";").encode())
    declarator = next((n for n in _walk(tree.root_node) if n.type == "init_declarator"), None)
    value = declarator.child_by_field_name("value") if declarator is not None else None
    if tree.root_node.has_error or value is None:
        return condition
    leaves = list(_chain_operands(value))
    if len(leaves) != len(known):
        return condition
    folded = _folded(value, {leaf.id: k for leaf, k in zip(leaves, known, strict=True)})
    return folded if isinstance(folded, str) else condition


def _chain_operands(node: ts.Node):
    node = _inner(node)
    if node.type == "binary_expression" and _operator(node) in ("&&", "||"):
        yield from _chain_operands(node.child_by_field_name("left"))
        yield from _chain_operands(node.child_by_field_name("right"))
    else:
        yield node


def _folded(node: ts.Node, known: dict[int, bool | None]) -> str | bool:
    node = _inner(node)
    operator = _operator(node)
    if node.type != "binary_expression" or operator not in ("&&", "||"):
        found = known.get(node.id)
        return _text(node) if found is None else found
    left = _folded(node.child_by_field_name("left"), known)
    right = _folded(node.child_by_field_name("right"), known)
    absorbing = operator == "||"  # true absorbs an ||, false an &&
    if left is absorbing or right is absorbing:
        return absorbing
    if isinstance(left, bool):
        return right
    if isinstance(right, bool):
        return left
    return f"{_operand(left, operator)} {operator} {_operand(right, operator)}"
