"""The garbage collector's settings: rare collections while mining, the analysed graph left out of them, and
the caller's settings back afterwards."""

from __future__ import annotations

import gc

import pytest

import miner.liveness.run as liveness_run
from miner.collector import frozen, rarely_collected
from miner.pipeline import MineOptions, mine
from tests.conftest import TINYBLAS


def test_rarely_collected_restores_the_thresholds_even_after_an_error():
    before = gc.get_threshold()
    with pytest.raises(RuntimeError), rarely_collected():
        assert gc.get_threshold()[0] > before[0]
        raise RuntimeError("stage failed")
    assert gc.get_threshold() == before


def test_frozen_leaves_what_exists_out_of_collections_until_the_block_ends():
    kept = [[i] for i in range(1000)]
    with frozen():
        assert gc.get_freeze_count() >= len(kept)
    assert gc.get_freeze_count() == 0


def test_a_mine_analyses_with_the_graph_frozen_and_gives_the_process_its_settings_back(tmp_path, monkeypatch):
    seen = []
    analyse = liveness_run._analyse

    def recording(*args):
        seen.append((gc.get_threshold()[0], gc.get_freeze_count()))
        yield from analyse(*args)

    monkeypatch.setattr(liveness_run, "_analyse", recording)
    before = gc.get_threshold()
    mine(MineOptions(path=TINYBLAS, out=tmp_path / "out", jobs=1, cache_dir=tmp_path / "cache"))
    assert seen, "the liveness analysis did not run"
    threshold, frozen_objects = seen[0]
    assert threshold > before[0] and frozen_objects > 10_000
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
