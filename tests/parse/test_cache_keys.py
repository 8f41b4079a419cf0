"""The parse cache holds wherever the checkouts and the cache lie, and misses when any file a parse read
changed, another library's included."""

from __future__ import annotations

import shutil
from pathlib import Path

import git

from miner.models import RunSummary
from miner.pipeline import MineOptions, mine, open_checkout, parse_inputs
from tests.conftest import TINYBLAS, TINYSOLVER


def _mine(path: Path, out: Path, cache: Path, **kw) -> RunSummary:
    return mine(MineOptions(path=path, out=out, jobs=2, cache_dir=cache, **kw))


def _solver_and_blas(where: Path) -> tuple[Path, Path]:
    shutil.copytree(TINYSOLVER, where / "tinysolver")
    shutil.copytree(TINYBLAS, where / "tinyblas")
    return where / "tinysolver", where / "tinyblas"


def test_moved_checkouts_and_a_moved_cache_parse_nothing_and_give_the_same_bundles(tmp_path):
    solver, blas = _solver_and_blas(tmp_path / "here")
    cold = _mine(solver, tmp_path / "out-here", tmp_path / "cache", with_libraries={"tinyblas": blas})
    assert cold.cache_hits == 0
    (tmp_path / "here").rename(tmp_path / "there")
    (tmp_path / "cache").rename(tmp_path / "cache-moved")
    solver, blas = tmp_path / "there" / "tinysolver", tmp_path / "there" / "tinyblas"
    warm = _mine(solver, tmp_path / "out-there", tmp_path / "cache-moved", with_libraries={"tinyblas": blas})
    assert warm.cache_hits == warm.tus == cold.tus
    for name in ("bundles.jsonl", "entries.jsonl", "not_reached.jsonl"):  # no output names where checkouts lie
        assert (tmp_path / "out-here" / name).read_bytes() == (tmp_path / "out-there" / name).read_bytes(), name


def test_a_changed_header_of_the_library_given_with_with_is_a_miss_for_the_tus_that_read_it(tmp_path):
    solver, blas = _solver_and_blas(tmp_path)
    opts = MineOptions(path=solver, out=tmp_path / "out", jobs=2, cache_dir=tmp_path / "cache",
                       with_libraries={"tinyblas": blas})  # fmt: skip
    with open_checkout(solver, None) as checkout:
        first = parse_inputs(opts, checkout).outcome
    changed = "@tinyblas/library/include/internal/tinyblas-exported-proto.hpp"
    tus = {tu.path for tu in first.parsed if not tu.path.startswith("<")}
    readers = {tu.path for tu in first.parsed if changed in tu.read_elsewhere}
    assert first.cache_hits == 0 and 0 < len(readers) < len(tus)  # some TUs read it, some do not
    with open(blas / changed.removeprefix("@tinyblas/"), "a") as header:
        header.write("\n// a later release\n")
    with open_checkout(solver, None) as checkout:
        again = parse_inputs(opts, checkout).outcome
    assert again.cache_hits == len(tus) - len(readers)


def test_the_same_revision_mined_twice_through_a_temporary_worktree_parses_nothing_the_second_time_and_keeps_one_place(
    tmp_path,
):
    lib = tmp_path / "lib"
    shutil.copytree(TINYBLAS, lib)
    repo = git.Repo.init(lib)
    repo.git.add(A=True)
    repo.index.commit("tinyblas", author=git.Actor("t", "t@example.com"), committer=git.Actor("t", "t@example.com"))
    repo.create_tag("v1")
    first = _mine(lib, tmp_path / "out-1", tmp_path / "cache", rev="v1")
    second = _mine(lib, tmp_path / "out-2", tmp_path / "cache", rev="v1")
    assert first.cache_hits == 0
    assert second.cache_hits == second.tus
    # the stubs and PCHs of the first run's worktree, gone since, were removed; the second's are left
    assert len(list((tmp_path / "cache" / "places").iterdir())) == 1
    assert (tmp_path / "out-1" / "bundles.jsonl").read_bytes() == (tmp_path / "out-2" / "bundles.jsonl").read_bytes()


def test_a_system_header_installed_after_a_mine_is_a_miss_for_every_tu(tmp_path, monkeypatch):
    """A parse made while a header the profile needs was missing stopped at it: installing the header (./setup.sh)
    must make the next mine parse again, though no file of the checkout changed."""
    from miner.source import requirements

    installed = requirements.SYSTEM_INCLUDE_DIRS
    monkeypatch.setattr(requirements, "SYSTEM_INCLUDE_DIRS", (tmp_path / "empty",))
    missing = _mine(TINYBLAS, tmp_path / "a", tmp_path / "cache", allow_missing_headers=True)
    monkeypatch.setattr(requirements, "SYSTEM_INCLUDE_DIRS", installed)
    after = _mine(TINYBLAS, tmp_path / "b", tmp_path / "cache")
    again = _mine(TINYBLAS, tmp_path / "c", tmp_path / "cache")
    assert missing.cache_hits == 0 and after.cache_hits == 0
    assert again.cache_hits == again.tus


def test_two_releases_of_a_tu_whose_own_file_is_the_same_keep_an_entry_each(tmp_path):
    """The TU's file is the same in both, a header it includes is not: mining one release never costs the other
    its cached parse (each has an entry beside the other's)."""
    from miner.models import ParsedTU
    from miner.parse.cache import ParseCache
    from miner.source.files import FileHashes

    releases = {}
    for name, header in (("old", "int f();\n"), ("new", "int f(int);\n")):
        root = tmp_path / name
        root.mkdir()
        (root / "a.cpp").write_text('#include "a.h"\n')
        (root / "a.h").write_text(header)
        releases[name] = ParseCache(tmp_path / "cache", "fp", FileHashes(root))
    for name, cache in releases.items():
        cache.put(ParsedTU("a.cpp", "clang", (), (), (), ("a.cpp", "a.h"), variant=name))
    for name, cache in releases.items():
        found = cache.get("a.cpp")
        assert found is not None and found[0].variant == name
    (tmp_path / "new" / "a.h").write_text("int f(long);\n")  # a third content: no entry holds
    assert ParseCache(tmp_path / "cache", "fp", FileHashes(tmp_path / "new")).peek("a.cpp") is None
