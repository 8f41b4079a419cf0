"""Kernel, helper and launcher code as the fact readers parse it: tree-sitter over the text with its ``#define`` /
``#undef`` lines blanked (offsets kept), each text parsed once."""

from __future__ import annotations

import re
from functools import lru_cache

import tree_sitter as ts

from miner.parse.treesitter_facts import parser

LINE_COMMENT = re.compile(r"//[^\n]*")
_DEFINE = re.compile(r"^[ \t]*#[ \t]*(?:define|undef)\b(?:[^\n]*\\\n)*[^\n]*", re.MULTILINE)


@lru_cache(maxsize=4096)
def parse_code(code: str) -> ts.Tree:
    return parser().parse(without_defines(code).encode())


def without_defines(code: str) -> str:
    """The code with its ``#define`` / ``#undef`` lines blanked, offsets kept: a macro defined between the ``}``
    and the ``else`` of an ``if`` inside a function would otherwise end the ``if`` for tree-sitter."""
    if "#" not in code:
        return code
    return _DEFINE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), code)
