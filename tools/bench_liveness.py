"""Benchmark: per-entry liveness against a name-based walk, on the same entry points, same run.

The name-based walk is what a regex miner does: from each entry, follow every identifier in a
function's text (inactive ``#if`` blocks included) to every function of that name (overloads
merged), through the same allow/deny rules, and return every kernel met. Ours returns the
kernels liveness says can run. With ``--truth FILE`` (hand-checked entries: for each, the
kernels that can run and those that cannot, in the format of examples/expected.json), it prints the share of returned kernels that can
run for both, and the share of can-not-run kernels the name walk returns that we mark dead.

    python tools/bench_liveness.py PATH [--with LIB=PATH] [--jobs N] [--cache DIR] [--truth FILE]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

_IDENT = re.compile(r"[A-Za-z_]\w*")


def name_walk(a, builder, entries: list[str]) -> dict[str, set[str]]:
    g = a.graph
    by_name: dict[str, list[str]] = defaultdict(list)
    for node, data in g.nodes(data=True):
        if data["defined"]:
            by_name[data["name"]].append(node)
    text: dict[str, set[str]] = {}

    def names_in(name: str) -> set[str]:
        if name not in text:
            found: set[str] = set()
            for node in by_name.get(name, ()):
                found |= set(_IDENT.findall(builder.span(node).code))
            text[name] = found & by_name.keys()
        return text[name]

    follow = {n: a.rules.verdict(n, g.nodes[n]).action == "follow" for n in g.nodes}
    out = {}
    for entry in entries:
        root = a.roots.get(entry)
        if root is None:
            out[entry] = set()
            continue
        seen, stack, kernels = {g.nodes[root]["name"]}, [g.nodes[root]["name"]], set()
        while stack:
            name = stack.pop()
            nodes = [n for n in by_name.get(name, ()) if follow[n]]
            if not nodes:
                continue
            if any(g.nodes[n]["exec_space"] == "global" for n in nodes):
                kernels.add(name)
            for nxt in names_in(name):
                if nxt not in seen:
                    seen.add(nxt)
                    stack.append(nxt)
        out[entry] = kernels
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("path", type=Path)
    ap.add_argument("--library")
    ap.add_argument("--with", dest="with_", action="append", default=[])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--cache", type=Path, required=True, help="the cache of an earlier mine (this run is warm)")
    ap.add_argument("--truth", type=Path)
    ap.add_argument("--misses", action="store_true",
                    help="list the can-not-run kernels still marked live, and any can-run kernel not live, per entry")  # fmt: skip
    args = ap.parse_args()
    from miner.bundle.build import BundleBuilder
    from miner.bundle.regions import SourceReader
    from miner.pipeline import MineOptions, analyse, open_checkout

    others = {k: Path(v).resolve() for k, v in (w.split("=", 1) for w in args.with_)}
    opts = MineOptions(path=args.path.resolve(), library=args.library, out=Path("/nonexistent"), jobs=args.jobs,
                       cache_dir=args.cache, with_libraries=others, reuse_verdicts=False)  # fmt: skip
    with open_checkout(opts.path, None) as checkout:
        t0 = time.perf_counter()
        a = analyse(opts, checkout)
        t_analyse = time.perf_counter() - t0
        reader = SourceReader(checkout.root, a.profile.include_dirs, others)
        builder = BundleBuilder(a.graph, reader, a.profile.name)
        names = [e.name for e in a.entries]
        t0 = time.perf_counter()
        walked = name_walk(a, builder, names)
        t_walk = time.perf_counter() - t0
    ours: dict[str, set[str]] = {}
    reached: dict[str, set[str]] = {}
    for e in names:
        verdicts = a.liveness.get(e, {})
        kernels = [n for n in verdicts if a.graph.nodes[n]["exec_space"] == "global"]
        ours[e] = {a.graph.nodes[n]["name"] for n in kernels if verdicts[n].live}
        reached[e] = {a.graph.nodes[n]["name"] for n in kernels if verdicts[n].reason != "build"}
    n = len(names)
    print(f"{a.profile.name}: {n} entry points; analyse (warm, liveness included) {t_analyse:.1f} s; "
          f"name walk {t_walk:.1f} s")  # fmt: skip
    print(f"kernels per entry: name walk {sum(map(len, walked.values())) / n:.2f}, "
          f"traversal {sum(map(len, reached.values())) / n:.2f}, live {sum(map(len, ours.values())) / n:.2f}")  # fmt: skip
    if args.truth:
        data = json.loads(args.truth.read_text())
        truth = {k: v for k, v in data.get(a.profile.name, data).items() if not k.startswith("_")}
        rows = {"name walk": walked, "ours (live)": ours}
        for label, got in rows.items():
            returned = can = 0
            for e, t in truth.items():
                ret = got.get(e, set()) - set(t.get("unverified", ()))
                returned += len(ret)
                can += len(ret & set(t["kernels"]))
            print(f"{label}: {returned} kernels returned over {len(truth)} checked entries, "
                  f"{can / max(returned, 1):.1%} can run")  # fmt: skip
        missed = sum(len(set(t["kernels"]) - ours.get(e, set())) for e, t in truth.items())
        cannot = caught = 0
        for e, t in truth.items():
            bad = walked.get(e, set()) - set(t["kernels"]) - set(t.get("unverified", ()))
            cannot += len(bad)
            caught += len(bad - ours.get(e, set()))
        if args.misses:
            for e, t in truth.items():
                still = (ours.get(e, set()) - set(t["kernels"]) - set(t.get("unverified", ()))) & walked.get(e, set())
                for kernel in sorted(still):
                    print(f"  live but cannot run: {e}: {kernel}")
                for kernel in sorted(set(t["kernels"]) - ours.get(e, set())):
                    print(f"  can run but not live: {e}: {kernel}")
        print(f"kernels that can run but are not returned live: {missed}; "
              f"can-not-run kernels the name walk returns that we mark dead: {caught}/{cannot}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
