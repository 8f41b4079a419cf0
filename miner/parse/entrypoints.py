"""Entry points: every function the library exports. First those the public headers declare with an export
macro, in header order; then those declared or defined with it at namespace scope in the library's own files
(rocSOLVER defines some exported functions in ``.cpp`` files that no public header declares), by file and line."""

from __future__ import annotations

import re
from pathlib import Path

from miner.models import EntryPoint
from miner.source.files import HEADER_SUFFIXES, SOURCE_SUFFIXES, library_files
from miner.source.profile import Profile

_COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_IDENT_BEFORE_PAREN = re.compile(r"([A-Za-z_]\w*)\s*\($")
_EXTERN_C = re.compile(r'extern\s*"C"')
_STRING = re.compile(r'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'')
_DIRECTIVE = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)  # a preprocessor line with its continuations
_OPENS_SCOPE = re.compile(r"(?:\bextern_C_\s*|\bnamespace(?:\s+[\w:]+)?\s*)$")  # before a '{' that is not a body


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
    for entry in source_exports(root, profile):
        seen.setdefault(entry.name, entry)
    return list(seen.values()), unreadable


def source_exports(root: Path, profile: Profile) -> list[EntryPoint]:
    """Functions the library's own files (its source directories) declare or define with an export macro at
    namespace scope (members and macro bodies are not entry points), by file and line."""
    macro = re.compile(r"[{{}}]|\b(?:{})\b".format("|".join(map(re.escape, profile.export_macros))))
    out: list[EntryPoint] = []
    for rel in library_files(root, profile, SOURCE_SUFFIXES | HEADER_SUFFIXES):
        try:
            raw = (root / rel).read_bytes().decode("utf-8", errors="replace")
        except OSError:
            continue
        if not any(m in raw for m in profile.export_macros):
            continue
        text = _code_only(raw)
        scopes: list[bool] = []  # per open brace: whether it only opens a namespace or an extern "C" block
        for m in macro.finditer(text):
            token = m.group(0)
            if token == "{":
                scopes.append(bool(_OPENS_SCOPE.search(text, max(0, m.start() - 200), m.start())))
            elif token == "}":
                if scopes:
                    scopes.pop()
            elif all(scopes) and (name := _declared_name(text, m.end())):
                variant = "ilp64" if name.endswith("_64") else "lp64"
                line = text.count("\n", 0, m.start()) + 1
                out.append(EntryPoint(name=name, header=None, line=line, variant=variant, exported_in=rel))
    return out


def _code_only(text: str) -> str:
    """Comments, string and character literals and preprocessor lines blanked (``extern "C"`` kept as a
    word of the same length), so that braces and macros are the code's own and offsets stay exact."""
    text = _EXTERN_C.sub(lambda m: "extern_C_".ljust(len(m.group(0))), blank_comments(text))
    text = _STRING.sub(lambda m: " " * len(m.group(0)), text)
    return _DIRECTIVE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


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
