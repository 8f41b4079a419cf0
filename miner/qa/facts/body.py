"""A function body's facts: thread-index mappings, global accesses, loops and what they step, guards and the returns
they hold."""

from __future__ import annotations

import re

import tree_sitter as ts

from miner.models import (
    Access,
    CallFact,
    GuardFact,
    IfFact,
    Located,
    LoopFact,
    Region,
    ThreadMapping,
)
from miner.qa.context import cited_text
from miner.qa.facts.memory import _declared_name, _pointer_locals, _stored_into
from miner.qa.facts.syntax import (
    ATOMIC,
    CROSS_LANE,
    THREAD_INDEX,
    _ancestors,
    _callee,
    _directive,
    _located,
    _nodes,
    _params,
    _text,
    collapse,
)
from miner.qa.syntax import LINE_COMMENT

_COMPARISON = re.compile(r"[<>]=?")
_LOOPS = ("for_statement", "while_statement", "do_statement", "for_range_loop")
_MAX_ACCESSES = 32
_SCALING = ("+=", "-=", "*=", "<<=")  # compound assignments that move a position


def _body_facts(
    region, body: ts.Node, helper_names: frozenset[str], facts: dict[str, list], lds_names: set[str]
) -> None:
    mapped: set[str] = set()
    moved: set[str] = set()  # pointers moved to the thread's element: ``A += ty * lda + tx``
    seen_access: set[str] = set()
    memory_names = ({_declared_name(p) for p in _params(body.parent)} | _pointer_locals(body)) - lds_names
    for node in _nodes(
        body,
        "init_declarator",
        "assignment_expression",
        "if_statement",
        "conditional_expression",
        *_LOOPS,
        "subscript_expression",
        "pointer_expression",
        "call_expression",
        "update_expression",
    ):
        if node.type == "update_expression":  # ``info[bid]++``: a store too
            argument = node.child_by_field_name("argument")
            if argument is not None and _stored_into(argument, memory_names):
                facts["stores"].append(
                    Access.model_construct(
                        **_located(region, node), expression=collapse(_text(node)), guards=_guards(region, node, body)
                    )
                )
            continue
        if node.type == "init_declarator" or (
            node.type == "assignment_expression" and _text(node.children[1]) in ("=", *_SCALING)
        ):
            target, value = node.children[0], node.children[-1]
            value_names = set(re.findall(r"\w+", _text(value)))
            name = _text(target).lstrip("*&").strip()
            index_like = (
                "[" not in _text(value)  # a value loaded from memory is data, not a position
                and not (ATOMIC.match(_text(value).lstrip()) or CROSS_LANE.match(_text(value).lstrip()))
                and not _computed_value(value)
            )
            if (
                re.fullmatch(r"[A-Za-z_]\w*", name)
                and (node.type == "init_declarator" or _text(node.children[1]) == "=")
                and index_like
                and (THREAD_INDEX.search(_text(value)) or value_names & mapped)
            ):
                mapped.add(name)
                if name in memory_names:
                    moved.add(
                        name
                    )  # a pointer placed at the thread's element: ``auto ty = load_ptr_batch(y, ..., tid * incy)``
                statement = node.parent if node.parent is not None else node
                facts["thread_mapping"].append(
                    ThreadMapping.model_construct(
                        **_located(region, statement), variable=name, expression=collapse(_text(value))
                    )
                )
            if (
                node.type == "assignment_expression"
                and _text(node.children[1]) in _SCALING
                and name in mapped
                and name not in memory_names
                and node.parent is not None
                and node.parent.type == "expression_statement"
                and not any(a.type in _LOOPS for a in _ancestors(node))
            ):  # ``ty *= WIN``: the position rescaled before use
                facts["thread_mapping"].append(
                    ThreadMapping.model_construct(
                        **_located(region, node.parent),
                        variable=name,
                        expression=f"{_text(node.children[1])} {collapse(_text(value))}",
                    )
                )
            if (
                node.type == "assignment_expression"
                and _text(node.children[1]) == "+="
                and re.fullmatch(r"[A-Za-z_]\w*", name)
                and name in memory_names
                and (THREAD_INDEX.search(_text(value)) or value_names & mapped)
            ):  # ``A += ty * lda + tx``: the pointer moved to the thread's element
                moved.add(name)
                statement = node.parent if node.parent is not None else node
                facts["thread_mapping"].append(
                    ThreadMapping.model_construct(
                        **_located(region, statement), variable=name, expression="+= " + collapse(_text(value))
                    )
                )
            if node.type == "assignment_expression" and _stored_into(target, memory_names):
                facts["stores"].append(
                    Access.model_construct(
                        **_located(region, node), expression=collapse(_text(node)), guards=_guards(region, node, body)
                    )
                )
        elif node.type == "conditional_expression":  # ``beta ? beta * C[i] : 0``: a branch of the kernel's math
            condition = node.child_by_field_name("condition")
            if condition is not None:
                facts["branches"].append(IfFact.model_construct(**_located(region, condition)))
        elif node.type == "if_statement":
            condition = node.child_by_field_name("condition")
            text = _text(condition) if condition is not None else ""
            names = set(re.findall(r"\w+", text))
            reads_data = "[" in text  # ``if(std::abs(E[k]) < thresh)`` tests a value, not a position
            if not reads_data and (
                (_COMPARISON.search(text) and (names & mapped or THREAD_INDEX.search(text)))
                or _position_equals_size(text, mapped)
            ):
                facts["boundary_checks"].append(Located.model_construct(**_located(region, condition)))
            if condition is not None:
                facts["branches"].append(IfFact.model_construct(**_located(region, condition), returns=_returns(node)))
        elif node.type in _LOOPS:
            facts["loops"].append(_loop_fact(region, node, _guards(region, node, body)))
        elif node.type == "subscript_expression" and (
            node.parent is None or node.parent.type != "subscript_expression"
        ):
            text = collapse(_text(node))
            base, _, index = text.partition("[")
            if base.strip() in lds_names:
                facts["lds_accesses"].append(
                    Access.model_construct(
                        **_located(region, node), expression=text, guards=_guards(region, node, body)
                    )
                )
                continue
            index_names = set(re.findall(r"\w+", index))
            strided = any(n.startswith(("inc", "ld", "stride")) for n in index_names)
            in_memory = base.strip() in memory_names  # a parameter or a pointer: not a register array, not LDS
            if (
                in_memory
                and (strided or index_names & mapped or base.strip() in moved)
                and text not in seen_access
                and len(seen_access) < _MAX_ACCESSES
            ):
                seen_access.add(text)
                facts["global_accesses"].append(
                    Access.model_construct(
                        **_located(region, node), expression=text, guards=_guards(region, node, body)
                    )
                )
        elif node.type == "pointer_expression" and _text(node).startswith("*"):
            argument = node.child_by_field_name("argument")
            name = _text(argument) if argument is not None and argument.type == "identifier" else ""
            text = collapse(_text(node))
            if name in moved and name in memory_names and text not in seen_access and len(seen_access) < _MAX_ACCESSES:
                seen_access.add(text)  # ``*ty`` with ``auto ty = load_ptr_batch(y, batch, offset_y + tid * incy, ...)``
                facts["global_accesses"].append(
                    Access.model_construct(
                        **_located(region, node), expression=text, guards=_guards(region, node, body)
                    )
                )
        elif node.type == "call_expression" and _callee(node) in helper_names:
            facts["helpers"].append(CallFact.model_construct(**_located(region, node), name=_callee(node)))


