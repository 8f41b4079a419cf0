"""A library checkout: a plain directory or a git work tree, with its provenance."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from miner.errors import NotACheckoutError, RevisionError


@dataclass(frozen=True, slots=True)
class Checkout:
    root: Path
    repo_url: str = ""
    commit: str = ""
    tag: str = ""
    dirty: bool = False


def _git_repo(root: Path):  # -> git.Repo | None
    import git

    try:
        repo = git.Repo(root, search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        return None
    return repo


def describe(root: Path) -> Checkout:
    """Provenance of the checkout at ``root`` (empty fields for a plain directory)."""
    root = root.resolve()
    if not root.is_dir():
        raise NotACheckoutError("no such directory", path=str(root))
    repo = _git_repo(root)
    if repo is None or repo.bare:
        return Checkout(root=root)
    import git

    try:
        commit = repo.head.commit.hexsha
    except ValueError:  # no commits yet
        return Checkout(root=root)
    try:
        tag = repo.git.describe("--tags", "--always")
    except git.GitCommandError:
        tag = ""
    remotes = list(repo.remotes)
    url = remotes[0].url if remotes else ""
    dirty = repo.is_dirty(untracked_files=False, path=str(root))
    return Checkout(root=root, repo_url=url, commit=commit, tag=tag, dirty=dirty)


@contextlib.contextmanager
def revision(root: Path, rev: str) -> Iterator[Checkout]:
    """Check ``rev`` out into a temporary worktree; the user's checkout is never touched."""
    import git

    repo = _git_repo(root.resolve())
    if repo is None:
        raise RevisionError("--rev needs a git checkout", path=str(root))
    try:
        commit = repo.commit(rev).hexsha
    except (git.BadName, ValueError) as exc:
        raise RevisionError(f"unknown revision {rev!r}", path=str(root)) from exc
    work = Path(tempfile.mkdtemp(prefix="rocm-miner-rev-"))
    tree = work / "tree"
    sub = Path(root).resolve().relative_to(Path(repo.working_tree_dir).resolve())
    try:
        repo.git.worktree("add", "--detach", str(tree), commit)
        info = describe(tree / sub)
        tag = repo.git.describe("--tags", "--always", commit)
        url = info.repo_url or describe(root).repo_url
        yield Checkout(root=info.root, repo_url=url, commit=commit, tag=tag, dirty=False)
    finally:
        with contextlib.suppress(git.GitCommandError):
            repo.git.worktree("remove", "--force", str(tree))
        shutil.rmtree(work, ignore_errors=True)
        with contextlib.suppress(git.GitCommandError):
            repo.git.worktree("prune")
