"""The common path, `mine`: source -> parse -> graph -> traverse -> bundle. The only module
besides the CLI that knows every stage."""

from __future__ import annotations

import contextlib
import fnmatch
import os
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

import networkx as nx

from miner import __version__
from miner.bundle.build import BundleBuilder, EntryView
from miner.bundle.previous import output_digests, outputs_key, reusable
from miner.bundle.regions import SourceReader
from miner.bundle.write import make_dir, write_json_atomic, write_jsonl_atomic
from miner.cache import lock as cache_lock
from miner.cache.home import default_cache_dir
from miner.cache.ledger import record_run
from miner.collector import rarely_collected
from miner.errors import InputError, MissingHeaderError, NotACheckoutError
from miner.executors import Executor, make_executor
from miner.graph.build import build_graph
from miner.liveness.cache import VerdictCache, store_path
from miner.liveness.run import entry_verdicts
from miner.liveness.simplify import simplify
from miner.liveness.verdicts import UNDECIDED_BY_PARSE
from miner.models import (
    Bundle,
    EntryPoint,
    ExecSpace,
    LivenessRecord,
    NodeVerdict,
    NotReached,
    ParsedTU,
    Provenance,
    Role,
    RunSummary,
    Traversal,
)
from miner.parse.cache import ParseCache
from miner.parse.completeness import IncompleteParses
from miner.parse.entrypoints import discover
from miner.parse.places import remove_places_of_gone_checkouts, work_place
from miner.parse.queue import ParseQueue
from miner.parse.recipe import make_recipe
from miner.parse.stage import ParseOutcome, ParseStage
from miner.source.checkout import Checkout, describe, revision
from miner.source.files import FileHashes, translation_units
from miner.source.library_paths import other_location, other_prefix
from miner.source.profile import Profile, detect_library, load_profile
from miner.source.requirements import missing_headers, missing_message
from miner.traverse.dfs import Traverser
from miner.traverse.rules import RuleSet


@dataclass(frozen=True)
class MineOptions:
    path: Path
    library: str | None = None
    out: Path = Path("output")
    jobs: int = max(1, os.cpu_count() or 1)
    entry_glob: str = "*"
    rev: str | None = None
    with_libraries: dict[str, Path] = field(default_factory=dict)
    cache_dir: Path | None = None
    liveness: bool = True
    allow_missing_headers: bool = False  # parse without a system header a profile needs: a degraded run
    reuse_verdicts: bool = True  # liveness verdicts of an earlier run with the same inputs
    executor: str = "local"  # where parsing and liveness analysis run: "local" processes or "ray"
    address: str | None = None  # the Ray cluster's address (``ray start --head`` printed it; "auto": the one here)


@dataclass
class Analysis:
    """Everything a run computed, for the CLI's views (`graph`) and for tests."""

    checkout: Checkout
    profile: Profile
    entries: list[EntryPoint]
    outcome: ParseOutcome
    graph: nx.DiGraph
    rules: RuleSet
    traversals: dict[str, Traversal]
    roots: dict[str, str | None]
    liveness: dict[str, dict[str, NodeVerdict]]  # entry -> included node -> verdict
    reader: SourceReader  # the checkout's files (and --with libraries'), read once for the run
    inputs: list[str] = field(default_factory=list)  # the profiles and parse digests of every library read
    seconds: dict[str, float] = field(default_factory=dict)  # by stage, so far (see ``stage_seconds``)
    unreadable_headers: list[str] = field(default_factory=list)
    incomplete: IncompleteParses = field(default_factory=IncompleteParses)
    with_tus: dict[str, list[int]] = field(default_factory=dict)  # --with library -> [TUs, served by the cache]


Progress = Callable[[str, int, int], None]  # (phase, done, total)


def _no_progress(phase: str, done: int, total: int) -> None:
    pass


@contextlib.contextmanager
def open_checkout(path: Path, rev: str | None) -> Iterator[Checkout]:
    if not path.exists():
        raise NotACheckoutError("no such file or directory", path=str(path))
    if not path.is_dir():
        raise NotACheckoutError("not a directory", path=str(path))
    if rev is None:
        yield describe(path)
    else:
        with revision(path, rev) as checkout:
            yield checkout


