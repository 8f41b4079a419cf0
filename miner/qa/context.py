"""The code a question about one kernel may draw on: the kernel, its device helpers, its launch sites,
and the regions on the call paths from the bundle's entries down to it."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from miner.models import Bundle, BundleForQA, LaunchSite, Region, Role


@dataclass(frozen=True)
class KernelContext:
    """One kernel region and what its questions may draw on, gathered from every bundle that holds it: a kernel
    shared by many entry families is asked about once, and its records list every entry it is live for."""

    library: str
    kernel: Region  # ``live_for``: every entry, of all the bundles, that it can run for
    helpers: tuple[Region, ...]  # device helpers the kernel reaches, transitively, live for one of those entries
    path: tuple[Region, ...]  # api -> ... -> launcher regions leading to the kernel, in path order
    launch_sites: tuple[LaunchSite, ...]
    bundles: tuple[str, ...] = ()  # ids of the bundles holding the kernel
    families: tuple[str, ...] = ()  # their entry families
    bundle_entries: tuple[str, ...] = ()  # every entry of those bundles (names an answer may mention)
    launcher_sites: tuple[LaunchSite, ...] = ()  # every launch its launchers make, of any kernel
    path_calls: tuple[tuple[str, str, int], ...] = ()  # (caller, callee, line): calls from one path region to the next
    call_paths: tuple[tuple[str, ...], ...] = ()  # region ids from an entry down to a launcher of the kernel

    @property
    def entries(self) -> list[str]:
        return self.kernel.live_for

    @property
    def regions(self) -> tuple[Region, ...]:
        return (*self.path, self.kernel, *self.helpers)

    def region(self, region_id: str) -> Region | None:
        return self._by_id.get(region_id)

    @cached_property
    def dispatched_sites(self) -> tuple[LaunchSite, ...]:
        """The launches of the kernel's launchers whose launcher region the context holds (``KernelFacts.dispatch``
        describes them, in this order)."""
        return tuple(site for site in self.launcher_sites if self.region(site.launcher))

    @cached_property
    def _by_id(self) -> dict[str, Region]:
        return {r.id: r for r in self.regions}

    @cached_property
    def digest(self) -> str:
        """What the kernel's items are read from: its code, its helpers', its launchers', the sites and the entries."""
        material = [
            self.library,
            [(r.id, r.role, r.code, r.live_for) for r in self.regions],
            [s.model_dump(mode="json") for s in self.launcher_sites],
            self.path_calls,
            self.call_paths,
        ]
        return hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()


def live_kernels(bundle: Bundle | BundleForQA) -> list[KernelContext]:
    """A context for every kernel of one bundle that can run for at least one of its entries."""
    return kernel_contexts([bundle])


def kernel_contexts(bundles: Iterable[Bundle | BundleForQA]) -> list[KernelContext]:
    """One context per live kernel region over all the bundles, in the order the kernels first appear."""
    gathered: dict[str, _Gathered] = {}
    for bundle in bundles:
        for kernel, helpers, path, sites, launcher_sites, path_calls, paths in _bundle_kernels(bundle):
            found = gathered.setdefault(kernel.id, _Gathered(bundle.library))
            found.add(bundle, kernel, helpers, path, sites, launcher_sites)
            found.path_calls.update(dict.fromkeys(path_calls))
            found.call_paths.update(dict.fromkeys(paths))
    return [g.context() for g in gathered.values()]


def _bundle_kernels(bundle: Bundle | BundleForQA):
    by_id = {r.id: r for r in bundle.regions}
    callees: dict[str, list[str]] = {}
    calls: dict[tuple[str, str], list[int]] = {}
    for edge in bundle.edges:
        callees.setdefault(edge.caller, []).append(edge.callee)
        calls.setdefault((edge.caller, edge.callee), []).append(edge.line)
    for kernel in bundle.regions:
        if kernel.role != Role.KERNEL or not kernel.live_for:
            continue
        live = set(kernel.live_for)
        helpers = [h for h in _reachable_helpers(kernel.id, callees, by_id) if live & set(called_for(h, kernel.id))]
        path_ids: list[str] = []
        paths = [tuple(p[:-1]) for p in bundle.call_paths if p and p[-1] == kernel.id]
        for call_path in paths:
            path_ids += [rid for rid in call_path if rid not in path_ids]
        path = [by_id[rid] for rid in path_ids if rid in by_id]
        sites = [s for s in bundle.launch_sites if s.kernel == kernel.id]
        launchers = {s.launcher for s in sites}
        steps = {(p[i], p[i + 1]) for p in paths for i in range(len(p) - 1) if p[i] not in launchers}
        path_calls = [(caller, callee, line) for caller, callee in steps for line in calls.get((caller, callee), [])]
        launcher_sites = [s for s in bundle.launch_sites if s.launcher in launchers]
        yield kernel, helpers, path, sites, launcher_sites, path_calls, paths


