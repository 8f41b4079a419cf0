"""How much of a QA file is distinct: items, distinct (question, answer) pairs, questions answered two ways,
distinct items per kernel, and the question kinds asked.

    python tools/qa_stats.py output/rocblas-qa/qa.jsonl [more qa.jsonl ...]

Implementation samples are counted apart from QA items. Prints one JSON object per file."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

import jsonlines


def stats(path: Path) -> dict:
    items, samples, kernels = 0, 0, set()
    pairs: set[tuple[str, str]] = set()
    answers: dict[str, set[str]] = defaultdict(set)
    per_kernel: dict[str, set[tuple[str, str]]] = defaultdict(set)
    kinds: Counter = Counter()
    with jsonlines.open(path) as reader:
        for record in reader:
            kernels.add(record["kernel"])
            if record["kind"] != "qa":
                samples += 1
                continue
            items += 1
            pair = (record["question"], record["answer"])
            pairs.add(pair)
            answers[record["question"]].add(record["answer"])
            per_kernel[record["kernel"]].add(pair)
            kinds[record.get("question_kind") or record["category"]] += 1
    return {
        "file": str(path),
        "qa_items": items,
        "distinct_items": len(pairs),
        "distinct_ratio": round(len(pairs) / items, 4) if items else None,
        "questions_answered_differently": sum(1 for a in answers.values() if len(a) > 1),
        "kernels": len(kernels),
        "distinct_items_per_kernel": round(len(pairs) / len(kernels), 2) if kernels else None,
        "implementation_samples": samples,
        "question_kinds": len(kinds),
        "per_kind": dict(sorted(kinds.items())),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("qa_files", nargs="+", type=Path)
    args = parser.parse_args(argv)
    for path in args.qa_files:
        if not path.is_file():
            print(f"qa_stats: no such file: {path}", file=sys.stderr)
            return 2
        print(json.dumps(stats(path)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
