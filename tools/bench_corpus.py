"""Benchmark: `rocm-miner corpus` rows per second against the floor of hashing the same rows with datasketch MinHash
alone, in the same run.

  floor   one MinHash (the corpus's permutations) per row over word 3-gram shingles of its question and answer:
          no reading, provenance, normalisation, LSH, decontamination, splitting or writing;
  corpus  the whole command (`run_corpus`): read the inputs and their mines, build rows, decontaminate, deduplicate,
          split, write Parquet, card and dropped rows.

    python tools/bench_corpus.py --qa DIR... [--mined DIR...] [--verified DIR...] [--decontaminate PATH...] [--markdown]
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import resource
import sys
import tempfile
import time
from pathlib import Path

from datasketch import MinHash

from miner.corpus.dedup import DedupOptions
from miner.corpus.inputs import read_qa, read_verify
from miner.corpus.rows import qa_rows, verify_rows
from miner.corpus.run import CorpusOptions, _package_licence, run_corpus
from miner.verify.tasks import TASKS_DIR

_WORD = re.compile(r"\w+")


def floor(texts: list[str], num_perm: int) -> float:
    started = time.perf_counter()
    for text in texts:
        words = _WORD.findall(text.lower())
        m = MinHash(num_perm=num_perm, seed=1)
        m.update_batch([" ".join(words[i : i + 3]).encode() for i in range(max(1, len(words) - 2))])
    return time.perf_counter() - started


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--qa", type=Path, nargs="+", default=[])
    p.add_argument("--mined", type=Path, nargs="+", default=[])
    p.add_argument("--verified", type=Path, nargs="+", default=[])
    p.add_argument("--decontaminate", type=Path, nargs="+", default=[])
    p.add_argument("--markdown", action="store_true")
    args = p.parse_args()

    rows = [r for path in args.qa for r in qa_rows(read_qa(path, args.mined))]
    rows += [r for path in args.verified for r in verify_rows(read_verify(path), TASKS_DIR, _package_licence(), {})]
    texts = [f"{r.question}\n{r.answer}" for r in rows]
    floor_s = floor(texts, DedupOptions().num_perm)

    with tempfile.TemporaryDirectory(prefix="bench-corpus-") as out:
        options = CorpusOptions(
            out=Path(out),
            qa=tuple(args.qa),
            mined=tuple(args.mined),
            verified=tuple(args.verified),
            decontaminate=tuple(args.decontaminate),
        )
        started = time.perf_counter()
        summary = run_corpus(options)
        corpus_s = time.perf_counter() - started
    written = sum(sum(c.values()) for c in summary.written.values())
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    lines = [
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}",
        f"rows: {len(rows)} read, {written} written",
        f"floor  (MinHash alone): {floor_s:7.2f} s  {len(rows) / floor_s:9.0f} rows/s",
        f"corpus (whole command): {corpus_s:7.2f} s  {len(rows) / corpus_s:9.0f} rows/s  ({corpus_s / floor_s:.2f}x the floor)",
        f"peak RSS: {peak:.0f} MB",
    ]
    if args.markdown:
        print("| phase | seconds | rows/s |\n|---|---|---|")
        print(f"| floor (MinHash alone) | {floor_s:.2f} | {len(rows) / floor_s:.0f} |")
        print(f"| corpus (whole command) | {corpus_s:.2f} | {len(rows) / corpus_s:.0f} |")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
