"""Public entry points: every function the public headers declare with an export macro."""

from __future__ import annotations

import re
from pathlib import Path

from miner.models import EntryPoint
from miner.source.profile import Profile

_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_IDENT_BEFORE_PAREN = re.compile(r"([A-Za-z_]\w*)\s*\($")


def blank_comments(text: str) -> str:
    """Comments replaced by spaces of the same length, so offsets and lines stay exact."""
    return _COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def discover(root: Path, profile: Profile) -> tuple[list[EntryPoint], list[str]]:
    """Entry points in header order (first declaration wins), and headers that could not be read. A header
    with bytes that are not UTF-8 is still read (the names declared are ASCII)."""
    seen: dict[str, EntryPoint] = {}
    unreadable: list[str] = []
    macro = re.compile(r"\b(?:{})\b".format("|".join(map(re.escape, profile.export_macros))))
    for rel in profile.public_headers:
        try:
            text = blank_comments((root / rel).read_bytes().decode("utf-8", errors="replace"))
        except OSError:
            unreadable.append(rel)
            continue
        line, counted_to = 1, 0  # lines counted as the matches go, not from the top for each
        for m in macro.finditer(text):
            name = _declared_name(text, m.end())
            if name and name not in seen:
                line += text.count("\n", counted_to, m.start())
                counted_to = m.start()
                variant = "ilp64" if name.endswith("_64") else "lp64"
                seen[name] = EntryPoint(name=name, header=rel, line=line, variant=variant)
    return list(seen.values()), unreadable


def _declared_name(text: str, start: int) -> str | None:
    """The identifier before the first '(' of the declaration that begins at ``start``."""
    end = len(text)
    i = start
    while i < end and text[i] not in "(;{":
        i += 1
    if i >= end or text[i] != "(":
        return None
    m = _IDENT_BEFORE_PAREN.search(text[start : i + 1])
    if m is None:
        return None
    name = m.group(1)
    if name in ("__attribute__", "__declspec", "alignas", "decltype"):
        return None
    return name


def family_stem(name: str) -> str:
    """``rocblas_sscal_64`` -> ``rocblas_sscal``: the LP64 name of an entry point."""
    return name[:-3] if name.endswith("_64") else name