def resolve_profile(root: Path, library: str | None) -> Profile:
    name = library or detect_library(root)
    if name is None:
        raise NotACheckoutError("not a checkout of a known library (pass --library)", path=str(root))
    profile = load_profile(name)
    missing = [m for m in profile.markers if not (root / m).exists()]
    if missing:
        raise NotACheckoutError(f"not a {profile.name} checkout ({missing[0]} is missing)", path=str(root))
    return profile


@dataclass
class Parsed:
    """What the parse stage gave, before any graph: enough to tell whether an earlier run's outputs still hold."""

    checkout: Checkout
    profile: Profile
    others: dict[str, Path]  # --with libraries: name -> checkout root
    cache_dir: Path
    selected: list[EntryPoint]
    unreadable_headers: list[str]  # public headers that could not be read: their entry points are unknown
    outcome: ParseOutcome
    other_outcomes: list[tuple[str, Profile, ParseOutcome]]
    inputs: list[str]  # the profiles and parse digests of every library read
    seconds: float = 0.0  # wall time of the parse stage


def parse_inputs(
    opts: MineOptions,
    checkout: Checkout,
    progress: Progress = _no_progress,
    queue: ParseQueue | None = None,
    order: int = 0,
) -> Parsed:
    """The checkout's parses (and its ``--with`` libraries'), through ``queue`` (shared by the revisions of a
    batch, where this checkout's jobs come in ``order``), else through a queue of its own on ``opts.executor``."""
    if queue is None:
        with executor_for(opts) as executor, ParseQueue(executor) as own:
            return parse_inputs(opts, checkout, progress, own, order)
    start = time.perf_counter()
    root = checkout.root
    profile = resolve_profile(root, opts.library)
    others = {k: v.resolve() for k, v in opts.with_libraries.items()}
    callees = [o.name for o in profile.other_libraries]
    other_profiles = {}
    for name, other_root in sorted(others.items()):
        if name not in callees:
            calls = f"it calls {', '.join(callees)}" if callees else "it calls no other library"
            raise InputError(f"--with {name}: {profile.name} does not call {name} ({calls})")
        other_profiles[name] = resolve_profile(other_root, name)
    missing = missing_headers([profile, *other_profiles.values()])
    if missing and not opts.allow_missing_headers:
        raise MissingHeaderError(missing_message(profile.name, missing))
    cache_dir = cache_folder(opts)
    remove_places_of_gone_checkouts(cache_dir)
    entries, unreadable_headers = discover(root, profile)
    selected = [e for e in entries if fnmatch.fnmatchcase(e.name, opts.entry_glob)]
    if entries and not selected:
        how = "matches" if any(c in opts.entry_glob for c in "*?[") else "named"
        raise InputError(f"no entry point {how} {opts.entry_glob!r} (of {len(entries)})")
    outcome = _parse_library(root, profile, others, cache_dir, opts, progress, "parse", queue, order)
    inputs = [profile.config_hash, outcome.digest]
    # the libraries this one calls are walked from what its own instances reach of them
    wanted = frozenset(outcome.refs) if opts.liveness else None
    other_outcomes = []
    for name, other_root in sorted(others.items()):
        other_profile = other_profiles[name]
        other = _parse_library(
            other_root, other_profile, {}, cache_dir, opts, progress, f"parse {name}", queue, order, wanted
        )
        other_outcomes.append((name, other_profile, other))
        inputs += [name, other_profile.config_hash, other.digest]
    wall = time.perf_counter() - start
    return Parsed(
        checkout, profile, others, cache_dir, selected, unreadable_headers, outcome, other_outcomes, inputs, wall
    )


@contextlib.contextmanager
def executor_for(opts: MineOptions) -> Iterator[Executor]:
    executor = make_executor(opts.executor, jobs=opts.jobs, address=opts.address)
    try:
        yield executor
    finally:
        executor.close()


