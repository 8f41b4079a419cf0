"""One cache per user, shared by every run: where it is, what it holds per library and revision, pruning it
least recently used first, and two mines using it at once."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import git
import pytest

from miner.arguments import byte_size
from miner.cache import lock
from miner.cache.home import default_cache_dir
from miner.cache.inventory import take_inventory
from miner.cache.prune import prune
from miner.cache.units import units
from miner.errors import CacheBusyError
from miner.pipeline import MineOptions, mine
from tests.conftest import TINYBLAS, read_jsonl
from tests.test_cli import run_cli


def test_the_default_cache_follows_xdg_cache_home(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "xdg" / "rocm-miner"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")  # the specification says to ignore it
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert default_cache_dir() == tmp_path / "home" / ".cache" / "rocm-miner"
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert default_cache_dir() == tmp_path / "home" / ".cache" / "rocm-miner"


@pytest.mark.parametrize(
    ("text", "size"),
    [("0", 0), ("512", 512), ("2K", 2048), ("1.5M", 1572864), ("2G", 2 << 30), ("3GiB", 3 << 30), ("1gb", 1 << 30)],
)
def test_sizes(text, size):
    assert byte_size(text) == size


@pytest.mark.parametrize("text", ["", "G", "12Q", "-1M", "1.2.3K", "nan"])
def test_bad_sizes(text):
    with pytest.raises(argparse.ArgumentTypeError):
        byte_size(text)


def _mine(out: Path, path: Path = TINYBLAS, **kw):
    return mine(MineOptions(path=path, out=out, jobs=2, **kw))


def test_a_new_output_folder_reuses_the_shared_cache_and_info_tells_what_it_holds(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    cold = _mine(tmp_path / "one")
    warm = _mine(tmp_path / "two")
    assert cold.cache_hits == 0 and warm.cache_hits == warm.tus == cold.tus
    assert not (tmp_path / "one" / ".cache").exists()
    assert (tmp_path / "one" / "bundles.jsonl").read_bytes() == (tmp_path / "two" / "bundles.jsonl").read_bytes()
    proc = run_cli("cache", "info", "--json", env={"XDG_CACHE_HOME": str(tmp_path / "xdg")})
    assert proc.returncode == 0, proc.stderr
    info = json.loads(proc.stdout)
    assert info["cache"] == str(tmp_path / "xdg" / "rocm-miner")
    (run,) = info["runs"]  # one library at one revision: one record, rewritten by the second run
    assert run["library"] == "tinyblas" and run["out"] == str(tmp_path / "two")
    assert run["tus_present"] > warm.tus  # and the precompiled prefixes' facts
    assert run["units_present"] == run["units"] and run["bytes_present"] > 0
    assert info["unrecorded"]["units"] == 0
    sections = info["sections"]
    assert sections["parse"]["units"] == run["tus_present"] and sections["liveness"]["units"] == 1
    assert info["total_bytes"] == sum(s["bytes"] for s in sections.values())
    table = run_cli("cache", "info", env={"XDG_CACHE_HOME": str(tmp_path / "xdg")})
    assert table.returncode == 0 and "tinyblas" in table.stdout


def _revisions(tmp_path: Path) -> Path:
    """tinyblas in a git repository, then a second commit that changes one of its kernels' files."""
    repo_dir = tmp_path / "repo"
    shutil.copytree(TINYBLAS, repo_dir)
    repo = git.Repo.init(repo_dir)
    with repo.config_writer() as cw:
        cw.set_value("user", "name", "t").set_value("user", "email", "t@t")
    repo.git.add(A=True)
    repo.index.commit("one")
    repo.create_tag("v1")
    kernels = repo_dir / "library" / "src" / "blas2" / "tinyblas_gemv_kernels.cpp"
    kernels.write_text(kernels.read_text() + "\n// a comment, so the file's bytes change\n")
    repo.git.add(A=True)
    repo.index.commit("two")
    repo.create_tag("v2")
    return repo_dir


