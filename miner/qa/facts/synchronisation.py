"""Barriers and what each orders: the LDS accesses between neighbouring barriers, who writes and who reads, and whether
a return can skip one."""

from __future__ import annotations

import re

import tree_sitter as ts

from miner.models import (
    Access,
    BarrierUse,
    CallFact,
    Located,
    Region,
    SharedDecl,
)
from miner.qa.facts.body import _LOOPS, _loop_fact
from miner.qa.facts.memory import _POINTER_ARGUMENT, _carves, _declared_name, _pointer_locals, _shared_shape
from miner.qa.facts.syntax import (
    ATOMIC,
    BARRIERS,
    CROSS_LANE,
    _ancestors,
    _callee,
    _located,
    _nodes,
    _params,
    _text,
    collapse,
)
from miner.qa.launch_facts import by_line


def _synchronisation_facts(region: Region, function: ts.Node, facts: dict[str, list], lds: set[str]) -> None:
    barriers_before = len(facts["barriers"])
    for node in _nodes(function, "declaration", "call_expression"):
        if node.type == "declaration" and "__shared__" in _text(node).split("=")[0]:
            declarator = next(
                (c for c in node.named_children if c.type in ("array_declarator", "identifier", "init_declarator")),
                None,
            )
            name = re.match(r"\w+", _text(declarator)) if declarator is not None else None
            facts["shared"].append(
                SharedDecl.model_construct(
                    **_located(region, node),
                    name=name.group(0) if name else "",
                    declaration=collapse(_text(node)),
                    **_shared_shape(node, declarator),
                )
            )
        elif node.type == "declaration" and _carves(node, lds):
            facts["lds_carving"].append(Located.model_construct(**_located(region, node)))
        elif node.type == "call_expression":
            name = _callee(node)
            if not name:
                continue
            fact = CallFact.model_construct(**_located(region, node), name=name)
            if name in BARRIERS:
                facts["barriers"].append(fact)
            elif ATOMIC.match(name):
                facts["atomics"].append(fact)
            elif CROSS_LANE.match(name):
                facts["cross_lane"].append(fact)
            elif "reduce" in name.lower():
                facts["reductions"].append(fact)
    body = function.child_by_field_name("body")
    barriers = facts["barriers"][barriers_before:]
    if barriers and body is not None:
        facts["barrier_uses"] += _barrier_uses(region, body, barriers, lds, facts["stores"])


