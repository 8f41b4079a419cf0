"""Evaluating a guard under the constants an entry point passes down its call path."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from miner.models import Expr


def _div(a: int, b: int) -> int | None:
    if b == 0:
        return None
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q  # C truncates toward zero


def _mod(a: int, b: int) -> int | None:
    q = _div(a, b)
    return None if q is None else a - q * b


_BINARY: dict[str, Callable[[int, int], int | None]] = {
    "==": lambda a, b: int(a == b),
    "!=": lambda a, b: int(a != b),
    "<": lambda a, b: int(a < b),
    "<=": lambda a, b: int(a <= b),
    ">": lambda a, b: int(a > b),
    ">=": lambda a, b: int(a >= b),
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "/": _div,
    "%": _mod,
    "&": lambda a, b: a & b,
    "|": lambda a, b: a | b,
    "^": lambda a, b: a ^ b,
    "<<": lambda a, b: a << b if 0 <= b < 64 else None,
    ">>": lambda a, b: a >> b if 0 <= b < 64 else None,
}
_UNARY: dict[str, Callable[[int], int]] = {
    "!": lambda a: int(not a),
    "-": lambda a: -a,
    "~": lambda a: ~a,
    "+": lambda a: a,
}


def evaluate(expr: Expr, env: Mapping[str, int]) -> int | None:
    """The value of ``expr`` when every parameter it reads is bound in ``env``; None otherwise.
    ``&&`` and ``||`` short-circuit as in C, so ``batch_count > 1 && handle->x`` is decided by
    ``batch_count = 1`` alone."""
    tag = expr[0]
    if tag == "const":
        return expr[1]
    if tag == "param":
        return env.get(expr[1])
    if tag == "unary":
        inner = evaluate(expr[2], env)
        op = _UNARY.get(expr[1])
        return None if inner is None or op is None else op(inner)
    if tag == "binary":
        op = expr[1]
        if op in ("&&", "||"):
            left, right = evaluate(expr[2], env), evaluate(expr[3], env)
            short = 0 if op == "&&" else 1
            if short in ((None if left is None else int(bool(left))), (None if right is None else int(bool(right)))):
                return short
            return None if left is None or right is None else 1 - short
        fn = _BINARY.get(op)
        left = evaluate(expr[2], env)
        if fn is None or left is None:
            return None
        right = evaluate(expr[3], env)
        return None if right is None else fn(left, right)
    return None


def params_of(expr: Expr) -> set[str]:
    """The parameters an expression reads."""
    tag = expr[0]
    if tag == "param":
        return {expr[1]}
    if tag == "unary":
        return params_of(expr[2])
    if tag == "binary":
        return params_of(expr[2]) | params_of(expr[3])
    return set()