def _position_equals_size(condition: str, mapped: set[str]) -> bool:
    """``tid == n - 1``: the thread's position tested against a size (the odd tail), not against a constant."""
    for match in re.finditer(r"([\w.]+)\s*==\s*([\w.\s+\-*/]+)", condition):
        left, right = match.group(1), match.group(2)
        position = left in mapped or THREAD_INDEX.fullmatch(left)
        sizes = set(re.findall(r"[A-Za-z_]\w*", right)) - mapped
        if position and sizes and not THREAD_INDEX.search(right):
            return True
    return False


def _returns(if_statement: ts.Node) -> bool:
    """Whether the then-branch of the ``if`` is a ``return`` or a block that starts with one."""
    then = if_statement.child_by_field_name("consequence")
    while then is not None and then.type == "compound_statement":
        then = next((c for c in then.named_children if c.type != "comment"), None)
    return then is not None and then.type == "return_statement"


_POSITION_HELPER = re.compile(r"ptr|idx|index|offset|shift|stride|min|max", re.IGNORECASE)


def _computed_value(value: ts.Node) -> bool:
    """``smin = bdsqr_estimate(k - i + 1, D + i, ...)``: a function of the data the thread's pointers reach, not a
    position (``load_ptr_batch(A, bid, ...)`` and ``idx2D(i, j, lda)`` are positions)."""
    while value.type == "parenthesized_expression" and value.named_child_count == 1:
        value = value.named_children[0]
    if value.type != "call_expression" or THREAD_INDEX.search(_text(value)):
        return False
    function = value.child_by_field_name("function")
    return function is not None and not _POSITION_HELPER.search(_text(function))


