"""`rocm-miner corpus`: QA outputs and verify outputs in, one Parquet dataset with its card out."""

from __future__ import annotations

import importlib.metadata
import shutil
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from miner.bundle.write import make_dir, write_json_atomic, write_jsonl_atomic
from miner.corpus.card import write_card
from miner.corpus.decontaminate import Decontaminator, read_eval_sets
from miner.corpus.dedup import DedupOptions, deduplicate
from miner.corpus.inputs import MineInfo, read_qa, read_verify
from miner.corpus.links import task_links
from miner.corpus.parquet import write_shards
from miner.corpus.rows import qa_rows, verify_rows
from miner.corpus.split import (
    DEFAULT_SHARED_ABOVE,
    HELDOUT,
    TRAIN,
    assign_splits,
    family_groups,
    group_key,
    shared_kernels,
    straddles,
)
from miner.errors import InputError
from miner.models.corpus import SOURCES, UNKNOWN, CorpusRow, DroppedRow
from miner.verify.tasks import TASKS_DIR


@dataclass(frozen=True)
class CorpusOptions:
    out: Path
    qa: tuple[Path, ...] = ()
    verified: tuple[Path, ...] = ()
    mined: tuple[Path, ...] = ()  # mine outputs to find the QA folders' provenance in (besides the QA folder itself)
    tasks: Path = TASKS_DIR  # the task files verify attempts were checked against
    decontaminate: tuple[Path, ...] = ()
    ngram: int = 13
    overlap: float = 0.5  # share of an evaluation item's (or a row's) n-grams that makes the row contaminated
    dedup: DedupOptions = field(default_factory=DedupOptions)
    heldout: float = 0.1
    seed: int = 0
    shared_above: int = DEFAULT_SHARED_ABOVE  # a kernel whose rows name more entry families is shared (0: none is)
    shard_rows: int = 5000


@dataclass
class CorpusSummary:
    inputs: list[dict[str, Any]] = field(default_factory=list)
    read: Counter = field(default_factory=Counter)  # source -> rows built from the inputs
    dropped: dict[str, Counter] = field(default_factory=dict)  # source -> reason -> rows
    written: dict[str, Counter] = field(default_factory=dict)  # source -> split -> rows
    table: Counter = field(default_factory=Counter)  # (source, library, release, category, split) -> rows
    clusters: dict[str, Counter] = field(default_factory=dict)  # source -> cluster size -> clusters
    contamination: Counter = field(default_factory=Counter)  # (evaluation item, source) -> rows removed
    verdicts: Counter = field(default_factory=Counter)  # verdict class -> attempts rows written
    licences: Counter = field(default_factory=Counter)  # (source, licence) -> rows written
    groups: Counter = field(default_factory=Counter)  # split -> family groups
    largest_group: int = 0  # rows of the group with the most rows
    shared_kernels: int = 0  # kernels whose rows form a group of their own (``shared_above``)
    entry_families: int = 0  # entry families named by the rows written
    straddling: int = 0  # of those, with rows in both splits (through shared kernels' rows only)
    through: dict[str, Counter] = field(default_factory=dict)  # shared kernel -> {split: straddling families}
    links: list[dict[str, Any]] = field(default_factory=list)  # verify task -> library kernels it restates
    duplicates: Counter = field(default_factory=Counter)  # (source, library, release, kept library, kept release)
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "inputs": self.inputs,
            "read": dict(sorted(self.read.items())),
            "dropped": {s: dict(sorted(c.items())) for s, c in sorted(self.dropped.items())},
            "written": {s: dict(sorted(c.items())) for s, c in sorted(self.written.items())},
            "table": [[*k, v] for k, v in sorted(self.table.items())],
            "clusters": {s: {str(k): v for k, v in sorted(c.items())} for s, c in sorted(self.clusters.items())},
            "contamination": [[*k, v] for k, v in sorted(self.contamination.items())],
            "verdicts": dict(sorted(self.verdicts.items())),
            "licences": [[*k, v] for k, v in sorted(self.licences.items())],
            "groups": dict(sorted(self.groups.items())),
            "largest_group": self.largest_group,
            "shared_kernels": self.shared_kernels,
            "entry_families": self.entry_families,
            "straddling": self.straddling,
            "through": {k: dict(sorted(c.items())) for k, c in sorted(self.through.items())},
            "links": self.links,
            "duplicates": [[*k, v] for k, v in sorted(self.duplicates.items())],
        }


