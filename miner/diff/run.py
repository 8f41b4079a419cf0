"""`rocm-miner diff`: mine two revisions of a checkout through temporary worktrees (the user's checkout is never
touched; the shared cache makes what did not change free) and tell, per entry point, what changed."""

from __future__ import annotations

import contextlib
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from miner.bundle.write import make_dir, write_json_atomic
from miner.diff.compare import compare
from miner.diff.mined import read_mined
from miner.errors import InputError, NotACheckoutError, RevisionError
from miner.models import ReleaseDiff, RevisionSide
from miner.outputs import read_run
from miner.pipeline import MineOptions, Progress, mine, resolve_profile
from miner.source.checkout import revision
from miner.source.profile import Profile

WORKING_TREE = "working tree"


@dataclass(frozen=True)
class DiffOptions:
    path: Path
    old: str
    new: str
    out: Path
    library: str | None = None
    with_libraries: dict[str, Path] = field(default_factory=dict)
    jobs: int = 1
    cache_dir: Path | None = None
    allow_missing_headers: bool = False


def diff_revisions(opts: DiffOptions, progress: Progress) -> ReleaseDiff:
    """Mines OLD into ``out/old`` and NEW into ``out/new``, compares them and writes ``out/diff.json``. Every
    revision is checked before anything is written."""
    start = time.perf_counter()
    profile = _check_revisions(opts)
    make_dir(opts.out, "output directory")
    sides = {}
    for side, rev in (("old", opts.old), ("new", opts.new)):
        sides[side] = mine_revision(opts, rev, opts.out / side, progress)
    diffs = compare(read_mined(opts.out / "old"), read_mined(opts.out / "new"))
    report = ReleaseDiff(
        library=profile.name,
        old=sides["old"],
        new=sides["new"],
        counts={v: n for v, n in Counter(d.verdict for d in diffs).most_common()},
        entries=diffs,
        seconds=round(time.perf_counter() - start, 2),
    )
    write_json_atomic(opts.out / "diff.json", report.model_dump(mode="json"))
    return report


def _check_revisions(opts: DiffOptions) -> Profile:
    """The library's profile, once both revisions are known to exist and to hold the library."""
    import git

    if not opts.path.is_dir():
        raise NotACheckoutError("no such directory", path=str(opts.path))
    try:
        repo = git.Repo(opts.path, search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        raise RevisionError("diff needs a git checkout", path=str(opts.path)) from None
    profile = resolve_profile(opts.path, opts.library)
    sub = opts.path.resolve().relative_to(Path(repo.working_tree_dir).resolve())
    for rev in (opts.old, opts.new):
        try:
            tree = repo.commit(rev).tree
        except (git.BadName, ValueError):
            raise RevisionError(f"unknown revision {rev!r}", path=str(opts.path)) from None
        for marker in profile.markers:
            try:
                tree / (sub / marker).as_posix()
            except KeyError:
                raise InputError(f"{rev}: no {profile.name} at that revision ({marker} is missing)") from None
    return profile


def mine_revision(opts: DiffOptions, rev: str, out: Path, progress: Progress) -> RevisionSide:
    with contextlib.ExitStack() as stack:
        others, with_revs = {}, {}
        for name, path in sorted(opts.with_libraries.items()):
            others[name], with_revs[name] = path, WORKING_TREE
            if _has_revision(path, rev):
                others[name] = stack.enter_context(revision(path, rev)).root
                with_revs[name] = rev
        summary = mine(
            MineOptions(
                path=opts.path,
                library=opts.library,
                out=out,
                jobs=opts.jobs,
                rev=rev,
                with_libraries=others,
                cache_dir=opts.cache_dir,
                allow_missing_headers=opts.allow_missing_headers,
            ),
            lambda phase, done, total: progress(f"{rev}: {phase}", done, total),
        )
    run = read_run(out)
    return RevisionSide(
        revision=rev,
        commit=run["checkout"]["commit"],
        tag=run["checkout"]["tag"],
        out=str(out),
        with_libraries=with_revs,
        tus=summary.tus,
        tus_parsed=summary.tus - summary.cache_hits,
        with_tus={name: [tus, tus - hits] for name, (tus, hits) in summary.with_tus.items()},
    )


def _has_revision(path: Path, rev: str) -> bool:
    import git

    try:
        git.Repo(path, search_parent_directories=True).commit(rev)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError, git.BadName, ValueError):
        return False
    return True
