"""Every selected entry's verdicts: from the verdict store, else analysed and stored.

Entries whose verdicts are not stored are analysed in ``jobs`` forked processes: each inherits
the analyser (graph and instances) built once here and a share of the entries, chosen so that entries
reaching the same instantiations meet in one process (they share most of their work in its memos);
it sends back the verdicts of each run of its entries as they are ready, and when its share is done
takes runs left in the others'. An entry's verdicts do not depend on which process analysed it or
what it analysed before; without ``fork`` (not Linux) the entries are analysed here, one by one."""

from __future__ import annotations

import multiprocessing as mp
import queue
import traceback
from collections.abc import Callable
from dataclasses import replace

import networkx as nx

from miner.collector import frozen
from miner.liveness.analyse import LivenessAnalyser, incomplete_instances, index_instances
from miner.liveness.build import BuildDeadFinder, index_inactive
from miner.liveness.cache import VerdictCache, entry_key
from miner.models import EntryPoint, Instance, NodeVerdict, ParsedTU, Traversal
from miner.signals import children_ignore_ctrl_c
from miner.traverse.rules import RuleSet

Progress = Callable[[str, int, int], None]
Verdicts = dict[str, NodeVerdict]

_RUN = 16  # entries a process takes at a time: the verdicts it sends back at once, the least another can take
# what forked processes inherit: the analyser, the work, its shares, the runs taken, the results
_FORKED: tuple | None = None


def entry_verdicts(
    g: nx.DiGraph,
    parsed: list[ParsedTU],
    aside: dict[str, Callable[[], tuple[Instance, ...]]],
    rules: RuleSet,
    read: Callable[[str], bytes],
    traversals: dict[str, Traversal],
    selected: list[EntryPoint],
    store: VerdictCache,
    jobs: int,
    progress: Progress,
) -> dict[str, Verdicts]:
    """The instances the parse cache keeps aside are read only when some entry's verdicts are not stored."""
    out: dict[str, Verdicts] = {}
    keys = {e.name: entry_key(e.name, e.variant, traversals[e.name]) for e in selected}
    missing = []
    for e in selected:
        found = store.get(keys[e.name])
        if found is None:
            missing.append(e)
        else:
            out[e.name] = found
    progress("liveness", len(out), len(selected))
    if not missing:
        return out

    def keep(node: str) -> bool:
        return rules.verdict(node, g.nodes[node]).action == "follow"

    build = BuildDeadFinder(g, index_inactive(parsed), read, keep=keep)
    complete = [replace(tu, instances=aside[tu.path]()) if tu.path in aside else tu for tu in parsed]
    analyser = LivenessAnalyser(g, index_instances(complete), build, incomplete_instances(complete))
    work = [(traversals[e.name], e.variant) for e in missing]
    try:
        with frozen():  # the graph and the instances: no collection here or in a forked process scans them
            for i, verdicts in _analyse(analyser, work, jobs):
                name = missing[i].name
                out[name] = verdicts
                store.put(keys[name], verdicts)
                progress("liveness", len(out), len(selected))
    finally:
        store.flush()
    return {e.name: out[e.name] for e in selected}


def _analyse(analyser: LivenessAnalyser, work: list[tuple[Traversal, str]], jobs: int):
    """(index into ``work``, verdicts), as they are ready."""
    if jobs <= 1 or len(work) <= _RUN or "fork" not in mp.get_all_start_methods():
        for i, (traversal, variant) in enumerate(work):
            yield i, analyser.verdicts(traversal, variant)
        return
    global _FORKED
    shares = _shares(analyser, work, jobs)
    context = mp.get_context("fork")
    taken = context.Array("i", 2 * len(shares))  # runs taken from the front (by their owner) and back of each share
    results = context.Queue()
    _FORKED = (analyser, work, shares, taken, results)
    processes = [context.Process(target=_serve, args=(own,), daemon=True) for own in range(len(shares))]
    try:
        with children_ignore_ctrl_c():
            for process in processes:
                process.start()
        for _ in range(sum(len(share) for share in shares)):
            done = _next_result(results, processes)
            yield from done
    finally:
        _FORKED = None
        for process in processes:
            if process.is_alive():
                process.terminate()
            process.join()


_BETA = 0.3  # the cost of walking an instance another entry of the process already expanded, relative to expanding it


def _shares(analyser: LivenessAnalyser, work: list[tuple[Traversal, str]], jobs: int) -> list[list[list[int]]]:
    """Each process's runs of entries. An entry goes to the process where it adds the least to the estimated
    load: the calls of the instances it can reach that the process has not reached yet, plus a share of all of
    them (and one for the entry itself, so that entries nothing is known of are spread evenly). Entries that reach the same instantiations (a routine's precisions share its float or double rocBLAS
    calls) so meet in one process, which expands each of them once."""
    loads = [0.0] * jobs
    reached: list[set[tuple[str, str]]] = [set() for _ in range(jobs)]
    mine: list[list[int]] = [[] for _ in range(jobs)]
    for i, (traversal, variant) in enumerate(work):
        footprint = analyser.footprint(traversal.root, variant) if traversal.root else {}
        total = 1 + _BETA * sum(footprint.values())
        costs = [
            loads[k] + total + sum(calls for key, calls in footprint.items() if key not in reached[k])
            for k in range(jobs)
        ]
        k = min(range(jobs), key=costs.__getitem__)
        loads[k] = costs[k]
        reached[k] |= footprint.keys()
        mine[k].append(i)
    return [[own[at : at + _RUN] for at in range(0, len(own), _RUN)] for own in mine if own]


def _serve(own: int) -> None:
    """A forked process: its own share's runs from the front, then others' from the back, until none is left."""
    assert _FORKED is not None, "runs only in a process forked by _analyse"
    analyser, work, shares, taken, results = _FORKED
    try:
        while (run := _take(own, shares, taken)) is not None:
            results.put([(i, analyser.verdicts(*work[i])) for i in run])
    except BaseException:  # the parent raises it
        results.put(traceback.format_exc())


def _take(own: int, shares: list[list[list[int]]], taken) -> list[int] | None:
    with taken.get_lock():
        left = [len(share) - taken[2 * k] - taken[2 * k + 1] for k, share in enumerate(shares)]
        k = own if left[own] else max(range(len(shares)), key=left.__getitem__)
        if not left[k]:
            return None
        if k == own:
            taken[2 * k] += 1
            return shares[k][taken[2 * k] - 1]
        taken[2 * k + 1] += 1
        return shares[k][-taken[2 * k + 1]]


def _next_result(results, processes: list) -> list[tuple[int, Verdicts]]:
    while True:
        try:
            done = results.get(timeout=1.0)
        except queue.Empty:
            if all(process.exitcode is not None for process in processes):
                raise RuntimeError("the liveness analysis processes ended before analysing every entry") from None
            continue
        if isinstance(done, str):
            raise RuntimeError(f"the liveness analysis failed in a forked process:\n{done}")
        return done
