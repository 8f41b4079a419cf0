"""Evaluating a guard under what an entry point passes down its call path.

Values are intervals: a constant argument is ``(v, v)``, a 32-bit ``rocblas_int`` passed into
an ``int64_t`` parameter is ``(-2**31, 2**31 - 1)``, so ``m_64 <= c_i32_max`` is decided even
though ``m_64`` is not a constant. Locals are read through their initializers (the walker keeps
only locals that are never assigned again)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from miner.models import Expr

Interval = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Table:
    """A constant array passed by value into a function's result (``get_index(intervals, max, dim)``):
    its elements, each an integer, an interval (rows merged where the row is not known) or a row."""

    items: tuple


FACTS = "<facts>"
"""The key under which a locals mapping carries bounds that guards established on values that are not variables
(``blk`` as returned by a call, after ``if (blk == 0) return``): expression -> interval."""
_MAX_SEARCH = 256  # values a search loop's variable is tried with
CallValue = Callable[[str, tuple["Interval | Table | None", ...]], "Interval | None"]
"""The values a function returns given its arguments' values (a summary of its ``return`` statements)."""
Relate = Callable[["Expr", "int | None"], "Interval | None"]
"""Bounds on a sum or difference from relations known where it is evaluated: at the point of use
(``None``) or at the line a local was assigned (``jb = std::min(n - j, nb)`` in a loop on ``j < n``);
a negative line stands for a value whose place is unknown (no relation applies)."""
UNPLACED = -1
_BOOL: Interval = (0, 1)
_INT64: Interval = (-(2**63), 2**63 - 1)
_MAX_DEPTH = 40  # nesting of expressions and the values of the locals they read


def _div(a: int, b: int) -> int | None:
    if b == 0:
        return None
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q  # C truncates toward zero


def _mod(a: int, b: int) -> int | None:
    q = _div(a, b)
    return None if q is None else a - q * b


_EXACT: dict[str, Callable[[int, int], int | None]] = {
    "/": _div,
    "%": _mod,
    "&": lambda a, b: a & b,
    "|": lambda a, b: a | b,
    "^": lambda a, b: a ^ b,
    "<<": lambda a, b: a << b if 0 <= b < 64 else None,
    ">>": lambda a, b: a >> b if 0 <= b < 64 else None,
}


def _flag(value: bool | None) -> Interval:
    return _BOOL if value is None else (int(value), int(value))


def truthiness(iv: Interval | None) -> bool | None:
    if iv is None:
        return None
    lo, hi = iv
    if lo == hi == 0:
        return False
    if lo > 0 or hi < 0:
        return True
    return None


def _compare(op: str, a: Interval, b: Interval) -> Interval | None:
    (al, ah), (bl, bh) = a, b
    if op == "<":
        return _flag(True if ah < bl else False if al >= bh else None)
    if op == "<=":
        return _flag(True if ah <= bl else False if al > bh else None)
    if op == ">":
        return _flag(True if al > bh else False if ah <= bl else None)
    if op == ">=":
        return _flag(True if al >= bh else False if ah < bl else None)
    disjoint = ah < bl or bh < al
    same = al == ah == bl == bh
    if op == "==":
        return _flag(True if same else False if disjoint else None)
    if op == "!=":
        return _flag(False if same else True if disjoint else None)
    return None


def _arith(op: str, a: Interval, b: Interval) -> Interval | None:
    (al, ah), (bl, bh) = a, b
    if op == "+":
        return (al + bl, ah + bh)
    if op == "-":
        return (al - bh, ah - bl)
    if op == "*":
        products = (al * bl, al * bh, ah * bl, ah * bh)
        return (min(products), max(products))
    if op in ("/", "%") and (bl > 0 or bh < 0) and (al != ah or bl != bh):
        return _divide(op, a, b)
    fn = _EXACT.get(op)
    if fn is None or al != ah or bl != bh:
        return None
    value = fn(al, bl)
    return None if value is None else (value, value)


def _divide(op: str, a: Interval, b: Interval) -> Interval | None:
    """``a / b`` or ``a % b`` for a divisor that is never zero (C truncates toward zero)."""
    (al, ah), (bl, bh) = a, b
    if op == "/":
        corners = [_div(x, y) for x in (al, ah) for y in (bl, bh)]
        return (min(corners), max(corners))  # type: ignore[type-var]
    bound = max(abs(bl), abs(bh)) - 1  # |a % b| < |b|, with the sign of a
    return (0 if al >= 0 else max(al, -bound), 0 if ah <= 0 else min(ah, bound))