def _barrier_uses(
    region, body: ts.Node, barriers: list[CallFact], lds: set[str], stores: list[Access]
) -> list[BarrierUse]:
    """For each barrier of one function, the LDS writes since the barrier before it and the LDS reads until the
    barrier after it: what the barrier orders."""
    found: list[tuple[ts.Node, bool, str]] = []  # every access of LDS or of a pointer: (node, written, base)
    scalars = {
        _declared_name(c)
        for node in _nodes(body, "declaration")
        if "__shared__" in _text(node).split("=")[0]
        for c in node.named_children
        if c.type in ("identifier", "init_declarator") and "[" not in _text(c)
    }
    pointers = ({_declared_name(p) for p in _params(body.parent)} | _pointer_locals(body)) - lds
    for node in _nodes(body, "subscript_expression", "identifier"):
        if node.type == "identifier":  # a ``__shared__`` scalar (``imax``), not an array's name
            name = _text(node)
            parent = node.parent
            if name not in scalars or parent is None or parent.type in ("subscript_expression", "init_declarator"):
                continue  # a pointer into LDS moved (``sx += n``) writes no LDS
            if parent.type.endswith("declarator") or parent.type in ("declaration", "pointer_declarator"):
                continue
            top = node
        else:
            base = node.child_by_field_name("argument")
            if base is None or base.type == "subscript_expression":  # the inner ``sA[i]`` of ``sA[i][j]``
                continue
            top = node
            while (
                top.parent is not None and top.parent.type == "subscript_expression" and top.parent.children[0] == top
            ):
                top = top.parent
            name = collapse(_text(base))
            if name not in lds and name not in pointers:
                continue
        parent = top.parent
        written = parent is not None and parent.type == "assignment_expression" and parent.children[0] == top
        found.append((top, written, name))
    for call in _nodes(body, "call_expression"):  # a helper handed LDS writes it (rocSOLVER's iamax(..., sval))
        arguments = call.child_by_field_name("arguments")
        if _callee(call) in BARRIERS or _callee(call) in _NOT_WRITERS or arguments is None:
            continue
        handed = [
            a
            for a in arguments.named_children
            if (m := _POINTER_ARGUMENT.match(_text(a)))
            and m.group(1) in lds
            and (m.group(1) not in scalars or _text(a).lstrip().startswith("&"))  # a scalar passed by value is read
        ]
        if handed and all("[" not in _text(a) for a in handed):
            found.append((call, True, ""))
    barrier_nodes = {
        region.start_line + n.start_point[0]: n for n in _nodes(body, "call_expression") if _callee(n) in BARRIERS
    }
    memory: list[tuple[Located, bool, str, ts.Node]] = []
    for node, written, name in found:
        statement = node
        while statement.parent is not None and not statement.type.endswith(("_statement", "declaration")):
            statement = statement.parent
        if statement.end_point[0] - statement.start_point[0] > 2:  # a block: cite the access itself
            statement = node
        memory.append((Located.model_construct(**_located(region, statement)), written, name, node))
    accesses_of = {id(n): name in lds or not name for _, _, name, n in memory}
    loops = [
        (region.start_line + n.start_point[0], region.start_line + n.end_point[0], n) for n in _nodes(body, *_LOOPS)
    ]
    statements: dict[int, ts.Node] = {}
    for node in _nodes(body, "expression_statement"):
        statements.setdefault(node.start_point[0], node)
    uses = []
    for index, barrier in enumerate(barriers):
        after = barriers[index - 1].start_line if index else region.start_line
        until = barriers[index + 1].start_line if index + 1 < len(barriers) else region.end_line + 1
        barrier_node = barrier_nodes.get(barrier.start_line)
        reaching = [  # the accesses on a path through this barrier: not in the other branch of an ``if`` holding it
            (a, w, b, n)
            for a, w, b, n in memory
            if (barrier_node is None or not _exclusive(n, barrier_node))
            and not (
                a.start_line < barrier.start_line
                and _returns_before(
                    body, statements, a.start_line - region.start_line, barrier.start_line - region.start_line
                )
            )
        ]
        accesses = [(a, w, b) for a, w, b, n in reaching if accesses_of[id(n)]]
        written_in = [(a, b) for a, w, b in accesses if w and after <= a.start_line < barrier.start_line]
        holding = [(first, last, n) for first, last, n in loops if first <= barrier.start_line <= last]
        read_before = {b for a, w, b, _ in reaching if b and not w and after <= a.start_line < barrier.start_line}
        in_loop = (
            [b.start_line for b in barriers if holding[-1][0] <= b.start_line <= holding[-1][1]] if holding else []
        )
        if len(in_loop) > 1 and barrier.start_line == in_loop[0]:  # the previous round's tail comes before it
            tail = [(a, w, b, n) for a, w, b, n in reaching if in_loop[-1] < a.start_line <= holding[-1][1]]
            written_in += [(a, b) for a, w, b, n in tail if w and accesses_of[id(n)]]
            read_before |= {b for a, w, b, _ in tail if b and not w}
        written = [a for a, _ in written_in]
        written_names = {b for _, b in written_in}
        ordered = None if "" in written_names else written_names  # a helper handed LDS writes what it writes
        read = [
            a
            for a, w, b in accesses
            if not w and barrier.start_line < a.start_line < until and (ordered is None or b in ordered)
        ]
        overwritten = [
            a for a, w, b, _ in reaching if w and b in read_before and barrier.start_line < a.start_line < until
        ]
        loop, next_round = None, []
        if holding:
            first, last, node = holding[-1]
            if barrier.start_line == in_loop[-1]:  # the loop's last barrier: next round's top comes after it
                loop = _loop_fact(region, node)
                top = [(a, w, b) for a, w, b, _ in reaching if first <= a.start_line < in_loop[0]]
                next_round = [a for a, w, b in top if not w and b in lds and (ordered is None or b in ordered)]
                if not overwritten:  # the next round's writes, at the top of the loop, over what this one read
                    overwritten = [a for a, w, b in top if w and b in read_before]
        read_later = {b for a, w, b, _ in reaching if b and not w and a.start_line > barrier.start_line}
        uses.append(
            BarrierUse.model_construct(
                barrier=barrier,
                overwritten_after=by_line(overwritten),
                written_before=by_line(written),
                read_after=by_line(read),
                loop=loop,
                read_next_round=by_line(next_round),
                stored_before=[
                    a
                    for a in stores
                    if a.region == region.id
                    and after <= a.start_line < barrier.start_line
                    and a.expression.partition("[")[0].strip() in read_later  # a store no thread reads is not published
                    and not _returns_before(
                        body, statements, a.start_line - region.start_line, barrier.start_line - region.start_line
                    )
                ],
            )
        )
    return uses


def _returns_before(body: ts.Node, statements: dict[int, ts.Node], row: int, barrier_row: int) -> bool:
    """Whether the statement on ``row`` (``statements``: the body's first expression statement of each row) sits in
    a block that returns after it and closes before ``barrier_row`` (``if(!alpha) { y[i] = 0; return; }``): that
    path never reaches the barrier."""
    statement = statements.get(row)
    if statement is None:
        return False
    for block in _ancestors(statement):
        if block == body:
            return False
        if (
            block.type == "compound_statement"
            and block.end_point[0] < barrier_row
            and any(c.type == "return_statement" and c.start_byte > statement.end_byte for c in block.named_children)
        ):
            return True
    return False


_NOT_WRITERS = frozenset(
    (
        "reinterpret_cast",
        "static_cast",
        "const_cast",
        "dynamic_cast",
        "min",
        "max",
        "abs",
        "fabs",
        "sqrt",
        "std::min",
        "std::max",
        "std::abs",
        "std::sqrt",
    )
)  # fmt: skip  (calls that take LDS values or addresses but write no LDS)


def _exclusive(first: ts.Node, second: ts.Node) -> bool:
    """Whether two nodes sit in different branches of one ``if`` (no run reaches both)."""
    ancestors = {a.id: a for a in _ancestors(first)}
    child = second
    for ancestor in _ancestors(second):
        if ancestor.id in ancestors:
            if ancestor.type != "if_statement":
                return False
            branches = [ancestor.child_by_field_name(side) for side in ("consequence", "alternative")]
            first_side = next((b for b in branches if b is not None and _within(first, b)), None)
            second_side = next((b for b in branches if b is not None and _within(child, b)), None)
            return first_side is not None and second_side is not None and first_side != second_side
        child = ancestor
    return False


def _within(node: ts.Node, outer: ts.Node) -> bool:
    return outer.start_byte <= node.start_byte and node.end_byte <= outer.end_byte
