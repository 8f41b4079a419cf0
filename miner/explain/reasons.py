"""Why a function is in an entry point's bundle — the call path from the entry, each edge's resolution, the rule
that let the traversal follow it, its liveness verdict — or why it is not: the rule that excluded it, the
boundary the traversal stopped at, or that nothing reaches it."""

from __future__ import annotations

import fnmatch
from collections import deque
from pathlib import Path

from miner.explain.read import EntryOutput, bundles_holding
from miner.models import Explanation, PathStep
from miner.source.profile import load_profile
from miner.traverse.rules import RuleSet


def explain_entry(out: Path, data: EntryOutput, entry: str, function: str | None) -> list[Explanation]:
    """An explanation per region of the entry's bundle, or for each function named ``function`` (every overload)."""
    if data.bundle is None:
        return []
    regions = [r for r in data.bundle["regions"] if entry in r["entries"]]
    chosen = regions if function is None else [r for r in regions if _names(r, function)]
    record = data.record
    verdicts = {v["region"]: v for v in _verdict_records(record)}
    if function is not None and not chosen:
        unbundled = [v for v in verdicts.values() if v["name"] == function]
        if unbundled:  # reached and decided, but no live path keeps its code (an `#if` the build skips)
            return [_unbundled(entry, v) for v in unbundled]
        return [_not_in_bundle(out, data, entry, function, regions)]
    walked = _Walked(data.bundle, entry, record.get("call_steps", []))
    found = {r["id"]: walked.path(verdicts.get(r["id"])) for r in chosen}
    if not all(found.values()):  # no recorded path (the entry's own region, code the walk did not visit)
        searched = _paths(data.bundle, regions, entry)
        found = {rid: path or searched.get(rid, []) for rid, path in found.items()}
    rules = RuleSet(load_profile(data.library))
    return [_in_bundle(entry, r, found[r["id"]], verdicts.get(r["id"]), rules) for r in chosen]


def _verdict_records(record: dict) -> list[dict]:
    """The entry's liveness records: kernels, device helpers and host code."""
    return record["kernels"] + record["device_helpers"] + record.get("host_functions", [])


def _names(region: dict, function: str) -> bool:
    """Whether ``region`` defines ``function``: its name, qualified name, or, for a span that defines several entry
    points (a macro's list, ``f`` and ``f_64``), any of them."""
    return function in (region["name"], region["qualified_name"]) or (
        region["role"] == "api" and function in region["names"]
    )


def _in_bundle(entry: str, region: dict, path: list[PathStep], verdict: dict | None, rules: RuleSet) -> Explanation:
    own = region["role"] == "api" and entry in region["names"]
    common = dict(
        entry=entry, function=entry if own else region["qualified_name"], status="in bundle", role=region["role"],
        file=region["file"], line=region["start_line"], path=path, rule=_followed_by(region, rules),
    )  # fmt: skip
    if verdict is None:  # host code: it runs when a path that reaches it is taken
        return Explanation(**common, live=entry in region["live_for"])
    return Explanation(
        **common,
        live=verdict["live"],
        reason=verdict["reason"],
        decided_at=verdict["decided_at"],
        detail=verdict["detail"],
        conditions=verdict["conditions"],
    )


def _unbundled(entry: str, verdict: dict) -> Explanation:
    file, _, lines = verdict["region"].rpartition(":")
    return Explanation(
        entry=entry, function=verdict["name"], status="reached, not bundled", file=file,
        line=int(lines.split("-")[0] or 0), live=verdict["live"], reason=verdict["reason"],
        decided_at=verdict["decided_at"], detail=verdict["detail"], conditions=verdict["conditions"],
    )  # fmt: skip


def _followed_by(region: dict, rules: RuleSet) -> str:
    """The rule under which the traversal followed the function into the bundle."""
    node = {**region, "defined": True}
    verdict = rules.classify(node)
    if verdict.action != "follow":  # a profile changed since the mine
        return f"followed when mined; the rules now say {verdict.action} ({verdict.rule})"
    allow = rules.rules.allow_names
    pattern = next(
        (
            p
            for p in allow
            if fnmatch.fnmatchcase(region["name"], p) or fnmatch.fnmatchcase(region["qualified_name"], p)
        ),
        None,
    )
    if pattern:
        return f"allow_names:{pattern} (followed although a deny rule may match)"
    return "followed: no boundary or deny rule matches its name, namespace or path"


class _Walked:
    """The paths the liveness analysis took (the one a verdict's conditions or deciding line belong to), as steps
    from the entry's own region."""

    def __init__(self, bundle: dict, entry: str, listed: list[str]) -> None:
        self.entry, self.listed = entry, listed
        self.by_id = {r["id"]: r for r in bundle["regions"]}
        self.edges = {(e["caller"], e["line"], e["callee"]): e for e in bundle["edges"]}

    def path(self, verdict: dict | None) -> list[PathStep]:
        """[] when the verdict records no path or a region on it is not in the bundle."""
        if not verdict or not verdict.get("path"):
            return []
        hops = [self.listed[i].rpartition("@") for i in verdict["path"]]
        callers = [self.by_id.get(region) for region, _, _ in hops]
        target = self.by_id.get(verdict["region"])
        if target is None or any(c is None for c in callers):
            return []
        steps = [_step(callers[0]).model_copy(update={"name": self.entry})]
        for i, (_, _, line) in enumerate(hops):
            caller, callee = callers[i], callers[i + 1] if i + 1 < len(callers) else target
            edge = self.edges.get((caller["id"], int(line), callee["id"]))
            if edge is None:
                return []
            steps.append(_step(callee, edge, caller))
        return steps


