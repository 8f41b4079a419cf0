"""`qa --since OLD`: after a release, the units of an earlier QA run whose kernel context is unchanged are
carried over (no request); only changed and new contexts are generated; what the earlier run had of kernels
that are gone is dropped, and counted."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from miner.errors import InputError
from miner.models import QAUnit
from miner.qa.journal import Journal
from miner.qa.units import Unit


@dataclass
class SinceCounts:
    """What ``--since`` did, in units (one kernel × one task) and in the records they hold."""

    carried: int = 0
    carried_records: int = 0
    regenerated: int = 0  # units of this run made now: a changed or new kernel context
    replaced: int = 0  # earlier units of a kernel that is still there, whose context changed
    dropped: int = 0  # earlier units of a kernel that is gone
    dropped_records: int = 0
    to_make: set[str] = field(default_factory=set, repr=False)  # keys neither run had done when this one began

    def to_json(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "to_make"}


def open_earlier(path: Path) -> Journal:
    """The journal of the earlier QA run: ``path`` is its output folder, or its qa.jsonl."""
    folder = path if path.is_dir() else path.parent
    journal_path = folder / "qa_units.jsonl"
    if not journal_path.is_file():
        raise InputError(f"--since {path}: no earlier QA run there (no {journal_path.name} beside its qa.jsonl)")
    earlier = Journal(journal_path, writable=False)
    if not earlier.units:
        raise InputError(f"--since {path}: {journal_path.name} holds no finished unit")
    return earlier


def carry_over(units: list[Unit], keys: list[str], journal: Journal, earlier: Journal) -> SinceCounts:
    """Appends to ``journal`` every unit of ``earlier`` whose key (kernel context, task, generator, prompt,
    sampling) a unit of this run has, with the context's current bundles and entries and no cost."""
    counts = SinceCounts()
    for unit, key in zip(units, keys, strict=True):
        if key in journal:
            continue
        if key not in earlier:
            counts.to_make.add(key)
            continue
        old = earlier.units[key]
        context = unit.context
        records = [
            r.model_copy(update={"bundles": list(context.bundles), "entries": context.entries}) for r in old.records
        ]
        journal.append(QAUnit(key=key, kernel=old.kernel, task=old.task, records=records, dropped=old.dropped))
        counts.carried += 1
        counts.carried_records += len(records)
    return counts


def settle(counts: SinceCounts, units: list[Unit], keys: list[str], journal: Journal, earlier: Journal) -> None:
    """Counts what was made now, and what of the earlier run this one does not hold: replaced or dropped."""
    counts.regenerated = sum(1 for k in counts.to_make if k in journal)
    now = set(keys)
    kept_kernels = {(_file(u.context.kernel.id), u.task) for u in units}
    kept_named = {(_file(u.context.kernel.id), u.context.kernel.name, u.task) for u in units}
    for key, old in earlier.units.items():
        if key in now:
            continue
        name = old.records[0].kernel_name if old.records else ""
        if (_file(old.kernel), name, old.task) in kept_named or (
            not name and (_file(old.kernel), old.task) in kept_kernels
        ):
            counts.replaced += 1
        else:
            counts.dropped += 1
            counts.dropped_records += len(old.records)


def _file(region_id: str) -> str:
    return region_id.rpartition(":")[0]
