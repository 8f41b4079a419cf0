"""Git provenance and mining another revision through a temporary worktree."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import git
import pytest

from miner.errors import RevisionError
from miner.source.checkout import describe, revision
from tests.conftest import TINYBLAS
from tests.test_cli import run_cli


@pytest.fixture()
def repo(tmp_path):
    work = tmp_path / "tinyblas"
    shutil.copytree(TINYBLAS, work)
    r = git.Repo.init(work)
    r.git.add(A=True)
    r.git.commit(m="v1", author="t <t@t>")
    r.create_tag("rocm-9.9.0")
    r.create_remote("origin", "https://example.invalid/tinyblas.git")
    return r


def _root(repo) -> Path:
    return Path(repo.working_tree_dir)


def test_describe_records_commit_tag_remote_and_dirty(repo):
    info = describe(_root(repo))
    assert info.commit == repo.head.commit.hexsha
    assert info.tag == "rocm-9.9.0"
    assert info.repo_url == "https://example.invalid/tinyblas.git"
    assert info.dirty is False
    (_root(repo) / "library/src/blas1/tinyblas_scal.cpp").write_text("// x\n")
    assert describe(_root(repo)).dirty is True


def test_plain_directory_has_empty_provenance(tmp_path):
    info = describe(tmp_path)
    assert (info.commit, info.tag, info.repo_url, info.dirty) == ("", "", "", False)


def test_revision_uses_a_worktree_and_leaves_the_checkout_alone(repo):
    scal = _root(repo) / "library/src/blas1/tinyblas_scal.cpp"
    old = scal.read_text()
    scal.write_text(old + "// edited after the tag\n")
    repo.git.commit(a=True, m="v2", author="t <t@t>")
    scal.write_text(old + "// uncommitted\n")
    with revision(_root(repo), "rocm-9.9.0") as co:
        assert co.root != _root(repo)
        assert (co.root / "library/src/blas1/tinyblas_scal.cpp").read_text() == old
        assert co.tag == "rocm-9.9.0" and not co.dirty
    assert scal.read_text() == old + "// uncommitted\n"
    assert len(repo.git.worktree("list").splitlines()) == 1


def test_unknown_revision_is_a_clear_error(repo):
    with pytest.raises(RevisionError, match="unknown revision"), revision(_root(repo), "no-such-tag"):
        pass
    proc = run_cli("mine", repo.working_tree_dir, "--rev", "no-such-tag")
    assert proc.returncode == 2 and "unknown revision 'no-such-tag'" in proc.stderr


def test_rev_needs_git(tmp_path):
    with pytest.raises(RevisionError, match="needs a git checkout"), revision(tmp_path, "HEAD"):
        pass


def test_git_is_available():
    assert subprocess.run(["git", "--version"], capture_output=True).returncode == 0