def run_corpus(options: CorpusOptions) -> CorpusSummary:
    started = time.perf_counter()
    if not options.qa and not options.verified:
        raise InputError("nothing to merge: name QA output folders (--qa) and/or verify output folders (--verified)")
    summary = CorpusSummary()
    decontaminator = (
        Decontaminator(read_eval_sets(list(options.decontaminate)), options.ngram, options.overlap)
        if options.decontaminate
        else None
    )
    rows = _read_rows(options, summary)
    order = {r.id: i for i, r in enumerate(rows)}
    if len(order) != len(rows):
        raise InputError("the inputs hold the same records twice (a folder named twice?)")
    dropped: list[DroppedRow] = []
    kept: list[CorpusRow] = []
    for row in rows:
        hit = decontaminator.overlap_of(row) if decontaminator is not None else None
        if hit is None:
            kept.append(row)
        else:
            dropped.append(_dropped(row, "contaminated", hit.item, hit.how))
            summary.contamination[(hit.item, row.source)] += 1
    dedup = deduplicate([r for r in kept if r.source != "attempts"], order, options.dedup)
    summary.clusters = dedup.cluster_sizes
    dropped += [_dropped(r, "near-duplicate", dedup.duplicate_of[r.id]) for r in kept if r.id in dedup.duplicate_of]
    by_id = {r.id: r for r in kept}
    for r in kept:
        if r.id in dedup.duplicate_of:
            first = by_id[dedup.duplicate_of[r.id]]
            summary.duplicates[(r.source, r.library, r.release, first.library, first.release)] += 1
    kept = [r for r in kept if r.id not in dedup.duplicate_of]
    kept, split_of = assign_splits(kept, heldout=options.heldout, seed=options.seed, shared_above=options.shared_above)
    group_of = family_groups(kept, options.shared_above)
    shared = shared_kernels(kept, options.shared_above)
    summary.groups.update(split_of.values())
    summary.shared_kernels = len(shared)
    straddle = straddles(kept, shared)
    summary.entry_families, summary.straddling, summary.through = (
        straddle.entry_families,
        straddle.straddling,
        straddle.through,
    )
    task_split = {f: r.split for r in kept for f in r.families if f.startswith("task:")}
    for link in summary.links:
        link["split"] = task_split.get(f"task:{link['task']}", "")
    summary.largest_group = max(Counter(group_of[group_key(r, shared)] for r in kept).values(), default=0)
    for d in dropped:
        summary.dropped.setdefault(d.source, Counter())[d.reason] += 1
    for r in kept:
        summary.written.setdefault(r.source, Counter())[r.split] += 1
        summary.table[(r.source, r.library, r.release, r.category, r.split)] += 1
        summary.licences[(r.source, r.provenance.licence)] += 1
        if r.source == "attempts":
            summary.verdicts[r.verdict] += 1
    _write(options, kept, dropped, summary)
    summary.seconds = round(time.perf_counter() - started, 2)
    return summary


def _read_rows(options: CorpusOptions, summary: CorpusSummary) -> list[CorpusRow]:
    rows: list[CorpusRow] = []
    mines: list[MineInfo] = []
    for path in options.qa:
        qa = read_qa(path, list(options.mined))
        mines.append(qa.mine)
        built = list(qa_rows(qa))
        rows += built
        summary.inputs.append(
            {
                "kind": "qa",
                "path": str(path),
                "library": qa.records[0].library,
                "release": built[0].release,
                "licence": qa.mine.licence,
                "provenance_found": qa.mine.commit != UNKNOWN,
                "records": len(qa.records),
                "qa_kept": qa.summary.get("kept_total"),
                "qa_dropped": qa.summary.get("dropped", {}),
                "generator": qa.summary.get("generator", qa.records[0].generator),
            }
        )
    runs = [read_verify(path) for path in options.verified]
    links = task_links(options.tasks, (t.task for run in runs for t in run.turns), mines)
    summary.links = [
        {"task": k.task, "entry": k.entry, "kernels": list(k.kernels), "note": k.note} for k in links.values()
    ]
    licence = _package_licence()
    linked = {task: link.kernels for task, link in links.items()}
    for path, run in zip(options.verified, runs, strict=True):
        built = list(verify_rows(run, options.tasks, licence, linked))
        rows += built
        summary.inputs.append(
            {
                "kind": "verify",
                "path": str(path),
                "turns": len(run.turns),
                "unfinished_turns": run.unfinished,
                "torn_lines": run.torn,
                "damaged_lines": run.damaged,
                "references_found": sum(1 for r in built if r.source == "attempts" and r.reference),
            }
        )
    for row in rows:
        summary.read[row.source] += 1
    return rows


def _package_licence() -> str:
    """The licence of the task files, which are rocm-miner's own."""
    try:
        value = importlib.metadata.metadata("rocm-miner").get("License") or ""
    except importlib.metadata.PackageNotFoundError:
        value = ""
    return f"{value} (rocm-miner)" if value else UNKNOWN


def _dropped(row: CorpusRow, reason: str, detail: str, how: str = "") -> DroppedRow:
    return DroppedRow(
        id=row.id, source=row.source, library=row.library, release=row.release, reason=reason, detail=detail, how=how
    )


def _write(options: CorpusOptions, kept: list[CorpusRow], dropped: list[DroppedRow], summary: CorpusSummary) -> None:
    out = options.out
    make_dir(out)
    written: set[Path] = set()
    data = out / "data"
    for source in SOURCES:
        for split in (TRAIN, HELDOUT):
            rows = sorted(
                (r for r in kept if r.source == source and r.split == split), key=lambda r: (r.library, r.release, r.id)
            )
            if rows:
                make_dir(data / source)
                written.update(write_shards(data / source, split, rows, options.shard_rows))
    _remove_stale(data, written)
    dropped.sort(key=lambda d: (d.source, d.reason, d.id))
    write_jsonl_atomic(out / "dropped.jsonl", (d.model_dump(mode="json") for d in dropped))
    write_json_atomic(out / "corpus_summary.json", summary.to_json())
    write_card(out / "README.md", summary, options)


def _remove_stale(data: Path, written: set[Path]) -> None:
    """Shards of an earlier run that this one did not write (a config or split that is now empty, fewer shards)."""
    if not data.is_dir():
        return
    for path in sorted(data.rglob("*.parquet")):
        if path not in written:
            path.unlink()
    for folder in sorted(data.iterdir()):
        if folder.is_dir() and not any(folder.iterdir()):
            shutil.rmtree(folder)
