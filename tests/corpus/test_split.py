"""Splits by family group: a kernel the rows of many entry families share joins them all into one group, unless it is
declared shared, when its rows form a train group of their own."""

from __future__ import annotations

from miner.corpus.split import HELDOUT, TRAIN, assign_splits, family_groups, shared_kernels
from miner.models import CorpusRow


def _row(n: int, kernel: str, *entries: str) -> CorpusRow:
    return CorpusRow.model_construct(
        id=f"r{n}", source="qa", kernel=kernel, families=[f"kernel:lib:{kernel}", *(f"entry:lib:{e}" for e in entries)]
    )


ROWS = [
    _row(1, "reset_info", "getrf", "potrf", "geqrf"),  # every solver launches it
    *(_row(n, f"{e}_kernel", e) for n, e in enumerate(("getrf", "potrf", "geqrf"), start=2)),
]


def test_a_kernel_of_many_entry_families_joins_them_under_the_strict_rule() -> None:
    assert len(set(family_groups(ROWS).values())) == 1
    assert shared_kernels(ROWS, 0) == set()


def test_a_shared_kernel_is_a_train_group_of_its_own() -> None:
    assert shared_kernels(ROWS, 2) == {"kernel:lib:reset_info"}
    groups = family_groups(ROWS, 2)
    assert len({groups[r.families[0]] for r in ROWS}) == 4
    for seed in range(20):  # whatever the seed, the shared kernel stays in train and the others are split freely
        rows, split_of = assign_splits(ROWS, heldout=0.5, seed=seed, shared_above=2)
        assert rows[0].split == TRAIN and split_of["kernel:lib:reset_info"] == TRAIN
    splits = {r.split for seed in range(20) for r in assign_splits(ROWS, heldout=0.5, seed=seed, shared_above=2)[0][1:]}
    assert splits == {TRAIN, HELDOUT}
    assert shared_kernels(ROWS, 3) == set()  # three families are not more than three
