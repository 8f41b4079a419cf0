"""Evaluating a guard under what an entry point passes down its call path.

Values are intervals: a constant argument is ``(v, v)``, a 32-bit ``rocblas_int`` passed into
an ``int64_t`` parameter is ``(-2**31, 2**31 - 1)``, so ``m_64 <= c_i32_max`` is decided even
though ``m_64`` is not a constant. Locals are read through their initializers (the walker keeps
only locals that are never assigned again)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from miner.models import Expr

Interval = tuple[int, int]
_BOOL: Interval = (0, 1)
_INT64: Interval = (-(2**63), 2**63 - 1)
_MAX_DEPTH = 16


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
    fn = _EXACT.get(op)
    if fn is None or al != ah or bl != bh:
        return None
    value = fn(al, bl)
    return None if value is None else (value, value)


def interval(
    expr: Expr, env: Mapping[str, Interval], locals_: Mapping[str, Expr] | None = None, depth: int = 0
) -> Interval | None:
    """The values ``expr`` can take given ``env`` (parameter -> interval); None when unknown.
    ``&&`` and ``||`` short-circuit as in C: ``batch_count > 1 && handle->x`` is decided by
    ``batch_count = 1`` alone."""
    if depth > _MAX_DEPTH:
        return None
    tag = expr[0]
    if tag == "const":
        return (expr[1], expr[1])
    if tag == "param":
        return env.get(expr[1])
    if tag == "local":
        init = (locals_ or {}).get(expr[1])
        return None if init is None else interval(init, env, locals_, depth + 1)
    if tag == "unary":
        inner = interval(expr[2], env, locals_, depth + 1)
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
        left = interval(expr[2], env, locals_, depth + 1)
        right = interval(expr[3], env, locals_, depth + 1)
        if op in ("&&", "||"):
            tl, tr = truthiness(left), truthiness(right)
            short = op == "||"  # the value that decides the whole
            if short in (tl, tr):
                return _flag(short)
            if tl is not None and tr is not None:
                return _flag(not short)
            return _BOOL if left is not None or right is not None else None
        if left is None or right is None:
            return None
        return _compare(op, left, right) if op in ("<", "<=", ">", ">=", "==", "!=") else _arith(op, left, right)
    if tag in ("min", "max"):
        left = interval(expr[1], env, locals_, depth + 1)
        right = interval(expr[2], env, locals_, depth + 1)
        if left is None and right is None:
            return None
        # one known side still bounds the result: std::min(n - j, nb) is at most nb, whatever n - j is
        left, right = left or _INT64, right or _INT64
        pick = min if tag == "min" else max
        return (pick(left[0], right[0]), pick(left[1], right[1]))
    if tag == "hull":  # a local that takes one of several values
        parts = [interval(e, env, locals_, depth + 1) for e in expr[1:]]
        if any(p is None for p in parts):
            return None
        return (min(p[0] for p in parts), max(p[1] for p in parts))
    if tag == "between":  # a counted loop's variable: from its first value to its last
        first = interval(expr[1], env, locals_, depth + 1)
        last = interval(expr[2], env, locals_, depth + 1)
        if first is None or last is None or first[0] > last[1]:
            return None  # unknown, or a loop that never runs: nothing to say about its body
        return (first[0], last[1])
    return None


def params_of(expr: Expr, locals_: Mapping[str, Expr] | None = None, depth: int = 0) -> set[str]:
    """The parameters an expression reads, through the initializers of the locals it reads."""
    tag = expr[0]
    if tag == "param":
        return {expr[1]}
    if tag == "local" and depth < _MAX_DEPTH and (init := (locals_ or {}).get(expr[1])) is not None:
        return params_of(init, locals_, depth + 1)
    if tag == "unary":
        return params_of(expr[2], locals_, depth + 1)
    if tag == "binary":
        return params_of(expr[2], locals_, depth + 1) | params_of(expr[3], locals_, depth + 1)
    if tag in ("min", "max", "between", "hull"):
        return set().union(*(params_of(e, locals_, depth + 1) for e in expr[1:]))
    return set()
