"""What a batch mines: a jobs file's ``[[mine]]`` tables, or one checkout's repeated ``--rev``; each (library,
revision) becomes the options of one mine, with its own output folder."""

from __future__ import annotations

import re
import tomllib
from dataclasses import replace
from pathlib import Path

from pydantic import ValidationError

from miner.errors import InputError
from miner.models import BatchJob
from miner.pipeline import MineOptions


def read_jobs_file(path: Path) -> list[BatchJob]:
    try:
        data = tomllib.loads(path.read_text())
    except FileNotFoundError:
        raise InputError(f"{path}: no such jobs file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read the jobs file ({exc})") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: not TOML ({exc})") from None
    unknown = sorted(set(data) - {"mine"})
    if unknown:
        raise InputError(f"{path}: unknown table {unknown[0]!r} (a jobs file holds [[mine]] tables)")
    tables = data.get("mine")
    if not isinstance(tables, list) or not tables:
        raise InputError(f"{path}: no [[mine]] table")
    jobs = []
    for i, table in enumerate(tables, 1):
        try:
            jobs.append(BatchJob.model_validate(table))
        except ValidationError as exc:
            first = exc.errors()[0]
            where = ".".join(str(p) for p in first["loc"])
            raise InputError(f"{path}: [[mine]] number {i}: {where}: {first['msg']}") from None
    return [_relative_to(job, path.parent) for job in jobs]


def _relative_to(job: BatchJob, base: Path) -> BatchJob:
    """Checkouts written relative to the jobs file are found beside it."""

    def place(p: str) -> str:
        return p if Path(p).is_absolute() else str(base / p)

    return job.model_copy(
        update={"checkout": place(job.checkout), "with_": {k: place(v) for k, v in job.with_.items()}}
    )


def plan(jobs: list[BatchJob], base: MineOptions) -> list[MineOptions]:
    """One mine's options per (job, revision), each writing under ``base.out``; two writing into one folder is
    an error."""
    plans = []
    for job in jobs:
        folder = job.out or job.library or Path(job.checkout).name
        for rev in job.revisions or [None]:
            out = base.out / folder / _folder_name(rev) if len(job.revisions) > 1 else base.out / folder
            plans.append(replace(
                base, path=Path(job.checkout), library=job.library, rev=rev, out=out,
                with_libraries={k: Path(v) for k, v in job.with_.items()}, entry_glob=job.entry,
            ))  # fmt: skip
    seen: dict[Path, MineOptions] = {}
    for p in plans:
        if p.out in seen:
            raise InputError(f"two mines of the batch write into {p.out}: give each [[mine]] its own out")
        seen[p.out] = p
    return plans


def plan_revisions(base: MineOptions, revisions: list[str]) -> list[MineOptions]:
    """``mine PATH --rev A --rev B --out DIR``: DIR/A, DIR/B."""
    if len(set(revisions)) != len(revisions):
        raise InputError("a --rev is given twice")
    return [replace(base, rev=rev, out=base.out / _folder_name(rev)) for rev in revisions]


def _folder_name(rev: str | None) -> str:
    return "working-tree" if rev is None else re.sub(r"[^A-Za-z0-9._-]+", "_", rev)
