"""Splits by family group: kernel families and verify tasks never straddle; an entry family straddles only through
the rows of a shared kernel (one that the rows of many entry families name); the same seed gives the same splits."""

from __future__ import annotations

from collections import defaultdict

import pytest

from miner.corpus.split import (
    HELDOUT,
    TRAIN,
    assign_splits,
    family_groups,
    kernel_families,
    shared_kernels,
    straddles,
)
from miner.models import CorpusRow


def _row(n: int, kernel: str, *entries: str) -> CorpusRow:
    return CorpusRow.model_construct(
        id=f"r{n}", source="qa", kernel=kernel, families=[f"kernel:lib:{kernel}", *(f"entry:lib:{e}" for e in entries)]
    )


def _task(n: int, task: str, *kernels: str) -> CorpusRow:
    return CorpusRow.model_construct(
        id=f"t{n}", source="attempts", kernel=task, families=[f"task:{task}", *(f"kernel:lib:{k}" for k in kernels)]
    )


SOLVERS = [f"solver{i}" for i in range(12)]
ROWS = [
    *(_row(i, "reset_info", *SOLVERS) for i in range(3)),  # every solver launches it
    *(_row(10 + i, "copy_mat", *SOLVERS[6:]) for i in range(2)),  # six families
    *(_row(20 + i, f"{e}_kernel", e) for i, e in enumerate(SOLVERS)),
    *(_row(40 + i, f"{e}_panel", e, SOLVERS[(i + 1) % 12]) for i, e in enumerate(SOLVERS)),  # two families each
    _task(1, "axpy", "solver3_kernel"),
    _task(2, "axpy", "solver3_kernel"),
    _task(3, "iamax", "reset_info"),  # a task linked to a shared kernel joins its group
    _task(4, "softmax"),  # linked to nothing
]


def _splits_of(rows: list[CorpusRow]) -> dict[str, set[str]]:
    found: dict[str, set[str]] = defaultdict(set)
    for row in rows:
        for family in row.families:
            found[family].add(row.split)
    return found


def test_a_kernel_of_many_entry_families_joins_them_under_the_strict_rule() -> None:
    assert shared_kernels(ROWS, 0) == set()
    assert len({g for f, g in family_groups(ROWS, 0).items() if not f.startswith("task:softmax")}) == 1


def test_shared_kernels_are_those_of_more_entry_families_than_the_bound() -> None:
    assert shared_kernels(ROWS, 4) == {"kernel:lib:reset_info", "kernel:lib:copy_mat"}
    assert shared_kernels(ROWS, 6) == {"kernel:lib:reset_info"}
    assert shared_kernels(ROWS, 12) == set()  # twelve families are not more than twelve


@pytest.mark.parametrize("seed", range(30))
def test_no_kernel_family_or_task_straddles_and_an_entry_family_only_through_shared_kernels(seed: int) -> None:
    rows, _ = assign_splits(ROWS, heldout=0.3, seed=seed, shared_above=4)
    shared = shared_kernels(ROWS, 4)
    everything = _splits_of(rows)
    assert all(len(s) == 1 for f, s in everything.items() if not f.startswith("entry:"))
    own = _splits_of([r for r in rows if not set(kernel_families(r)) & shared])
    assert all(len(s) == 1 for f, s in own.items())  # the rows that join an entry family are on one side
    split = {r.id: r.split for r in rows}
    assert split["t3"] == split["r0"]  # iamax lands with the shared kernel it restates
    assert split["t1"] == split["r23"]  # axpy with solver3's kernel
    straddle = straddles(rows, shared)
    crossing = {f for f, s in everything.items() if f.startswith("entry:") and len(s) == 2}
    assert straddle.straddling == len(crossing) and straddle.entry_families == len(SOLVERS)
    assert set(straddle.through) <= shared and bool(straddle.through) == bool(crossing)


def test_the_same_seed_gives_the_same_splits_and_seeds_differ() -> None:
    def splits(seed: int) -> list[str]:
        return [r.split for r in assign_splits(ROWS, heldout=0.3, seed=seed, shared_above=4)[0]]

    assert splits(7) == splits(7)
    assert len({tuple(splits(seed)) for seed in range(10)}) > 1
    assert {s for seed in range(10) for s in splits(seed)} == {TRAIN, HELDOUT}


def test_shared_kernels_are_split_like_any_group() -> None:
    """A shared kernel's group is not always train: the held-out share of rows follows the fraction."""
    held = [assign_splits(ROWS, heldout=0.5, seed=seed, shared_above=4)[0][0].split == HELDOUT for seed in range(40)]
    assert 5 < sum(held) < 35
