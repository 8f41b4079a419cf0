"""Every selected entry's verdicts: from the verdict store, else analysed and stored.

Entries whose verdicts are not stored are analysed by the executor's workers: each gets the analyser (graph
and instances) built once here (inherited by a forked process, or sent once through Ray's object store) and a
share of the entries, chosen so that entries reaching the same instantiations meet in one worker (they share most
of their work in its memos); it sends back the verdicts of each run of its entries, and when its share is done
takes runs left in the others'. An entry's verdicts do not depend on which worker analysed it or what it
analysed before; without an executor of several workers the entries are analysed here, one by one."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import replace

import networkx as nx

from miner.collector import collect_rarely, frozen
from miner.executors import Executor, Lost, WorkerSpec
from miner.liveness.analyse import LivenessAnalyser, incomplete_instances, index_instances
from miner.liveness.build import BuildDeadFinder, index_inactive
from miner.liveness.cache import VerdictCache, entry_key
from miner.models import EntryPoint, Instance, NodeVerdict, ParsedTU, Traversal
from miner.traverse.rules import RuleSet

Progress = Callable[[str, int, int], None]
Verdicts = dict[str, NodeVerdict]

_RUN = 16  # entries a worker takes at a time: the verdicts it sends back at once, the least another can take


def entry_verdicts(
    g: nx.DiGraph,
    parsed: list[ParsedTU],
    aside: dict[str, Callable[[], tuple[Instance, ...]]],
    rules: RuleSet,
    read: Callable[[str], bytes],
    traversals: dict[str, Traversal],
    selected: list[EntryPoint],
    store: VerdictCache,
    executor: Executor | None,
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

    build = BuildDeadFinder(g, index_inactive(parsed), read, keep=functools.partial(_followed, rules, g))
    complete = [replace(tu, instances=aside[tu.path]()) if tu.path in aside else tu for tu in parsed]
    analyser = LivenessAnalyser(g, index_instances(complete), build, incomplete_instances(complete))
    work = [(traversals[e.name], e.variant) for e in missing]
    try:
        with frozen():  # the graph and the instances: no collection here or in a forked process scans them
            for i, verdicts in _analyse(analyser, work, executor):
                name = missing[i].name
                out[name] = verdicts
                store.put(keys[name], verdicts)
                progress("liveness", len(out), len(selected))
    finally:
        store.flush()
    return {e.name: out[e.name] for e in selected}


def _followed(rules: RuleSet, g: nx.DiGraph, node: str) -> bool:
    """Whether the library's rules follow ``node`` (an excluded function leads nowhere)."""
    return rules.verdict(node, g.nodes[node]).action == "follow"


def _analyse(analyser: LivenessAnalyser, work: list[tuple[Traversal, str]], executor: Executor | None):
    """(index into ``work``, verdicts), as they are ready."""
    if executor is None or executor.workers <= 1 or len(work) <= _RUN:
        for i, (traversal, variant) in enumerate(work):
            yield i, analyser.verdicts(traversal, variant)
        return
    shares = _shares(analyser, work, executor.workers)
    spec = WorkerSpec("liveness", LivenessWorker, (analyser, work), shared=True)
    for run, done in executor.run(spec, _Runs(shares)):
        if isinstance(done, Lost):
            raise RuntimeError(f"the liveness analysis of entries {run[0]}..{run[-1]} failed: {done.detail}")
        yield from done


class LivenessWorker:
    """A worker's analyser (inherited, or sent once) and the entries to analyse."""

    def __init__(self, analyser: LivenessAnalyser, work: list[tuple[Traversal, str]]) -> None:
        collect_rarely()
        self.analyser, self.work = analyser, work

    def __call__(self, run: tuple[int, ...]) -> list[tuple[int, Verdicts]]:
        return [(i, self.analyser.verdicts(*self.work[i])) for i in run]


class _Runs:
    """Each worker's own runs of entries from the front, then others' from the back of the largest share left."""

    def __init__(self, shares: list[list[list[int]]]) -> None:
        self.shares = [list(share) for share in shares]

    def take(self, worker: int) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
        own = worker % len(self.shares)
        if self.shares[own]:
            run = tuple(self.shares[own].pop(0))
        elif any(self.shares):
            run = tuple(max(self.shares, key=len).pop())
        else:
            return None
        return run, run

    def exhausted(self) -> bool:
        return not any(self.shares)

    def wait(self, timeout: float) -> None:
        pass

    def cancelled(self) -> bool:
        return False


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
