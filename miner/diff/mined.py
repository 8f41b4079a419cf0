"""One mined revision as the release diff reads it: per entry point, its bundle's regions, what the traversal
excluded from each, and the liveness of its kernels."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from miner.diff.normalise import own_instance_only, signature, tokens, unqualified, without_excluded
from miner.errors import InputError
from miner.outputs import records


@dataclass(frozen=True)
class RegionCode:
    id: str
    name: str
    qualified_name: str
    role: str
    file: str
    start_line: int
    code: str
    names: tuple[str, ...]  # every entry point this span defines (``f`` and ``f_64``; a macro's whole list)
    macro: str  # the macro whose expansion defines the entry points of this span, "" when written out
    excluded: frozenset[str]  # the callees the traversal excluded from this region (logging, numerics checks, ...)

    @cached_property
    def tokens(self) -> list[str]:
        return tokens(self.code)

    @cached_property
    def identity(self) -> tuple[str, str, str]:
        """File, qualified name and signature: overloads and same-named functions of other files stay apart."""
        return self.file, self.qualified_name, signature(self.tokens)

    def normalised(self, excluded: frozenset[str], entry: str, namespaces: frozenset[str] = frozenset()) -> list[str]:
        """The tokens compared for ``entry``: less the library's own namespace qualifiers, what calls excluded
        code, and, in a macro that defines one entry point per line, the other entry points' lines."""
        toks = without_excluded(unqualified(self.tokens, namespaces), excluded)
        if self.macro:
            toks = own_instance_only(toks, {entry, entry.removesuffix("_64")})
        return toks


@dataclass
class MinedRevision:
    out: Path
    regions: dict[str, RegionCode] = field(default_factory=dict)
    entry_regions: dict[str, list[str]] = field(default_factory=dict)  # entry -> region ids of its bundle
    kernels: dict[str, list[dict]] = field(default_factory=dict)  # entry -> its kernels' liveness records
    not_mined: dict[str, str] = field(default_factory=dict)  # entry in no bundle -> why ("excluded: deny_paths:...")


def read_mined(out: Path) -> MinedRevision:
    """The mine in ``out``; a folder that is not one gives an `InputError` naming what is missing."""
    mined = MinedRevision(out)
    excluded: dict[str, set[str]] = {}
    try:
        for bundle in records(out / "bundles.jsonl"):
            for ex in bundle["exclusions"]:
                excluded.setdefault(ex["caller"], set()).add(ex["name"])
            for r in bundle["regions"]:
                if r["id"] not in mined.regions:
                    mined.regions[r["id"]] = RegionCode(
                        r["id"], r["name"], r["qualified_name"], r["role"], r["file"], r["start_line"], r["code"],
                        tuple(r["names"]), r["macro"], frozenset(),
                    )  # fmt: skip
                for entry in r["entries"]:
                    mined.entry_regions.setdefault(entry, []).append(r["id"])
        for record in records(out / "entries.jsonl"):
            mined.kernels[record["name"]] = record["kernels"] if record["bundle"] else []
            mined.entry_regions.setdefault(record["name"], [])
        if (out / "not_reached.jsonl").is_file():
            for record in records(out / "not_reached.jsonl"):
                why = record["reason"] + (f": {record['detail']}" if record.get("detail") else "")
                mined.not_mined[record["entry"]] = why
                mined.entry_regions.setdefault(record["entry"], [])
    except (KeyError, TypeError) as exc:
        raise InputError(f"{out}: not a rocm-miner output folder (a record lacks {exc})") from None
    for rid, names in excluded.items():
        if rid in mined.regions:
            r = mined.regions[rid]
            mined.regions[rid] = RegionCode(
                r.id, r.name, r.qualified_name, r.role, r.file, r.start_line, r.code, r.names, r.macro, frozenset(names)
            )
    return mined
