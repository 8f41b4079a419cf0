"""Static facts about one kernel, read off its verbatim code with tree-sitter and off the bundle's launch sites.

Every fact carries the lines it was read from, so that a question built on it can cite them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import tree_sitter as ts

from miner.models import (
    Access,
    BarrierUse,
    CallFact,
    ChunkLoop,
    EarlyExit,
    GuardFact,
    IfFact,
    KernelFacts,
    Located,
    LoopFact,
    Region,
    SharedDecl,
    ThreadMapping,
)
from miner.qa.constants import Decided, decided_branches
from miner.qa.context import KernelContext, cited_text
from miner.qa.launch_facts import by_line, launch_fact
from miner.qa.overloads import argument_count, reachable
from miner.qa.path_facts import path_facts
from miner.qa.syntax import LINE_COMMENT, parse_code

THREAD_INDEX = re.compile(
    r"\b(?:threadIdx|blockIdx|blockDim|gridDim|hip(?:Thread|Block)(?:Idx|Dim)_[xyz]|hipGridDim_[xyz])\b"
)
BARRIERS = frozenset(
    {
        "__syncthreads",
        "__syncwarp",
        "__threadfence",
        "__threadfence_block",
        "__threadfence_system",
        "__builtin_amdgcn_s_barrier",
        "__builtin_amdgcn_wave_barrier",
        "__builtin_amdgcn_fence",
    }
)
ATOMIC = re.compile(r"^(?:atomic|__hip_atomic|__atomic|safeAtomic|unsafeAtomic)")
CROSS_LANE = re.compile(
    r"^(?:__shfl|__ballot|__any|__all|__reduce_|__builtin_amdgcn_(?:ds_swizzle|mov_dpp|update_dpp|ds_bpermute|"
    r"ds_permute|readlane|readfirstlane))"
)
_LAUNCH_BOUNDS = re.compile(r"(__launch_bounds__\s*\([^)]*\)|\b[A-Z][A-Z0-9_]*KERNEL[A-Z0-9_]*\s*\([^)]*\))")
_COMPARISON = re.compile(r"[<>]=?")
_LOOPS = ("for_statement", "while_statement", "do_statement", "for_range_loop")
_MAX_ACCESSES = 32
_SCALING = ("+=", "-=", "*=", "<<=")  # compound assignments that move a position
_MAX_CHUNK_STEPS = 8


def collapse(text: str) -> str:
    return " ".join(text.split())


def _text(node: ts.Node) -> str:
    return node.text.decode(errors="replace")


def _located(region: Region, node: ts.Node) -> dict:
    """The fields of a ``Located`` for a node of the region."""
    first, final = region.start_line + node.start_point[0], region.start_line + node.end_point[0]
    return dict(
        region=region.id,
        start_line=first,
        end_line=final,
        text=collapse(LINE_COMMENT.sub("", cited_text(region, first, final) or "")),
        **_directive(region, first),
    )


_DIRECTIVE = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b(.*)$")


@lru_cache(maxsize=4096)
def _directives(code: str) -> tuple[tuple[str, tuple[int, ...]] | None, ...]:
    """For each line of the code (0-based), the innermost preprocessor condition around it and its lines.

    Read off the text rather than tree-sitter's tree: a block that opens a brace under ``#if`` and
    closes it under another leaves the tree's ``preproc_if`` nodes spanning far more than the block."""
    open_blocks: list[tuple[str, tuple[int, ...]]] = []
    out: list[tuple[str, tuple[int, ...]] | None] = []
    for index, line in enumerate(code.split("\n")):
        match = _DIRECTIVE.match(line)
        if match:
            keyword, rest = match.group(1), " ".join(match.group(2).split("//")[0].split())
            if keyword in ("if", "ifdef", "ifndef"):
                open_blocks.append((f"#{keyword} {rest}".strip(), (index,)))
            elif keyword in ("elif", "else") and open_blocks:
                opened, lines = open_blocks[-1]
                base = opened.split(" of ", 1)[-1]
                text = f"#else of {base}" if keyword == "else" else f"#elif {rest}"
                open_blocks[-1] = (text, (lines[0], index))
            elif keyword == "endif" and open_blocks:
                open_blocks.pop()
            out.append(None)
            continue
        out.append(open_blocks[-1] if open_blocks else None)
    return tuple(out)