def _paths(bundle: dict, regions: list[dict], entry: str) -> dict[str, list[PathStep]]:
    """The shortest call path from the entry's own region to each region it reaches, through calls that run for
    the entry where there is such a path (breadth first), else through any call."""
    by_id = {r["id"]: r for r in regions}
    out_edges: dict[str, list[dict]] = {}
    for edge in sorted(bundle["edges"], key=lambda e: e["line"]):
        if edge["caller"] in by_id and edge["callee"] in by_id:
            out_edges.setdefault(edge["caller"], []).append(edge)
    roots = [r for r in regions if entry in r["names"]] or [by_id[p[0]] for p in bundle["call_paths"] if p[0] in by_id]
    if not roots:
        return {}
    paths = {roots[0]["id"]: [_step(roots[0]).model_copy(update={"name": entry})]}
    live = {rid for rid, r in by_id.items() if entry in r["live_for"]}
    for strict in (True, False):
        queue = deque(paths)
        while queue:
            caller = queue.popleft()
            for edge in out_edges.get(caller, []):
                callee = edge["callee"]
                if callee not in paths and (not strict or _runs(by_id[caller], by_id[callee], entry, live)):
                    paths[callee] = [*paths[caller], _step(by_id[callee], edge, by_id[caller])]
                    queue.append(callee)
    return paths


def _runs(caller: dict, callee: dict, entry: str, live: set[str]) -> bool:
    """Whether the call from ``caller`` to ``callee`` is one that runs for ``entry``: both can run for it and, for a
    device helper (an overload set links a call to every overload), ``caller`` is a kernel whose instantiations
    for the entry call it, or a helper called from such a kernel."""
    if caller["id"] not in live or callee["id"] not in live:
        return False
    via = {k for k, entries in callee.get("live_via", {}).items() if entry in entries}
    if not via:
        return True
    if caller["id"] in via:
        return True
    caller_via = {k for k, entries in caller.get("live_via", {}).items() if entry in entries}
    return bool(via & caller_via)


def _step(region: dict, edge: dict | None = None, caller: dict | None = None) -> PathStep:
    step = PathStep(name=region["qualified_name"], role=region["role"], file=region["file"], line=region["start_line"])
    if edge is None or caller is None:
        return step
    return step.model_copy(
        update=dict(
            edge=edge["kind"],
            resolution=edge["resolution"],
            call_at=_call_site(caller, edge["line"]),
            conditions=[condition_text(c) for c in edge["conditions"]],
        )
    )


def _call_site(caller: dict, line: int) -> str:
    """Where a call is written: a macro-defined caller's calls carry the line of the macro's invocation."""
    if caller["macro"] and not caller["start_line"] <= line <= caller["end_line"] and caller["expanded_at"]:
        return caller["expanded_at"]
    return f"{caller['file']}:{line}"


def condition_text(c: dict) -> str:
    """A branch condition as the path takes it: ``n > 0``, ``!(incx == 1)``, ``trans == case 'N'``."""
    text = c["text"]
    if c["branch"] == "then":
        return f"({text})" if "||" in text or "?" in text else text
    if c["branch"] == "else":
        return f"!({text})"
    return f"{text}: {c['branch']}"


def _not_in_bundle(out: Path, data: EntryOutput, entry: str, function: str, regions: list[dict]) -> Explanation:
    names = {r["id"]: r["qualified_name"] for r in regions}
    bundle = data.bundle
    for kind, records in (("excluded", bundle["exclusions"]), ("boundary", bundle["boundaries"])):
        hits = [x for x in records if x["name"] == function and x["caller"] in names]
        if hits:
            rule = hits[0]["rule"] if kind == "excluded" else hits[0]["kind"]
            record = data.record
            dead = {v["region"] for v in _verdict_records(record) if not v["live"]}
            return Explanation(
                entry=entry,
                function=function,
                status=kind,
                rule=rule,
                file=hits[0]["declared_in"],
                called_from=sorted({
                    f"{names[x['caller']]} ({x['caller'].rpartition(':')[0]}:"
                    + ", ".join(map(str, x.get("call_lines") or [x["call_line"]]))
                    + (") [the caller cannot run for this entry]" if x["caller"] in dead else ")")
                    for x in hits
                }),
            )  # fmt: skip
    family = sorted(
        {e for r in bundle["regions"] if function in (r["name"], r["qualified_name"]) for e in r["entries"]}
    )
    if family:
        return Explanation(entry=entry, function=function, status="other entries", elsewhere=family)
    holders = bundles_holding(out, function)
    elsewhere = sorted(
        {e for b in holders for r in b["regions"] if function in (r["name"], r["qualified_name"]) for e in r["entries"]}
    )
    return Explanation(entry=entry, function=function, status="not reached", elsewhere=elsewhere)