def cache_folder(opts: MineOptions) -> Path:
    """The cache this run reads and writes (``--cache``, else the user's shared one), made if missing."""
    cache_dir = (opts.cache_dir or default_cache_dir()).resolve()
    make_dir(cache_dir, "cache directory")
    return cache_dir


def analyse(opts: MineOptions, checkout: Checkout, progress: Progress = _no_progress) -> Analysis:
    with cache_lock.shared(cache_folder(opts)), executor_for(opts) as executor:
        with ParseQueue(executor) as queue:
            parsed = parse_inputs(opts, checkout, progress, queue)
        return analyse_parsed(parsed, opts, progress, executor)


def analyse_parsed(
    p: Parsed, opts: MineOptions, progress: Progress = _no_progress, executor: Executor | None = None
) -> Analysis:
    start = time.perf_counter()
    parsed = [anchor(tu, p.others) for tu in p.outcome.parsed] if p.others else list(p.outcome.parsed)
    aside = dict(p.outcome.instances_aside)
    other_rules: dict[str, RuleSet] = {}
    for name, other_profile, other in p.other_outcomes:
        parsed += [relocate(tu, other_prefix(name)) for tu in other.parsed]
        aside |= {other_prefix(name) + path: read for path, read in other.instances_aside.items()}
        other_rules[other_prefix(name)] = RuleSet(other_profile)
    g = build_graph(parsed)
    rules = RuleSet(p.profile, {k: str(v) for k, v in p.others.items()}, other_rules)
    selected = p.selected
    roots = entry_roots(g, [e.name for e in selected])
    traversals = {}
    walker = Traverser(g, rules)
    for i, e in enumerate(selected, 1):
        traversals[e.name] = walker.traverse(e.name, roots[e.name])
        progress("traverse", i, len(selected))
    reader = SourceReader(p.checkout.root, p.profile.include_dirs, p.others)
    liveness = {}
    liveness_start = time.perf_counter()
    if opts.liveness:
        verdicts = VerdictCache(p.cache_dir / "liveness", p.inputs, load=opts.reuse_verdicts)
        liveness = entry_verdicts(
            g, parsed, aside, rules, reader.data, traversals, selected, verdicts, executor, progress
        )
    end = time.perf_counter()
    outcomes = [p.outcome] + [o for _, _, o in p.other_outcomes]
    seconds = {
        "parse": p.seconds,
        "parse_workers": sum(o.worker_seconds for o in outcomes),
        "liveness_walk": sum(o.liveness_seconds for o in outcomes),
        "analyse": end - start,
        "liveness_analysis": end - liveness_start,
    }
    incomplete = IncompleteParses()
    incomplete.add("", p.profile, p.outcome.parsed)
    for name, other_profile, other in p.other_outcomes:
        incomplete.add(other_prefix(name), other_profile, other.parsed)
    return Analysis(
        p.checkout, p.profile, selected, p.outcome, g, rules, traversals, roots, liveness, reader, p.inputs, seconds,
        p.unreadable_headers, incomplete, with_tus(p),
    )  # fmt: skip


def with_tus(p: Parsed) -> dict[str, list[int]]:
    """Per ``--with`` library: its TUs, and how many of them the cache served."""
    return {name: [_tu_count(other), other.cache_hits] for name, _, other in p.other_outcomes}


def _tu_count(outcome: ParseOutcome) -> int:
    real = [t for t in outcome.parsed if not t.path.startswith("<")]  # not the PCH prefixes
    return len(real) + sum(1 for f in outcome.failures if f.reason == "unreadable")


def _parse_library(
    root: Path,
    profile: Profile,
    others: dict[str, Path],
    cache_dir: Path,
    opts: MineOptions,
    progress: Progress,
    phase: str,
    queue: ParseQueue,
    order: int = 0,
    wanted: frozenset[str] | None = None,
) -> ParseOutcome:
    place = work_place(cache_dir, root, others)
    recipe = make_recipe(root, profile, place / "stubs" / profile.name, others)
    tus = translation_units(root, profile)
    cache = ParseCache(cache_dir / "parse", recipe.fingerprint, FileHashes(root, others))
    done = 0

    def tick(rel: str) -> None:
        nonlocal done
        done += 1
        progress(phase, done, len(tus))

    stage = ParseStage(recipe, cache, place / "pch", queue, liveness=opts.liveness, order=order)
    outcome = stage.run(tus, on_result=tick, wanted=wanted)
    outcome.cache_units = cache.used | {place.relative_to(cache_dir).as_posix()}
    return outcome


