"""The `corpus` subcommand: arguments and the summary table around ``run_corpus``."""

from __future__ import annotations

import argparse
from pathlib import Path

from rich.console import Console
from rich.table import Table

from miner.arguments import positive_int


def _fraction(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number between 0 and 1, got {text!r}") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"must be between 0 and 1, got {value}")
    return value


def add_parser(sub) -> None:
    from miner.corpus.split import DEFAULT_SHARED_ABOVE
    from miner.verify.tasks import TASKS_DIR

    p = sub.add_parser(
        "corpus",
        help="merge QA outputs and verified kernels into one Parquet dataset with a card",
        description="Reads qa.jsonl of each --qa folder and attempts.jsonl of each --verified folder and writes OUT: "
        "Parquet shards per config (qa, implementation, verified_kernels, attempts) and split, README.md (the "
        "dataset card, whose header `datasets.load_dataset` reads), dropped.jsonl (each row left out, and why) and "
        "corpus_summary.json.",
    )
    p.add_argument("--qa", type=Path, nargs="+", default=[], metavar="DIR", help="output folders of `rocm-miner qa`")
    p.add_argument(
        "--verified", type=Path, nargs="+", default=[], metavar="DIR", help="output folders of `rocm-miner verify`"
    )
    p.add_argument(
        "--mined", type=Path, nargs="+", default=[], metavar="DIR",
        help="output folders of `rocm-miner mine` the QA was generated from (for provenance and licence; a QA folder "
        "that is also its mine's output needs none)",
    )  # fmt: skip
    p.add_argument("--tasks", type=Path, default=TASKS_DIR, help="the verify task files (default: the bundled ones)")
    p.add_argument(
        "--decontaminate", type=Path, nargs="+", default=[], metavar="PATH",
        help="evaluation sets (files or folders; a .jsonl file is one item a line) whose items no row may overlap",
    )  # fmt: skip
    p.add_argument("--ngram", type=positive_int, default=13, help="tokens of the n-gram overlap test (default 13)")
    p.add_argument(
        "--overlap", type=_fraction, default=0.5,
        help="share of an evaluation item's n-grams (or of a row's) a row must hold to be contaminated (default 0.5)",
    )  # fmt: skip
    p.add_argument("--text-threshold", type=_fraction, default=0.8, help="Jaccard for near-duplicate QA text")
    p.add_argument("--code-threshold", type=_fraction, default=0.85, help="Jaccard for near-duplicate code")
    p.add_argument("--heldout", type=_fraction, default=0.1, help="fraction of family groups held out")
    p.add_argument("--seed", type=int, default=0, help="seed of the split")
    p.add_argument(
        "--shared-kernel-families", type=int, default=DEFAULT_SHARED_ABOVE, metavar="N",
        help="a kernel whose rows name more than N entry families is shared: its rows form a group with their kernel "
        f"alone and do not join those families (default {DEFAULT_SHARED_ABOVE}; 0: none is, the strict rule, under "
        "which a real library is nearly one group)",
    )  # fmt: skip
    p.add_argument("--shard-rows", type=positive_int, default=5000, help="rows per Parquet shard")
    p.add_argument("--out", type=Path, required=True, help="output directory")


def run(args: argparse.Namespace, console: Console) -> int:
    from miner.corpus.dedup import DedupOptions
    from miner.corpus.run import CorpusOptions, run_corpus

    options = CorpusOptions(
        out=args.out,
        qa=tuple(args.qa),
        verified=tuple(args.verified),
        mined=tuple(args.mined),
        tasks=args.tasks,
        decontaminate=tuple(args.decontaminate),
        ngram=args.ngram,
        overlap=args.overlap,
        dedup=DedupOptions(text_threshold=args.text_threshold, code_threshold=args.code_threshold),
        heldout=args.heldout,
        seed=args.seed,
        shared_above=args.shared_kernel_families,
        shard_rows=args.shard_rows,
    )
    with console.status("building the corpus"):
        summary = run_corpus(options)
    table = Table(title="rocm-miner corpus")
    for column in ("source", "read", "contaminated", "near-duplicate", "train", "heldout"):
        table.add_column(column)
    for source, read in sorted(summary.read.items()):
        drops = summary.dropped.get(source, {})
        written = summary.written.get(source, {})
        table.add_row(
            source,
            str(read),
            str(drops.get("contaminated", 0)),
            str(drops.get("near-duplicate", 0)),
            str(written.get("train", 0)),
            str(written.get("heldout", 0)),
        )
    Console().print(table)
    print(f"corpus: {args.out / 'README.md'} ({summary.seconds} s)")
    return 0