def _directive(region: Region, first_line: int) -> dict[str, object]:
    """``directive`` and ``directive_lines`` for a fact starting at ``first_line`` of the region."""
    found = _directives(region.code)[first_line - region.start_line]
    if found is None:
        return {}
    text, lines = found
    return {"directive": text, "directive_lines": [region.start_line + i for i in lines]}


@lru_cache(maxsize=64)
def _query(types: tuple[str, ...]) -> ts.Query:
    import tree_sitter_cuda

    return ts.Query(ts.Language(tree_sitter_cuda.language()), " ".join(f"({t}) @n" for t in types))


def _nodes(node: ts.Node, *types: str) -> list[ts.Node]:
    """The nodes of these types under ``node`` (itself included), in document order; found by a query, in C."""
    found = ts.QueryCursor(_query(types)).captures(node).get("n", [])
    return sorted(found, key=lambda n: (n.start_byte, -n.end_byte))


def _walk(node: ts.Node):
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


def _function(tree: ts.Tree) -> ts.Node | None:
    return next((n for n in _walk(tree.root_node) if n.type == "function_definition"), None)


def _callee(call: ts.Node) -> str:
    fn = call.child_by_field_name("function")
    while fn is not None and fn.type in ("template_function", "qualified_identifier", "field_expression"):
        fn = fn.child_by_field_name("name") or fn.child_by_field_name("field")
    return _text(fn) if fn is not None and fn.type in ("identifier", "field_identifier") else ""


def _ancestors(node: ts.Node):
    parent = node.parent
    while parent is not None:
        yield parent
        parent = parent.parent


_BODY_KINDS = (
    "helpers",
    "thread_mapping",
    "boundary_checks",
    "global_accesses",
    "stores",
    "lds_accesses",
    "loops",
    "branches",
)
_SYNC_KINDS = ("shared", "lds_carving", "barriers", "atomics", "cross_lane", "reductions", "barrier_uses")


def kernel_facts(context: KernelContext) -> KernelFacts:
    kernel = context.kernel
    tree = parse_code(kernel.code)
    function = _function(tree)
    body = function.child_by_field_name("body") if function is not None else None
    head_end = body.start_point[0] if body is not None else 0
    head = "\n".join(kernel.code.split("\n")[: head_end + 1])
    signature_last = kernel.start_line + max(head_end - 1, 0) if body is not None and head_end else kernel.start_line
    signature = Located.model_construct(
        region=kernel.id,
        start_line=kernel.start_line,
        end_line=signature_last,
        text=collapse(cited_text(kernel, kernel.start_line, signature_last) or ""),
    )
    bounds = _LAUNCH_BOUNDS.search(head)
    helper_names = frozenset(h.name for h in context.helpers)
    facts: dict[str, list] = {k: [] for k in (*_BODY_KINDS, *_SYNC_KINDS)}
    shared_params = _shared_params(context)
    per_region = {
        region.id: _function_facts(
            region.id, region.start_line, region.code, helper_names, shared_params.get(region.id, frozenset())
        )
        for region in (kernel, *context.helpers)
    }
    decided = decided_branches(context)
    if decided:
        per_region = {region_id: _live_facts(found, decided) for region_id, found in per_region.items()}
    callable_ = _callable_helpers(context, per_region)
    for region in (kernel, *context.helpers):
        if region.id == kernel.id or region.id in callable_:
            for kind, found in per_region[region.id].items():
                facts[kind] += found
    params = [collapse(_text(p)) for p in _params(function)]
    launches = [
        launch
        for site in context.launch_sites
        if context.region(site.launcher)
        and _takes(params, _kernel_arguments(launch := launch_fact(context, site), kernel.name))
    ]
    dispatch = [launch_fact(context, site) for site in context.dispatched_sites]
    return KernelFacts.model_construct(
        kernel=kernel.id,
        name=kernel.name,
        signature=signature,
        launch_bounds=collapse(bounds.group(1)) if bounds else "",
        template_params=_template_params(tree),
        params=params,
        launches=launches,
        dispatch=dispatch,
        early_exits=_early_exits(context),
        **{
            kind: [_chunk_loop(context, loop) for loop in kept] if kind == "chunking" else kept
            for kind, found in path_facts(context).items()
            for kept in [_on_the_way(context, found)]
        },
        **facts,
    )


_LEADING_ARGUMENTS = {"ROCBLAS_LAUNCH_KERNEL_GRID": 6}  # the macro's own grid, then hipLaunchKernelGGL's five


