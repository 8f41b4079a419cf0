"""Per entry point, what changed between two mined revisions: the regions of its bundle whose code changed, and
the kernels whose presence or liveness did."""

from __future__ import annotations

import difflib
import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from miner.diff.mined import MinedRevision, RegionCode
from miner.models import EntryDiff, KernelChange, RegionChange, Role

T = TypeVar("T")
PairKey = tuple[Callable[[Any], tuple], bool]  # (key, whether items that share it pair in order, several at once)


def compare(old: MinedRevision, new: MinedRevision) -> list[EntryDiff]:
    same: dict[tuple[str, str, str], bool] = {}  # (old region id, new region id, entry of a macro) -> unchanged
    spaces = library_namespaces(old) | library_namespaces(new)
    diffs = []
    for entry in sorted(old.entry_regions.keys() | new.entry_regions.keys()):
        if entry not in new.entry_regions:
            diffs.append(EntryDiff(entry=entry, verdict="removed"))
        elif entry not in old.entry_regions:
            diffs.append(EntryDiff(entry=entry, verdict="added"))
        elif entry in old.not_mined and entry in new.not_mined:
            before, after = old.not_mined[entry], new.not_mined[entry]
            note = after if before == after else f"{before} (at NEW: {after})"
            diffs.append(EntryDiff(entry=entry, verdict="not mined", note=note))
        else:
            diffs.append(_entry_diff(entry, old, new, same, spaces))
    return diffs


def library_namespaces(mined: MinedRevision) -> frozenset[str]:
    """The namespaces the libraries' own functions are defined in (``rocsolver``, its versioned ``v32800``):
    a call that gains or loses their qualifier (``rocsolver::getrf_impl``) calls the same code."""
    return frozenset(
        part for r in mined.regions.values() for part in r.qualified_name.split("::")[:-1] if part and part != "std"
    )


def _entry_diff(
    entry: str, old: MinedRevision, new: MinedRevision, same: dict[tuple[str, str, str], bool], spaces: frozenset[str]
) -> EntryDiff:
    before = [old.regions[rid] for rid in old.entry_regions[entry]]
    after = [new.regions[rid] for rid in new.entry_regions[entry]]
    pairs, removed, added = match_regions(before, after, entry)
    changes = []
    for a, b in pairs:
        key = (a.id, b.id, entry if a.macro or b.macro else "")
        if key not in same:
            excluded = a.excluded | b.excluded
            same[key] = a.normalised(excluded, entry, spaces) == b.normalised(excluded, entry, spaces)
        if not same[key]:
            changes.append(_region_change("changed", b, old=a))
    changes += [_region_change("removed", r) for r in removed]
    changes += [_region_change("added", r) for r in added]
    changes.sort(key=lambda c: (c.file, c.line, c.change))
    kernels = _kernel_changes(old.kernels.get(entry, []), new.kernels.get(entry, []), old, new)
    live_added = sorted(_where(k) for k in kernels if k.change in ("added", "now live") and k.live)
    live_removed = sorted(_where(k) for k in kernels if k.change == "now dead" or (k.change == "removed" and k.live))
    return EntryDiff(
        entry=entry,
        verdict="changed" if changes or kernels else "unchanged",
        regions=changes,
        kernels=kernels,
        live_set_changed=bool(live_added or live_removed),
        live_added=live_added,
        live_removed=live_removed,
    )


def match_regions(
    before: list[RegionCode], after: list[RegionCode], entry: str = ""
) -> tuple[list[tuple[RegionCode, RegionCode]], list[RegionCode], list[RegionCode]]:
    """Pairs the regions of two revisions: the entry's own API region on each side (a wrapper that moved into a
    macro defining the whole list is named after its first entry), then by full identity (file, qualified name,
    signature) and the looser keys of ``_region_keys``, then overloads by signature similarity."""
    pairs = []
    own_a = [r for r in before if r.role == "api" and entry in r.names]
    own_b = [r for r in after if r.role == "api" and entry in r.names]
    if len(own_a) == len(own_b) == 1:
        pairs.append((own_a[0], own_b[0]))
        before = [r for r in before if r is not own_a[0]]
        after = [r for r in after if r is not own_b[0]]
    more, left_a, left_b = pair_up(before, after, _region_keys(lambda r: r), order=lambda r: (r.file, r.start_line))
    similar, left_a, left_b = pair_similar(left_a, left_b, lambda r: r)
    return pairs + more + similar, left_a, left_b