def relocate(tu: ParsedTU, prefix: str) -> ParsedTU:
    """A TU of another library with its checkout-relative paths prefixed, so names never clash."""

    def fix(path: str) -> str:
        return path if not path or os.path.isabs(path) else prefix + path

    return replace(
        tu,
        path=prefix + tu.path,
        functions=tuple(replace(f, file=fix(f.file)) for f in tu.functions),
        decls=tuple(replace(d, file=fix(d.file)) for d in tu.decls),
        deps=tuple(fix(d) for d in tu.deps),
        inactive=tuple((fix(f), s, e) for f, s, e in tu.inactive),
    )


def anchor(tu: ParsedTU, others: dict[str, Path]) -> ParsedTU:
    """A TU of the mined library with the declarations it read in ``--with`` libraries (cached as
    ``@library/path``, wherever those lie) placed in this run's checkouts of them."""
    if not any(d.file.startswith("@") for d in tu.decls):
        return tu

    def place(path: str) -> str:
        located = other_location(path, others)
        return path if located is None else str(located)

    return replace(tu, decls=tuple(replace(d, file=place(d.file)) for d in tu.decls))


def entry_roots(g: nx.DiGraph, names: list[str]) -> dict[str, str | None]:
    """Each entry's defining node: a defined, non-template function of that exact name."""
    by_name: dict[str, list[str]] = {}
    for node, data in g.nodes(data=True):
        if data["defined"] and data["facts"].kind == "function":
            by_name.setdefault(data["name"], []).append(node)
    out = {}
    for name in names:
        cands = sorted(by_name.get(name, []))
        clang = [n for n in cands if not n.startswith("ts:")]
        out[name] = (clang or cands or [None])[0]
    return out


def mine(opts: MineOptions, progress: Progress = _no_progress) -> RunSummary:
    start = time.perf_counter()
    make_dir(opts.out, "output directory")  # a folder that cannot be made is told before anything is parsed
    with contextlib.ExitStack() as stack:
        stack.enter_context(rarely_collected())
        checkout = stack.enter_context(open_checkout(opts.path, opts.rev))
        stack.enter_context(cache_lock.shared(cache_folder(opts)))
        executor = stack.enter_context(executor_for(opts))
        with ParseQueue(executor) as queue:
            p = parse_inputs(opts, checkout, progress, queue)
        return finish_mine(p, opts, progress, executor, start)


def finish_mine(
    p: Parsed, opts: MineOptions, progress: Progress, executor: Executor, start: float, last: bool = True
) -> RunSummary:
    """A parsed checkout's outputs: an earlier run's where they still hold, else analysed and written. With
    ``last`` (no other checkout's analysis follows), the executor is let go of before the outputs are written."""
    summary = _kept_outputs(p, opts, start)
    if summary is None:
        analysis = analyse_parsed(p, opts, progress, executor)
        if last:
            executor.release()
        summary = write_outputs(analysis, opts, time.perf_counter() - start)
    _record_cache_use(p, opts)
    return summary


def _record_cache_use(p: Parsed, opts: MineOptions) -> None:
    """Which cache units this run used, for ``cache info`` and ``cache prune``."""
    units = set(p.outcome.cache_units)
    for _, _, other in p.other_outcomes:
        units |= other.cache_units
    store = store_path(p.cache_dir / "liveness", p.inputs)
    if opts.liveness and store.exists():
        units.add(store.relative_to(p.cache_dir).as_posix())
    record_run(p.cache_dir, p.profile.name, p.checkout, opts.out, p.others, units)


