"""Benchmark: mine a checkout cold, then warm, and time two floors on the same files in the
same run: a tree-sitter parse of every source file, a bare libclang parse of every TU against the
precompiled header the cold mine built (the mine's own recipe, no fact extraction), and a bare libclang
parse of every TU without it, each with the same job count.

Each phase runs in a fresh process, which reports its wall time and peak RSS (its own and its
children's). Prints a table and, with --markdown, the rows for BENCHMARKS.md.

    python tools/bench_mine.py PATH [--library L] [--with LIB=PATH] [--jobs N] [--skip-clang-floor]
                               [--liveness-overhead] [--warm-runs N] [--cold-runs N]

A warm mine takes seconds, and on a shared VM two of them can differ by a third: the warm phases
run --warm-runs times each (default 3), interleaved, and report the median (the spread is printed).
A cold mine takes minutes and the VM's speed drifts by a quarter within one: --cold-runs N runs each cold phase N
times, interleaved, each from empty caches and no earlier outputs, and reports the median; each round's cold pair
ratio is printed too.
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

PHASES = ("cold", "warm", "cold-no-liveness", "warm-no-liveness", "tree-sitter", "libclang-pch", "libclang")
MINE_PHASES = {"cold": True, "warm": True, "cold-no-liveness": False, "warm-no-liveness": False}


def _peak_rss_mb() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    children = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, children) / 1024


def phase_mine(
    path: Path, library: str | None, others: dict[str, Path], jobs: int, cache: Path, out: Path, liveness: bool
) -> dict:
    from miner.pipeline import MineOptions, mine

    start = time.perf_counter()
    opts = MineOptions(path=path, library=library, out=out, jobs=jobs, cache_dir=cache, with_libraries=others,
                       liveness=liveness)  # fmt: skip
    summary = mine(opts)
    return {"wall": time.perf_counter() - start, "tus": summary.tus, "cache_hits": summary.cache_hits,
            "bundles": summary.bundles, "kernels": summary.kernels_reached,
            "stages": summary.stage_seconds}  # fmt: skip


def _source_files(path: Path, library: str | None) -> tuple[list[Path], list[str]]:
    from miner.pipeline import resolve_profile
    from miner.source.files import HEADER_SUFFIXES, SOURCE_SUFFIXES, translation_units

    profile = resolve_profile(path, library)
    files = sorted(
        p
        for src in profile.sources + profile.include_dirs
        for p in (path / src).rglob("*")
        if p.suffix in SOURCE_SUFFIXES | HEADER_SUFFIXES and p.is_file()
    )
    return list(dict.fromkeys(files)), translation_units(path, profile)


def phase_tree_sitter(path: Path, library: str | None) -> dict:
    from miner.parse.treesitter_facts import parser

    files, _ = _source_files(path, library)
    data = [f.read_bytes() for f in files]
    p = parser()
    start = time.perf_counter()
    for d in data:
        p.parse(d)
    wall = time.perf_counter() - start
    return {"wall": wall, "files": len(files), "bytes": sum(map(len, data))}


def _bare_parse(job: tuple[str, list[str]]) -> float:
    import clang.cindex as ci

    start = time.perf_counter()
    ci.Index.create().parse(job[0], args=job[1])
    return time.perf_counter() - start


def phase_libclang(path: Path, library: str | None, others: dict[str, Path], jobs: int, stubs: Path) -> dict:
    import multiprocessing as mp

    from miner.parse.recipe import make_recipe
    from miner.pipeline import resolve_profile

    profile = resolve_profile(path, library)
    recipe = make_recipe(path, profile, stubs, others)
    _, tus = _source_files(path, library)
    work = [(str(path / rel), recipe.args(rel)) for rel in tus]
    start = time.perf_counter()
    with mp.get_context("spawn").Pool(jobs) as pool:
        seconds = pool.map(_bare_parse, work, chunksize=1)
    return {"wall": time.perf_counter() - start, "tus": len(tus), "cpu_parse": sum(seconds)}


def _pch_parse(job: tuple[str, list[str]]) -> float:
    import clang.cindex as ci

    start = time.perf_counter()
    ci.Index.create(excludeDecls=True).parse(job[0], args=job[1])
    return time.perf_counter() - start


def phase_libclang_pch(path: Path, library: str | None, others: dict[str, Path], jobs: int, scratch: Path) -> dict:
    """Every TU parsed as the cold mine parses it, against its precompiled header, and nothing else."""
    import multiprocessing as mp

    from miner.parse.places import work_place
    from miner.parse.recipe import make_recipe
    from miner.pipeline import resolve_profile

    profile = resolve_profile(path, library)
    place = work_place(scratch / "cache", path.resolve(), {k: v.resolve() for k, v in others.items()})
    recipe = make_recipe(path, profile, place / "stubs" / profile.name, others)
    pch = {v: next((place / "pch").glob(f"{profile.name}-{v}-*.pch"), None) for v in ("lp64", "ilp64")}
    _, tus = _source_files(path, library)
    work = [(str(path / rel), recipe.args(rel, pch[recipe.variant(rel)])) for rel in tus]
    start = time.perf_counter()
    with mp.get_context("spawn").Pool(jobs) as pool:
        seconds = pool.map(_pch_parse, work, chunksize=1)
    return {"wall": time.perf_counter() - start, "tus": len(tus), "cpu_parse": sum(seconds)}


def run_phase(args: argparse.Namespace, phase: str, scratch: Path) -> dict:
    """Run one phase in a fresh interpreter and collect its JSON report."""
    cmd = [sys.executable, __file__, str(args.path), "--phase", phase, "--scratch", str(scratch),
           "--jobs", str(args.jobs)]  # fmt: skip
    if args.library:
        cmd += ["--library", args.library]
    for w in args.with_:
        cmd += ["--with", w]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"phase {phase} failed: {proc.stderr.strip().splitlines()[-1:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("path", type=Path)
    ap.add_argument("--library")
    ap.add_argument("--with", dest="with_", action="append", default=[])
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--phase", choices=PHASES)
    ap.add_argument("--scratch", type=Path)
    ap.add_argument("--skip-clang-floor", action="store_true")
    ap.add_argument("--liveness-overhead", action="store_true", help="also mine cold and warm with --no-liveness")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--keep", type=Path, help="keep the cold and warm outputs here")
    ap.add_argument("--warm-runs", type=int, default=3, help="runs of each warm phase; the median is reported")
    ap.add_argument("--cold-runs", type=int, default=1, help="runs of each cold phase; the median is reported")
    args = ap.parse_args()
    others = {k: Path(v).resolve() for k, v in (w.split("=", 1) for w in args.with_)}
    path = args.path.resolve()

    if args.phase:
        scratch = args.scratch
        if args.phase in MINE_PHASES:
            live = MINE_PHASES[args.phase]
            cache = scratch / ("cache" if live else "cache-no-liveness")
            report = phase_mine(path, args.library, others, args.jobs, cache, scratch / args.phase, live)
        elif args.phase == "tree-sitter":
            report = phase_tree_sitter(path, args.library)
        elif args.phase == "libclang-pch":
            report = phase_libclang_pch(path, args.library, others, args.jobs, scratch)
        else:
            report = phase_libclang(path, args.library, others, args.jobs, scratch / "bare-stubs")
        report["peak_rss_mb"] = _peak_rss_mb()
        print(json.dumps(report))
        return 0

    scratch = Path(tempfile.mkdtemp(prefix="rocm-miner-bench-"))
    try:
        phases = [
            p
            for p in PHASES
            if not (p == "libclang" and args.skip_clang_floor)
            and not (p.endswith("no-liveness") and not args.liveness_overhead)
        ]
        cold = [p for p in phases if p.startswith("cold")]
        warm = [p for p in phases if p.startswith("warm")]
        runs: dict[str, list[dict]] = {p: [] for p in cold + warm}
        for _ in range(max(1, args.cold_runs)):
            for p in cold:
                # empty caches, and no earlier outputs a run could keep in place of analysing
                for stale in ("cache" if MINE_PHASES[p] else "cache-no-liveness", p):
                    shutil.rmtree(scratch / stale, ignore_errors=True)
                runs[p].append(run_phase(args, p, scratch))
        results = {p: run_phase(args, p, scratch) for p in phases if p not in cold + warm}
        for _ in range(max(1, args.warm_runs)):
            for p in warm:
                runs[p].append(run_phase(args, p, scratch))
        for p in cold + warm:
            ordered = sorted(runs[p], key=lambda r: r["wall"])
            results[p] = ordered[len(ordered) // 2] | {"walls": [r["wall"] for r in runs[p]]}
    finally:
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            for name in ("cold", "warm"):
                if (scratch / name).exists():
                    shutil.copytree(scratch / name, args.keep / name, dirs_exist_ok=True)
        shutil.rmtree(scratch, ignore_errors=True)
    files, tus = _source_files(path, args.library)
    mb = sum(f.stat().st_size for f in files) / 1e6
    n_tus = len(tus)
    rows = []
    phases = [p for p in PHASES if p in results]
    for name in phases:
        r = results[name]
        ratio_ts = r["wall"] / results["tree-sitter"]["wall"]
        ratio_pch = r["wall"] / results["libclang-pch"]["wall"]
        ratio_clang = r["wall"] / results["libclang"]["wall"] if "libclang" in results else float("nan")
        rows.append(
            (name, r["wall"], n_tus / r["wall"], mb / r["wall"], r["peak_rss_mb"], ratio_ts, ratio_pch, ratio_clang)
        )
    head = f"{path.name}: {n_tus} TUs, {len(files)} files, {mb:.1f} MB; jobs={args.jobs}; {platform.node()}; " \
           f"{time.strftime('%Y-%m-%d')}"  # fmt: skip
    print(head)
    print(f"{'phase':<18}{'wall s':>9}{'TUs/s':>9}{'MB/s':>9}{'peak MB':>9}{'x ts':>9}{'x pch':>9}{'x clang':>9}")
    for r in rows:
        print(f"{r[0]:<18}{r[1]:>9.2f}{r[2]:>9.2f}{r[3]:>9.2f}{r[4]:>9.0f}{r[5]:>9.1f}{r[6]:>9.2f}{r[7]:>9.2f}")
    print("mine:", {k: results["cold"][k] for k in ("tus", "bundles", "kernels")},
          "warm cache hits:", results["warm"]["cache_hits"])  # fmt: skip
    for name in phases:
        if "walls" in results[name]:
            print(f"{name}: median of {', '.join(f'{w:.2f}' for w in results[name]['walls'])} s")
    for name in ("cold", "cold-no-liveness"):
        if name in results:
            print(f"{name} stages (s), median run:", results[name]["stages"])
    if "cold-no-liveness" in results and len(results["cold"]["walls"]) > 1:
        pairs = zip(results["cold"]["walls"], results["cold-no-liveness"]["walls"], strict=True)
        print("cold pair ratios by round:", ", ".join(f"{a / b - 1:+.0%}" for a, b in pairs))
    for kind in ("cold", "warm"):
        if f"{kind}-no-liveness" in results:
            added = results[kind]["wall"] / results[f"{kind}-no-liveness"]["wall"] - 1
            print(f"liveness adds {added:+.0%} to a {kind} mine")
    if args.markdown:
        print("\n| phase | wall s | TUs/s | MB/s | peak RSS MB | × tree-sitter | × PCH parse | × bare libclang |")
        print("|---|---|---|---|---|---|---|---|")
        for r in rows:
            print(
                f"| {r[0]} | {r[1]:.2f} | {r[2]:.2f} | {r[3]:.2f} | {r[4]:.0f} | {r[5]:.1f} | {r[6]:.2f} | {r[7]:.2f} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
