"""Which instance starts a TU's walk takes, and where its instances lead out of it.

A library given with ``--with`` is walked only from the functions the mined library reaches of it
(rocSOLVER reaches about one in seven of rocBLAS's instantiations): its TUs start their walks from the
wanted starts alone and record the rest (``WalkScope``); what their instances reach in other TUs
(``references``) is wanted in turn, by the TUs parsed after, and a wanted start that no walk holds in the
end is walked by the first TU that offers it (``unheld``), until none is left (``miner.parse.stage``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import clang.cindex as ci

from miner.models import Instance, WalkScope


def scoped_starts(starts: Sequence[ci.Cursor], wanted: frozenset[str]) -> tuple[list[ci.Cursor], WalkScope]:
    """The starts among ``wanted`` (by USR), and the scope that says so (what it holds is added after the walk)."""
    usrs = [s.get_usr() for s in starts]
    kept = [s for s, usr in zip(starts, usrs, strict=True) if usr in wanted]
    walked = sorted({usr for usr in usrs if usr in wanted})
    return kept, WalkScope(tuple(sorted(set(usrs))), tuple(walked))


def references(instances: Iterable[Instance]) -> tuple[str, ...]:
    """The functions ``instances`` call, or read the result of in a condition or a value, that are not
    among them: where their walk goes on in another TU."""
    held: set[str] = set()
    found: set[str] = set()
    exprs: list = []
    for inst in instances:
        held.add(inst.usr)
        for call in inst.calls:
            found.add(call.target)
            exprs.extend(call.args)
            exprs.extend(g.expr for g in call.guards)
        exprs.extend(value for _, value in inst.locals)
        for value, guards in inst.returns:
            exprs.append(value)
            exprs.extend(g.expr for g in guards)
    seen: set[int] = set()
    while exprs:
        expr = exprs.pop()
        if type(expr) is not tuple or id(expr) in seen:
            continue
        seen.add(id(expr))
        if len(expr) == 3 and expr[0] == "call" and type(expr[1]) is str:
            found.add(expr[1])
        exprs.extend(expr)
    return tuple(sorted(found - held))


def unheld(wanted: frozenset[str], scopes: Mapping[str, WalkScope | None]) -> dict[str, frozenset[str]]:
    """The TUs to walk again: for each wanted start that no walk holds, the first TU (by path) that offers it.
    A TU walked whole (no scope) holds all its starts, whatever they are."""
    held: set[str] = set()
    first: dict[str, str] = {}
    for path in sorted(scopes):
        scope = scopes[path]
        if scope is None:
            continue
        held.update(scope.held)
        held.update(scope.walked)  # a start that gave no instance (excluded, no body) is walked all the same
        for usr in scope.starts:
            if usr in wanted:
                first.setdefault(usr, path)
    out: dict[str, set[str]] = {}
    for usr, path in first.items():
        if usr not in held:
            out.setdefault(path, set()).add(usr)
    return {path: frozenset(usrs) for path, usrs in sorted(out.items())}