_SIMILAR = 0.6  # of the signature's tokens in common, for overloads whose signatures all changed


def pair_similar(before: list[T], after: list[T], region_of: Callable) -> tuple[list[tuple[T, T]], list[T], list[T]]:
    """Pairs what is left among functions of one name in one file (overloads whose signatures all changed, as
    rocSOLVER 6.2's templates on the integer type), the most alike signatures first."""
    by_a, by_b = (
        _group(before, lambda x: (region_of(x).file, region_of(x).name)),
        _group(after, lambda x: (region_of(x).file, region_of(x).name)),
    )
    pairs = []
    for key in by_a.keys() & by_b.keys():
        scored = sorted(
            ((difflib.SequenceMatcher(None, _sig(region_of(a)), _sig(region_of(b)), autojunk=False).ratio(), i, j)
             for i, a in enumerate(by_a[key]) for j, b in enumerate(by_b[key])),
            reverse=True,
        )  # fmt: skip
        used_a, used_b = set(), set()
        for ratio, i, j in scored:
            if ratio >= _SIMILAR and i not in used_a and j not in used_b:
                used_a.add(i)
                used_b.add(j)
                pairs.append((by_a[key][i], by_b[key][j]))
    paired_a = {id(a) for a, _ in pairs}
    paired_b = {id(b) for _, b in pairs}
    return pairs, [x for x in before if id(x) not in paired_a], [x for x in after if id(x) not in paired_b]


def _sig(region: RegionCode) -> list[str]:
    return region.identity[2].split()


def _region_keys(region_of: Callable) -> list[PairKey]:
    """From surest to loosest: the full identity; the same signature in the same file under another namespace
    or class; the same qualified name in the same file (a changed signature); the same signature in another file
    (a moved file); then, where exactly one is left of each, the qualified name, the plain name. A key that holds
    the signature pairs several items that share it, in order; the others pair one with one only."""

    def key(part: Callable, with_signature: bool) -> PairKey:
        return (lambda item: part(region_of(item))), with_signature

    return [
        key(lambda r: r.identity, True),
        key(lambda r: (r.file, r.name, r.identity[2]), True),
        key(lambda r: (r.file, r.qualified_name), False),
        key(lambda r: (r.qualified_name, r.identity[2]), True),
        key(lambda r: (r.name, r.identity[2]), True),
        key(lambda r: (r.qualified_name,), False),
        key(lambda r: (r.file, r.name), False),
    ]


def pair_up(
    before: list[T], after: list[T], keys: list[PairKey], order: Callable[[T], tuple]
) -> tuple[list[tuple[T, T]], list[T], list[T]]:
    """Pairs items by each key in turn: where several items share a key that may pair several, in ``order``;
    by any other key only where exactly one item of each side has it. Returns the pairs and the items of each
    side left unpaired."""
    pairs: list[tuple[T, T]] = []
    left_a, left_b = sorted(before, key=order), sorted(after, key=order)
    for key, several in keys:
        by_a, by_b = _group(left_a, key), _group(left_b, key)
        for k in by_a.keys() & by_b.keys():
            xs, ys = by_a[k], by_b[k]
            if several or len(xs) == len(ys) == 1:
                pairs += zip(xs, ys, strict=False)
        paired_a = {id(a) for a, _ in pairs}
        paired_b = {id(b) for _, b in pairs}
        left_a = [r for r in left_a if id(r) not in paired_a]
        left_b = [r for r in left_b if id(r) not in paired_b]
    return pairs, left_a, left_b