def _kernel_arguments(launch, kernel: str) -> int | None:
    """How many arguments a launch passes the kernel; None when the statement does not show them whole."""
    text = launch.expansion or launch.statement.text
    chevrons = re.search(r">>>\s*\(", text)
    if chevrons:
        return argument_count("kernel" + text[chevrons.start() + 3 :], "kernel")
    if not (launch.via and re.fullmatch(r"\w+", launch.via)):
        return None
    named = re.search(rf"\b{re.escape(kernel)}\b", text)
    if named is None:
        return None  # a library macro that launches it (``LAUNCH_ALL(n)``): its arguments are not shown
    start = text.rfind(launch.via, 0, named.start())  # a macro expanding to several launches: this kernel's
    text = text[max(start, 0) :]
    total = argument_count(text, launch.via)
    if total is None or re.search(r"[(,]\s*[A-Z][A-Z0-9_]{2,}\s*[,)]", text.partition(kernel)[2]):
        return None  # an argument list in a macro (``GBMV_COMMON_ARGS``) the statement does not expand
    return total - _LEADING_ARGUMENTS.get(launch.via, 5)


def _takes(params: list[str], count: int | None) -> bool:
    """Whether a kernel of these parameters can be launched with ``count`` arguments: a launch of another overload
    of the same name (rocSOLVER's 4-argument ``set_tau`` against the 3-parameter one) is not this kernel's."""
    if count is None or not params or any("..." in p for p in params):
        return True
    required = sum(1 for p in params if "=" not in p)
    return required <= count <= len(params)


def _live_facts(found: dict[str, list], decided: Decided) -> dict[str, list]:
    """The facts of one function without those in branches its launches' template constants never take, without
    the ``if``s those constants decide, and with the conditions they decide dropped from the guards of the rest."""
    return {
        kind: [kept for fact in facts if (kept := _live_fact(fact, decided)) is not None]
        for kind, facts in found.items()
    }


def _live_fact(fact, decided: Decided):
    if isinstance(fact, BarrierUse):
        if decided.is_dead(fact.barrier.region, fact.barrier.start_line):
            return None
        lists = ("written_before", "read_after", "read_next_round", "stored_before", "overwritten_after")
        return fact.model_copy(
            update={
                name: [x for x in getattr(fact, name) if not decided.is_dead(x.region, x.start_line)] for name in lists
            }
        )
    if decided.is_dead(fact.region, fact.start_line):
        return None
    if isinstance(fact, IfFact) and (fact.region, fact.start_line) in decided.conditions:
        return None
    guards = getattr(fact, "guards", None)
    if not guards:
        return fact
    kept = []
    for guard in guards:
        value = decided.conditions.get((guard.region, guard.start_line))
        if value is None:
            kept.append(guard)
        elif value != guard.holds:
            return None
    return fact if len(kept) == len(guards) else fact.model_copy(update={"guards": kept})


def _chunk_loop(context: KernelContext, loop: Located) -> ChunkLoop:
    """The loop with the ``if`` blocks it sits in and the statements of its body that use its variable."""
    region = context.region(loop.region)
    row = loop.start_line - region.start_line if region else -1
    node = next(
        (n for n in _nodes(parse_code(region.code).root_node, "for_statement") if n.start_point[0] == row), None
    )
    if region is None or node is None:
        return ChunkLoop.model_construct(**loop.model_dump())
    function = node
    while function.parent is not None and function.type != "function_definition":
        function = function.parent
    variable = re.search(r"\bfor\s*\(\s*(?:[\w:<>]+\s+)?(\w+)\s*=", loop.text)
    body = node.child_by_field_name("body")
    steps = [
        _first_line(region, statement)
        for statement in (body.named_children if body is not None and body.type == "compound_statement" else [])
        if variable and re.search(rf"\b{variable.group(1)}\b", _text(statement))
    ]
    return ChunkLoop.model_construct(
        **loop.model_dump(),
        guards=_guards(region, node, function.child_by_field_name("body") or function),
        steps=steps[:_MAX_CHUNK_STEPS],
        body_end=region.start_line + node.end_point[0],
    )


def _first_line(region: Region, node: ts.Node) -> Located:
    """A statement cited by its first line (a call's argument list can run on for twenty)."""
    line = region.start_line + node.start_point[0]
    text = collapse(LINE_COMMENT.sub("", cited_text(region, line, line) or ""))
    return Located.model_construct(region=region.id, start_line=line, end_line=line, text=text)


