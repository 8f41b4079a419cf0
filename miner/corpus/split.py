"""Splits by kernel family: rows that share a kernel, an entry family or a verify task are one group, and a group is
train or held out as a whole, by a seeded hash of its name."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from miner.models.corpus import CorpusRow

TRAIN, HELDOUT = "train", "heldout"


def family_groups(rows: Sequence[CorpusRow]) -> dict[str, str]:
    """Each family -> its group's name (the smallest family of the group)."""
    parent: dict[str, str] = {}

    def root(f: str) -> str:
        parent.setdefault(f, f)
        while parent[f] != f:
            parent[f] = parent[parent[f]]
            f = parent[f]
        return f

    for row in rows:
        first = root(row.families[0])
        for other in row.families[1:]:
            a, b = root(other), root(first)
            if a != b:
                parent[max(a, b)] = min(a, b)
                first = min(a, b)
    return {f: root(f) for f in parent}


def assign_splits(rows: Sequence[CorpusRow], *, heldout: float, seed: int) -> tuple[list[CorpusRow], dict[str, str]]:
    """The rows with their split set, and each group's split."""
    groups = family_groups(rows)
    split_of = {g: _split(g, heldout, seed) for g in sorted(set(groups.values()))}
    out = [r.model_copy(update={"split": split_of[groups[r.families[0]]]}) for r in rows]
    return out, split_of


def _split(group: str, heldout: float, seed: int) -> str:
    fraction = int.from_bytes(hashlib.sha256(f"{seed}:{group}".encode()).digest()[:8], "big") / 2**64
    return HELDOUT if fraction < heldout else TRAIN