def _provenance_base(checkout: Checkout, profile: Profile) -> dict:
    return dict(
        library=profile.name,
        repo_url=checkout.repo_url,
        commit=checkout.commit,
        tag=checkout.tag,
        dirty=checkout.dirty,
        tool_version=__version__,
        config_hash=profile.config_hash,
    )


def _run_record(
    checkout: Checkout, profile: Profile, selected: list[EntryPoint], inputs: list[str], opts: MineOptions
) -> dict:
    """``run.json`` less the output hashes: the run's inputs, and the key its outputs are made from."""
    key = outputs_key({"inputs": inputs, "provenance": _provenance_base(checkout, profile),
                       "entries": repr(selected), "entry_glob": opts.entry_glob, "liveness": opts.liveness,
                       "with": sorted(opts.with_libraries)})  # fmt: skip
    return {
        "tool_version": __version__,
        "library": profile.name,
        "checkout": {**asdict(checkout), "root": str(checkout.root)},
        "options": {"entry_glob": opts.entry_glob, "rev": opts.rev, "jobs": opts.jobs, "executor": opts.executor,
                    "with": {k: str(v) for k, v in opts.with_libraries.items()}},
        "config_hash": profile.config_hash,
        "outputs_key": key,
    }  # fmt: skip


def _kept_outputs(p: Parsed, opts: MineOptions, start: float) -> RunSummary | None:
    """The summary of an earlier run into ``opts.out`` whose outputs this run would write again, byte for byte
    (then the graph, the traversals and the liveness analysis are not even built)."""
    run = _run_record(p.checkout, p.profile, p.selected, p.inputs, opts)
    earlier = reusable(opts.out, run["outputs_key"])
    if earlier is None:
        return None
    summary_data, digests = earlier
    try:
        summary = RunSummary.model_validate(summary_data)
    except ValueError:
        return None
    wall = round(time.perf_counter() - start, 2)
    stages = stage_seconds({"parse": p.seconds})  # nothing else ran
    summary = summary.model_copy(
        update={
            "cache_hits": p.outcome.cache_hits,
            "with_tus": with_tus(p),
            "wall_seconds": wall,
            "stage_seconds": stages,
        }  # fmt: skip
    )
    write_json_atomic(opts.out / "summary.json", summary.model_dump(mode="json"))
    write_json_atomic(opts.out / "run.json", {**run, "outputs": digests})
    return summary


