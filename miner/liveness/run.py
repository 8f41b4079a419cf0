"""Every selected entry's verdicts: from the verdict store, else analysed and stored.

Entries whose verdicts are not stored are analysed in ``jobs`` forked processes: each inherits
the analyser (graph and instances) built once here, takes runs of neighbouring entries (a family's
precisions and ``_64`` variants share most of their work in the analyser's memos) and sends back
their verdicts. An entry's verdicts do not depend on which process analysed it or what it analysed
before; without ``fork`` (not Linux) the entries are analysed here, one by one."""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable
from dataclasses import replace

import networkx as nx

from miner.collector import frozen
from miner.liveness.analyse import LivenessAnalyser, index_instances
from miner.liveness.build import BuildDeadFinder, index_inactive
from miner.liveness.cache import VerdictCache, entry_key
from miner.models import EntryPoint, Instance, NodeVerdict, ParsedTU, Traversal
from miner.traverse.rules import RuleSet

Progress = Callable[[str, int, int], None]
Verdicts = dict[str, NodeVerdict]

_RUN = 16  # entries a process takes at a time: about one family and its variants
_FORKED: tuple[LivenessAnalyser, list[tuple[Traversal, str]]] | None = None  # what forked processes inherit


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
    analyser = LivenessAnalyser(g, index_instances(complete), build)
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
    _FORKED = (analyser, work)
    runs = [range(start, min(start + _RUN, len(work))) for start in range(0, len(work), _RUN)]
    try:
        with mp.get_context("fork").Pool(min(jobs, len(runs))) as pool:
            for done in pool.imap_unordered(_analyse_run, runs):
                yield from done
    finally:
        _FORKED = None


def _analyse_run(run: range) -> list[tuple[int, Verdicts]]:
    assert _FORKED is not None, "runs only in a process forked by _analyse"
    analyser, work = _FORKED
    return [(i, analyser.verdicts(*work[i])) for i in run]
