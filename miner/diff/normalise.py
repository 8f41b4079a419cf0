"""A region's code as the release diff compares it: its tokens, without comments, whitespace or line splices, and
without the statements that only call code the traversal excludes (a `log_trace(...)` call, `status =
check_numerics(...)`, `if (layer_mode & log_trace) log_trace(...)`), so that none of these makes a region change."""

from __future__ import annotations

import re
from collections.abc import Collection

_TOKEN = re.compile(
    r"""
      (?P<comment>//[^\n]*|/\*.*?(?:\*/|\Z))
    | (?P<string>(?:u8|[uUL])?"(?:\\.|[^"\\\n])*"|(?:u8|[uUL])?'(?:\\.|[^'\\\n])*')
    | (?P<word>[A-Za-z_]\w*|\.?\d(?:[eEpP][+-]|[\w.'])*)
    | (?P<punct>::|->|&&|\|\||[-+*/%&|^!=<>]=|\+\+|--|\S)
    | \s+
    """,
    re.S | re.X,
)
_CONTROL = frozenset({"if", "while", "for", "switch"})
_OPENERS = {"(": ")", "[": "]", "{": "}"}


def tokens(code: str) -> list[str]:
    """C++ tokens of ``code``; comments and whitespace dropped, ``>>`` kept as two ``>`` (a template's close)."""
    code = code.replace("\\\r\n", "").replace("\\\n", "")
    return [m.group() for m in _TOKEN.finditer(code) if m.lastgroup in ("string", "word", "punct")]


def unqualified(toks: list[str], namespaces: frozenset[str]) -> list[str]:
    """``toks`` less every ``ns ::`` of the given namespaces (and a leading ``::`` before them)."""
    if not namespaces:
        return toks
    out: list[str] = []
    i = 0
    while i < len(toks):
        if toks[i] in namespaces and toks[i + 1 : i + 2] == ["::"]:
            if out and out[-1] == "::" and (len(out) < 2 or not _is_word(out[-2])):
                out.pop()
            i += 2
            continue
        out.append(toks[i])
        i += 1
    return out


def signature(toks: list[str]) -> str:
    """The tokens before the body: the template head, name and parameters (overloads differ here)."""
    depth = 0
    for i, tok in enumerate(toks):
        if tok in ("(", "["):
            depth += 1
        elif tok in (")", "]"):
            depth -= 1
        elif tok == "{" and depth == 0:
            return " ".join(toks[:i])
    return " ".join(toks)


def without_excluded(toks: list[str], excluded: Collection[str]) -> list[str]:
    """``toks`` less every statement whose outermost expression calls one of ``excluded`` (alone, assigned,
    declared or returned), and less an ``if``/``while``/``for`` whose whole body was such a statement."""
    if not excluded:
        return toks
    drop = [False] * len(toks)
    for i, tok in enumerate(toks):
        if tok in excluded and not drop[i]:
            span = _statement_calling(toks, i)
            if span is not None:
                for k in range(*span):
                    drop[k] = True
    kept = [t for t, gone in zip(toks, drop, strict=True) if not gone]
    return _without_empty_ifs(kept)


def own_instance_only(toks: list[str], names: Collection[str]) -> list[str]:
    """In a macro that defines one entry point per line of a list (``IMPL(ROCBLAS_API(rocblas_sscal), TI_,
    float); IMPL(ROCBLAS_API(rocblas_dscal), ...)``), keeps only the line that defines one of ``names``: the
    others are an instantiation list, whose lines come and go with other entry points."""
    lines = _invocations(toks)
    own = {toks[start] for start, end in lines if any(t in names for t in toks[start:end])}
    if len(own) != 1:
        return toks
    drop = [False] * len(toks)
    for start, end in lines:
        if toks[start] in own and not any(t in names for t in toks[start:end]):
            for k in range(start, end):
                drop[k] = True
    return [t for t, gone in zip(toks, drop, strict=True) if not gone]


