"""Edge cases the host code on the way to a kernel handles: what a negative increment changes, the alpha / beta
tests that skip or shorten the work, and the loops that split 64-bit sizes into launches of 32-bit ones.
Read off the text of the regions on the kernel's call paths (API, implementation, template, launcher)."""

from __future__ import annotations

import re
from functools import lru_cache

from miner.models import Located
from miner.qa.context import KernelContext

_NEGATIVE_INCREMENT = re.compile(r"\binc\w*\s*\)?\s*<\s*0\b")
_SCALAR = r"\*?\s*\(?\s*\*?\s*\b(?:alpha|beta)(?:_h|_host|_dev|_device|_val|_value)?\d*\b(?:\s*\[\s*\w+\s*\])?\s*\)?"
_LITERAL = (
    r"(?:\w+\s*[({]\s*)?-?[01](?:\.0*)?f?\s*[)}]?(?![\w.])|\b[A-Za-z_]\w*(?<=zero|_one)(?:\s*<[^>]*>)?(?:\s*\(\s*\))?"
)
_SCALAR_TEST = re.compile(
    rf"{_SCALAR}\s*[!=]=\s*(?:{_LITERAL})|(?:{_LITERAL})\s*[!=]=\s*{_SCALAR}"
    rf"|\b\w*is_(?:zero|one)\w*\s*\(\s*{_SCALAR}|!\s*\*\s*(?:alpha|beta)\b"
)
_BRANCH = re.compile(r"\bif\s*\(|\?")
_CHUNK_LOOP = re.compile(r"\bfor\s*\(.*\+=\s*(?:\w*chunk\w*|c_i64_\w+|c_ILP64_\w+)")
_SIZE_LIMIT = re.compile(r"\bif\s*\(.*[<>]=?\s*(?:c_i32_max|c_ILP64_i32_max|c_i64_grid_\w+|INT_MAX|int32_max)\b")
_STATEMENT_LINES = 4
_KINDS = ("negative_increments", "scalar_shortcuts", "chunking", "size_limits")


_KERNEL_SCALAR_TEST = re.compile(
    r"\bif\s*\(\s*!\s*(?:alpha|beta)\w*\s*(?:\)|&&|\|\|)"
)  # a value: a kernel's alpha is a scalar


_SCALAR_TERNARY = re.compile(r"[(=,]\s*\(?\s*(?:alpha|beta)\w*\s*\)?\s*\?")  # ``beta ? beta * C[i] : 0``


def path_facts(context: KernelContext) -> dict[str, list[Located]]:
    found: dict[str, list[Located]] = {kind: [] for kind in _KINDS}
    for region in context.path:
        for kind, located in _region_facts(region.id, region.start_line, region.code).items():
            found[kind] += located
    for region in (context.kernel, *context.helpers):
        found["scalar_shortcuts"] += _device_shortcuts(region.id, region.start_line, region.code)
    return found


@lru_cache(maxsize=4096)
def _device_shortcuts(region_id: str, start_line: int, code: str) -> tuple[Located, ...]:
    """A kernel's or helper's own tests of alpha or beta: ``if(!alpha) return;``, ``if(beta != 0)`` around the
    read of C, ``beta ? beta * C[i] : 0``."""
    lines = code.split("\n")
    out = []
    for index, line in enumerate(lines):
        text = line.split("//", 1)[0]
        if "alpha" not in text and "beta" not in text:
            continue
        if _KERNEL_SCALAR_TEST.search(text):
            statement = _statement(region_id, start_line, lines, index)
            if re.search(r"\breturn\b", statement.text):
                out.append(statement)
        elif _BRANCH.search(text) and (_SCALAR_TEST.search(text) or _SCALAR_TERNARY.search(text)):
            out.append(_statement(region_id, start_line, lines, index))
    return tuple(out)


@lru_cache(maxsize=4096)
def _region_facts(region_id: str, start_line: int, code: str) -> dict[str, tuple[Located, ...]]:
    lines = code.split("\n")
    out: dict[str, list[Located]] = {kind: [] for kind in _KINDS}
    for index, line in enumerate(lines):
        text = line.split("//", 1)[0]
        if not text.strip() or text.lstrip().startswith(("#", "*", "/*")):
            continue
        kind = ""
        if "for" in text and _CHUNK_LOOP.search(text):
            kind = "chunking"
        elif "inc" in text and _NEGATIVE_INCREMENT.search(text):
            kind = "negative_increments"
        elif ("alpha" in text or "beta" in text) and _BRANCH.search(text) and _SCALAR_TEST.search(text):
            kind = "scalar_shortcuts"
        elif "if" in text and _SIZE_LIMIT.search(text):
            limit = _returning_if(region_id, start_line, lines, index)
            if limit is not None:
                out["size_limits"].append(limit)
        if kind:
            out[kind].append(_statement(region_id, start_line, lines, index))
    return {k: tuple(v) for k, v in out.items()}


def _returning_if(region_id: str, start_line: int, lines: list[str], index: int) -> Located | None:
    """The ``if`` on line ``index`` down to its ``return``, when its branch is a return (braces and comments
    between allowed)."""
    for last in range(index, min(index + _STATEMENT_LINES + 2, len(lines))):
        text = " ".join(" ".join(line.split("//", 1)[0] for line in lines[index : last + 1]).split())
        if re.search(r"\breturn\b[^;]*;", text):
            if not re.fullmatch(r"if\s*\(.*\)\s*\{?\s*return\b[^;]*;\s*\}?", text):
                return None
            return Located.model_construct(
                region=region_id, start_line=start_line + index, end_line=start_line + last, text=text
            )
    return None


def _statement(region_id: str, start_line: int, lines: list[str], index: int) -> Located:
    """The line and the lines continuing its statement (the statement an ``if`` guards, when it has no braces)."""
    last = index
    while last + 1 < len(lines) and last - index < _STATEMENT_LINES:
        if lines[last].split("//", 1)[0].rstrip().endswith((";", "{", "}")):
            break
        last += 1
    text = " ".join(" ".join(line.split("//", 1)[0] for line in lines[index : last + 1]).split())
    return Located.model_construct(
        region=region_id, start_line=start_line + index, end_line=start_line + last, text=text
    )
