"""The tree-sitter side of the static facts: the patterns every fact kind looks for (thread indices, barriers, atomics,
cross-lane calls), and reading a region's syntax tree: nodes, callees, ancestors, preprocessor branches, located
facts."""

from __future__ import annotations

import re
from functools import lru_cache

import tree_sitter as ts

from miner.models import (
    Located,
    Region,
)
from miner.qa.context import cited_text
from miner.qa.syntax import LINE_COMMENT

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


def _first_line(region: Region, node: ts.Node) -> Located:
    """A statement cited by its first line (a call's argument list can run on for twenty)."""
    line = region.start_line + node.start_point[0]
    text = collapse(LINE_COMMENT.sub("", cited_text(region, line, line) or ""))
    return Located.model_construct(region=region.id, start_line=line, end_line=line, text=text)


def _node_at(root: ts.Node, row: int) -> ts.Node | None:
    """The first named node that starts on the row (0-based), below the root."""
    node = root.named_descendant_for_point_range((row, 0), (row, 10_000))
    while node is not None and node.parent is not None and node.parent.start_point[0] == row and node.parent != root:
        node = node.parent
    return node


def _params(function: ts.Node | None) -> list[ts.Node]:
    if function is None:
        return []
    declarator = next((n for n in _walk(function) if n.type == "function_declarator"), None)
    params = declarator.child_by_field_name("parameters") if declarator is not None else None
    kinds = ("parameter_declaration", "optional_parameter_declaration", "variadic_parameter_declaration")
    return [c for c in params.named_children if c.type in kinds] if params is not None else []
