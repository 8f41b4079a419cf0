"""Splits by kernel family: rows that share a kernel, an entry family or a verify task are one group, and a group is
train or held out as a whole, by a seeded hash of its name.

A kernel that the rows of many entry families share (rocSOLVER's ``reset_info``, a rocBLAS kernel every solver
calls) joins all those families into one group, and on a real library that group is nearly everything. With
``shared_above`` N > 0, a kernel whose rows name more than N entry families is a shared kernel: its rows form a group
of their own, always in train, and do not join the entry families they name (those families then appear in train
through the shared kernel's rows alone)."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from miner.models.corpus import CorpusRow

TRAIN, HELDOUT = "train", "heldout"


def shared_kernels(rows: Sequence[CorpusRow], shared_above: int) -> set[str]:
    """The kernel families whose rows name more than ``shared_above`` entry families (none when it is 0)."""
    if shared_above <= 0:
        return set()
    entries: dict[str, set[str]] = {}
    for row in rows:
        kernel = _kernel_family(row)
        if kernel:
            entries.setdefault(kernel, set()).update(f for f in row.families if f.startswith("entry:"))
    return {kernel for kernel, found in entries.items() if len(found) > shared_above}


def _kernel_family(row: CorpusRow) -> str:
    return next((f for f in row.families if f.startswith("kernel:")), "")


def group_key(row: CorpusRow, shared: set[str]) -> str:
    """The family a row's group is found by (its kernel when the kernel is shared)."""
    return _joined(row, shared)[0]


def _joined(row: CorpusRow, shared: set[str]) -> list[str]:
    """The families a row joins into one group: a shared kernel's rows join only their kernel."""
    kernel = _kernel_family(row)
    return [kernel] if kernel in shared else row.families


def family_groups(rows: Sequence[CorpusRow], shared_above: int = 0) -> dict[str, str]:
    """Each family -> its group's name (the smallest family of the group)."""
    shared = shared_kernels(rows, shared_above)
    parent: dict[str, str] = {}

    def root(f: str) -> str:
        parent.setdefault(f, f)
        while parent[f] != f:
            parent[f] = parent[parent[f]]
            f = parent[f]
        return f

    for row in rows:
        families = _joined(row, shared)
        first = root(families[0])
        for other in families[1:]:
            a, b = root(other), root(first)
            if a != b:
                parent[max(a, b)] = min(a, b)
                first = min(a, b)
    return {f: root(f) for f in parent}


def assign_splits(
    rows: Sequence[CorpusRow], *, heldout: float, seed: int, shared_above: int = 0
) -> tuple[list[CorpusRow], dict[str, str]]:
    """The rows with their split set, and each group's split (a shared kernel's group is always train)."""
    shared = shared_kernels(rows, shared_above)
    groups = family_groups(rows, shared_above)
    split_of = {g: TRAIN if g in shared else _split(g, heldout, seed) for g in sorted(set(groups.values()))}
    out = [r.model_copy(update={"split": split_of[groups[group_key(r, shared)]]}) for r in rows]
    return out, split_of


def _split(group: str, heldout: float, seed: int) -> str:
    fraction = int.from_bytes(hashlib.sha256(f"{seed}:{group}".encode()).digest()[:8], "big") / 2**64
    return HELDOUT if fraction < heldout else TRAIN