def _grown(base: Interval | None, updates: list[tuple[str, Interval | None]]) -> Interval | None:
    """A local that starts in ``base`` and is only ever increased: ``+=`` a non-negative amount, ``*=`` at
    least 1 or ``<<=`` from a non-negative start. It never falls below where it started."""
    if base is None:
        return None
    for op, amount in updates:
        if amount is None:
            return None
        if op == "+=" and amount[0] < 0:
            return None
        if op == "*=" and (amount[0] < 1 or base[0] < 0):
            return None
        if op == "<<=" and (amount[0] < 0 or base[0] < 0):
            return None
    return (base[0], _INT64[1])


def interval(
    expr: Expr,
    env: Mapping[str, Interval],
    locals_: Mapping[str, Expr] | None = None,
    depth: int = 0,
    calls: CallValue | None = None,
    memo: dict[str, Interval | None] | None = None,
    relate: Relate | None = None,
    scope: int | None = None,
    same: frozenset[tuple[str, str]] = frozenset(),
) -> Interval | None:
    """The values ``expr`` can take given ``env`` (parameter -> interval); None when unknown.
    ``&&`` and ``||`` short-circuit as in C: ``batch_count > 1 && handle->x`` is decided by
    ``batch_count = 1`` alone. ``calls`` gives a called function's result from its arguments;
    ``relate`` narrows sums and differences by relations between variables (``scope``: the line where
    the value being read was assigned, None at the point of use); ``same`` holds pairs of parameters known
    to be equal (``x != y`` is false in ``dot(x, x)``).
    Each local is evaluated once per expression (``memo``): locals given many values that read
    each other would otherwise be re-evaluated exponentially often."""
    return _Interval(env, locals_ or {}, calls, {} if memo is None else memo, relate, same).value(expr, depth, scope)


def _ANYTHING(usr: str) -> bool:
    """A ``CallValue`` without a ``returns`` method: any function may return something it can read."""
    return True


