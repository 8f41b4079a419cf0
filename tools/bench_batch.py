"""Benchmark: a batch of revisions (``rocm-miner mine --batch``) against a cold mine of each alone, in the same run.

    python tools/bench_batch.py CHECKOUT... [--jobs N] [--executor ray [--address ADDR]] [--kill-node-after S]
                                [--skip-alone DIR] [--keep DIR] [--markdown]

Each CHECKOUT is one revision (a work tree of one release). The separate mines run first, each cold (an empty cache
of its own); then the batch, cold (an empty cache). Every revision's outputs must equal its separate mine's (the
parse report's timings left out: they are the run's), and a mine of each revision alone with the batch's cache must
be served wholly by it and write the same four files (timings left out too: two revisions with the same precompiled
prefix share its cache entry, whose timing is its last build's).

``--two-nodes`` starts a Ray cluster of two nodes on this machine (``ray start --head --num-cpus 1`` and a second
``ray start --address ... --num-cpus 1``) and runs the batch on it; ``--kill-node-after S`` kills the second node's
raylet S seconds into the batch. ``--ray-overhead CHECKOUT`` instead mines one checkout cold with ``--executor ray``
(a local Ray of --jobs CPUs) and with the local pool, alternating, ``--rounds`` times each.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from miner.bundle.previous import OUTPUT_FILES  # noqa: E402 - the files a mine vouches for, compared here

TIMINGS = ("seconds", "liveness_seconds")
RAY_ENV = {"RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}


def _cli(*args: str, env: dict | None = None) -> tuple[float, subprocess.CompletedProcess]:
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "miner.cli", *args], cwd=ROOT, capture_output=True, text=True,
                          env={**os.environ, **RAY_ENV, **(env or {})})  # fmt: skip
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"rocm-miner {' '.join(args)} failed ({proc.returncode}): {proc.stderr.strip()[-2000:]}")
    return wall, proc


def _summary(out: Path) -> dict:
    return json.loads((out / "summary.json").read_text())


def _outputs(out: Path, timings: bool) -> dict[str, str]:
    found = {}
    for name in OUTPUT_FILES:
        text = (out / name).read_text()
        if name == "parse_report.jsonl" and not timings:
            rows = [json.loads(line) for line in text.splitlines()]
            text = "\n".join(json.dumps({k: v for k, v in r.items() if k not in TIMINGS}, sort_keys=True) for r in rows)
        found[name] = text
    return found


def _differences(a: Path, b: Path, timings: bool) -> list[str]:
    left, right = _outputs(a, timings), _outputs(b, timings)
    return [name for name in OUTPUT_FILES if left[name] != right[name]]


class TwoNodes:
    """A Ray cluster of two one-CPU nodes on this machine; ``kill_second`` kills the second node's raylet."""

    def __init__(self, port: int = 6391) -> None:
        self.address = f"127.0.0.1:{port}"
        env = {**os.environ, **RAY_ENV}
        subprocess.run(["ray", "start", "--head", "--num-cpus", "1", "--port", str(port), "--include-dashboard",
                        "false", "--disable-usage-stats"], check=True, capture_output=True, env=env)  # fmt: skip
        before = set(_pids("raylet"))
        subprocess.run(["ray", "start", "--address", self.address, "--num-cpus", "1", "--disable-usage-stats"],
                       check=True, capture_output=True, env=env)  # fmt: skip
        self.second = sorted(set(_pids("raylet")) - before)

    def kill_second(self) -> None:
        for pid in self.second:
            os.kill(pid, signal.SIGKILL)

    def stop(self) -> None:
        subprocess.run(["ray", "stop", "--force"], capture_output=True, env={**os.environ, **RAY_ENV})


def _pids(name: str) -> list[int]:
    proc = subprocess.run(["pgrep", "-f", name], capture_output=True, text=True)
    return [int(p) for p in proc.stdout.split()]