def _guards(region, node: ts.Node, body: ts.Node) -> list[GuardFact]:
    """The conditions of the ``if`` statements whose then- or else-branch holds the node, outermost first."""
    guards = []
    child = node
    for ancestor in _ancestors(node):
        if ancestor == body:
            break
        if ancestor.type == "if_statement" and child in (
            ancestor.child_by_field_name("consequence"),
            ancestor.child_by_field_name("alternative"),
        ):
            condition = ancestor.child_by_field_name("condition")
            holds = ancestor.child_by_field_name("consequence") == child
            if condition is not None:
                guards.insert(0, GuardFact.model_construct(**_located(region, condition), holds=holds))
        child = ancestor
    return guards


_SCALAR_UPDATE = re.compile(r"(?<![\w\].>])\b([A-Za-z_]\w*)\s*(\+=|-=|\*=|=(?!=))\s*([^;]*);")


_REGISTER_UPDATE = re.compile(r"\b[A-Za-z_]\w*\s*\[[^\]]*\]\s*\+=")  # ``sum[k] += ...``: partial sums held per thread


_FUNCTOR_FOLD = re.compile(r"\b\w+\s*\{\s*\}\s*\(\s*\w+\s*,")  # ``REDUCE{}(winner, work[i])``
_SELECTS = re.compile(r"\bif\s*\([^;{}]*?\b(\w+)\s*[<>]=?\s*(\w+)[^;{}]*\)\s*\{?\s*\1\s*=\s*\2\s*;")


def _accumulates(body: str, loop_variables: set[str] = frozenset()) -> bool:
    """Whether a loop body folds values into one: ``sum += ...``, ``acc = f(..., acc)``, ``res[k] += ...`` at a
    subscript the loop does not step (``ipiv[j] += k`` over ``j`` updates elements), or a running maximum
    (``if(val1 < val2) { val1 = val2; ...``)."""
    for name, operator, value in _SCALAR_UPDATE.findall(body):
        if operator != "=" or re.search(rf"\b{re.escape(name)}\b", value):
            return True
    for update in _REGISTER_UPDATE.finditer(body):
        if not set(re.findall(r"\w+", update.group(0).partition("[")[2])) & loop_variables:
            return True
    return bool(_SELECTS.search(body) or _FUNCTOR_FOLD.search(body))


def _stepped(header: str) -> set[str]:
    """The variables a ``for`` header steps (``j += SYTRF_MAX_THDS``, ``i++``)."""
    clauses = header.partition("(")[2].split(";")
    step = clauses[2] if len(clauses) > 2 else ""
    return {a or b for a, b in re.findall(r"(\w+)\s*(?:\+\+|--|[-+*/]=)|(?:\+\+|--)\s*(\w+)", step)}


def _loop_fact(region: Region, node: ts.Node, guards: list[GuardFact] | None = None) -> LoopFact:
    body = node.child_by_field_name("body")
    header_text = _text(node)[: body.start_byte - node.start_byte] if body is not None else _text(node)
    if node.type == "do_statement":
        condition = node.child_by_field_name("condition")
        header_text = f"do ... while{_text(condition)}" if condition is not None else "do ... while"
    depth = 1 + sum(1 for a in _ancestors(node) if a.type in _LOOPS)
    unroll = ""
    previous = node.prev_named_sibling
    if previous is not None and previous.type == "preproc_call" and _text(previous).split()[1:2] == ["unroll"]:
        words = _text(previous).split()
        unroll = words[2] if len(words) > 2 else "full"
    last = body.start_point[0] if body is not None else node.end_point[0]
    first_line = region.start_line + (previous.start_point[0] if unroll else node.start_point[0])
    last_line = region.start_line + last
    return LoopFact.model_construct(
        region=region.id,
        start_line=first_line,
        end_line=last_line,
        text=collapse(cited_text(region, first_line, last_line) or ""),
        **_directive(region, first_line),
        header=collapse(LINE_COMMENT.sub("", header_text)),
        depth=depth,
        unroll=unroll,
        accumulates=body is not None and _accumulates(_text(body), _stepped(header_text)),
        body_end=region.start_line + node.end_point[0],
        guards=guards or [],
    )
