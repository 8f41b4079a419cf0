"""The dataset card: README.md with the YAML header `datasets` reads its configs from, and every figure of the
corpus summary, each a count over the written or dropped rows."""

from __future__ import annotations

import importlib.metadata
import platform
from typing import TYPE_CHECKING

from miner import __version__
from miner.bundle.write import atomic_file
from miner.corpus.split import HELDOUT, TRAIN
from miner.models.corpus import SOURCES, UNKNOWN

if TYPE_CHECKING:
    from pathlib import Path

    from miner.corpus.run import CorpusOptions, CorpusSummary


def _version(package: str) -> str:
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def yaml_header(summary: CorpusSummary) -> list[str]:
    lines = ["---", "license: other", "pretty_name: rocm-miner kernel corpus", "configs:"]
    first = True
    for source in SOURCES:
        splits = [s for s in (TRAIN, HELDOUT) if summary.written.get(source, {}).get(s)]
        if not splits:
            continue
        lines.append(f"- config_name: {source}")
        if first:
            lines.append("  default: true")
            first = False
        lines.append("  data_files:")
        for split in splits:
            lines += [f"  - split: {split}", f"    path: data/{source}/{split}-*.parquet"]
    return [*lines, "---"]


def render(summary: CorpusSummary, options: CorpusOptions) -> str:
    out = yaml_header(summary)
    configs = [s for s in SOURCES if sum(summary.written.get(s, {}).values())]
    out += [
        "",
        "# rocm-miner kernel corpus",
        "",
        "Grounded QA items and implementation samples mined from ROCm math libraries, and GPU kernels checked by "
        "rocm-miner's verifier against PyTorch reference tasks, merged by `rocm-miner corpus`. Every row carries "
        "its provenance (`provenance`: repository, commit, tag, cited files and line spans, content hashes, prompt "
        "hash, generator, verifier version, environment, licence) and an SFT view in chat format (`messages`).",
        "",
        "## Loading",
        "",
        "```python",
        "from datasets import load_dataset",
        "",
    ]
    out += [f'{s} = load_dataset("path/to/this/folder", "{s}")' for s in configs]
    out += [f'print({configs[0]}["train"][0]["messages"])' if configs else "", "```", ""]
    out += ["## Rows per source, library, release and category", ""]
    out += ["| source | library | release | category | train | heldout | rows |", "|---|---|---|---|---|---|---|"]
    cells: dict[tuple[str, str, str, str], dict[str, int]] = {}
    for (source, library, release, category, split), n in summary.table.items():
        cells.setdefault((source, library, release, category), {})[split] = n
    for key in sorted(cells):
        train, held = cells[key].get(TRAIN, 0), cells[key].get(HELDOUT, 0)
        out.append(f"| {' | '.join(key)} | {train} | {held} | {train + held} |")
    out += ["", "## What was read, dropped and written", ""]
    out += ["| source | read | contaminated | near-duplicate | written |", "|---|---|---|---|---|"]
    for source in SOURCES:
        read = summary.read.get(source, 0)
        drops = summary.dropped.get(source, {})
        written = sum(summary.written.get(source, {}).values())
        out.append(
            f"| {source} | {read} | {drops.get('contaminated', 0)} | {drops.get('near-duplicate', 0)} | {written} |"
        )
    out += ["", "Every row read is written or dropped with its reason in `dropped.jsonl`.", ""]
    out += _inputs(summary)
    out += _dedup(summary, options)
    out += _contamination(summary, options)
    out += ["## Verify attempts per verdict class (`attempts` config)", ""]
    out += ["| verdict | turns |", "|---|---|"]
    out += [f"| {v} | {n} |" for v, n in sorted(summary.verdicts.items())]
    out += _splits(summary, options)
    out += _links(summary)
    out += [
        "## Licences",
        "",
        "| source | licence | rows |",
        "|---|---|---|",
    ]
    out += [f"| {s} | {lic} | {n} |" for (s, lic), n in sorted(summary.licences.items())]
    if any(lic == UNKNOWN for (_, lic) in summary.licences):
        out += [
            "",
            "`unknown`: the checkout a QA input was mined from (or its licence file) was not reachable; "
            "check the library's licence before use.",
        ]
    out += ["", "## Toolchain", ""]
    out += [
        f"- rocm-miner {__version__}, Python {platform.python_version()}",
        f"- pyarrow {_version('pyarrow')}, datasketch {_version('datasketch')}, datasets {_version('datasets')}",
        "",
    ]
    return "\n".join(out)


def _inputs(summary: CorpusSummary) -> list[str]:
    out = ["## Inputs", "", "QA folders (kept and dropped by the QA stage, from its `qa_summary.json`):", ""]
    out += ["| library | release | generator | records | QA kept | QA dropped |", "|---|---|---|---|---|---|"]
    for i in summary.inputs:
        if i["kind"] == "qa":
            why = ", ".join(f"{k} {v}" for k, v in sorted(i["qa_dropped"].items())) or "none"
            out.append(
                f"| {i['library']} | {i['release']} | {i['generator']} | {i['records']} | {i['qa_kept']} | {why} |"
            )
    verify = [i for i in summary.inputs if i["kind"] == "verify"]
    if verify:
        out += ["", "Verify folders:", "", "| folder | turns | unfinished turns | torn lines | damaged lines |"]
        out += ["|---|---|---|---|---|"]
        out += [
            f"| {i['path']} | {i['turns']} | {i['unfinished_turns']} | {i['torn_lines']} | {i['damaged_lines']} |"
            for i in verify
        ]
    return [*out, ""]


