"""Which overloads of a helper a call can reach, by the number of arguments it passes (a 4-argument
``load_ptr_batch(p, batch, offset, stride)`` cannot call a 3-parameter overload), and how a function's
declarator reads."""

from __future__ import annotations

import re

from miner.models import Region
from miner.qa.launch_facts import split_top_level


def argument_count(text: str, name: str) -> int | None:
    """How many arguments the call of ``name`` in ``text`` passes; None when the text does not show it whole."""
    match = re.search(rf"\b{re.escape(name)}\s*(?:<[^<>]*(?:<[^<>]*>[^<>]*)*>)?\s*\(", text)
    if match is None:
        return None
    depth, start = 0, match.end()
    for position in range(match.end() - 1, len(text)):
        depth += {"(": 1, ")": -1}.get(text[position], 0)
        if depth == 0:
            inner = text[start:position].strip()
            return len(split_top_level(inner)) if inner else 0
    return None


def takes(region: Region, count: int | None) -> bool:
    """Whether an overload can be called with ``count`` arguments (its defaulted parameters may be left out)."""
    if count is None:
        return True
    _, written = declarator(region)
    if not written.endswith(")"):  # a parameter list over several lines: not read here
        return True
    inner = written[written.find("(") + 1 : written.rfind(")")].strip()
    params = split_top_level(inner) if inner and inner != "void" else []
    if any("..." in p for p in params):
        return True
    required = sum(1 for p in params if "=" not in p)
    return required <= count <= len(params)


def declarator(region: Region) -> tuple[int, str]:
    """The line of a function's name and parameter list, and that text (``load_scalar(T alpha, uint32_t, ...)``)."""
    lines = region.code.split("\n")
    for index, line in enumerate(lines):
        if re.search(rf"\b{re.escape(region.name)}\s*\(", line):
            text = line[line.index(region.name) :]
            depth = 0
            for position, char in enumerate(text):
                depth += {"(": 1, ")": -1}.get(char, 0)
                if char == ")" and depth == 0:
                    return region.start_line + index, text[: position + 1]
            return region.start_line + index, text.strip()
    return region.start_line, lines[0].strip()


def qualifier(text: str, name: str) -> str | None:
    """The namespace a call of ``name`` in ``text`` is qualified with (``std`` of ``std::conj(z)``), "" when it is
    unqualified, None when the text does not show the call."""
    match = re.search(rf"((?:\w+\s*::\s*)*)\b{re.escape(name)}\s*(?:<[^<>]*(?:<[^<>]*>[^<>]*)*>)?\s*\(", text)
    if match is None:
        return None
    return "".join(match.group(1).split()).rstrip(":")


def reachable(region: Region, text: str, name: str) -> bool:
    """Whether the call of ``name`` in ``text`` can call this overload: by its number of arguments, and by its
    namespace when the call names one (``std::conj(z)`` reaches no global ``conj``; an unqualified call reaches
    no ``std::`` overload of the library's own types)."""
    if not takes(region, argument_count(text, name)):
        return False
    written = qualifier(text, name)
    if written is None:
        return True
    namespace = region.qualified_name.rpartition("::")[0] if "::" in region.qualified_name else ""
    if written:
        return namespace == written or namespace.endswith("::" + written)
    return not namespace.startswith("std")
