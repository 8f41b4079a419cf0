"""Draw a seeded audit sample from QA files: every (library, category) pair in turn, a random record of each, until
N are drawn, so that a sample covers both libraries and every category. The same seed and files give the same sample.

    python tools/qa_sample.py --seed 32 -n 40 output/rocblas-qa/qa.jsonl output/rocsolver-qa/qa.jsonl > sample.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import defaultdict
from pathlib import Path

import jsonlines


def draw(files: list[Path], n: int, seed: int) -> list[dict]:
    strata: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for path in files:
        with jsonlines.open(path) as reader:
            for record in reader:
                strata[(record["library"], record["category"])].append(record)
    rng = random.Random(seed)
    pools = {key: rng.sample(records, len(records)) for key, records in sorted(strata.items())}
    sample: list[dict] = []
    while len(sample) < n and any(pools.values()):
        for key in sorted(pools):
            if pools[key] and len(sample) < n:
                sample.append(pools[key].pop())
    return sample


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("qa_files", nargs="+", type=Path)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("-n", type=int, default=40)
    args = parser.parse_args(argv)
    missing = [str(p) for p in args.qa_files if not p.is_file()]
    if missing:
        print(f"qa_sample: no such file: {', '.join(missing)}", file=sys.stderr)
        return 2
    for index, record in enumerate(draw(args.qa_files, args.n, args.seed), 1):
        print(json.dumps({"sample": index, **record}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
