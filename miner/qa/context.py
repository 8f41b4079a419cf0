"""The code a question about one kernel may draw on: the kernel, its device helpers, its launch sites,
and the regions on the call paths from the bundle's entries down to it."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from miner.models import Bundle, LaunchSite, Region, Role


@dataclass(frozen=True)
class KernelContext:
    bundle: Bundle
    kernel: Region
    helpers: tuple[Region, ...]  # device helpers the kernel reaches, transitively
    path: tuple[Region, ...]  # api -> ... -> launcher regions leading to the kernel, in path order
    launch_sites: tuple[LaunchSite, ...]

    @property
    def entries(self) -> list[str]:
        return self.kernel.live_for

    @property
    def regions(self) -> tuple[Region, ...]:
        return (*self.path, self.kernel, *self.helpers)

    def region(self, region_id: str) -> Region | None:
        return next((r for r in self.regions if r.id == region_id), None)


def live_kernels(bundle: Bundle) -> list[KernelContext]:
    """A context for every kernel of the bundle that can run for at least one of its entries."""
    by_id = {r.id: r for r in bundle.regions}
    callees: dict[str, list[str]] = {}
    for edge in bundle.edges:
        callees.setdefault(edge.caller, []).append(edge.callee)
    contexts = []
    for kernel in bundle.regions:
        if kernel.role != Role.KERNEL or not kernel.live_for:
            continue
        live = set(kernel.live_for)
        helpers = tuple(h for h in _reachable_helpers(kernel.id, callees, by_id) if live & set(h.live_for))
        path_ids: list[str] = []
        for call_path in bundle.call_paths:
            if call_path and call_path[-1] == kernel.id:
                path_ids += [rid for rid in call_path[:-1] if rid not in path_ids]
        path = tuple(by_id[rid] for rid in path_ids if rid in by_id)
        sites = tuple(s for s in bundle.launch_sites if s.kernel == kernel.id)
        contexts.append(KernelContext(bundle, kernel, helpers, path, sites))
    return contexts


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
