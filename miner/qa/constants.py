"""Template constants as each launch fixes them, and the branches of a kernel and its helpers they decide.

``rocblas_dot_kernel_inc1by2<ONE_BLOCK, NB_OB, WIN_OB, CONJ, T>`` launched under ``static constexpr bool ONE_BLOCK =
true;`` never takes the ``else`` of ``if(ONE_BLOCK || gridDim.x == 1)`` in ``rocblas_dot_save_sum<ONE_BLOCK>``.
A kernel's constant is a value every live launch of it gives; a helper's is what the calls of the kernel and of the
helpers already bound pass it (``rocblas_sum_reduce<NB_X>``). A branch is decided when its condition folds to a
constant; facts in the branch not taken do not run for this kernel.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

import tree_sitter as ts

from miner.models import Region
from miner.qa.context import KernelContext
from miner.qa.syntax import parse_code

Value = int | bool
Constants = dict[str, Value]

_INTEGER = re.compile(r"(\d+)[uUlL]*")
_COMPARE = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a < b,
    "<=": lambda a, b: a <= b,
    ">": lambda a, b: a > b,
    ">=": lambda a, b: a >= b,
}
_ARITHMETIC = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": lambda a, b: a // b if b else None,
    "%": lambda a, b: a % b if b else None,
}


@dataclass(frozen=True)
class Decided:
    """The branches the constants decide, per region: the line of each decided ``if``'s condition with its value,
    and the line ranges of the branches not taken."""

    conditions: dict[tuple[str, int], bool]
    dead: dict[str, tuple[tuple[int, int], ...]]
    constants: dict[str, Constants]  # per region id: the constants it is read under

    def is_dead(self, region: str, line: int) -> bool:
        return any(first <= line <= last for first, last in self.dead.get(region, ()))

    def __bool__(self) -> bool:
        return bool(self.conditions)


def decided_branches(context: KernelContext) -> Decided:
    kernel_constants = _launch_constants(context)
    per_region = _bind_helpers(context, kernel_constants)
    conditions: dict[tuple[str, int], bool] = {}
    dead: dict[str, tuple[tuple[int, int], ...]] = {}
    for region in (context.kernel, *context.helpers):
        constants = per_region.get(region.id)
        if not constants:
            continue
        ranges = []
        for statement in _if_statements(region.code):
            condition = statement.child_by_field_name("condition")
            value = _evaluate(condition, constants) if condition is not None else None
            if not isinstance(value, bool):
                continue
            conditions[(region.id, region.start_line + condition.start_point[0])] = value
            not_taken = statement.child_by_field_name("alternative" if value else "consequence")
            if not_taken is not None:
                ranges.append(
                    (region.start_line + not_taken.start_point[0], region.start_line + not_taken.end_point[0])
                )
        if ranges:
            dead[region.id] = tuple(ranges)
    return Decided(conditions, dead, per_region)


def _launch_constants(context: KernelContext) -> Constants:
    """The kernel's template parameters that every live launch sets to the same constant."""
    names = _parameter_names(context.kernel)
    agreed: Constants | None = None
    for site in context.launch_sites:
        launcher = context.region(site.launcher)
        if launcher is None:
            return {}
        arguments = _launch_arguments(launcher, site.line, context.kernel.name)
        if arguments is None:
            return {}
        local = _local_constants(launcher, site.line)
        values = {
            name: value
            for name, argument in zip(names, arguments, strict=False)
            if (value := _evaluate_text(argument, local)) is not None
        }
        agreed = values if agreed is None else {k: v for k, v in agreed.items() if values.get(k) == v}
    return agreed or {}


def _bind_helpers(context: KernelContext, kernel_constants: Constants) -> dict[str, Constants]:
    """The constants of the kernel and of each helper its calls bind, in call order from the kernel."""
    bound: dict[str, Constants] = {context.kernel.id: kernel_constants}
    by_name: dict[str, list[Region]] = {}
    for helper in context.helpers:
        by_name.setdefault(helper.name, []).append(helper)
    conflicting: set[tuple[str, str]] = set()
    queue = [context.kernel]
    seen: set[str] = set()
    while queue:
        caller = queue.pop(0)
        if caller.id in seen:
            continue
        seen.add(caller.id)
        constants = bound.get(caller.id, {})
        for name, arguments in _template_calls(caller.code, frozenset(by_name)):
            values = [_evaluate_text(argument, constants) for argument in arguments]
            for helper in by_name[name]:
                parameters = _parameter_names(helper)
                into = bound.setdefault(helper.id, {})
                for parameter, value in zip(parameters, values, strict=False):
                    if (helper.id, parameter) in conflicting:
                        continue
                    if value is None or (parameter in into and into[parameter] != value):
                        into.pop(parameter, None)
                        conflicting.add((helper.id, parameter))
                    else:
                        into[parameter] = value
                queue.append(helper)
    return {region_id: constants for region_id, constants in bound.items() if constants}


def _parameter_names(region: Region) -> list[str]:
    tree = parse_code(region.code)
    parameters = next((n for n in _walk(tree.root_node) if n.type == "template_parameter_list"), None)
    if parameters is None:
        return []
    names = []
    for parameter in parameters.named_children:
        identifiers = [n for n in _walk(parameter) if n.type in ("identifier", "type_identifier")]
        declarator = parameter.child_by_field_name("declarator") or parameter.child_by_field_name("name")
        if declarator is not None:
            names.append(declarator.text.decode(errors="replace"))
        elif parameter.type == "type_parameter_declaration" and identifiers:
            names.append(identifiers[-1].text.decode(errors="replace"))
        else:
            names.append("")
    return names


