"""Liveness verdicts are reused by a re-run with the same inputs and recomputed when anything changes."""

from __future__ import annotations

import pickle
import shutil

import pytest

from miner.errors import CacheError
from miner.liveness.analyse import LivenessAnalyser
from miner.parse.cache import ParseCache
from miner.pipeline import Analysis, MineOptions, analyse, open_checkout
from tests.conftest import TINYBLAS


def _analyse(path, cache_dir, jobs: int = 1, **kw) -> Analysis:
    """Analysed in this process (``jobs=1``), where ``counted`` sees each entry."""
    opts = MineOptions(path=path, out=path / "unused", jobs=jobs, cache_dir=cache_dir, **kw)
    with open_checkout(path, None) as checkout:
        return analyse(opts, checkout)


@pytest.fixture
def counted(monkeypatch) -> list[str]:
    calls: list[str] = []
    original = LivenessAnalyser.verdicts

    def verdicts(self, t, variant):
        calls.append(t.entry)
        return original(self, t, variant)

    monkeypatch.setattr(LivenessAnalyser, "verdicts", verdicts)
    return calls


def test_a_warm_rerun_analyses_nothing_and_gives_the_same_verdicts(tinyblas, cache_dir, counted, monkeypatch):
    read: list[str] = []
    original = ParseCache.instances
    monkeypatch.setattr(
        ParseCache, "instances", lambda self, rel, salt="": read.append(rel) or original(self, rel, salt)
    )
    first, _ = tinyblas
    again = _analyse(TINYBLAS, cache_dir)
    assert counted == [] and read == []  # neither analysed nor the instances read
    assert again.liveness == first.liveness
    fresh = _analyse(TINYBLAS, cache_dir, reuse_verdicts=False)  # analysed from instances read back from the cache
    assert len(counted) == len(first.entries) and read
    assert fresh.liveness == first.liveness


def test_a_changed_source_file_means_fresh_verdicts(tinyblas, cache_dir, counted, tmp_path):
    copy = tmp_path / "tinyblas"
    shutil.copytree(TINYBLAS, copy)
    _analyse(copy, cache_dir)
    counted.clear()
    _analyse(copy, cache_dir)
    assert counted == []
    launcher = next((copy / "library" / "src" / "blas1").glob("*.hpp"))
    launcher.write_text(launcher.read_text() + "\n// a change\n")
    changed = _analyse(copy, cache_dir)
    assert len(counted) == len(changed.entries)
    assert changed.liveness == tinyblas[0].liveness


def test_entries_analysed_in_forked_processes_get_the_verdicts_of_one_process(tinyblas, cache_dir):
    first, _ = tinyblas  # mined with two jobs: its entries were analysed in forked processes
    assert len(first.entries) > 2 * 16
    alone = _analyse(TINYBLAS, cache_dir, jobs=1, reuse_verdicts=False)
    assert alone.liveness == first.liveness
    again = _analyse(TINYBLAS, cache_dir, jobs=2, reuse_verdicts=False)
    assert list(again.liveness) == list(alone.liveness)  # entries in the order they were selected


def test_instances_lost_or_cut_short_are_parsed_again_and_ones_damaged_in_place_are_removed(tinyblas, tmp_path):
    cache = tmp_path / "cache"  # its own: entries are named by the absolute paths of the stubs they were parsed with
    _analyse(TINYBLAS, cache)
    aside = sorted(cache.rglob("*.instances"))
    assert len(aside) >= 2
    aside[0].write_bytes(aside[0].read_bytes()[:50])
    aside[1].unlink()
    assert _analyse(TINYBLAS, cache, reuse_verdicts=False).liveness == tinyblas[0].liveness
    assert aside[1].exists() and pickle.loads(aside[0].read_bytes())  # written again by the fresh parses

    damaged = aside[0]
    damaged.write_bytes(b"\0" * damaged.stat().st_size)  # same size: only reading it tells
    with pytest.raises(CacheError, match="damaged"):
        _analyse(TINYBLAS, cache, reuse_verdicts=False)
    assert not damaged.exists()
    assert _analyse(TINYBLAS, cache, reuse_verdicts=False).liveness == tinyblas[0].liveness
