"""Parameters bound to intervals across a walk's argument contexts: a binding remembers the call that fixed
it; bindings join and widen (to integer type boundaries, so a recursion's contexts settle); what a guard
establishes narrows them; a guard is decided over them, and where one parameter's range splits it, by cases."""

from __future__ import annotations

import bisect
from dataclasses import dataclass

from miner.liveness.domain.evaluate import (
    FACTS,
    Interval,
    Linear,
    interval,
    params_of,
    truthiness,
)
from miner.liveness.simplify import fold
from miner.models import Expr, Guard

Aliases = frozenset[tuple[str, str]]
"""Pairs of parameters known to hold the same value (``dot(x, x)``), each pair sorted, closed under transitivity."""


@dataclass(frozen=True, slots=True)
class Binding:
    value: Interval  # (v, v) for a constant, the type's range for a narrower integer
    origin: str  # "file:line" of the call that fixed it

    def describe(self, param: str) -> str:
        lo, hi = self.value
        what = f"{param} = {lo}" if lo == hi else f"{param} in [{lo}, {hi}]"
        return f"{what} ({self.origin})"


def join_bindings(a: dict[str, Binding], b: dict[str, Binding]) -> dict[str, Binding]:
    """Each parameter bound in both, to the smallest interval holding both values."""
    out = {}
    for k in a.keys() & b.keys():
        (alo, ahi), (blo, bhi) = a[k].value, b[k].value
        out[k] = a[k] if (alo, ahi) == (blo, bhi) else Binding((min(alo, blo), max(ahi, bhi)), "several callers")
    return out


def widen_bindings(hull: dict[str, Binding], new: dict[str, Binding]) -> dict[str, Binding]:
    """Each parameter bound in both: the hull's interval if it holds the new one, else the hull of both
    with each bound that grew moved out to the next integer type boundary; one that grew past the last
    boundary (an offset summed along a recursion) is dropped. A bound moves through finitely many
    boundaries, so a walk's contexts for an instance settle."""
    out = {}
    for k in hull.keys() & new.keys():
        (hlo, hhi), (nlo, nhi) = hull[k].value, new[k].value
        if hlo <= nlo and nhi <= hhi:
            out[k] = hull[k]
            continue
        lo = hlo if nlo >= hlo else _boundary_below(nlo)
        hi = hhi if nhi <= hhi else _boundary_above(nhi)
        if lo is not None and hi is not None:
            out[k] = Binding((lo, hi), "several callers")
    return out


def interval_within(inner: Interval, outer: Interval) -> bool:
    return outer[0] <= inner[0] and inner[1] <= outer[1]


_LANDMARKS = sorted({0, *(s * (2**b + d) for s in (1, -1) for b in (15, 16, 31, 32, 63) for d in (0, -1))})
_EXACT_UP_TO = 2**20


def _boundary_below(v: int) -> int | None:
    """The largest integer type boundary at or below ``v``; None below the last."""
    i = bisect.bisect_right(_LANDMARKS, v)
    return _LANDMARKS[i - 1] if i else None


def _boundary_above(v: int) -> int | None:
    """The smallest integer type boundary at or above ``v``; None above the last."""
    i = bisect.bisect_left(_LANDMARKS, v)
    return _LANDMARKS[i] if i < len(_LANDMARKS) else None


def snap(iv: Interval) -> Interval:
    """A large bound widened to the next type boundary (``n - 1`` with a 32-bit ``n`` is passed on as
    the 32-bit range, not as one interval per expression), so callees see few distinct argument contexts;
    small bounds (block sizes, constants) stay exact."""
    lo, hi = iv
    below = _boundary_below(lo) if lo < -_EXACT_UP_TO else None
    above = _boundary_above(hi) if hi > _EXACT_UP_TO else None
    return (lo if below is None else below, hi if above is None else above)


_I64_MIN, _I64_MAX = -(2**63), 2**63 - 1


