"""The precompiled prefix: a PCH clang refuses to load must not degrade the parse."""

from __future__ import annotations

import pickle
from dataclasses import replace

from miner.executors import LocalExecutor
from miner.parse.cache import ParseCache
from miner.parse.queue import ParseQueue
from miner.parse.recipe import make_recipe
from miner.parse.stage import ParseStage
from miner.pipeline import MineOptions, mine
from miner.source.files import FileHashes, translation_units
from miner.source.profile import load_profile
from tests.conftest import TINYBLAS


def test_unusable_pch_falls_back_to_a_plain_clang_parse(tmp_path):
    cache = tmp_path / "cache"
    cold = mine(MineOptions(path=TINYBLAS, out=tmp_path / "a", jobs=2, cache_dir=cache))
    pchs = list(cache.glob("places/*/pch/*.pch"))
    assert pchs
    for pch in pchs:
        pch.write_bytes(b"not a precompiled header")
    for entry in (cache / "parse").rglob("*.pkl"):
        with open(entry, "rb") as fh:
            pickle.load(fh)  # the header: the files the parse read
            result = pickle.load(fh)
        if not result.path.startswith("<"):  # forget the TUs, keep the prefix facts
            entry.unlink()
    again = mine(MineOptions(path=TINYBLAS, out=tmp_path / "b", jobs=2, cache_dir=cache))
    assert again.cache_hits == 0
    assert again.tus_parsed_clang == cold.tus_parsed_clang
    assert again.tus_fallback_tree_sitter == cold.tus_fallback_tree_sitter
    assert (tmp_path / "a" / "bundles.jsonl").read_bytes() == (tmp_path / "b" / "bundles.jsonl").read_bytes()


def test_a_prefix_header_that_this_release_lacks_is_left_out_of_the_pch_not_the_pch_lost(tmp_path):
    """Releases before late 2024 have no device_macros.hpp, which the rocBLAS profile precompiles."""
    profile = load_profile("tinyblas")
    profile = replace(profile, pch_headers=(*profile.pch_headers, "not_in_this_release.hpp"))
    recipe = make_recipe(TINYBLAS, profile, tmp_path / "stubs", {})
    cache = ParseCache(tmp_path / "parse", recipe.fingerprint, FileHashes(TINYBLAS))
    with ParseQueue(LocalExecutor(1)) as queue:
        outcome = ParseStage(recipe, cache, tmp_path / "pch", queue).run(translation_units(TINYBLAS, profile))
    assert not [f for f in outcome.failures if f.path.startswith("<pch")], outcome.failures
    assert "<pch:lp64>" in {tu.path for tu in outcome.parsed}
    assert "not_in_this_release" not in (tmp_path / "pch" / "prefix-tinyblas.hpp").read_text()