def write_outputs(a: Analysis, opts: MineOptions, elapsed_before: float) -> RunSummary:
    start = time.perf_counter()
    out = opts.out
    make_dir(out, "output directory")
    provenance_base = _provenance_base(a.checkout, a.profile)
    run = _run_record(a.checkout, a.profile, a.entries, a.inputs, opts)
    reader = a.reader
    builder = BundleBuilder(a.graph, reader, a.profile.name)
    not_reached: list[NotReached] = []
    views: list[EntryView] = []
    for e in a.entries:
        t = a.traversals[e.name]
        if t.root is None:
            not_reached.append(
                NotReached(entry=e.name, reason="no-definition", detail="no definition in any parsed TU")
            )
            continue
        verdict = a.rules.verdict(t.root, a.graph.nodes[t.root])
        if verdict.action != "follow":
            reason = "excluded" if verdict.action == "exclude" else verdict.action
            not_reached.append(NotReached(entry=e.name, reason=reason, detail=verdict.rule))
            continue
        views.append(builder.view(t, a.liveness.get(e.name, {})))
    families = builder.families(views)
    hashes = reader
    bundles: list[Bundle] = []
    bundle_of: dict[str, str] = {}
    for fam in families:
        files = sorted({rid.split(":", 1)[0] for v in fam for rid in v.region_set})
        prov = Provenance(**provenance_base, file_hashes={f: hashes.file_hash(f) for f in files})
        b = builder.bundle(fam, prov)
        bundles.append(b)
        for v in fam:
            bundle_of[v.entry] = b.id
    entry_records = _entry_records(a, views, bundle_of, not_reached, builder)
    no_kernel = Counter(r["no_kernel_reason"] for r in entry_records if r["bundle"] and not r["kernels"])
    write_jsonl_atomic(out / "bundles.jsonl", (b.model_dump(mode="json") for b in bundles))
    write_jsonl_atomic(out / "entries.jsonl", entry_records)
    write_jsonl_atomic(out / "not_reached.jsonl", (n.model_dump(mode="json") for n in not_reached))
    write_jsonl_atomic(out / "parse_report.jsonl", _parse_report(a.outcome))
    kernels = {r.id for b in bundles for r in b.regions if r.role == Role.KERNEL}
    unresolved = sum(
        1 for t in a.traversals.values() for d in t.decisions if d.verdict == "boundary" and d.rule == "undefined"
    )
    failed = Counter(f.reason for f in a.outcome.failures)
    real = [p for p in a.outcome.parsed if not p.path.startswith("<")]  # not the PCH prefixes
    summary = RunSummary(
        library=a.profile.name,
        entry_points=len(a.entries),
        headers_unreadable=a.unreadable_headers,
        families=len(families),
        bundles=len(bundles),
        kernels_reached=len(kernels),
        entries_without_kernel=dict(sorted(no_kernel.items())),
        not_in_bundle=len(not_reached),
        unresolved_calls=unresolved,
        tus=len(real) + sum(1 for f in a.outcome.failures if f.reason == "unreadable"),
        tus_parsed_clang=sum(1 for p in real if p.engine.startswith("clang")),
        tus_fallback_tree_sitter=sum(1 for p in real if p.fallback_reason),
        tus_with_diagnostics=sum(1 for p in real if p.diagnostics),
        tus_not_utf8=sorted(p.path for p in real if any(d.severity == "encoding" for d in p.diagnostics)),
        tus_failed=dict(sorted(failed.items())),
        tus_fatal=len(a.incomplete.counted),
        tus_fatal_causes=a.incomplete.causes(),
        tus_fatal_outside=sorted(a.incomplete.outside),
        entries_undecided=sum(
            any(v.detail.startswith(UNDECIDED_BY_PARSE) for v in verdicts.values()) for verdicts in a.liveness.values()
        ),
        cache_hits=a.outcome.cache_hits,
        with_tus=a.with_tus,
        wall_seconds=round(elapsed_before + time.perf_counter() - start, 2),
        stage_seconds=stage_seconds({**a.seconds, "write": time.perf_counter() - start}),
    )
    write_json_atomic(out / "summary.json", summary.model_dump(mode="json"))
    write_json_atomic(out / "run.json", {**run, "outputs": output_digests(out)})  # last: it vouches for the rest
    return summary


def stage_seconds(seconds: dict[str, float]) -> dict[str, float]:
    """Where a run's time went: ``parse``, ``analyse`` and ``write`` are wall time; ``parse_workers`` is the
    time the parse workers spent on the TUs this run parsed, summed over workers, and ``liveness_walk`` the
    part of it that collected the liveness facts (instance walk, skipped blocks); ``liveness_analysis``
    is the part of ``analyse`` that computed the entries' verdicts."""
    return {k: round(v, 2) for k, v in seconds.items()}


def _entry_records(
    a: Analysis,
    views: list[EntryView],
    bundle_of: dict[str, str],
    not_reached: list[NotReached],
    builder: BundleBuilder,
):
    by_entry = {v.entry: v for v in views}
    missing = {n.entry: n for n in not_reached}
    out = []
    for e in a.entries:
        rec: dict = {"name": e.name, "variant": e.variant, "declared_in": e.header, "line": e.line}
        if e.exported_in:
            rec["exported_in"] = e.exported_in
        v = by_entry.get(e.name)
        if v is None:
            n = missing[e.name]
            rec |= {"bundle": None, "kernels": [], "device_helpers": [], "reason": n.reason, "detail": n.detail}
        else:
            steps = _CallSteps(v, builder)
            kernels = _liveness_records(a, v, Role.KERNEL, steps)
            helpers = _liveness_records(a, v, Role.DEVICE_HELPER, steps)
            hosts = _host_records(a, v, steps)
            boundary_kinds = sorted({d.rule for d in v.traversal.decisions if d.verdict == "boundary"})
            rec |= {"bundle": bundle_of[e.name], "kernels": kernels, "device_helpers": helpers,
                    "host_functions": hosts, "call_steps": steps.listed, "boundaries": boundary_kinds}  # fmt: skip
            if not kernels:
                rec["no_kernel_reason"] = _no_kernel_reason(boundary_kinds)
        out.append(rec)
    return out


