"""The precompiled prefix: a PCH clang refuses to load must not degrade the parse."""

from __future__ import annotations

import pickle

from miner.pipeline import MineOptions, mine
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
