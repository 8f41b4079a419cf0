"""What the traversal does with a node: follow it, exclude it by a named rule, or stop at a
boundary (generated code, HIP runtime, std, another library, an undefined function)."""

from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass

from miner.models import BoundaryKind, ExecSpace
from miner.source.profile import Profile, Rules


@dataclass(frozen=True, slots=True)
class Verdict:
    action: str  # "follow", "exclude", "boundary"
    rule: str = ""  # "deny_names:log_*", "boundary:hip-runtime", ...


FOLLOW = Verdict("follow")


def _match(value: str, patterns: tuple[str, ...]) -> str | None:
    return next((p for p in patterns if fnmatch.fnmatchcase(value, p)), None)


def boundary(rules: Rules, name: str, qualified: str, path: str) -> str | None:
    """The kind of boundary rule (generated code) a function matches, if one does."""
    for b in rules.boundaries:
        if _match(name, b.names) or _match(qualified, b.names) or (path and _match(path, b.paths)):
            return b.kind
    return None


def exclusion(rules: Rules, name: str, qualified: str, path: str, exec_space: str) -> str | None:
    """The deny rule that excludes a function defined at ``path`` in the checkout, if one does
    (boundaries are not excluded: ``boundary`` is asked first)."""
    if _match(name, rules.allow_names) or _match(qualified, rules.allow_names):
        return None
    if denied := _match(name, rules.deny_names) or _match(qualified, rules.deny_names):
        return f"deny_names:{denied}"
    top = qualified.split("::", 1)[0] if "::" in qualified else ""
    if top and (p := _match(top, rules.deny_namespaces)):
        return f"deny_namespaces:{p}"
    if p := _match(path, rules.deny_paths):
        return f"deny_paths:{p}"
    if exec_space == ExecSpace.HOST.value and (p := _match(path, rules.deny_host_paths)):
        return f"deny_host_paths:{p}"
    return None


class RuleSet:
    def __init__(
        self,
        profile: Profile,
        other_roots: dict[str, str] | None = None,
        other_rules: dict[str, RuleSet] | None = None,
    ) -> None:
        self.profile = profile
        self.rules = profile.rules
        self.other_roots = {k: os.path.normpath(v) for k, v in (other_roots or {}).items()}
        self.other_rules = other_rules or {}  # "@lib/" prefix -> that library's own rules
        self._memo: dict[str, Verdict] = {}

    def verdict(self, node_id: str, node: dict) -> Verdict:
        """``classify``, memoised: a node's verdict does not depend on the entry point."""
        v = self._memo.get(node_id)
        if v is None:
            v = self._memo[node_id] = self.classify(node)
        return v

    def classify(self, node: dict) -> Verdict:
        name, qualified, path = node["name"], node["qualified_name"], node["file"]
        for prefix, other in self.other_rules.items():
            if path.startswith(prefix):  # another library's code follows that library's rules
                v = other.classify({**node, "file": path[len(prefix) :]})
                return v if v.action != "exclude" else Verdict(v.action, f"{prefix[1:-1]}:{v.rule}")
        kind = boundary(self.rules, name, qualified, path)
        if kind is not None:
            return Verdict("boundary", kind)
        allowed = _match(name, self.rules.allow_names) or _match(qualified, self.rules.allow_names)
        denied = None if allowed else _match(name, self.rules.deny_names) or _match(qualified, self.rules.deny_names)
        if denied:  # a denied name is excluded wherever it is defined, here or in another library
            return Verdict("exclude", f"deny_names:{denied}")
        if not node["defined"] or os.path.isabs(path):
            return Verdict("boundary", self._undefined_kind(name, qualified, path))
        rule = exclusion(self.rules, name, qualified, path, node["exec_space"])
        return Verdict("exclude", rule) if rule else FOLLOW

    def _undefined_kind(self, name: str, qualified: str, path: str) -> str:
        norm = os.path.normpath(path) if path else ""
        if any(norm.startswith(root + os.sep) for root in self.other_roots.values()):
            return BoundaryKind.OTHER_LIBRARY.value
        for other in self.profile.other_libraries:
            if any(name.startswith(p) for p in other.name_prefixes):
                return BoundaryKind.OTHER_LIBRARY.value
        if qualified.startswith(("std::", "__gnu_cxx::")) or "/c++/" in norm:
            return BoundaryKind.STD.value
        if "/hip/" in norm or name.startswith(("hip", "__hip", "__ockl", "__ocml", "__builtin")) or "clang" in norm:
            return BoundaryKind.HIP_RUNTIME.value
        if norm and os.path.isabs(norm):
            return BoundaryKind.SYSTEM.value
        return BoundaryKind.UNDEFINED.value
