"""What a kernel keeps in LDS and how: shared arrays and their shapes, pointers carved out of them, LDS passed to
helpers, stores into memory."""

from __future__ import annotations

import re

import tree_sitter as ts

from miner.models import (
    Region,
)
from miner.qa.context import KernelContext
from miner.qa.facts.syntax import _callee, _function, _nodes, _params, _text, collapse
from miner.qa.syntax import parse_code


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
