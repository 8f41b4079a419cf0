"""Benchmark: the same mine with two versions of rocm-miner side by side, for a change that must not change speed
(a refactor). Each round runs both versions, in alternating order, cold (empty cache, new output folder) and then
warm (the cache of that cold run, a new output folder); it reports each phase's median per version and each
round's ratio.

    python tools/bench_versions.py PATH --before TREE --after TREE [--with LIB=PATH] [--jobs N] [--rounds N]
                                   [--warm-runs N] [--markdown]

A TREE is a copy of the repository with its compiled modules built (``pip install -e`` there, or a copy of a
built work tree); it is put first on ``PYTHONPATH`` for its runs.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _mine(tree: Path, path: Path, out: Path, cache: Path, jobs: int, withs: list[str]) -> float:
    command = [sys.executable, "-m", "miner.cli", "mine", str(path), "--out", str(out), "--cache", str(cache)]
    command += ["--jobs", str(jobs), *(a for w in withs for a in ("--with", w))]
    start = time.perf_counter()
    subprocess.run(command, cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)}, check=True,
                   stdout=subprocess.DEVNULL)  # fmt: skip
    return time.perf_counter() - start


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("path", type=Path)
    ap.add_argument("--before", type=Path, required=True)
    ap.add_argument("--after", type=Path, required=True)
    ap.add_argument("--with", dest="withs", action="append", default=[], metavar="LIB=PATH")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--warm-runs", type=int, default=3)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    versions = {"before": args.before.resolve(), "after": args.after.resolve()}
    times: dict[tuple[str, str], list[float]] = {(v, p): [] for v in versions for p in ("cold", "warm")}
    with tempfile.TemporaryDirectory(prefix="bench-versions-") as scratch:
        for round_ in range(args.rounds):
            order = list(versions) if round_ % 2 == 0 else list(reversed(versions))
            caches = {}
            for version in order:
                cache = caches[version] = Path(scratch, f"cache-{version}-{round_}")
                out = Path(scratch, f"out-{version}-{round_}")
                times[(version, "cold")].append(_mine(versions[version], args.path, out, cache, args.jobs, args.withs))
                shutil.rmtree(out)
            for run in range(args.warm_runs):
                for version in order:
                    out = Path(scratch, f"warm-{version}-{round_}-{run}")
                    seconds = _mine(versions[version], args.path, out, caches[version], args.jobs, args.withs)
                    times[(version, "warm")].append(seconds)
                    shutil.rmtree(out)
            for version in order:
                shutil.rmtree(caches[version])
            pairs = ", ".join(
                f"{p} {times[('after', p)][-1] / times[('before', p)][-1]:.2f}x" for p in ("cold", "warm")
            )
            print(f"round {round_ + 1}: after/before {pairs}", file=sys.stderr)
    rows = []
    for phase in ("cold", "warm"):
        before, after = (statistics.median(times[(v, phase)]) for v in versions)
        spread = {v: f"{min(times[(v, phase)]):.2f}–{max(times[(v, phase)]):.2f}" for v in versions}
        rows.append((phase, before, after, after / before, spread["before"], spread["after"]))
    machine = f"{platform.node()}, {platform.machine()}, {args.jobs} jobs"
    if args.markdown:
        print(
            f"| phase | before (median s) | after (median s) | after/before | before range | after range |  ({machine})"
        )
        print("|---|---|---|---|---|---|")
    for phase, before, after, ratio, b_range, a_range in rows:
        if args.markdown:
            print(f"| {phase} | {before:.2f} | {after:.2f} | {ratio:.2f}x | {b_range} | {a_range} |")
        else:
            print(f"{phase}: before {before:.2f} s, after {after:.2f} s, after/before {ratio:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
