"""How entries are shared out among the forked analysis processes, and what happens when one fails."""

from __future__ import annotations

import os

import pytest

from miner.liveness import run
from miner.liveness.analyse import LivenessAnalyser
from miner.models import Traversal
from tests.conftest import TINYBLAS
from tests.liveness.test_cache import _analyse


class _Footprints:
    """An analyser that knows only what each entry reaches."""

    def __init__(self, reach: dict[str, dict[tuple[str, str], int]]) -> None:
        self.reach = reach

    def footprint(self, root: str, variant: str) -> dict[tuple[str, str], int]:
        return self.reach[root]


def _work(roots: list[str]) -> list[tuple[Traversal, str]]:
    return [(Traversal(entry=r, root=r, decisions=()), "lp64") for r in roots]


def test_entries_that_reach_the_same_instantiations_meet_in_one_process():
    floats = {("gemm<float>", "lp64"): 50, ("trsm<float>", "lp64"): 30}
    doubles = {("gemm<double>", "lp64"): 50, ("trsm<double>", "lp64"): 30}
    roots = [f"{p}{name}" for name in ("getrf", "potrf", "geqrf") for p in "sd"] * 8  # precisions interleaved
    reach = {r: {**(floats if r.startswith("s") else doubles), (r, "lp64"): 5} for r in roots}
    shares = run._shares(_Footprints(reach), _work(roots), 2)
    assert len(shares) == 2
    owned = [sorted(i for share_run in share for i in share_run) for share in shares]
    assert sorted(owned[0] + owned[1]) == list(range(len(roots)))  # each entry once
    precisions = [{roots[i][0] for i in own} for own in owned]
    assert sorted(map(sorted, precisions)) == [["d"], ["s"]]
    assert all(len(r) <= run._RUN for share in shares for r in share)


def test_a_worker_takes_its_own_runs_from_the_front_then_others_from_the_back():
    runs = run._Runs([[[0], [1]], [[2], [3], [4], [5]]])
    order = [runs.take(0)[1] for _ in range(5)]
    assert order == [(0,), (1,), (5,), (4,), (3,)]
    assert runs.take(1)[1] == (2,)
    assert runs.take(1) is None and runs.take(0) is None and runs.exhausted()


def _fails_for_one_entry(monkeypatch, how):
    original = LivenessAnalyser.verdicts

    def verdicts(self, t, variant):
        if t.entry.endswith("_strided_batched"):
            how()
        return original(self, t, variant)

    monkeypatch.setattr(LivenessAnalyser, "verdicts", verdicts)


def test_an_error_in_a_forked_process_is_raised_with_its_traceback(tmp_path, monkeypatch):
    def raise_error():
        raise ValueError("a broken instance")

    _fails_for_one_entry(monkeypatch, raise_error)
    with pytest.raises(RuntimeError, match="ValueError: a broken instance"):
        _analyse(TINYBLAS, tmp_path / "cache", jobs=2)


def test_a_forked_process_that_dies_ends_the_analysis_with_an_error(tmp_path, monkeypatch):
    """Its run is given to a fresh process first; when that one dies too, the analysis stops saying so."""
    _fails_for_one_entry(monkeypatch, lambda: os._exit(3))
    with pytest.raises(RuntimeError, match=r"failed: worker died \(exit code 3\)"):
        _analyse(TINYBLAS, tmp_path / "cache", jobs=2)


def test_entries_nothing_is_known_of_are_spread_evenly():
    roots = [f"entry{i}" for i in range(64)]
    shares = run._shares(_Footprints({r: {} for r in roots}), _work(roots), 2)
    assert [sum(map(len, share)) for share in shares] == [32, 32]