def _group(items: Iterable[T], key: Callable[[T], tuple]) -> dict[tuple, list[T]]:
    groups: dict[tuple, list[T]] = defaultdict(list)
    for item in items:
        groups[key(item)].append(item)
    return groups


def _region_change(change: str, r: RegionCode, old: RegionCode | None = None) -> RegionChange:
    return RegionChange(
        change=change,
        name=r.name,
        qualified_name=r.qualified_name,
        role=Role(r.role),
        file=r.file,
        line=r.start_line,
        old_line=old.start_line if old else 0,
        diff=unified_diff(old, r) if old else "",
    )


_HUNK = re.compile(r"^@@ -(\d+)(,\d+)? \+(\d+)(,\d+)? @@")


def unified_diff(old: RegionCode, new: RegionCode) -> str:
    """The region's code, old against new, with hunk lines numbered as in the files."""
    lines = difflib.unified_diff(
        old.code.splitlines(), new.code.splitlines(), f"a/{old.file}", f"b/{new.file}", lineterm="", n=3
    )

    def renumber(m: re.Match) -> str:
        a, b = int(m.group(1)) + old.start_line - 1, int(m.group(3)) + new.start_line - 1
        return f"@@ -{a}{m.group(2) or ''} +{b}{m.group(4) or ''} @@"

    return "\n".join(_HUNK.sub(renumber, line) for line in lines)


def _kernel_changes(
    before: list[dict], after: list[dict], old: MinedRevision, new: MinedRevision
) -> list[KernelChange]:
    """Kernels paired by their region's identity (a kernel left out of the bundle, by file and name)."""
    a = [_KernelAt(k, old.regions.get(k["region"])) for k in before]
    b = [_KernelAt(k, new.regions.get(k["region"])) for k in after]
    bundled_a, bundled_b = [k for k in a if k.region], [k for k in b if k.region]
    pairs, left_a, left_b = pair_up(bundled_a, bundled_b, _region_keys(lambda k: k.region), lambda k: (k.file, k.line))
    similar, left_a, left_b = pair_similar(left_a, left_b, lambda k: k.region)
    pairs += similar
    unbundled: list[PairKey] = [(lambda k: (k.file, k.record["name"]), False), (lambda k: (k.record["name"],), False)]
    more, removed, added = pair_up(
        left_a + [k for k in a if not k.region], left_b + [k for k in b if not k.region], unbundled,
        order=lambda k: (k.file, k.line),
    )  # fmt: skip
    pairs += more
    changes = [_kernel_change("removed", k) for k in removed] + [_kernel_change("added", k) for k in added]
    for was, now in pairs:
        if was.record["live"] != now.record["live"]:
            changes.append(_kernel_change("now live" if now.record["live"] else "now dead", now))
    changes.sort(key=lambda c: (c.name, c.file, c.line))
    return changes


@dataclass(frozen=True)
class _KernelAt:
    record: dict  # the entry's liveness record of the kernel
    region: RegionCode | None  # None: a kernel the bundle leaves out (launched only in a block the build skips)

    @property
    def file(self) -> str:
        return self.region.file if self.region else self.record["region"].rpartition(":")[0]

    @property
    def line(self) -> int:
        if self.region:
            return self.region.start_line
        return int(self.record["region"].rpartition(":")[2].split("-")[0] or 0)


def _kernel_change(change: str, k: _KernelAt) -> KernelChange:
    record = k.record
    return KernelChange(
        name=record["name"],
        file=k.file,
        line=k.line,
        change=change,
        live=record["live"],
        reason=record.get("reason", ""),
        decided_at=record.get("decided_at", ""),
        detail=record.get("detail", ""),
        conditions=record.get("conditions", []),
    )


def _where(k: KernelChange) -> str:
    return f"{k.name} ({k.file}:{k.line})"