class _CallSteps:
    """The calls (``REGION@LINE``: the calling region's id, the line of the call) the paths of one entry's
    verdicts take, each listed once: a verdict's path is a list of their indices."""

    def __init__(self, v: EntryView, builder: BundleBuilder) -> None:
        self.v, self.builder = v, builder
        self.index: dict[tuple[str, int], int] = {}
        self.listed: list[str] = []

    def __call__(self, path: tuple[tuple[str, int], ...]) -> list[int]:
        out = []
        for caller, line in path:
            found = self.index.get((caller, line))
            if found is None:
                found = self.index[(caller, line)] = len(self.listed)
                self.listed.append(f"{self.v.region_of.get(caller) or self.builder.region_id(caller)}@{line}")
            out.append(found)
        return out


def _liveness_records(a: Analysis, v: EntryView, role: Role, steps: _CallSteps) -> list[dict]:
    """The entry's kernels (or device helpers) with their verdicts: those its traversal
    included, and those only code the build leaves out would reach (not in any bundle)."""
    g = a.graph
    wanted = {ExecSpace.GLOBAL.value} if role == Role.KERNEL else {ExecSpace.DEVICE.value, ExecSpace.HOST_DEVICE.value}
    nodes = {n for n, r in v.roles.items() if r == role}
    nodes |= {n for n in v.verdicts if n not in v.roles and g.nodes[n]["exec_space"] in wanted}
    return [_liveness_record(a, v, node, steps) for node in sorted(nodes, key=lambda n: (g.nodes[n]["name"], n))]


def _host_records(a: Analysis, v: EntryView, steps: _CallSteps) -> list[dict]:
    """The verdicts of the host code the entry's traversal included (a host overload its calls never select is
    dead, with the call that selects another)."""
    device = (Role.KERNEL, Role.DEVICE_HELPER)
    nodes = [n for n, r in v.roles.items() if r not in device and n in v.verdicts]
    return [_liveness_record(a, v, n, steps) for n in sorted(nodes, key=lambda n: (a.graph.nodes[n]["name"], n))]


def _liveness_record(a: Analysis, v: EntryView, node: str, steps: _CallSteps) -> dict:
    verdict = v.verdicts.get(node) or NodeVerdict(True, detail="unanalysed")
    return LivenessRecord(
        name=a.graph.nodes[node]["name"], region=v.region_of.get(node) or steps.builder.region_id(node),
        live=verdict.live, reason=verdict.reason, conditions=[simplify(c) for c in verdict.conditions],
        decided_at=verdict.decided_at, detail=verdict.detail, path=steps(verdict.path),
    ).model_dump(mode="json")  # fmt: skip


def _no_kernel_reason(boundary_kinds: list[str]) -> str:
    for kind in ("generated", "other-library", "undefined"):
        if kind in boundary_kinds:
            return f"boundary:{kind}"
    return "host-only"


def _parse_report(outcome: ParseOutcome) -> Iterator[dict]:
    failures = {f.path: f for f in outcome.failures}
    for p in outcome.parsed:
        rec = {"path": p.path, "engine": p.engine, "functions": len(p.functions), "seconds": p.seconds,
               "liveness_seconds": p.liveness_seconds,
               "diagnostics": [asdict(d) for d in p.diagnostics[:20]]}  # fmt: skip
        if p.fallback_reason:
            rec["fallback_reason"] = p.fallback_reason
        if p.path in failures:
            rec["failure"] = failures.pop(p.path).detail
        yield rec
    for f in failures.values():
        yield {"path": f.path, "engine": None, "failure_reason": f.reason, "failure": f.detail}
