"""Compiled modules only while they are current. ``setup.py`` compiles a few hot pure-Python modules with Cython
and records the digest of each source it compiled (with its ``.pxd``) in ``_compiled.json``. Python imports a
compiled module before its ``.py``, so after an edit without a rebuild it would run the old code; this finder loads
the ``.py`` instead of any compiled module whose source has changed since (and of all of them where
``ROCM_MINER_PURE`` is set)."""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.util
import json
import os
import sys
from pathlib import Path

_MANIFEST = Path(__file__).with_name("_compiled.json")


def source_digest(source: Path) -> str:
    """What a compiled module was built from: its ``.py`` and, where there is one, the ``.pxd`` that types it."""
    h = hashlib.sha256(source.read_bytes())
    declarations = source.with_suffix(".pxd")
    if declarations.exists():
        h.update(declarations.read_bytes())
    return h.hexdigest()


class CurrentCompiledOnly(importlib.abc.MetaPathFinder):
    def __init__(self, built: dict[str, str], root: Path, *, pure: bool = False) -> None:
        self.built = built  # module name -> digest of the source it was compiled from
        self.root = root  # the folder that holds the top-level package
        self.pure = pure

    def find_spec(self, name: str, path=None, target=None):
        if name not in self.built:
            return None
        source = self.root.joinpath(*name.split(".")).with_suffix(".py")
        try:
            current = source_digest(source)
        except OSError:
            return None
        if not self.pure and current == self.built[name]:
            return None  # the usual finders find the compiled module
        return importlib.util.spec_from_file_location(name, source)


def install() -> None:
    try:
        built = json.loads(_MANIFEST.read_text())
    except (OSError, ValueError):
        built = {}
    if any(isinstance(f, CurrentCompiledOnly) for f in sys.meta_path):
        return
    pure = bool(os.environ.get("ROCM_MINER_PURE"))
    sys.meta_path.insert(0, CurrentCompiledOnly(built, _MANIFEST.parent.parent, pure=pure))