class _Interval:
    """One evaluation's fixed inputs, so that the recursion passes only the expression, depth and scope."""

    __slots__ = ("env", "locals_", "calls", "memo", "relate", "same", "over")

    def __init__(self, env, locals_, calls, memo, relate, same) -> None:
        self.env, self.locals_, self.calls, self.memo, self.relate, self.same = env, locals_, calls, memo, relate, same
        self.over = locals_.get(FACTS)

    def value(self, expr: Expr, depth: int, scope: int | None) -> Interval | None:
        found = self.raw(expr, depth, scope)
        return None if type(found) is Table else found

    def raw(self, expr: Expr, depth: int, scope: int | None):
        """``value``, or a Table where ``expr`` is a constant array."""
        if depth > _MAX_DEPTH:
            return None
        d = depth + 1
        tag = expr[0]
        if tag == "const":
            return (expr[1], expr[1])
        if tag == "param":
            return self.env.get(expr[1])
        if tag == "real":  # a floating-point value: an integer one, exact, or unknown
            return self.value(expr[1], d, scope)
        if tag == "local":
            name = expr[1]
            if name in self.memo:
                return self.memo[name]
            self.memo[name] = None  # a local read while its own value is evaluated is unknown there
            init = self.locals_.get(name)
            value = self.memo[name] = None if init is None else self.raw(init, d, UNPLACED)
            return value
        if tag == "at":  # a value given at a place does not depend on where it is read: once per evaluation
            key = id(expr)
            if key in self.memo:
                return self.memo[key]
            self.memo[key] = None
            found = self.raw(expr[2], d, expr[1])
            if self.over and (bound := self.over.get(expr)) is not None and type(found) is not Table:
                found = meet(found, bound) if found is not None else bound
            self.memo[key] = found
            return found
        if tag == "table":
            return _table(expr[1])
        if tag == "index":
            return _element(self.raw(expr[1], d, scope), self.value(expr[2], d, scope))
        if tag == "first":
            return self._first(expr, d, scope)
        if tag == "grow":
            return _grown(
                self.value(expr[1], d, scope), [(op, self.value(amount, d, UNPLACED)) for op, amount in expr[2:]]
            )
        if tag == "unary":
            inner = self.value(expr[2], d, scope)
            op = expr[1]
            if op == "!":
                t = truthiness(inner)
                return None if inner is None else _flag(None if t is None else not t)
            if inner is None:
                return None
            if op == "-":
                return (-inner[1], -inner[0])
            if op == "+":
                return inner
            if op == "~" and inner[0] == inner[1]:
                return (~inner[0], ~inner[0])
            return None
        if tag == "binary":
            op = expr[1]
            if op in ("==", "!=") and _equal(expr[2], expr[3], self.same):
                return _flag(op == "==")
            left = self.value(expr[2], d, scope)
            right = self.value(expr[3], d, scope)
            if op in ("&&", "||"):
                tl, tr = truthiness(left), truthiness(right)
                short = op == "||"  # the value that decides the whole
                if short in (tl, tr):
                    return _flag(short)
                if tl is not None and tr is not None:
                    return _flag(not short)
                return _BOOL if left is not None or right is not None else None
            if op in ("<", "<=", ">", ">=", "==", "!="):
                return None if left is None or right is None else _compare(op, left, right)
            value = None if left is None or right is None else _arith(op, left, right)
            if self.relate is not None and op in ("+", "-"):
                value = meet(value, self.relate(expr, scope))
            return value
        if tag in ("min", "max"):
            left = self.value(expr[1], d, scope)
            right = self.value(expr[2], d, scope)
            if left is None and right is None:
                return None
            # one known side still bounds the result: std::min(n - j, nb) is at most nb, whatever n - j is
            left, right = left or _INT64, right or _INT64
            pick = min if tag == "min" else max
            return (pick(left[0], right[0]), pick(left[1], right[1]))
        if tag == "hull":  # a local that takes one of several values
            parts = [self.value(e, d, scope) for e in expr[1:]]
            if None in parts:
                return None
            return (min([p[0] for p in parts]), max([p[1] for p in parts]))
        if tag == "range":
            return (expr[1], expr[2])
        if tag == "typed":  # a variable of a narrow integer type: its value, else its type's range
            inner = self.value(expr[1], d, scope)
            lo, hi = expr[2], expr[3]
            return (
                (lo, hi) if inner is None or inner[1] < lo or hi < inner[0] else (max(inner[0], lo), min(inner[1], hi))
            )
        if tag == "select":
            picked = truthiness(self.value(expr[1], d, scope))
            if picked is not None:
                return self.value(expr[2] if picked else expr[3], d, scope)
            a, b = self.value(expr[2], d, scope), self.value(expr[3], d, scope)
            return None if a is None or b is None else (min(a[0], b[0]), max(a[1], b[1]))
        if tag == "call":
            calls = self.calls
            if calls is None or not getattr(calls, "returns", _ANYTHING)(expr[1]):
                return None
            return calls(expr[1], tuple([self.raw(a, d, scope) for a in expr[2]]))
        if tag == "between":  # a counted loop's variable: from its first value to its last
            first = self.value(expr[1], d, scope)
            last = self.value(expr[2], d, scope)
            if first is None or last is None or first[0] > last[1]:
                return None  # unknown, or a loop that never runs: nothing to say about its body
            return (first[0], last[1])
        return None

    def _first(self, expr: Expr, depth: int, scope: int | None) -> Interval | None:
        """``("first", v, a, b, c)``: where ``for (v = a; v < b; ++v) if (c) break;`` leaves ``v``, by trying
        each value in turn (a condition that may or may not hold there may stop the loop there, or not)."""
        _, name, start, end, cond = expr
        a, b = self.value(start, depth, scope), self.value(end, depth, scope)
        if a is None or b is None or a[0] != a[1] or b[1] - a[0] > _MAX_SEARCH:
            return None
        stops = []
        for v in range(a[0], b[1]):
            if v >= b[0]:
                stops.append(v)  # the loop may end here: b is not known exactly
            memo = {name: (v, v)}  # the other locals' values may depend on v: evaluated afresh
            inner = _Interval(self.env, self.locals_, self.calls, memo, self.relate, self.same)
            held = truthiness(inner.value(cond, depth, scope))
            if held is not False:
                stops.append(v)
            if held is True:
                break
        else:
            stops.append(max(a[0], b[1]))
        return (min(stops), max(stops))


