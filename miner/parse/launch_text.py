"""Launch configurations read from the source text of a launch site (the ``macro-rule`` path).

A launch written through a library macro reaches clang only as a macro expansion, so the
grid, block, shared-memory and stream arguments are read from the invocation text, by the
argument positions the library profile gives for each launch macro.
"""

from __future__ import annotations

import re

from miner.models import LaunchConfig, Resolution
from miner.source.profile import LaunchMacro

HIP_LAUNCH = LaunchMacro("hipLaunchKernelGGL", kernel=0, grid=1, block=2, shared_mem=3, stream=4)
_IDENT = re.compile(r"[A-Za-z_]\w*")
_WS = re.compile(r"\s+")
_CLOSE = {"(": ")", "[": "]", "{": "}", "<": ">"}


def split_arguments(text: str, start: int, closer: str = ")") -> tuple[list[str], int]:
    """Top-level comma-separated arguments from ``start`` up to the matching ``closer``.

    Angle brackets count as brackets only right after an identifier (``kernel<NB, T>``), so
    that ``a < b`` comparisons do not swallow the rest of the list."""
    args, depth_stack, buf = [], [], []
    i, n = start, len(text)
    while i < n:
        if not depth_stack and text.startswith(closer, i):
            args.append("".join(buf))
            return [_WS.sub(" ", a).strip() for a in args], i
        ch = text[i]
        if ch in "([{":
            depth_stack.append(_CLOSE[ch])
        elif (
            ch == "<"
            and i > 0
            and (text[i - 1].isalnum() or text[i - 1] == "_")
            and text[i + 1 : i + 2] not in ("<", "=")
        ):
            depth_stack.append(">")
        elif depth_stack and ch == depth_stack[-1]:
            depth_stack.pop()
        elif ch in ")]}" and depth_stack:
            while depth_stack and depth_stack[-1] == ">":
                depth_stack.pop()
            if depth_stack and depth_stack[-1] == ch:
                depth_stack.pop()
        elif ch == "," and not depth_stack:
            args.append("".join(buf))
            buf = []
            i += 1
            continue
        elif ch in "\"'":
            j = i + 1
            while j < n and text[j] != ch:
                j += 2 if text[j] == "\\" else 1
            buf.append(text[i : j + 1])
            i = j + 1
            continue
        buf.append(ch)
        i += 1
    return [], -1


def _strip_parens(expr: str) -> str:
    while expr.startswith("(") and expr.endswith(")"):
        inner, end = split_arguments(expr, 1)
        if end != len(expr) - 1 or len(inner) != 1:
            break
        expr = inner[0]
    return expr


def parse_launch(snippet: str, macros: tuple[LaunchMacro, ...]) -> tuple[LaunchConfig, str] | None:
    """The launch at the start of ``snippet``: a configured macro, hipLaunchKernelGGL or <<<>>>."""
    m = _IDENT.match(snippet)
    if m is None:
        return None
    name = m.group(0)
    spec = next((x for x in macros if x.name == name), HIP_LAUNCH if name == HIP_LAUNCH.name else None)
    if spec is not None:
        open_at = snippet.find("(", m.end())
        if open_at < 0 or snippet[m.end() : open_at].strip():
            return None
        args, end = split_arguments(snippet, open_at + 1)
        needed = max(spec.kernel, spec.grid, spec.block, spec.shared_mem, spec.stream)
        if end < 0 or len(args) <= needed:
            return None
        config = LaunchConfig(
            via=name,
            kernel=_strip_parens(args[spec.kernel]),
            grid=args[spec.grid],
            block=args[spec.block],
            shared_mem=args[spec.shared_mem],
            stream=args[spec.stream],
        )
        return config, Resolution.MACRO_RULE.value
    chevron = snippet.find("<<<")
    if chevron < 0:
        return None
    args, end = split_arguments(snippet, chevron + 3, ">>>")
    if end < 0 or len(args) < 2:
        return None
    args += ["0", "0"][: max(0, 4 - len(args))]
    kernel = _strip_parens(_WS.sub(" ", snippet[:chevron]).strip())
    return LaunchConfig("<<<>>>", kernel, args[0], args[1], args[2], args[3]), Resolution.CLANG.value


def find_launch(snippet: str, macros: tuple[LaunchMacro, ...]) -> tuple[LaunchConfig, str] | None:
    """The first launch through a configured macro or hipLaunchKernelGGL anywhere in ``snippet``
    (``case 64: ROCSOLVER_LAUNCH_KERNEL(...); break;``), else ``parse_launch`` of its start."""
    names = "|".join(re.escape(name) for name in (*(m.name for m in macros), HIP_LAUNCH.name))
    for match in re.finditer(rf"\b(?:{names})\s*\(", snippet):
        parsed = parse_launch(snippet[match.start() :], macros)
        if parsed is not None:
            return parsed
    return parse_launch(snippet, macros)


DEFINES_WITHIN = 20_000  # characters above a launch searched for the ``#define`` of a macro it uses
_DEFINE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+(\w+)(\(([^)]*)\))?[ \t]*((?:[^\n]*\\\n)*[^\n]*)", re.MULTILINE)


def parse_launch_expanding(
    snippet: str, macros: tuple[LaunchMacro, ...], before: str
) -> tuple[LaunchConfig, str] | None:
    """``parse_launch``, and when the configuration hides in a macro the file defines above the launch (rocBLAS's
    ``gemvt_sn_KARGS(alpha, beta)`` holds grid, block, shared memory and stream), the launch with it expanded."""
    parsed = parse_launch(snippet, macros)
    if parsed is not None and parsed[0].grid and parsed[0].block:
        return parsed
    expanded = expand_defined_macros(snippet, before)
    if expanded == snippet:
        return parsed
    return parse_launch(expanded, macros) or parsed


def expand_defined_macros(snippet: str, before: str) -> str:
    """``snippet`` with each macro that ``before`` defines (the last definition wins) expanded once."""
    defines: dict[str, tuple[str | None, str]] = {}
    for match in _DEFINE.finditer(before):
        body = " ".join(line.rstrip().rstrip("\\") for line in match.group(4).split("\n")).strip()
        defines[match.group(1)] = (match.group(3), body)
    for name in dict.fromkeys(_IDENT.findall(snippet)):
        if name not in defines:
            continue
        params, body = defines[name]
        snippet = expand_macro(snippet, name, params, body)
    return snippet


def expand_macro(snippet: str, name: str, params: str | None, body: str) -> str:
    """``snippet`` with its first use of the macro ``name`` (parameters ``params``, as written) replaced by ``body``."""
    used = re.search(rf"\b{re.escape(name)}\b" + (r"\s*\(" if params is not None else ""), snippet)
    if used is None:
        return snippet
    if params is None:
        return snippet[: used.start()] + body + snippet[used.end() :]
    args, close_at = split_arguments(snippet, used.end())
    if close_at < 0:
        return snippet
    for param, arg in zip((p.strip() for p in params.split(",") if p.strip()), args, strict=False):
        body = re.sub(rf"\b{re.escape(param)}\b", lambda _m, a=arg: a, body)
    return snippet[: used.start()] + body + snippet[close_at + 1 :]
