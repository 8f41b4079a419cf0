"""Splits by kernel family: rows that share a kernel or a verify task are one group, and a group is train or held out
as a whole, by a seeded hash of its name, so no kernel family and no verify task straddles the two splits.

A row also joins its entry families, unless its kernel is shared: a kernel whose rows name more than ``shared_above``
entry families (rocSOLVER's ``reset_info``, a rocBLAS kernel that every solver calls). Joining through such kernels
chains a real library into one group (rocSOLVER develop is one), so a shared kernel's rows form a group with its
kernel alone, split like any other, and the entry families it names may then have rows in both splits, through
shared-kernel rows only: the rows that join an entry family are all on one side. ``shared_above`` 0 shares no kernel
(the strict rule: no entry family straddles either, at the price of a held-out share far from the fraction)."""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from miner.models.corpus import CorpusRow

TRAIN, HELDOUT = "train", "heldout"
DEFAULT_SHARED_ABOVE = 4


def kernel_families(row: CorpusRow) -> list[str]:
    return [f for f in row.families if f.startswith("kernel:")]


def entry_families(row: CorpusRow) -> list[str]:
    return [f for f in row.families if f.startswith("entry:")]


def shared_kernels(rows: Sequence[CorpusRow], shared_above: int) -> set[str]:
    """The kernel families whose rows name more than ``shared_above`` entry families (none when it is 0)."""
    if shared_above <= 0:
        return set()
    entries: dict[str, set[str]] = {}
    for row in rows:
        for kernel in kernel_families(row):
            entries.setdefault(kernel, set()).update(entry_families(row))
    return {kernel for kernel, found in entries.items() if len(found) > shared_above}


def joined(row: CorpusRow, shared: set[str]) -> list[str]:
    """The families a row joins into one group: all of them, less its entry families when a kernel of it is shared."""
    if any(k in shared for k in kernel_families(row)):
        return [f for f in row.families if not f.startswith("entry:")]
    return row.families


def group_key(row: CorpusRow, shared: set[str]) -> str:
    """A family of the row's group (look its group up by it)."""
    return joined(row, shared)[0]


def family_groups(rows: Sequence[CorpusRow], shared_above: int = DEFAULT_SHARED_ABOVE) -> dict[str, str]:
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
        families = joined(row, shared)
        first = root(families[0])
        for other in families[1:]:
            a = root(other)
            if a != first:
                parent[max(a, first)] = min(a, first)
                first = min(a, first)
    return {f: root(f) for f in parent}


def assign_splits(
    rows: Sequence[CorpusRow], *, heldout: float, seed: int, shared_above: int = DEFAULT_SHARED_ABOVE
) -> tuple[list[CorpusRow], dict[str, str]]:
    """The rows with their split set, and each group's split."""
    shared = shared_kernels(rows, shared_above)
    groups = family_groups(rows, shared_above)
    split_of = {g: _split(g, heldout, seed) for g in sorted(set(groups.values()))}
    out = [r.model_copy(update={"split": split_of[groups[group_key(r, shared)]]}) for r in rows]
    return out, split_of


def _split(group: str, heldout: float, seed: int) -> str:
    fraction = int.from_bytes(hashlib.sha256(f"{seed}:{group}".encode()).digest()[:8], "big") / 2**64
    return HELDOUT if fraction < heldout else TRAIN


@dataclass
class Straddle:
    """Entry families with rows in both splits, and the shared kernels whose rows put them there."""

    entry_families: int = 0  # entry families named by the rows
    straddling: int = 0  # of those, with rows in both splits
    through: dict[str, Counter] = field(default_factory=dict)  # shared kernel -> {its split: straddling families}


def straddles(rows: Sequence[CorpusRow], shared: set[str]) -> Straddle:
    """Of split rows: each straddling entry family counted under every shared kernel whose rows name it from the
    split that the family's other rows are not in (or, for a family named by shared-kernel rows only, under all)."""
    own: dict[str, set[str]] = {}  # entry family -> splits of the rows that join it
    via: dict[str, dict[str, set[str]]] = {}  # entry family -> split -> shared kernels of its rows there
    for row in rows:
        kernels = [k for k in kernel_families(row) if k in shared]
        for entry in entry_families(row):
            if kernels:
                for kernel in kernels:
                    via.setdefault(entry, {}).setdefault(row.split, set()).add(kernel)
            else:
                own.setdefault(entry, set()).add(row.split)
    result = Straddle(entry_families=len(own.keys() | via.keys()))
    for entry in sorted(own.keys() | via.keys()):
        splits = own.get(entry, set()) | set(via.get(entry, {}))
        if len(splits) < 2:
            continue
        result.straddling += 1
        home = own.get(entry, set())
        for split, kernels in via.get(entry, {}).items():
            if split not in home:
                for kernel in kernels:
                    result.through.setdefault(kernel, Counter())[split] += 1
    return result
