"""How the offline generator words what it cites: line references, quoted names and evidence spans.

Line numbers are written as "line N" / "lines N-M" (the grounding check reads those as references, not as
stated numbers); code is quoted in backticks only as it stands in the cited lines."""

from __future__ import annotations

import re

from miner.models import Evidence, Located

WORD = re.compile(r"[A-Za-z_]\w*")


def cite(located: Located, *identifiers: str) -> list[Evidence]:
    """The located lines, and the preprocessor lines around them when the answer mentions those."""
    lines = [(located.start_line, located.end_line), *((n, n) for n in located.directive_lines)]
    if getattr(located, "label_line", 0):
        lines.append((located.label_line, located.label_line))
    names = [i for i in dict.fromkeys(identifiers) if i]
    return [  # fields read off a fact already checked: construction needs no validation
        Evidence.model_construct(
            region=located.region, start_line=first, end_line=last, identifiers=names if n == 0 else [], numbers=[]
        )
        for n, (first, last) in enumerate(lines)
    ]


def at(located: Located) -> str:
    if located.start_line == located.end_line:
        return f"line {located.start_line}"
    return f"lines {located.start_line}-{located.end_line}"


def under(located: Located) -> str:
    if not located.directive:
        return ""
    lines = ", ".join(f"line {n}" for n in located.directive_lines)
    branch, of, condition = located.directive.partition(" of ")
    if of:  # "#else of #ifdef INV_AFTER": the #else lines are cited with the condition they invert
        return f", inside the `{branch}` branch of `{condition}` ({lines})"
    return f", inside `{located.directive}` ({lines})"


def names(items: list[str]) -> str:
    quoted = [f"`{i}`" for i in items]
    if len(quoted) <= 2:
        return " and ".join(quoted)
    return ", ".join(quoted[:-1]) + f" and {quoted[-1]}"


def joined(parts: list[str], last: str = "and") -> str:
    if len(parts) <= 2:
        return f" {last} ".join(parts)
    return ", ".join(parts[:-1]) + f", {last} {parts[-1]}"


def last_word(declaration: str) -> str:
    words = WORD.findall(declaration.split("=")[0])
    return words[-1] if words else ""


def plain(*expressions: str) -> list[str]:
    return [e for e in expressions if re.fullmatch(r"[A-Za-z_]\w*", e)]


def thread_names(expression: str) -> list[str]:
    return [w for w in WORD.findall(expression) if w in ("threadIdx", "blockIdx", "blockDim", "gridDim")][:2]


def top_level_terms(expression: str, operator: str = "+") -> list[str]:
    """The terms of a sum (or the factors of a product) outside any parentheses, spaces removed."""
    text = "".join(expression.split())
    terms, depth, current = [], 0, ""
    for char in text:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == operator and depth == 0 and current:
            terms.append(current)
            current = ""
        else:
            current += char
    return [*terms, current] if current else terms
