"""Where the shared cache lives when ``--cache`` does not say: one per user, as the XDG base directory
specification puts caches."""

from __future__ import annotations

import os
from pathlib import Path


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/rocm-miner``, else ``~/.cache/rocm-miner`` (a relative ``XDG_CACHE_HOME`` is ignored,
    as the specification asks)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if base and os.path.isabs(base) else Path.home() / ".cache"
    return root / "rocm-miner"