def narrow(values: dict, locals_: dict, known: list[Linear]) -> tuple[dict, dict]:
    """What facts on one variable say about it (``m >= 2`` after ``if (m < 2) return``), applied to the
    intervals of parameters and the values of locals; the inputs are not changed."""
    for form, const in known:
        if len(form) != 1:
            continue
        (var, coeff) = next(iter(form.items()))
        lo, hi = (-(const // coeff), _I64_MAX) if coeff > 0 else (_I64_MIN, const // -coeff)  # coeff * x + const >= 0
        values, locals_ = bounded(var, (lo, hi), values, locals_)
    return values, locals_


def bounded(var: Expr, iv: Interval, values: dict, locals_: dict) -> tuple[dict, dict]:
    """``var`` (a parameter, a local, or a value at a place) known to be in ``iv``; the inputs are not changed."""
    lo, hi = iv
    kind = var[0]
    if kind == "param":
        cur = values.get(var[1], (_I64_MIN, _I64_MAX))
        new = (max(cur[0], lo), min(cur[1], hi))
        if new != cur and new[0] <= new[1]:
            values = {**values, var[1]: new}
    elif kind == "local":
        locals_ = {**locals_, var[1]: ("typed", locals_.get(var[1], ("unknown",)), lo, hi)}
    elif kind == "at":
        over = dict(locals_.get(FACTS) or {})
        cur = over.get(var, (_I64_MIN, _I64_MAX))
        new = (max(cur[0], lo), min(cur[1], hi))
        if new[0] <= new[1]:
            over[var] = new
            locals_ = {**locals_, FACTS: over}
    return values, locals_


_MAX_SPLITS = 96  # evaluations of one guard per parameter while narrowing it by cases


def refine(guard: Guard, values: dict, locals_: dict, calls, same: Aliases, reads_table: bool = True) -> tuple | None:
    """What taking an undecided ``guard``'s way says about the values it reads, beyond linear relations:
    a value known to be in ``[lo, hi]`` that the guard says is not ``lo`` (or ``hi``) is in ``[lo + 1, hi]``
    (``if (blk == 0) return`` with ``blk`` from a table of ``0, 32, 64``); and, for a guard that reads a
    table, directly or through a function that reads one (``reads_table``), each parameter it reads narrowed to the values for which it can go this
    way, found by splitting the parameter's range until each part decides the guard (``blk == 0`` with
    ``blk = size[row(m)][column(n)]`` and ``m = 180`` holds only for ``n > 7680``). The bounds learnt, as
    (variable, interval) pairs for ``bounded``; None when no value makes it go this way."""
    expr, want = guard.expr, guard.want
    while expr[0] == "unary" and expr[1] == "!":
        expr, want = expr[2], not want
    out_values, out_locals = values, locals_
    learnt: list[tuple[Expr, Interval]] = []
    excluded = None
    if expr[0] == "binary" and expr[1] in ("==", "!=") and (expr[1] == "!=") == want:
        side, const = (expr[2], expr[3]) if expr[3][0] == "const" else (expr[3], expr[2])
        if const[0] == "const":
            excluded = (side, const[1])
    elif want and expr[0] in ("param", "local", "at"):
        excluded = (expr, 0)
    if excluded is not None and excluded[0][0] in ("param", "local", "at"):
        side, c = excluded
        iv = interval(side, values, locals_, 0, calls, same=same)
        if iv is not None and iv[0] != iv[1] and c in iv:
            learnt.append((side, (c + 1, iv[1]) if iv[0] == c else (iv[0], c - 1)))
            out_values, out_locals = bounded(*learnt[-1], values, locals_)
    if reads_table:
        for param in sorted(params_of(expr, locals_) & out_values.keys()):
            iv = out_values[param]
            if iv[0] == iv[1] or iv[1] - iv[0] > 2**32:
                continue
            ends = [decides(expr, {**out_values, param: (v, v)}, out_locals, calls, same) for v in iv]
            if ends == [None, None]:
                continue  # undecided at both ends: splitting this one is unlikely to decide anything
            kept = cases(expr, want, param, out_values, out_locals, calls, same)
            if not kept:
                return None
            hull = (min(k[0] for k in kept), max(k[1] for k in kept))
            if hull != iv:
                learnt.append((("param", param), hull))
                out_values = {**out_values, param: hull}
    return tuple(learnt)


def folded_text(guard: Guard, values: dict, locals_: dict, calls, memo: dict, same: Aliases) -> str:
    """The guard's text without the operands of its ``&&`` / ``||`` chain that this instance decides."""
    operands = chain_operands(guard.expr)
    if len(operands) < 2:
        return guard.text
    known = tuple(truthiness(interval(e, values, locals_, 0, calls, memo, same=same)) for e in operands)
    return guard.text if all(k is None for k in known) else fold(guard.text, known)


def chain_operands(expr: Expr) -> list[Expr]:
    if expr[0] == "binary" and expr[1] in ("&&", "||"):
        return chain_operands(expr[2]) + chain_operands(expr[3])
    return [expr]


def decides(expr: Expr, values: dict, locals_: dict, calls, same: Aliases) -> bool | None:
    return truthiness(interval(expr, values, locals_, 0, calls, same=same))


def cases(expr: Expr, want: bool, param: str, values: dict, locals_: dict, calls, same: Aliases) -> list[Interval]:
    """The parts of ``param``'s range where ``expr`` can be ``want``: each part that leaves it undecided is
    halved, until the parts decide it or the evaluations run out (what is left undecided is kept)."""
    todo = [values[param]]
    kept: list[Interval] = []
    budget = _MAX_SPLITS
    while todo:
        part = todo.pop()
        budget -= 1
        held = decides(expr, {**values, param: part}, locals_, calls, same)
        if held is None and part[0] < part[1] and budget > 0:
            mid = (part[0] + part[1]) // 2
            todo += [(mid + 1, part[1]), (part[0], mid)]
        elif held is None or held == want:
            kept.append(part)
    return kept


def reads_lookup(expr: Expr, locals_: dict, lookup=lambda usr: True) -> bool:
    """Whether ``expr`` reads a table element, or the result of a function ``lookup`` says reads one, also
    through the locals it reads."""
    seen: set[int] = set()
    stack = [(expr, 0)]
    while stack:
        e, depth = stack.pop()
        if id(e) in seen or depth > 12:
            continue
        seen.add(id(e))
        tag = e[0]
        if tag in ("index", "first") or (tag == "call" and lookup(e[1])):
            return True
        if tag == "local":
            if (value := locals_.get(e[1])) is not None:
                stack.append((value, depth + 1))
            continue
        stack.extend((x, depth + 1) for x in e[1:] if type(x) is tuple and x and type(x[0]) is str)
    return False