def _dedup(summary: CorpusSummary, options: CorpusOptions) -> list[str]:
    d = options.dedup
    out = [
        "## Near-duplicates",
        "",
        f"MinHash-LSH ({d.num_perm} permutations): QA text ({d.text_shingle}-word shingles) at Jaccard >= "
        f"{d.text_threshold}, code ({d.code_shingle}-token shingles) (identifiers renamed in order of appearance) at >= {d.code_threshold}, across "
        "libraries and releases; QA items only within their kernel family, verified kernels only within their task. "
        "The first row of a cluster in input order is kept.",
        "",
        "| source | cluster size | clusters |",
        "|---|---|---|",
    ]
    for source, sizes in sorted(summary.clusters.items()):
        out += [f"| {source} | {size} | {n} |" for size, n in sorted(sizes.items())]
    out += [
        "",
        "## Near-duplicates by input",
        "",
        "Rows dropped as near-duplicates, by their input and the input of the row kept for their cluster (a release "
        "that repeats another shows here, counted once):",
        "",
        "| source | library | release | kept row's library | kept row's release | rows |",
        "|---|---|---|---|---|---|",
    ]
    out += [f"| {' | '.join(key)} | {n} |" for key, n in sorted(summary.duplicates.items())]
    return [*out, ""]


def _splits(summary: CorpusSummary, options: CorpusOptions) -> list[str]:
    rule = (
        f"Rows that share a kernel or a verify task form one group, and a row also joins its entry families unless "
        f"its kernel is shared: named by the rows of more than {options.shared_above} entry families "
        f"({summary.shared_kernels} shared kernels), whose rows form a group with their kernel alone."
        if options.shared_above
        else "Rows that share a kernel, an entry family or a verify task form one group (the strict rule)."
    )
    out = [
        "",
        "## Splits",
        "",
        f"{rule} A group is held out as a whole (fraction {options.heldout} of groups, by a hash seeded {options.seed} "
        f"of its name). Groups: {summary.groups.get(TRAIN, 0)} train, {summary.groups.get(HELDOUT, 0)} heldout; the "
        f"largest holds {summary.largest_group} rows. No kernel family and no verify task has rows in both splits.",
        "",
        "| library | train | heldout | heldout share |",
        "|---|---|---|---|",
    ]
    per: dict[str, dict[str, int]] = {}
    for (_, library, _, _, split), n in summary.table.items():
        per.setdefault(library, {TRAIN: 0, HELDOUT: 0})[split] += n
    for library, n in sorted(per.items()):
        total = n[TRAIN] + n[HELDOUT]
        out.append(f"| {library} | {n[TRAIN]} | {n[HELDOUT]} | {n[HELDOUT] / total:.3f} |")
    out += [
        "",
        "## Entry families across splits",
        "",
        f"Entry families with rows in both splits: {summary.straddling} of {summary.entry_families}, each through the "
        "rows of shared kernels only (the rows that join an entry family are all in one split). The shared kernels "
        "whose rows put an entry family in a split its own rows are not in (or that are its only rows):",
        "",
        "| shared kernel | its split | entry families it takes there |",
        "|---|---|---|",
    ]
    through = [(kernel, split, n) for kernel, splits in summary.through.items() for split, n in splits.items()]
    out += [f"| {k} | {s} | {n} |" for k, s, n in sorted(through, key=lambda t: (-t[2], t[0], t[1]))]
    return [*out, ""]


def _links(summary: CorpusSummary) -> list[str]:
    if not summary.links:
        return []
    out = [
        "## Verify tasks and the library kernels they restate",
        "",
        "A task whose description names a library entry point in parentheses joins the split group of that entry "
        "point's live kernels (from the mine of its library among the inputs); the others are linked to nothing.",
        "",
        "| task | names | linked kernels | split | note |",
        "|---|---|---|---|---|",
    ]
    for link in summary.links:
        kernels = ", ".join(k.split(":", 2)[2] for k in link["kernels"]) or "-"
        out.append(f"| {link['task']} | {link['entry'] or '-'} | {kernels} | {link['split']} | {link['note']} |")
    return [*out, ""]


def _contamination(summary: CorpusSummary, options: CorpusOptions) -> list[str]:
    if not options.decontaminate:
        return ["## Decontamination", "", "No evaluation set was named.", ""]
    out = [
        "## Decontamination",
        "",
        f"Against {', '.join(str(p) for p in options.decontaminate)}: exact match (whitespace collapsed) or a shared "
        f"{options.ngram}-grams of tokens making up at least {options.overlap} of the item's or of the row's.",
        "",
        "| evaluation item | source | rows removed |",
        "|---|---|---|",
    ]
    out += [f"| {item} | {source} | {n} |" for (item, source), n in sorted(summary.contamination.items())]
    return [*out, ""]


def write_card(path: Path, summary: CorpusSummary, options: CorpusOptions) -> None:
    with atomic_file(path) as fh:
        fh.write(render(summary, options).encode())