def test_the_next_revision_parses_only_the_files_that_changed_and_both_are_recorded(tmp_path):
    repo_dir = _revisions(tmp_path)
    cache = tmp_path / "cache"
    first = _mine(tmp_path / "v1", repo_dir, rev="v1", cache_dir=cache)
    second = _mine(tmp_path / "v2", repo_dir, rev="v2", cache_dir=cache)
    assert first.cache_hits == 0
    readers = [r["path"] for r in read_jsonl(tmp_path / "v2" / "parse_report.jsonl")]
    assert second.tus == first.tus and second.cache_hits == second.tus - 1, readers
    runs = {r.run.revision: r for r in take_inventory(cache).runs}
    assert set(runs) == {"v1", "v2"}
    assert runs["v1"].tus_present == runs["v2"].tus_present > first.tus
    assert 0 < runs["v2"].bytes_shared < runs["v2"].bytes_present  # all but the changed TU are shared


def _age(paths, seconds_ago: float) -> None:
    then = time.time() - seconds_ago
    for p in paths:
        os.utime(p, (then, then))


def test_prune_removes_the_least_recently_used_first_and_forgets_runs_left_with_nothing(tmp_path):
    repo_dir = _revisions(tmp_path)
    cache = tmp_path / "cache"
    _mine(tmp_path / "v1", repo_dir, rev="v1", cache_dir=cache)
    _mine(tmp_path / "v2", repo_dir, rev="v2", cache_dir=cache)
    every = units(cache)
    _age([p for u in every for p in (u.paths[0].rglob("*") if u.paths[0].is_dir() else u.paths)], 3600)
    runs = {r.run.revision: r.run for r in take_inventory(cache).runs}
    only_v1 = (set(runs["v1"].units) - set(runs["v2"].units)) & {u.key for u in every}
    assert {u.section for u in every if u.key in only_v1} == {"parse", "liveness"}  # the changed TU's old parse
    _age([p for u in every if u.key in only_v1 for p in u.paths], 7200)  # used longest ago
    total = sum(u.size for u in every)
    smallest_cut = sum(u.size for u in every if u.key in only_v1)

    dry = prune(cache, total - 1, dry_run=True)
    assert {u.key for u in dry.removed} <= only_v1 and dry.removed and len(units(cache)) == len(every)
    done = prune(cache, total - smallest_cut)
    assert {u.key for u in done.removed} == only_v1 and done.after_bytes <= total - smallest_cut
    assert done.runs_forgotten == []  # v1 still has the TUs it shares with v2
    assert {r.run.revision for r in take_inventory(cache).runs} == {"v1", "v2"}

    everything = prune(cache, 0)
    assert everything.after_bytes == 0 and units(cache) == []
    assert sorted(everything.runs_forgotten) == ["tinyblas v1", "tinyblas v2"]
    assert take_inventory(cache).runs == []
    again = _mine(tmp_path / "v2-again", repo_dir, rev="v2", cache_dir=cache)
    assert again.cache_hits == 0  # parsed again, nothing stale read


def test_prune_refuses_while_a_mine_uses_the_cache(tmp_path):
    cache = tmp_path / "cache"
    with lock.shared(cache):
        with pytest.raises(CacheBusyError):
            prune(cache, 0)
        proc = run_cli("cache", "prune", "--max-size", "0", "--cache", str(cache))
        assert proc.returncode == 2 and "a mine is using this cache" in proc.stderr
        assert len(proc.stderr.strip().splitlines()) == 1
    assert prune(cache, 0).removed == []


def test_two_mines_at_once_share_one_cache(tmp_path):
    env = os.environ | {"XDG_CACHE_HOME": str(tmp_path / "xdg")}
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "miner.cli", "mine", str(TINYBLAS), "--out", str(tmp_path / name), "--jobs", "1"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        for name in ("a", "b")
    ]
    for proc in procs:
        _out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
    assert (tmp_path / "a" / "bundles.jsonl").read_bytes() == (tmp_path / "b" / "bundles.jsonl").read_bytes()
    assert (tmp_path / "a" / "entries.jsonl").read_bytes() == (tmp_path / "b" / "entries.jsonl").read_bytes()
    third = _mine(tmp_path / "c", cache_dir=tmp_path / "xdg" / "rocm-miner")
    assert third.cache_hits == third.tus
    assert not list((tmp_path / "xdg").rglob("*.tmp"))
