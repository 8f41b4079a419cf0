"""The facts of one kernel context: the kernel and the helpers its instantiation calls, their facts on live paths only,
launches and chunk loops, early exits before a launch."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import tree_sitter as ts

from miner.models import (
    BarrierUse,
    ChunkLoop,
    EarlyExit,
    IfFact,
    KernelFacts,
    Located,
    PathCall,
)
from miner.qa.constants import Decided, decided_branches
from miner.qa.context import KernelContext, cited_text
from miner.qa.facts.body import _body_facts, _guards
from miner.qa.facts.memory import _lds_aliases, _shared_params
from miner.qa.facts.synchronisation import _exclusive, _synchronisation_facts
from miner.qa.facts.syntax import (
    _LAUNCH_BOUNDS,
    _first_line,
    _function,
    _located,
    _node_at,
    _nodes,
    _params,
    _text,
    _walk,
    collapse,
)
from miner.qa.launch_facts import launch_fact, split_top_level
from miner.qa.overloads import argument_count, reachable
from miner.qa.path_facts import path_facts
from miner.qa.syntax import LINE_COMMENT, parse_code
from miner.qa.wording import WORD

_MAX_CHUNK_STEPS = 8


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
        and _explicit_enough(_template_params(tree), params, site.kernel_expr)
    ]
    dispatch = [launch_fact(context, site, configuration=False) for site in context.dispatched_sites]
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
        path_calls=_path_calls(context),
        launcher_exits=[
            exit_
            for launcher in dict.fromkeys(site.launcher for site in context.launch_sites)
            if (region := context.region(launcher)) is not None
            for exit_ in _if_returns(region.id, region.start_line, region.code)
        ],
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


def _explicit_enough(template_params: list[str], params: list[str], kernel_expr: str) -> bool:
    """Whether a launch naming ``kernel_expr`` (``copy_mat<T>``) gives every template argument this kernel cannot
    deduce from its parameters (``copy_mat<T, S, REAL, U>``'s ``S`` and ``REAL``): if not, it launches another
    overload of the name."""
    opening = kernel_expr.find("<")
    if opening < 0 or not template_params:
        return True
    given = len(split_top_level(kernel_expr[opening + 1 : kernel_expr.rfind(">")]))
    parameter_words = set(WORD.findall(" ".join(params)))
    needed = 0
    for index, declared in enumerate(template_params):
        words = WORD.findall(declared.split("=", 1)[0])
        if "=" in declared or not words or "..." in declared:
            continue
        if words[-1] not in parameter_words:  # not deducible: it must be given
            needed = index + 1
    return given >= needed


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
    with ``before_launch``, above it. A region on the path from the entry counts its calls of the next region on
    the path as its launches."""
    sites = _targets(context)
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


def _targets(context: KernelContext) -> dict[str, list[int]]:
    """Per region on the kernel's paths, the lines that lead on to it: a launcher's launches of the kernel, another
    region's calls of the next region on a path."""
    sites: dict[str, list[int]] = {}
    for site in context.launch_sites:
        sites.setdefault(site.launcher, []).append(site.line)
    for caller, _, line in context.path_calls:
        if caller not in sites or line not in sites[caller]:
            sites.setdefault(caller, []).append(line)
    return sites


def _template_params(tree: ts.Tree) -> list[str]:
    node = next((n for n in _walk(tree.root_node) if n.type == "template_parameter_list"), None)
    return [collapse(_text(c)) for c in node.named_children if c.type != "comment"] if node is not None else []


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


CALLER_HOPS = 2  # how far up from a launcher the returns and branches on the way are read


def _early_exits(context: KernelContext) -> list[EarlyExit]:
    """``if (...) return ...;`` statements that run before a launch of the kernel, with the branches they sit in:
    the launchers' and those of the regions on the way from the entry points, before their call of the next region
    on the path. A return in the other branch of an ``if`` that holds the launch (or call) is not on its way."""
    targets = _targets(context)
    near = {rid for path in context.call_paths for rid in path[-1 - CALLER_HOPS :]}  # the launchers and their callers
    exits = [
        exit_
        for region_id in targets
        if region_id in near and (region := context.region(region_id)) is not None
        for exit_ in _if_returns(region.id, region.start_line, region.code)
    ]
    launchers = {site.launcher for site in context.launch_sites}
    kept = [
        exit_
        for exit_ in _on_the_way(context, exits, before_launch=True)
        if exit_.region in launchers  # a launcher's block that launches, then returns, is told apart later
        or not any(exit_.start_line <= line <= exit_.end_line for line in targets[exit_.region])
    ]
    return sorted(kept, key=lambda d: (d.region, d.start_line))


def _path_calls(context: KernelContext) -> list[PathCall]:
    """Every call from a region on the kernel's paths to the next, with the ``if`` branches it sits in."""
    found = []
    for caller, callee, line in context.path_calls:
        region = context.region(caller)
        if region is not None:
            found += [
                call.model_copy(update={"callee": callee})
                for call in _calls_at(region.id, region.start_line, region.code, line)
            ]
    return found


@lru_cache(maxsize=4096)
def _calls_at(region_id: str, start_line: int, code: str, line: int) -> tuple[PathCall, ...]:
    function = _function(parse_code(code))
    body = function.child_by_field_name("body") if function is not None else None
    row = line - start_line
    if body is None or not 0 <= row < code.count("\n") + 1:
        return ()
    source = code.split("\n")[row]
    column = len(source) - len(source.lstrip())
    node = function.named_descendant_for_point_range((row, column), (row, column))
    while node is not None and node.parent is not None and node.parent.start_point == (row, column):
        node = node.parent
    if node is None:
        return ()
    region = _RegionText(region_id, start_line, start_line + code.count("\n"), code)
    text = collapse(LINE_COMMENT.sub("", source))
    return (
        PathCall.model_construct(
            region=region_id, start_line=line, end_line=line, text=text, callee="", guards=_guards(region, node, body)
        ),
    )


@lru_cache(maxsize=1024)
def _if_returns(region_id: str, start_line: int, code: str) -> tuple[EarlyExit, ...]:
    """Every ``if (...) return ...;`` of a function, in order, and every ``if`` block that ends in a return after
    work of its own; each with the guarded assignments before it that set a variable its condition tests."""
    function = _function(parse_code(code))
    if function is None:
        return ()
    body = function.child_by_field_name("body")
    region = _RegionText(region_id, start_line, start_line + code.count("\n"), code)
    setters = _guarded_assignments(region, function)
    out = []
    for node in _nodes(function, "if_statement"):
        consequence = node.child_by_field_name("consequence")
        condition = node.child_by_field_name("condition")
        if consequence is None or condition is None:
            continue
        statements = consequence.named_children if consequence.type == "compound_statement" else [consequence]
        statements = [n for n in statements if n.type != "comment"]
        if not statements or statements[-1].type != "return_statement":
            continue
        fields = _located(region, node)
        if node.end_point[0] - node.start_point[0] > 3 or len(statements) > 1:  # cited whole, quoted by its condition
            fields["text"] = collapse(node.text[: condition.end_byte - node.start_byte].decode(errors="replace"))
        tested = set(WORD.findall(_text(condition)))
        feeds = [located for row, variable, located in setters if row < node.start_point[0] and variable in tested]
        out.append(
            EarlyExit.model_construct(
                **fields, guards=_guards(region, node, body), after_work=len(statements) > 1, feeds=feeds
            )
        )
    return tuple(out)


def _guarded_assignments(region: _RegionText, function: ts.Node) -> list[tuple[int, str, Located]]:
    """``if(alpha == T(0)) k = 0;``: an ``if`` whose only statement assigns a plain variable, as (row, variable,
    the whole ``if``)."""
    found = []
    for node in _nodes(function, "if_statement"):
        consequence = node.child_by_field_name("consequence")
        if consequence is None or node.child_by_field_name("alternative") is not None:
            continue
        statements = consequence.named_children if consequence.type == "compound_statement" else [consequence]
        statements = [n for n in statements if n.type != "comment"]
        if len(statements) != 1 or statements[0].type != "expression_statement":
            continue
        assignment = statements[0].named_children[0] if statements[0].named_children else None
        if assignment is None or assignment.type != "assignment_expression":
            continue
        target = assignment.child_by_field_name("left")
        if target is None or target.type != "identifier":
            continue
        located = Located.model_construct(**{**_located(region, node), "text": collapse(_text(node))})
        found.append((node.start_point[0], _text(target), located))
    return found


@dataclass(frozen=True)
class _RegionText:
    """The parts of a Region that locating a node needs."""

    id: str
    start_line: int
    end_line: int
    code: str
