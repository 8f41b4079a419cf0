"""Branch conditions as a reader would write them: negations pushed inward (``!(n <= 0 || incx <= 0)`` is
``n > 0 && incx > 0``), double negations dropped (``!(!handle)`` is ``handle``). The text is parsed with
tree-sitter; a condition it cannot parse whole is returned as it came."""

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