def _callable_helpers(context: KernelContext, per_region: dict[str, dict[str, list]]) -> set[str]:
    """The helper regions some call in the context can reach by its number of arguments: the overload set of a
    dependent call holds every candidate, and a 1-argument ``load_scalar(beta)`` reaches no 3-parameter one."""
    calls: dict[str, list[str]] = {}
    for found in per_region.values():
        for call in found["helpers"]:
            calls.setdefault(call.name, []).append(call.text)
    return {
        h.id
        for h in context.helpers
        if h.name not in calls or any(reachable(h, text, h.name) for text in calls[h.name])
    }


def _on_the_way(context: KernelContext, found: list, *, before_launch: bool = False) -> list:
    """The statements of a launcher that can run on the way to one of its launches of the kernel: not in the other
    branch of an ``if`` that holds the launch (a shortcut of the ``else`` path does not guard this kernel), and,
    with ``before_launch``, above it."""
    sites: dict[str, list[int]] = {}
    for site in context.launch_sites:
        sites.setdefault(site.launcher, []).append(site.line)
    kept = []
    for located in found:
        lines = [line for line in sites.get(located.region, []) if not before_launch or located.start_line < line]
        if before_launch and not lines:
            continue
        region = context.region(located.region)
        if not lines or region is None:
            kept.append(located)
            continue
        root = parse_code(region.code).root_node
        statement = _node_at(root, located.start_line - region.start_line)
        if statement is None or any(
            (launch := _node_at(root, line - region.start_line)) is None or not _exclusive(statement, launch)
            for line in lines
        ):
            kept.append(located)
    return kept


def _node_at(root: ts.Node, row: int) -> ts.Node | None:
    """The first named node that starts on the row (0-based), below the root."""
    node = root.named_descendant_for_point_range((row, 0), (row, 10_000))
    while node is not None and node.parent is not None and node.parent.start_point[0] == row and node.parent != root:
        node = node.parent
    return node


def _template_params(tree: ts.Tree) -> list[str]:
    node = next((n for n in _walk(tree.root_node) if n.type == "template_parameter_list"), None)
    return [collapse(_text(c)) for c in node.named_children] if node is not None else []


def _params(function: ts.Node | None) -> list[ts.Node]:
    if function is None:
        return []
    declarator = next((n for n in _walk(function) if n.type == "function_declarator"), None)
    params = declarator.child_by_field_name("parameters") if declarator is not None else None
    kinds = ("parameter_declaration", "optional_parameter_declaration", "variadic_parameter_declaration")
    return [c for c in params.named_children if c.type in kinds] if params is not None else []