def _table(items: tuple) -> Table:
    return Table(tuple(_table(x) if type(x) is tuple else x for x in items))


def _hull(x) -> Interval | None:
    """The smallest interval holding an element, or all elements of a table."""
    if type(x) is int:
        return (x, x)
    if type(x) is Table:
        parts = [_hull(i) for i in x.items]
        if not parts or any(p is None for p in parts):
            return None
        return (min(p[0] for p in parts), max(p[1] for p in parts))
    return x


def _element(table, index: Interval | None):
    """``table[index]``: the element, or for an index known only to a range the hull of those elements
    (rows merged element by element); an index outside the table reads anything in it."""
    if type(table) is not Table or not table.items:
        return None
    items = table.items
    lo, hi = (0, len(items) - 1) if index is None else index
    if lo < 0 or hi >= len(items):
        lo, hi = 0, len(items) - 1
    picked = items[lo : hi + 1]
    if len(picked) == 1:
        return _hull(picked[0]) if type(picked[0]) is not Table else picked[0]
    if all(type(p) is Table for p in picked) and len({len(p.items) for p in picked}) == 1:
        merged = []
        for column in zip(*(p.items for p in picked), strict=True):
            hulls = [_hull(c) for c in column]
            merged.append(
                None if any(h is None for h in hulls) else (min(h[0] for h in hulls), max(h[1] for h in hulls))
            )
        if all(m is not None for m in merged):
            return Table(tuple(merged))
    return _hull(Table(picked))


def _equal(a: Expr, b: Expr, same: frozenset[tuple[str, str]]) -> bool:
    if a[0] != "param" or b[0] != "param":
        return False
    return a[1] == b[1] or (min(a[1], b[1]), max(a[1], b[1])) in same


def meet(a: Interval | None, b: Interval | None) -> Interval | None:
    """Both bounds on one value: their intersection (a value cannot be in two disjoint ranges on a path
    that runs, so then the first stands)."""
    if a is None or b is None:
        return a or b
    lo, hi = max(a[0], b[0]), min(a[1], b[1])
    return (lo, hi) if lo <= hi else a


def params_of(
    expr: Expr, locals_: Mapping[str, Expr] | None = None, depth: int = 0, *, reals: bool = False
) -> set[str]:
    """The parameters an expression reads, through the initializers of the locals it reads; floating-point
    values (``*alpha``) only with ``reals`` (they are never split into ranges, only reported). A value shared
    by several parts of an expression (``select(blk < 0, -blk, blk)`` holds the same ``blk`` three times) is
    visited once."""
    out: set[str] = set()
    seen: set[int] = set()
    locals_ = locals_ or {}
    stack = [(expr, depth)]
    while stack:
        e, d = stack.pop()
        if id(e) in seen or d > _MAX_DEPTH * 4:
            continue
        seen.add(id(e))
        tag = e[0]
        if tag == "param":
            out.add(e[1])
        elif tag == "local":
            if (init := locals_.get(e[1])) is not None:
                stack.append((init, d + 1))
        elif tag == "call":
            stack.extend((a, d + 1) for a in e[2])
        elif tag == "real" and reals:
            stack.append((e[1], d + 1))
        elif tag == "grow":
            stack.append((e[1], d + 1))
            stack.extend((amount, d + 1) for _, amount in e[2:])
        elif tag in _NESTING:
            stack.extend((x, d + 1) for x in e[1:] if type(x) is tuple and x and type(x[0]) is str)
    return out


_NESTING = frozenset({"unary", "binary", "min", "max", "between", "hull", "select", "index", "first", "typed", "at"})


# ---------------------------------------------------------------------- relations between variables

Linear = tuple[dict[tuple[str, str], int], int]
"""``sum(coeff * variable) + constant``, variables as ("param" | "local", name)."""