def _invocations(toks: list[str]) -> list[tuple[int, int]]:
    """Spans of the statements that are one macro invocation, ``M(...);`` (the last of a list may lack its ``;``)."""
    spans = []
    for i, tok in enumerate(toks):
        if not _is_word(tok) or toks[i + 1 : i + 2] != ["("] or (i > 0 and toks[i - 1] not in (";", "{", "}")):
            continue
        close = _matching_close(toks, i + 1)
        if close is None:
            continue
        end = close + 2 if toks[close + 1 : close + 2] == [";"] else close + 1
        if end < len(toks) and toks[end - 1] != ";" and toks[end] != "}":
            continue
        spans.append((i, end))
    return spans


def _statement_calling(toks: list[str], at: int) -> tuple[int, int] | None:
    """The token span of the statement that consists of a call to ``toks[at]``, with its control head when the
    statement is that head's whole body; None when the call is part of a larger expression."""
    end = _call_end(toks, at)
    if end is None or end >= len(toks) or toks[end] != ";":
        return None
    start = at
    while start >= 2 and toks[start - 1] in ("::", ".", "->") and _is_word(toks[start - 2]):
        start -= 2
    if start >= 1 and toks[start - 1] == "::":
        start -= 1
    lead = start
    while lead > 0 and toks[lead - 1] not in (";", "{", "}", ")", "else", ":"):
        lead -= 1
    prefix = toks[lead:start]
    if prefix and prefix != ["return"] and (prefix[-1] != "=" or any(t in "()[]{}" for t in prefix)):
        return None
    if lead > 0 and toks[lead - 1] == ")":
        head = _control_head(toks, lead - 1)
        if head is None:
            return None
        if end + 1 < len(toks) and toks[end + 1] == "else":
            return lead, end + 1
        return head, end + 1
    return lead, end + 1


def _call_end(toks: list[str], at: int) -> int | None:
    """Index just past the call that starts with the name at ``at`` (its template arguments and parentheses)."""
    i = at + 1
    if i < len(toks) and toks[i] == "<":
        depth = 0
        while i < len(toks):
            if toks[i] == "<":
                depth += 1
            elif toks[i] == ">":
                depth -= 1
                if depth == 0:
                    break
            elif toks[i] in (";", "{", "}"):
                return None
            i += 1
        i += 1
    if i >= len(toks) or toks[i] != "(":
        return None
    close = _matching_close(toks, i)
    return None if close is None else close + 1


def _matching_close(toks: list[str], i: int) -> int | None:
    stack = []
    for k in range(i, len(toks)):
        if toks[k] in _OPENERS:
            stack.append(_OPENERS[toks[k]])
        elif stack and toks[k] == stack[-1]:
            stack.pop()
            if not stack:
                return k
    return None


def _control_head(toks: list[str], close: int) -> int | None:
    """Where the ``if (...)``, ``if constexpr (...)``, ``while``, ``for`` or ``switch`` head whose condition
    closes at ``close`` starts; None when that parenthesis closes something else."""
    depth = 0
    for k in range(close, -1, -1):
        if toks[k] == ")":
            depth += 1
        elif toks[k] == "(":
            depth -= 1
            if depth == 0:
                keyword = k - 2 if k >= 2 and toks[k - 1] == "constexpr" and toks[k - 2] == "if" else k - 1
                return keyword if keyword >= 0 and toks[keyword] in _CONTROL else None
    return None


def _without_empty_ifs(toks: list[str]) -> list[str]:
    """Drops ``if (...) {}`` with no ``else``: what is left of a block that only logged."""
    changed = True
    while changed:
        changed = False
        for i, tok in enumerate(toks):
            if tok != "if":
                continue
            paren = i + 2 if toks[i + 1 : i + 2] == ["constexpr"] else i + 1
            if toks[paren : paren + 1] != ["("]:
                continue
            close = _matching_close(toks, paren)
            if close is None or toks[close + 1 : close + 3] != ["{", "}"]:
                continue
            if close + 3 < len(toks) and toks[close + 3] == "else":
                continue
            start = i
            if start > 0 and toks[start - 1] == "else":
                start -= 1
            toks = toks[:start] + toks[close + 3 :]
            changed = True
            break
    return toks


def _is_word(tok: str) -> bool:
    return tok[:1].isalpha() or tok[:1] == "_"
