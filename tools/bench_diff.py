"""Benchmark: `rocm-miner diff` of two revisions against a cold mine of NEW, in the same run.

Phases, each in a fresh process reporting its wall time and peak RSS:
  cold-new   mine NEW (through a temporary worktree) into an empty cache: the floor a diff is measured against;
  mine-old   mine OLD into a second empty cache (what a user has before a release: not part of the diff's cost);
  diff       `diff OLD NEW` with that second cache: OLD's side is served by the cache, NEW's re-parses the TUs whose
             files changed, then both are compared. Its cost grows with what changed, not with the library.

    python tools/bench_diff.py PATH OLD NEW [--library L] [--with LIB=PATH] [--jobs N] [--markdown]

A --with library is checked out at OLD and NEW as the diff does it (when its repository has them).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PHASES = ("cold-new", "mine-old", "diff")


def _peak_rss_mb() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, children) / 1024


def phase(args: argparse.Namespace, name: str, scratch: Path) -> dict:
    from miner.diff.run import DiffOptions, diff_revisions

    others = {k: Path(v).resolve() for k, v in (w.split("=", 1) for w in args.with_)}
    start = time.perf_counter()
    if name == "diff":
        opts = DiffOptions(args.path, args.old, args.new, scratch / "diff", library=args.library,
                           with_libraries=others, jobs=args.jobs, cache_dir=scratch / "cache-diff")  # fmt: skip
        report = diff_revisions(opts, lambda *_: None)
        result = {"tus_new": report.new.tus, "parsed_new": report.new.tus_parsed, "counts": report.counts,
                  "with_new": report.new.with_tus}  # fmt: skip
    else:
        rev = args.new if name == "cold-new" else args.old
        cache = scratch / ("cache-cold" if name == "cold-new" else "cache-diff")
        opts = DiffOptions(args.path, rev, rev, scratch / name, library=args.library, with_libraries=others,
                           jobs=args.jobs, cache_dir=cache)  # fmt: skip
        from miner.diff.run import mine_revision

        side = mine_revision(opts, rev, scratch / name / "out", lambda *_: None)
        result = {"tus": side.tus, "parsed": side.tus_parsed, "with": side.with_tus}
    return {"wall": time.perf_counter() - start, **result}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("path", type=Path)
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--library")
    ap.add_argument("--with", dest="with_", action="append", default=[])
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--phase", choices=PHASES)
    ap.add_argument("--scratch", type=Path)
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    args.path = args.path.resolve()
    if args.phase:
        report = phase(args, args.phase, args.scratch)
        report["peak_rss_mb"] = _peak_rss_mb()
        print(json.dumps(report))
        return 0
    scratch = Path(tempfile.mkdtemp(prefix="rocm-miner-bench-diff-"))
    results = {}
    try:
        for name in PHASES:
            cmd = [sys.executable, __file__, str(args.path), args.old, args.new, "--phase", name,
                   "--scratch", str(scratch), "--jobs", str(args.jobs)]  # fmt: skip
            if args.library:
                cmd += ["--library", args.library]
            for w in args.with_:
                cmd += ["--with", w]
            proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
            if proc.returncode != 0:
                raise SystemExit(f"phase {name} failed: {proc.stderr.strip().splitlines()[-3:]}")
            results[name] = json.loads(proc.stdout.strip().splitlines()[-1])
            print(name, json.dumps(results[name]), flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    cold, diff = results["cold-new"], results["diff"]
    machine = f"{platform.node()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    print(f"\n{args.path.name} {args.old} -> {args.new}, --jobs {args.jobs}, {machine}, {time.strftime('%Y-%m-%d')}")
    rows = [
        ("cold mine of NEW (floor)", cold["wall"], f"{cold['parsed']} of {cold['tus']} TUs parsed", cold["peak_rss_mb"]),
        ("mine of OLD (before the release; not the diff's cost)", results["mine-old"]["wall"],
         f"{results['mine-old']['parsed']} of {results['mine-old']['tus']} TUs parsed", results["mine-old"]["peak_rss_mb"]),
        ("diff OLD NEW (OLD cached)", diff["wall"], f"NEW: {diff['parsed_new']} of {diff['tus_new']} TUs parsed"
         + "".join(f" ({name}: {p} of {t})" for name, (t, p) in diff.get("with_new", {}).items()) + "; "
         + ", ".join(f"{n} {v}" for v, n in diff["counts"].items()), diff["peak_rss_mb"]),
    ]  # fmt: skip
    if args.markdown:
        print("| phase | wall (s) | work | peak RSS (MB) |\n|---|---|---|---|")
        for name, wall, work, rss in rows:
            print(f"| {name} | {wall:.1f} | {work} | {rss:.0f} |")
        print(f"\ndiff / cold mine of NEW: {diff['wall'] / cold['wall']:.2f}")
    else:
        for name, wall, work, rss in rows:
            print(f"{name:55s} {wall:8.1f} s  {work}  ({rss:.0f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