def bench_batch(args, scratch: Path) -> list[str]:
    checkouts = [c.resolve() for c in args.checkouts]
    names = [c.name for c in checkouts]
    alone: dict[str, tuple[float, dict]] = {}
    for checkout, name in zip(checkouts, names, strict=True):
        if args.skip_alone:
            out = args.skip_alone / name
            alone[name] = (float(_summary(out)["wall_seconds"]), _summary(out))
            continue
        out = scratch / "alone" / name
        wall, _ = _cli("mine", str(checkout), "--out", str(out), "--cache", str(scratch / f"cache-{name}"),
                       "--jobs", str(args.jobs))  # fmt: skip
        alone[name] = (wall, _summary(out))
        print(f"alone {name}: {wall:.1f} s", file=sys.stderr)
    jobs = scratch / "jobs.toml"
    jobs.write_text(
        "".join(f'[[mine]]\ncheckout = "{c}"\nout = "{n}"\n\n' for c, n in zip(checkouts, names, strict=True))
    )
    batch_cache = scratch / "cache-batch"
    command = ["mine", "--batch", str(jobs), "--out", str(scratch / "batch"), "--cache", str(batch_cache),
               "--jobs", str(args.jobs)]  # fmt: skip
    cluster = TwoNodes() if args.two_nodes else None
    killer = None
    try:
        if cluster is not None:
            command += ["--executor", "ray", "--address", cluster.address]
            if args.kill_node_after:
                killer = threading.Timer(args.kill_node_after, cluster.kill_second)
                killer.start()
        elif args.executor == "ray":
            command += ["--executor", "ray"] + (["--address", args.address] if args.address else [])
        wall, proc = _cli(*command)
    finally:
        if killer is not None:
            killer.cancel()
        if cluster is not None:
            cluster.stop()
    batch = json.loads((scratch / "batch" / "batch.json").read_text())
    print(f"batch: {wall:.1f} s", file=sys.stderr)
    rows, same = [], True
    for name in names:
        differs = _differences(
            scratch / "batch" / name, args.skip_alone / name if args.skip_alone else scratch / "alone" / name, False
        )
        _cli("mine", str(checkouts[names.index(name)]), "--out", str(scratch / "warm" / name), "--cache",
             str(batch_cache), "--jobs", str(args.jobs))  # fmt: skip
        warm = _summary(scratch / "warm" / name)
        warm_differs = _differences(scratch / "batch" / name, scratch / "warm" / name, False)
        same &= not differs and not warm_differs and warm["cache_hits"] == warm["tus"]
        a_wall, a = alone[name]
        rows.append(f"| {name} | {a['tus']} | {a['tus'] - a['cache_hits']} | {a_wall:.1f} | "
                    f"{'identical' if not differs else 'DIFFER: ' + ', '.join(differs)} | "
                    f"{warm['cache_hits']}/{warm['tus']}, {'identical' if not warm_differs else 'DIFFER'} |")  # fmt: skip
    separate_parses = sum(a["tus"] - a["cache_hits"] for _, a in alone.values())
    separate_wall = sum(w for w, _ in alone.values())
    how = "two-node Ray cluster" if cluster else f"{args.executor} executor"
    lines = [
        f"Batch of {len(names)} revisions on {platform.node()} ({os.cpu_count()} cores), {time.strftime('%Y-%m-%d')}, "
        f"--jobs {args.jobs}, {how}" + (f", second node killed after {args.kill_node_after:g} s" if killer else ""),
        "",
        "| revision | TUs | parsed alone (cold) | wall alone s | batch outputs vs alone | alone on the batch's cache |",
        "|---|---|---|---|---|---|",
        *rows,
        "",
        f"- separate cold mines: {separate_parses} TU parses, {separate_wall:.1f} s in all",
        f"- the batch: {batch['tu_parses']} TU parses ({batch['from_cache']} of {batch['tus']} from the cache), "
        f"{wall:.1f} s ({batch['wall_seconds']:.1f} s inside), {separate_wall / wall:.2f}x the separate mines' speed",
        f"- parsed again after a worker died: {', '.join(batch['parsed_again']) or 'none'}",
        f"- liveness runs analysed again after a worker died: {batch.get('analysed_again', 0)}",
        f"- every revision byte-identical: {'yes' if same else 'NO'}",
    ]
    return lines


def bench_ray_overhead(args, scratch: Path) -> list[str]:
    checkout = args.ray_overhead.resolve()
    walls: dict[str, list[float]] = {"local": [], "ray": []}
    parse: dict[str, list[float]] = {"local": [], "ray": []}
    outs = {}
    for round_ in range(args.rounds):
        order = ["local", "ray"] if round_ % 2 == 0 else ["ray", "local"]
        for executor in order:
            out = scratch / f"{executor}-{round_}"
            wall, _ = _cli("mine", str(checkout), "--out", str(out), "--cache", str(scratch / f"cache-{executor}-{round_}"),
                           "--jobs", str(args.jobs), "--executor", executor)  # fmt: skip
            walls[executor].append(wall)
            parse[executor].append(_summary(out)["stage_seconds"]["parse"])
            outs[executor] = out
            print(f"{executor} round {round_}: {wall:.1f} s", file=sys.stderr)
        if args.keep:
            for executor in order:
                shutil.copytree(
                    scratch / f"{executor}-{round_}", args.keep / f"{executor}-{round_}", dirs_exist_ok=True
                )
    differs = _differences(outs["local"], outs["ray"], False)
    local, ray = statistics.median(walls["local"]), statistics.median(walls["ray"])
    return [
        f"Cold mine of {checkout.name} on {platform.node()} ({os.cpu_count()} cores), {time.strftime('%Y-%m-%d')}, "
        f"--jobs {args.jobs}, {args.rounds} rounds alternating",
        "",
        "| executor | wall s (each round) | median wall s | median parse s |",
        "|---|---|---|---|",
        *(
            f"| {e} | {', '.join(f'{w:.1f}' for w in walls[e])} | {statistics.median(walls[e]):.1f} | "
            f"{statistics.median(parse[e]):.1f} |"
            for e in ("local", "ray")
        ),  # fmt: skip
        "",
        f"- Ray against the local pool: {ray / local:.3f}x ({(ray / local - 1) * 100:+.1f} %)",
        f"- outputs: {'identical' if not differs else 'DIFFER: ' + ', '.join(differs)}",
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("checkouts", type=Path, nargs="*")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--executor", choices=["local", "ray"], default="local")
    ap.add_argument("--address")
    ap.add_argument("--two-nodes", action="store_true")
    ap.add_argument("--kill-node-after", type=float)
    ap.add_argument("--skip-alone", type=Path, help="a folder of earlier separate mines (one per checkout name)")
    ap.add_argument("--ray-overhead", type=Path, metavar="CHECKOUT")
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--keep", type=Path, help="keep the outputs here")
    ap.add_argument("--markdown", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-batch-") as tmp:
        scratch = Path(tmp)
        lines = bench_ray_overhead(args, scratch) if args.ray_overhead else bench_batch(args, scratch)
        if args.keep and not args.ray_overhead:
            for part in ("alone", "batch", "warm"):
                if (scratch / part).exists():
                    shutil.copytree(scratch / part, args.keep / part, dirs_exist_ok=True)
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