@lru_cache(maxsize=4096)
def _function_facts(
    region_id: str, start_line: int, code: str, helper_names: frozenset[str], lds_params: frozenset[str] = frozenset()
) -> dict[str, list]:
    """The facts one function's body holds (a kernel's or a device helper's), given which of its pointer parameters
    its callers in this context pass LDS (``lds_params``)."""
    found: dict[str, list] = {k: [] for k in (*_BODY_KINDS, *_SYNC_KINDS)}
    function = _function(parse_code(code))
    body = function.child_by_field_name("body") if function is not None else None
    if function is None or body is None:
        return found
    region = _RegionText(region_id, start_line, start_line + code.count("\n"), code)
    lds = _lds_aliases(body, lds_params)
    _body_facts(region, body, helper_names, found, lds)
    _synchronisation_facts(region, function, found, lds)
    return found


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
            index_like = "[" not in _text(value) and not (  # a value loaded from memory is data, not a position
                ATOMIC.match(_text(value).lstrip()) or CROSS_LANE.match(_text(value).lstrip())
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


def _stored_into(target: ts.Node, memory_names: set[str]) -> bool:
    """Whether an assignment's left side is global memory: ``y[i] = ...`` or ``*out = ...`` of a parameter or a
    pointer into global memory."""
    if target.type == "subscript_expression":
        base = target.child_by_field_name("argument")
        return base is not None and collapse(_text(base)) in memory_names
    if target.type == "pointer_expression":
        return collapse(_text(target)).lstrip("*").strip() in memory_names
    return False


def _shared_names(body: ts.Node) -> set[str]:
    names: set[str] = set()
    for node in _nodes(body, "declaration"):
        if "__shared__" in _text(node).split("=")[0]:
            names |= {
                _declared_name(c)
                for c in node.named_children
                if c.type in ("array_declarator", "identifier", "init_declarator")
            }
    return names - {""}


def _carves(declaration: ts.Node, lds: set[str]) -> bool:
    """Whether a declaration declares a pointer into LDS (computed from a ``__shared__`` array or another such)."""
    for child in declaration.named_children:
        if child.type != "init_declarator":
            continue
        declarator, value = child.child_by_field_name("declarator"), child.child_by_field_name("value")
        if (
            declarator is not None
            and value is not None
            and declarator.type == "pointer_declarator"
            and _declared_name(declarator) in lds
            and set(re.findall(r"\w+", _text(value))) & lds
        ):
            return True
    return False


def _lds_aliases(body: ts.Node, lds_params: frozenset[str] = frozenset()) -> set[str]:
    """The names that point into LDS: ``__shared__`` arrays, the parameters callers pass LDS, and the pointer locals
    computed from either (``T* x = reinterpret_cast<T*>(lmem) + n``)."""
    aliases = _shared_names(body) | set(lds_params)
    pointers = []
    for node in _nodes(body, "declaration"):
        for child in node.named_children:
            if child.type != "init_declarator":
                continue
            declarator, value = child.child_by_field_name("declarator"), child.child_by_field_name("value")
            if declarator is not None and value is not None and declarator.type == "pointer_declarator":
                pointers.append((_declared_name(declarator), set(re.findall(r"\w+", _text(value)))))
    pointers += _assigned_pointers(body)
    grew = True
    while grew:
        grew = False
        for name, reads in pointers:
            if name not in aliases and reads & aliases:
                aliases.add(name)
                grew = True
    return aliases


def _assigned_pointers(body: ts.Node) -> list[tuple[str, set[str]]]:
    """Pointer locals declared without a value and given one by a single assignment (``T* sA; ... sA =
    reinterpret_cast<T*>(smem) + blockDim.y;``), with the names that value reads."""
    declared = {
        _declared_name(child)
        for node in _nodes(body, "declaration")
        for child in node.named_children
        if child.type == "pointer_declarator"
    }
    assigned: dict[str, list[set[str]]] = {}
    for node in _nodes(body, "assignment_expression"):
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        operator = node.child_by_field_name("operator")
        if (
            left is not None
            and right is not None
            and left.type == "identifier"
            and _text(left) in declared
            and operator is not None
            and operator.type == "="
        ):
            assigned.setdefault(_text(left), []).append(set(re.findall(r"\w+", _text(right))))
    return [(name, values[0]) for name, values in assigned.items() if len(values) == 1]


_POINTER_ARGUMENT = re.compile(r"^[&(\s]*(?:reinterpret_cast<[^>]*>\s*\(|\([\w\s:<>*]+\*\s*\))?\s*&?\s*(\w+)")


def _shared_params(context: KernelContext) -> dict[str, frozenset[str]]:
    """For each device helper, the pointer parameters its callers in this context pass LDS: rocSOLVER kernels carve
    ``extern __shared__`` memory into arrays and hand them to helpers that synchronise on them."""
    helpers: dict[str, list[Region]] = {}
    for helper in context.helpers:
        helpers.setdefault(helper.name, []).append(helper)
    found: dict[str, set[str]] = {}
    todo = [(context.kernel, frozenset())]
    seen: set[tuple[str, frozenset[str]]] = set()
    while todo:
        region, passed = todo.pop()
        if (region.id, passed) in seen or len(seen) > 256:
            continue
        seen.add((region.id, passed))
        function = _function(parse_code(region.code))
        body = function.child_by_field_name("body") if function is not None else None
        if body is None:
            continue
        aliases = _lds_aliases(body, passed)
        if not aliases:
            continue
        for call in _nodes(body, "call_expression"):
            targets = helpers.get(_callee(call), [])
            arguments = call.child_by_field_name("arguments")
            if not targets or arguments is None:
                continue
            positions = []
            for index, argument in enumerate(arguments.named_children):
                text = _text(argument)
                match = _POINTER_ARGUMENT.match(text)
                if match and match.group(1) in aliases and ("[" not in text or text.lstrip().startswith("&")):
                    positions.append(index)
            if not positions:
                continue
            for target in targets:
                target_function = _function(parse_code(target.code))
                params = [_declared_name(p) for p in _params(target_function)]
                names = frozenset(params[i] for i in positions if i < len(params))
                if names:
                    found.setdefault(target.id, set()).update(names)
                    todo.append((target, frozenset(found[target.id])))
    return {region_id: frozenset(names) for region_id, names in found.items()}


def _declared_name(node: ts.Node) -> str:
    """The name a declarator (or parameter) declares: ``tile`` of ``tile[NB]``, ``x`` of ``const T* x``."""
    while node.type not in ("identifier", "field_identifier"):
        inner = node.child_by_field_name("declarator")
        if inner is None:
            return _last_identifier(node)
        node = inner
    return _text(node)


def _last_identifier(declaration: ts.Node) -> str:
    names = re.findall(r"[A-Za-z_]\w*", _text(declaration).split("=")[0])
    return names[-1] if names else ""


_POINTER_LOAD = re.compile(r"\s*(?:\w+::)*\w*ptr\w*\s*(?:<[^;]*>)?\s*\(")


def _pointer_locals(body: ts.Node) -> set[str]:
    """Locals declared as pointers into global memory (``const T* x = ...``): not ``__shared__`` arrays, and not
    pointers computed from them (``T* y = reinterpret_cast<T*>(lmem) + n``)."""
    lds: set[str] = set()
    names: set[str] = set()
    for node in _nodes(body, "declaration"):
        if "__shared__" in _text(node):
            lds |= {_declared_name(c) for c in node.named_children if c.type in ("array_declarator", "identifier")}
            continue
        for child in node.named_children:
            declarator = child.child_by_field_name("declarator") if child.type == "init_declarator" else child
            value = child.child_by_field_name("value") if child.type == "init_declarator" else None
            loads_pointer = value is not None and _POINTER_LOAD.match(_text(value))  # ``auto B = load_ptr_batch(...)``
            if declarator is None or (declarator.type != "pointer_declarator" and not loads_pointer):
                continue
            name = _declared_name(declarator)
            if value is not None and set(re.findall(r"\w+", _text(value))) & lds:
                lds.add(name)
            else:
                names.add(name)
    return names


def _shared_shape(declaration: ts.Node, declarator: ts.Node | None) -> dict:
    """The element type and array extents of a ``__shared__`` declaration: what its LDS size is made of."""
    kind = declaration.child_by_field_name("type")
    extents = []
    node = declarator
    while node is not None and node.type == "array_declarator":
        size = node.child_by_field_name("size")
        extents.insert(0, collapse(_text(size)) if size is not None else "")
        node = node.child_by_field_name("declarator")
    return {"element_type": collapse(_text(kind)) if kind is not None else "", "extents": extents}


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


def _early_exits(context: KernelContext) -> list[EarlyExit]:
    """``if (...) return ...;`` statements of the launchers that run before a launch of the kernel, with the
    branches they sit in; a return in the other branch of an ``if`` that holds the launch is not on its way."""
    launchers = {site.launcher: context.region(site.launcher) for site in context.launch_sites}
    exits = [
        exit_
        for launcher in launchers.values()
        if launcher is not None
        for exit_ in _if_returns(launcher.id, launcher.start_line, launcher.code)
    ]
    return sorted(_on_the_way(context, exits, before_launch=True), key=lambda d: (d.region, d.start_line))


@lru_cache(maxsize=1024)
def _if_returns(region_id: str, start_line: int, code: str) -> tuple[EarlyExit, ...]:
    """Every ``if (...) return ...;`` of a function, in order, and every ``if`` block that ends in a return after
    work of its own."""
    function = _function(parse_code(code))
    if function is None:
        return ()
    body = function.child_by_field_name("body")
    region = _RegionText(region_id, start_line, start_line + code.count("\n"), code)
    out = []
    for node in _nodes(function, "if_statement"):
        consequence = node.child_by_field_name("consequence")
        condition = node.child_by_field_name("condition")
        if consequence is None or condition is None:
            continue
        statements = consequence.named_children if consequence.type == "compound_statement" else [consequence]
        statements = [n for n in statements if n.type != "comment"]
        short = node.end_point[0] - node.start_point[0] <= 3 and len(statements) == 1
        if statements and statements[-1].type == "return_statement" and (short or len(statements) > 1):
            fields = _located(region, node)
            if not short:  # cited whole, quoted by its condition only
                fields["text"] = "if" + collapse(_text(condition))
            out.append(EarlyExit.model_construct(**fields, guards=_guards(region, node, body), after_work=not short))
    return tuple(out)


@dataclass(frozen=True)
class _RegionText:
    """The parts of a Region that locating a node needs."""

    id: str
    start_line: int
    end_line: int
    code: str