def called_for(helper: Region, kernel_id: str) -> list[str]:
    """The entries for which the kernel's instantiation calls ``helper`` (the overload its types select), as the
    liveness walk saw; where it did not see the calls, every entry the helper is live for."""
    return helper.live_via.get(kernel_id, []) if helper.live_via else helper.live_for


@dataclass
class _Gathered:
    library: str
    kernel: Region | None = None
    live_for: dict[str, None] = field(default_factory=dict)
    helpers: dict[str, Region] = field(default_factory=dict)
    helper_live: dict[str, dict[str, None]] = field(default_factory=dict)
    path: dict[str, Region] = field(default_factory=dict)
    path_live: dict[str, dict[str, None]] = field(default_factory=dict)
    sites: dict[tuple[str, int], LaunchSite] = field(default_factory=dict)
    launcher_sites: dict[tuple[str, int, str], LaunchSite] = field(default_factory=dict)
    bundles: list[str] = field(default_factory=list)
    families: dict[str, None] = field(default_factory=dict)
    bundle_entries: dict[str, None] = field(default_factory=dict)
    path_calls: dict[tuple[str, str, int], None] = field(default_factory=dict)
    call_paths: dict[tuple[str, ...], None] = field(default_factory=dict)

    def add(self, bundle: Bundle | BundleForQA, kernel: Region, helpers, path, sites, launcher_sites) -> None:
        self.kernel = self.kernel or kernel
        self.live_for.update(dict.fromkeys(kernel.live_for))
        live = set(kernel.live_for)
        for helper in helpers:
            self.helpers.setdefault(helper.id, helper)
            called = called_for(helper, kernel.id)
            self.helper_live.setdefault(helper.id, {}).update(dict.fromkeys(e for e in called if e in live))
        for region in path:
            self.path.setdefault(region.id, region)
            self.path_live.setdefault(region.id, {}).update(dict.fromkeys(e for e in region.live_for if e in live))
        for site in sites:
            self.sites.setdefault((site.launcher, site.line), site)
        for site in launcher_sites:
            self.launcher_sites.setdefault((site.launcher, site.line, site.kernel), site)
        self.bundles.append(bundle.id)
        self.families[bundle.family] = None
        self.bundle_entries.update(dict.fromkeys(bundle.entries))

    def context(self) -> KernelContext:
        assert self.kernel is not None

        def merged(region: Region, live: dict[str, None]) -> Region:
            entries = sorted(live)
            return region if entries == region.live_for else region.model_copy(update={"live_for": entries})

        return KernelContext(
            library=self.library,
            kernel=merged(self.kernel, self.live_for),
            helpers=tuple(merged(h, self.helper_live[h.id]) for h in self.helpers.values()),
            path=tuple(merged(r, self.path_live[r.id]) for r in self.path.values()),
            launch_sites=tuple(self.sites[k] for k in sorted(self.sites)),
            launcher_sites=tuple(self.launcher_sites[k] for k in sorted(self.launcher_sites)),
            bundles=tuple(self.bundles),
            families=tuple(self.families),
            bundle_entries=tuple(self.bundle_entries),
            path_calls=tuple(sorted(self.path_calls)),
            call_paths=tuple(sorted(self.call_paths)),
        )


def _reachable_helpers(start: str, callees: dict[str, list[str]], by_id: dict[str, Region]) -> tuple[Region, ...]:
    seen: list[str] = []
    stack = list(reversed(callees.get(start, [])))
    while stack:
        rid = stack.pop()
        region = by_id.get(rid)
        if rid in seen or region is None or region.role != Role.DEVICE_HELPER:
            continue
        seen.append(rid)
        stack += reversed(callees.get(rid, []))
    return tuple(by_id[rid] for rid in seen)


def numbered(region: Region, first: int | None = None, last: int | None = None) -> str:
    """The region's code (or lines first..last of it) with each line prefixed by its line number in the file."""
    lines = region.code.split("\n")
    first = first or region.start_line
    last = last or region.end_line
    width = len(str(last))
    return "\n".join(
        f"{n:>{width}}| {lines[n - region.start_line]}"
        for n in range(first, last + 1)
        if 0 <= n - region.start_line < len(lines)
    )


@lru_cache(maxsize=8192)
def lines_of(code: str) -> tuple[str, ...]:
    return tuple(code.split("\n"))


def cited_text(region: Region, first: int, last: int) -> str | None:
    """Lines first..last of the region, or None when they are not all inside it."""
    if not region.start_line <= first <= last <= region.end_line:
        return None
    lines = lines_of(region.code)
    return "\n".join(lines[first - region.start_line : last - region.start_line + 1])
