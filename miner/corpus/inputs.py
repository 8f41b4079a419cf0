"""Reading the corpus's inputs: QA output folders (with the mine each came from) and verify output folders."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from miner.errors import InputError
from miner.models import QARecord
from miner.models.corpus import UNKNOWN
from miner.verify.models import Attempt

M = TypeVar("M", bound=BaseModel)

_LICENCE_FILES = ("LICENSE.md", "LICENSE", "LICENSE.txt", "LICENCE", "LICENCE.md", "COPYING")
_LICENCE_MARKERS = (
    ("Permission is hereby granted, free of charge", "MIT"),
    ("Apache License", "Apache-2.0"),
    ("Redistribution and use in source and binary forms", "BSD"),
)


class _NewerSchema(InputError):
    """A record with fields this version does not know: written by a newer rocm-miner."""


@dataclass(frozen=True)
class MineInfo:
    """What the mine a QA folder was generated from says about its checkout."""

    library: str
    repo_url: str
    commit: str
    tag: str
    tool_version: str
    licence: str
    file_hashes: dict[str, str]  # over every bundle of the mine
    folder: Path | None = None  # the mine's output folder (its entries.jsonl: the kernels of each entry point)


NO_MINE = MineInfo(UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN, {})


@dataclass(frozen=True)
class QAInput:
    path: Path
    records: list[QARecord]
    summary: dict[str, Any]  # qa_summary.json
    mine: MineInfo


@dataclass(frozen=True)
class VerifyInput:
    path: Path
    turns: list[Attempt]  # every turn of every finished attempt, in file order
    unfinished: int  # turns of attempts whose last turn is not recorded (a killed run): redone by the verify stage
    torn: int  # a last line cut short by a killed run
    damaged: int  # lines that are not an attempt record
    run: dict[str, Any] = field(default_factory=dict)


def read_qa(path: Path, mined: list[Path]) -> QAInput:
    file = path / "qa.jsonl" if path.is_dir() else path
    folder = file.parent
    if not file.is_file():
        raise InputError("no qa.jsonl here (expected the output folder of `rocm-miner qa`)", path=str(path))
    records = [_validated(QARecord, line, file, n, "QA record") for n, line in _lines(file)]
    if not records:
        raise InputError("no QA records (qa.jsonl is empty)", path=str(file))
    summary_file = folder / "qa_summary.json"
    summary = _json(summary_file) if summary_file.is_file() else {}
    return QAInput(folder, records, summary, _find_mine(records, [folder, *mined]))


def read_verify(path: Path) -> VerifyInput:
    file = path / "attempts.jsonl" if path.is_dir() else path
    if not file.is_file():
        raise InputError("no attempts.jsonl here (expected the output folder of `rocm-miner verify`)", path=str(path))
    data = file.read_bytes()
    complete = data[: data.rfind(b"\n") + 1]
    torn = int(bool(data[len(complete) :].strip()))
    turns: list[Attempt] = []
    damaged: list[InputError] = []  # lines the verify store itself skips and keeps (see miner.verify.store)
    for n, raw in enumerate(complete.splitlines(), 1):
        if raw.strip():
            try:
                turns.append(_validated(Attempt, _decoded(raw, file, n), file, n, "verify attempt record"))
            except _NewerSchema:
                raise
            except InputError as exc:
                damaged.append(exc)
    if not turns:
        if damaged:
            raise damaged[0]
        raise InputError("no attempt records (attempts.jsonl is empty)", path=str(file))
    finished = {t.key.rsplit(":turn", 1)[0] for t in turns if t.last_turn}
    kept = [t for t in turns if t.key.rsplit(":turn", 1)[0] in finished]
    run_file = file.parent / "run.json"
    run = _json(run_file) if run_file.is_file() else {}
    return VerifyInput(file.parent, kept, len(turns) - len(kept), torn, len(damaged), run)


def _lines(file: Path):
    with open(file, "rb") as fh:
        for n, raw in enumerate(fh, 1):
            if raw.strip():
                yield n, _decoded(raw, file, n)


def _decoded(raw: bytes, file: Path, n: int) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{file}:{n}: not UTF-8 text ({exc.reason} at byte {exc.start + 1})") from None


def _validated(model: type[M], line: str, file: Path, n: int, what: str) -> M:
    try:
        return model.model_validate_json(line)
    except ValidationError as exc:
        errors = exc.errors()
        extra = [".".join(map(str, e["loc"])) for e in errors if e["type"] == "extra_forbidden"]
        if extra and len(extra) == len(errors):
            raise _NewerSchema(
                f"{file}:{n}: a {what} of a newer schema than this rocm-miner reads (unknown fields: "
                f"{', '.join(extra)}); upgrade rocm-miner"
            ) from None
        first = errors[0]
        where = ".".join(str(p) for p in first["loc"]) or "line"
        raise InputError(f"{file}:{n}: not a {what} ({where}: {first['msg']})") from None


def _json(file: Path) -> dict[str, Any]:
    try:
        data = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise InputError(f"not readable JSON ({exc})", path=str(file)) from None
    if not isinstance(data, dict):
        raise InputError("not a JSON object", path=str(file))
    return data


def _find_mine(records: list[QARecord], candidates: list[Path]) -> MineInfo:
    """The mine (a folder with run.json and bundles.jsonl) whose bundles hold the records' bundles and the most of
    their kernel regions ("file:start-end"; the first of those holding as many), or ``NO_MINE``. Two releases' mines
    share their bundle ids, so the first mine that holds the bundles can be the other release's; a kernel's line span
    moves when its file changes."""
    wanted = {b for r in records for b in r.bundles}
    kernels = [r.kernel for r in records]
    library = records[0].library
    best, best_found = NO_MINE, (0, 0)
    for folder in candidates:
        run_file, bundles_file = folder / "run.json", folder / "bundles.jsonl"
        if not (run_file.is_file() and bundles_file.is_file()):
            continue
        run = _json(run_file)
        if run.get("library") != library:
            continue
        hashes: dict[str, str] = {}
        regions: set[str] = set()
        bundles = 0
        with open(bundles_file, "rb") as fh:
            for raw in fh:
                bundle = json.loads(raw)
                bundles += bundle.get("id") in wanted
                regions.update(region.get("id", "") for region in bundle.get("regions", []))
                hashes.update(bundle.get("provenance", {}).get("file_hashes", {}))
        found = (sum(k in regions for k in kernels), bundles) if bundles else (0, 0)
        if found <= best_found:
            continue
        checkout = run.get("checkout", {})
        best_found = found
        best = MineInfo(
            library=library,
            repo_url=checkout.get("repo_url") or UNKNOWN,
            commit=checkout.get("commit") or UNKNOWN,
            tag=checkout.get("tag") or UNKNOWN,
            tool_version=str(run.get("tool_version") or UNKNOWN),
            licence=read_licence(Path(checkout["root"])) if checkout.get("root") else UNKNOWN,
            file_hashes=hashes,
            folder=folder,
        )
        if found == (len(kernels), len(wanted)):
            break
    return best


def read_licence(root: Path) -> str:
    """The licence of a checkout, from its licence file: a known one by name ("MIT (LICENSE.md)"), else the file's
    first line; "unknown" when the checkout or its licence file is not there."""
    for name in _LICENCE_FILES:
        file = root / name
        try:
            text = file.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for marker, spdx in _LICENCE_MARKERS:
            if marker in text:
                return f"{spdx} ({name})"
        first = next((line.strip() for line in text.splitlines() if line.strip()), "")
        return f"{first[:80]} ({name})" if first else UNKNOWN
    return UNKNOWN
