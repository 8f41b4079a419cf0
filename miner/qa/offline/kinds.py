"""The questions the offline generator asks: their kinds and categories, and the generator's version."""

from __future__ import annotations

GENERATOR = "static-facts/31"
CATEGORIES = ("semantics", "indexing", "memory", "synchronization", "reduction", "launch", "constraints")
KINDS: dict[str, str] = {  # question kind -> category
    "signature": "semantics",
    "helpers": "semantics",
    "loops": "semantics",
    "output": "semantics",
    "indexing": "indexing",
    "global_accesses": "memory",
    "coalescing": "memory",
    "lds_layout": "memory",
    "barriers": "synchronization",
    "communication": "synchronization",
    "reduction_hierarchy": "reduction",
    "launch": "launch",
    "dispatch": "launch",
    "chunking": "launch",
    "bounds_checks": "constraints",
    "quick_returns": "constraints",
    "negative_increments": "constraints",
    "scalar_shortcuts": "constraints",
}
_THREAD_X = ("threadIdx.x", "hipThreadIdx_x")
_MAX_THREAD_LOOPS = 4
_STRIDE_PREFIXES = ("inc", "ld", "stride")