def linear(expr: Expr, locals_: Mapping[str, Expr] | None = None, depth: int = 0) -> Linear | None:
    """``expr`` as a linear form over parameters and locals, None when it is not one."""
    if depth > _MAX_DEPTH:
        return None
    tag = expr[0]
    if tag == "const":
        return {}, expr[1]
    if tag == "param":
        return {expr: 1}, 0
    if tag in ("local", "at"):  # by name (or place), not by value: what it read may have changed since
        return {expr: 1}, 0
    if tag == "unary" and expr[1] in ("-", "+"):
        inner = linear(expr[2], locals_, depth + 1)
        return None if inner is None else _scale(inner, -1 if expr[1] == "-" else 1)
    if tag == "binary" and expr[1] in ("+", "-", "*"):
        a, b = linear(expr[2], locals_, depth + 1), linear(expr[3], locals_, depth + 1)
        if a is None or b is None:
            return None
        if expr[1] == "*":
            if not a[0]:
                return _scale(b, a[1])
            return _scale(a, b[1]) if not b[0] else None
        return _add(a, b if expr[1] == "+" else _scale(b, -1))
    return None


def substitute(fact: Linear, bindings: Mapping[str, Linear | None]) -> Linear | None:
    """A form over a function's parameters rewritten over what a call passed for them (None where one of
    them was not passed as a linear form)."""
    out: Linear = ({}, fact[1])
    for var, coeff in fact[0].items():
        given = bindings.get(var[1]) if var[0] == "param" else None
        if given is None:
            return None
        out = _add(out, _scale(given, coeff))
    return out


def _scale(f: Linear, k: int) -> Linear:
    return {v: c * k for v, c in f[0].items() if c * k}, f[1] * k


def _add(a: Linear, b: Linear) -> Linear:
    out = dict(a[0])
    for v, c in b[0].items():
        out[v] = out.get(v, 0) + c
    return {v: c for v, c in out.items() if c}, a[1] + b[1]


_NEGATED = {"<": ">=", "<=": ">", ">": "<=", ">=": "<", "==": "!=", "!=": "=="}


def facts(expr: Expr, want: bool, locals_: Mapping[str, Expr] | None = None) -> list[Linear]:
    """What a branch taken with ``expr`` true (``want``) or false says, as linear forms that are ``>= 0``."""
    tag = expr[0]
    if tag == "unary" and expr[1] == "!":
        return facts(expr[2], not want, locals_)
    if tag != "binary":
        return []
    op = expr[1]
    if op in ("&&", "||"):
        both = (op == "&&") == want  # a && b true, or a || b false: both sides hold
        return facts(expr[2], want, locals_) + facts(expr[3], want, locals_) if both else []
    if op not in _NEGATED:
        return []
    op = op if want else _NEGATED[op]
    a, b = linear(expr[2], locals_), linear(expr[3], locals_)
    if a is None or b is None:
        return []
    diff = _add(a, _scale(b, -1))  # a - b
    if op == ">=":
        return [diff]
    if op == ">":
        return [_add(diff, ({}, -1))]
    if op == "<=":
        return [_scale(diff, -1)]
    if op == "<":
        return [_add(_scale(diff, -1), ({}, -1))]
    if op == "==":
        return [diff, _scale(diff, -1)]
    return []


def bound(
    expr: Expr,
    known: Sequence[Linear],
    value: Callable[[Expr], Interval | None],
    locals_: Mapping[str, Expr] | None = None,
) -> Interval | None:
    """Bounds on ``expr`` from facts ``F >= 0``: where ``expr + F`` is a form whose value is known, ``expr``
    is at most its largest value; where ``expr - F`` is, at least its smallest (``n - j`` after
    ``!(j < n - nb)`` is at most ``nb``)."""
    form = linear(expr, locals_)
    if form is None or not form[0]:
        return None
    lo, hi = -(2**63), 2**63 - 1
    for fact in known:
        if not fact[0].keys() & form[0].keys():
            continue
        for sign in (1, -1):
            rest = _add(form, _scale(fact, sign))
            total: Interval | None = (rest[1], rest[1])
            for var, coeff in rest[0].items():
                iv = value(var)
                if iv is None or total is None:
                    total = None
                    break
                total = _arith("+", total, _arith("*", iv, (coeff, coeff)))  # type: ignore[arg-type]
            if total is None:
                continue
            if sign == 1:
                hi = min(hi, total[1])
            else:
                lo = max(lo, total[0])
    return None if (lo, hi) == (-(2**63), 2**63 - 1) else (lo, hi)
