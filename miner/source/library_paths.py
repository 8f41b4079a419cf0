"""How a run names the files of a library given with ``--with``: ``@library/path``, relative to that library's
checkout, so that facts, cache entries and outputs name them the same wherever the checkout lies."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from pathlib import Path


def other_prefix(library: str) -> str:
    return f"@{library}/"


def other_name(path: str, roots: Iterable[tuple[str, str | Path]]) -> str | None:
    """``@library/path`` of an absolute ``path`` inside one of ``roots`` ((library, checkout root)), else None."""
    for library, root in roots:
        inside = str(root).rstrip(os.sep) + os.sep
        if path.startswith(inside):
            return other_prefix(library) + path[len(inside) :]
    return None


def other_location(name: str, roots: Mapping[str, Path]) -> Path | None:
    """Where ``@library/path`` lies in this run's checkout of that library; None for any other name."""
    if not name.startswith("@"):
        return None
    library, _, inner = name[1:].partition("/")
    root = roots.get(library)
    return None if root is None else root / inner