def _launch_arguments(launcher: Region, line: int, kernel: str) -> list[str] | None:
    """The template arguments of the kernel as the launch statement at ``line`` writes them."""
    text = "\n".join(launcher.code.split("\n")[line - launcher.start_line : line - launcher.start_line + 6])
    found = re.search(rf"\b{re.escape(kernel)}\s*<", text)
    if found is None:
        return None
    return _split_arguments(text, found.end())


def _split_arguments(text: str, start: int) -> list[str] | None:
    depth, arguments, current = 1, [], []
    for char in text[start:]:
        if char in "<([":
            depth += 1
        elif char in ">)]":
            depth -= 1
            if depth == 0:
                arguments.append("".join(current).strip())
                return arguments
        if char == "," and depth == 1:
            arguments.append("".join(current).strip())
            current = []
        else:
            current.append(char)
    return None


def _template_calls(code: str, names: frozenset[str]):
    """``(name, [argument, ...])`` for every call of a named helper with explicit template arguments."""
    for found in re.finditer(r"\b(\w+)\s*<", code):
        if found.group(1) in names:
            arguments = _split_arguments(code, found.end())
            if arguments is not None:
                yield found.group(1), arguments


def _local_constants(launcher: Region, line: int) -> Constants:
    """``constexpr`` / ``const`` locals of the launcher declared before ``line`` in a block that holds it."""
    return dict(_constants_before(launcher.code, line - launcher.start_line))


@lru_cache(maxsize=8192)
def _constants_before(code: str, row: int) -> tuple[tuple[str, Value], ...]:
    constants: Constants = {}
    for declaration in _declarations(code):
        if declaration.start_point[0] >= row or not _encloses(declaration.parent, row):
            continue
        qualifiers = {c.text.decode() for c in declaration.children if c.type == "type_qualifier"}
        if not qualifiers & {"constexpr", "const"}:
            continue
        for declarator in declaration.children_by_field_name("declarator"):
            name, value = declarator.child_by_field_name("declarator"), declarator.child_by_field_name("value")
            if declarator.type != "init_declarator" or name is None or value is None:
                continue
            evaluated = _evaluate(value, constants)
            if evaluated is not None:
                constants[name.text.decode(errors="replace")] = evaluated
    return tuple(constants.items())


@lru_cache(maxsize=1024)
def _if_statements(code: str) -> tuple[ts.Node, ...]:
    return tuple(_nodes(parse_code(code).root_node, "if_statement"))


@lru_cache(maxsize=1024)
def _declarations(code: str) -> tuple[ts.Node, ...]:
    return tuple(_nodes(parse_code(code).root_node, "declaration"))


def _encloses(node: ts.Node | None, row: int) -> bool:
    return node is not None and node.start_point[0] <= row <= node.end_point[0]


def _evaluate_text(text: str, constants: Constants) -> Value | None:
    literal = _literal(text.strip())
    if literal is not None:
        return literal
    if text.strip() in constants:
        return constants[text.strip()]
    tree = parse_code(f"auto __v = {text};")
    value = next((n.child_by_field_name("value") for n in _walk(tree.root_node) if n.type == "init_declarator"), None)
    return _evaluate(value, constants) if value is not None and not tree.root_node.has_error else None


def _literal(text: str) -> Value | None:
    if text in ("true", "false"):
        return text == "true"
    found = _INTEGER.fullmatch(text)
    return int(found.group(1)) if found else None


def _evaluate(node: ts.Node, constants: Constants) -> Value | None:
    """The value of a constant expression, or None; ``a || b`` is true when either side is (the other may not be
    constant: ``ONE_BLOCK || gridDim.x == 1``), ``a && b`` false when either is."""
    while node.type in ("parenthesized_expression", "condition_clause") and node.named_child_count == 1:
        node = node.named_children[0]
    text = node.text.decode(errors="replace")
    if node.type in ("true", "false", "number_literal"):
        return _literal(text)
    if node.type == "identifier":
        return constants.get(text)
    if node.type == "unary_expression":
        operand = _evaluate(node.child_by_field_name("argument"), constants)
        operator = node.child_by_field_name("operator").type
        if operand is None:
            return None
        return (not operand) if operator == "!" else (-operand if operator == "-" else None)
    if node.type != "binary_expression":
        return None
    operator = node.child_by_field_name("operator").type
    left = _evaluate(node.child_by_field_name("left"), constants)
    right = _evaluate(node.child_by_field_name("right"), constants)
    if operator in ("&&", "||"):
        absorbing = operator == "||"
        if (left is not None and bool(left) is absorbing) or (right is not None and bool(right) is absorbing):
            return absorbing
        return None if left is None or right is None else (not absorbing)
    if left is None or right is None:
        return None
    if operator in _COMPARE:
        return _COMPARE[operator](left, right)
    if operator in _ARITHMETIC and not isinstance(left, bool) and not isinstance(right, bool):
        return _ARITHMETIC[operator](left, right)
    return None


def _walk(node: ts.Node):
    """Every node under ``node``, in document order."""
    stack = [node]
    while stack:
        current = stack.pop()
        yield current
        stack.extend(reversed(current.children))


def _nodes(node: ts.Node, *types: str) -> list[ts.Node]:
    return [n for n in _walk(node) if n.type in types]
