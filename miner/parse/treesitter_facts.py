"""tree-sitter (CUDA grammar): the fallback for TUs clang cannot parse.

Function definitions with exact spans, their call sites by name and their ``<<<>>>`` and
launch-macro launches. Every edge from here is ``name-match``: the graph resolves it by name.
Preprocessor lines are blanked to the same length first, so offsets and lines stay exact and
macros in declaration position do not break the parse (the mend semgrep uses).
"""

from __future__ import annotations

import re
from functools import cache

import tree_sitter as ts

from miner.models import CallSite, ExecSpace, FunctionFacts, LaunchConfig, Resolution
from miner.parse.launch_text import DEFINES_WITHIN, parse_launch_expanding
from miner.source.profile import LaunchMacro

_PREPROC = re.compile(rb"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)
_COMMENT = re.compile(rb"//[^\n]*|/\*.*?\*/", re.S)


@cache
def parser() -> ts.Parser:
    import tree_sitter_cuda

    return ts.Parser(ts.Language(tree_sitter_cuda.language()))


def _blank(m: re.Match) -> bytes:
    return re.sub(rb"[^\n]", b" ", m.group(0))


def blanked(source: bytes) -> bytes:
    """Comments and preprocessor lines replaced by spaces; newlines kept."""
    return _PREPROC.sub(_blank, _COMMENT.sub(_blank, source))


def error_count(source: bytes) -> int:
    tree = parser().parse(source)
    return sum(1 for _ in _iter(tree.root_node, "ERROR"))


def _iter(node: ts.Node, kind: str):
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == kind:
            yield n
        stack.extend(n.children)


def extract(
    rel: str,
    source: bytes,
    launch_macros: tuple[LaunchMacro, ...],
    kernel_macros: tuple[str, ...] = (),
    device_macros: tuple[str, ...] = (),
) -> list[FunctionFacts]:
    clean = blanked(source)
    tree = parser().parse(clean)
    out: list[FunctionFacts] = []
    for fn in _iter(tree.root_node, "function_definition"):
        body = fn.child_by_field_name("body")
        declarator = fn.child_by_field_name("declarator")
        if body is None or declarator is None:
            continue
        name, scope = _declarator_name(declarator)
        if not name:
            continue
        head_start = (
            fn.parent.start_byte
            if fn.parent is not None and fn.parent.type == "template_declaration"
            else fn.start_byte
        )
        head = source[_line_start(source, head_start) : body.start_byte].decode("utf-8", "replace")
        out.append(
            FunctionFacts(
                usr=f"ts:{rel}:{'::'.join(scope + [name])}",
                name=name,
                qualified_name="::".join(scope + [name]),
                kind="template" if head_start != fn.start_byte else "function",
                file=rel,
                start_line=_line_of(source, head_start),
                end_line=fn.end_point[0] + 1,
                start_offset=head_start,
                end_offset=fn.end_byte,
                exec_space=_exec_space(head, kernel_macros, device_macros),
                calls=tuple(_calls(body, source, launch_macros)),
            )
        )
    return out


def _line_start(source: bytes, offset: int) -> int:
    return source.rfind(b"\n", 0, offset) + 1


def _line_of(source: bytes, offset: int) -> int:
    return source.count(b"\n", 0, offset) + 1


def _exec_space(head: str, kernel_macros: tuple[str, ...], device_macros: tuple[str, ...]) -> str:
    words = set(re.findall(r"[A-Za-z_]\w*", head))
    if "__global__" in words or words & set(kernel_macros):
        return ExecSpace.GLOBAL.value
    device = "__device__" in words or bool(words & set(device_macros))
    if device and "__host__" in words:
        return ExecSpace.HOST_DEVICE.value
    return ExecSpace.DEVICE.value if device else ExecSpace.HOST.value


def _declarator_name(node: ts.Node) -> tuple[str, list[str]]:
    while node is not None and node.type not in ("function_declarator",):
        node = node.child_by_field_name("declarator")
    if node is None:
        return "", []
    inner = node.child_by_field_name("declarator")
    if inner is None:
        return "", []
    if inner.type == "qualified_identifier":
        text = inner.text.decode()
        parts = [p.strip() for p in re.split(r"::", text)]
        return re.sub(r"<.*", "", parts[-1]), parts[:-1]
    return (inner.text.decode() if inner.type in ("identifier", "field_identifier", "operator_name") else ""), []


def _callee_name(fn: ts.Node) -> str:
    node = fn
    while node is not None:
        if node.type in ("identifier", "field_identifier"):
            return node.text.decode()
        if node.type == "template_function" or node.type == "qualified_identifier":
            node = node.child_by_field_name("name")
        elif node.type == "field_expression":
            node = node.child_by_field_name("field")
        elif node.type == "parenthesized_expression" and node.named_child_count == 1:
            node = node.named_children[0]
        else:
            return ""
    return ""


def _calls(body: ts.Node, source: bytes, launch_macros: tuple[LaunchMacro, ...]) -> list[CallSite]:
    out: list[CallSite] = []
    macro_names = {m.name for m in launch_macros} | {"hipLaunchKernelGGL"}
    for call in _iter(body, "call_expression"):
        fn = call.child_by_field_name("function")
        if fn is None:
            continue
        line = call.start_point[0] + 1
        name = _callee_name(fn)
        chevron = next((c for c in call.children if c.type == "kernel_call_syntax"), None)
        if name in macro_names or chevron is not None:
            snippet = source[call.start_byte : call.end_byte + 1].decode("utf-8", "replace")
            before = source[max(0, call.start_byte - DEFINES_WITHIN) : call.start_byte].decode("utf-8", "replace")
            parsed = parse_launch_expanding(snippet, launch_macros, before)
            if parsed is not None:
                config: LaunchConfig = parsed[0]
                kname = _callee_name_text(config.kernel)
                out.append(CallSite("launch", kname, (), (), Resolution.NAME_MATCH.value, line, launch=config))
                continue
        if name and not name.startswith("operator"):
            out.append(CallSite("call", name, (), (), Resolution.NAME_MATCH.value, line))
    out.sort(key=lambda c: (c.line, c.name))
    return out


def _callee_name_text(expr: str) -> str:
    expr = re.sub(r"<.*", "", expr).strip("() ")
    return expr.split("::")[-1]
