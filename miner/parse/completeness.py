"""Which TUs clang did not read whole (a fatal diagnostic: a missing header, too many errors; an error; no clang
parse at all): the ones that make a mine degraded. Those the traversal's rules keep out anyway (a generated-code boundary such as
rocBLAS's tensile_host.cpp, which needs Tensile's generated headers; a denied path) are expected, and only named."""

from __future__ import annotations

import fnmatch
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from miner.models import ParsedTU
from miner.source.profile import Profile


@dataclass
class IncompleteParses:
    counted: list[tuple[str, str]] = field(default_factory=list)  # (TU, first failure) the rules do not keep out
    outside: list[str] = field(default_factory=list)  # incomplete TUs the rules keep out of the traversal

    def add(self, prefix: str, profile: Profile, parsed: Iterable[ParsedTU]) -> None:
        kept_out = [*(p for b in profile.rules.boundaries for p in b.paths), *profile.rules.deny_paths]
        for tu in parsed:
            if tu.path.startswith("<") or not tu.failure:  # "<pch:...>": a precompiled prefix, not a TU
                continue
            if any(fnmatch.fnmatchcase(tu.path, glob) for glob in kept_out):
                self.outside.append(prefix + tu.path)
            else:
                self.counted.append((prefix + tu.path, tu.failure))

    def causes(self, most: int = 3) -> dict[str, int]:
        """The commonest first failures, with how many TUs each made incomplete."""
        return dict(Counter(why for _, why in self.counted).most_common(most))
