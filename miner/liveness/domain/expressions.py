"""What the guards and calls of an instantiated body say about the variables they read: the relations a guard
establishes where nothing writes its variables, the parameters an expression reads or compares for equality,
and the parameters a call passes the same value."""

from __future__ import annotations

from collections.abc import Callable

from miner.liveness.domain.evaluate import Linear, facts
from miner.liveness.domain.intervals import Aliases
from miner.models import Expr, Guard, Instance, InstanceCall

Outcome = Callable[[Expr, bool, dict], "tuple[list[Linear], int] | None"]
"""What a guard on a function's result says about the arguments it was called with, and the line of that call
(``if (check(n, k) != continue) return`` leaves ``n >= 0`` and ``k >= 0``)."""


def written_lines(inst: Instance) -> dict[str, list[int]]:
    """Each variable ``inst`` writes, with the lines it writes it at (-1: through a pointer, any time)."""
    written: dict[str, list[int]] = {}
    for name, line in inst.writes:
        written.setdefault(name, []).append(line)
    return written


def guard_facts(
    call: InstanceCall, written: dict[str, list[int]], locals_: dict, outcome: Outcome | None = None
) -> list[list[Linear]]:
    """The relations each guard of ``call`` establishes, keeping only those over variables that nothing
    writes in the code the guard covers (its regions: they hold anywhere in it); what it says through a called
    function's result also needs them unwritten since that call. Whether they hold at the call itself depends
    on the call being in the regions (``at_line``)."""

    def unwritten(fact: Linear, spans: list[tuple[int, int]]) -> bool:
        lines = [ln for var in fact[0] if var[0] != "at" for ln in written.get(var[1], ())]
        return not any(ln == -1 or any(lo <= ln <= hi for lo, hi in spans) for ln in lines)

    out: list[list[Linear]] = []
    for guard in call.guards:
        spans = list(guard.regions)
        held = [fact for fact in facts(guard.expr, guard.want, locals_) if unwritten(fact, spans)]
        through = outcome(guard.expr, guard.want, locals_) if outcome is not None else None
        if through is not None:
            implied, since = through
            held += [fact for fact in implied if unwritten(fact, [*spans, (since, guard.line)])]
        out.append(held)
    return out


def aliases_of(
    call: InstanceCall, callee: Instance, same: Aliases, passes_on: Callable[[str], int | None] = lambda usr: None
) -> Aliases:
    """The callee's parameters that this call passes the same value: the same side-effect-free expression
    over the caller's variables (``x`` for both ``x`` and ``y``), or parameters the caller knows equal;
    a function that returns one of its arguments unchanged (``passes_on``: which) is that argument
    (rocSOLVER passes ``cast2constType(B)`` and ``B`` for trmm's input and output)."""

    def rep(name: str) -> str:
        return min([name] + [b for a, b in same if a == name] + [a for a, b in same if b == name])

    def canon(expr: Expr) -> Expr | None:
        tag = expr[0]
        if tag == "param":
            return ("param", rep(expr[1]))
        if tag in ("local", "const"):
            return expr
        if tag in ("unary", "binary"):
            parts = [canon(e) for e in expr[2:]]
            return None if any(p is None for p in parts) else (tag, expr[1], *parts)
        if tag == "call" and (index := passes_on(expr[1])) is not None and index < len(expr[2]):
            return canon(expr[2][index])
        return None

    groups: dict[Expr, list[str]] = {}
    for param, arg in zip(callee.params, call.args, strict=False):
        key = canon(arg)
        if key is not None and key[0] != "const" and param not in callee.written:
            groups.setdefault(key, []).append(param)
    return frozenset(
        (a, b) for names in groups.values() for i, a in enumerate(sorted(names)) for b in sorted(names)[i + 1 :]
    )


def reads_of(expr: Expr, locals_: dict) -> set[str]:
    """Every parameter ``expr`` can read, through the values of the locals it reads and into every part of
    it (a superset of ``params_of``: what is not listed here cannot change its value)."""
    out: set[str] = set()
    seen: set[int] = set()
    stack = [expr]
    while stack:
        e = stack.pop()
        if id(e) in seen:
            continue
        seen.add(id(e))
        if e[0] == "param":
            out.add(e[1])
        elif e[0] == "local" and (value := locals_.get(e[1])) is not None:
            stack.append(value)
        for x in e[1:]:
            if type(x) is tuple and x:
                if type(x[0]) is str:
                    stack.append(x)
                else:
                    stack.extend(y for y in x if type(y) is tuple and y and type(y[0]) is str)
    return out


def at_line(line: int, guard: Guard) -> bool:
    """Whether ``line`` is in the code ``guard`` covers (a negative line, a value of unknown place, never is)."""
    return any(lo <= line <= hi for lo, hi in guard.regions)


def compared_params(expr: Expr, locals_: dict | None = None, depth: int = 0) -> set[tuple[str, str]]:
    """Pairs of parameters an expression compares for equality (``x != y``), each sorted, also through
    the values of the locals it reads (``bool inplace = (dB == dC) || ...; if (!inplace)``)."""
    tag = expr[0]
    if depth > 8:
        return set()
    if tag == "binary" and expr[1] in ("==", "!=") and expr[2][0] == expr[3][0] == "param":
        a, b = expr[2][1], expr[3][1]
        return {(min(a, b), max(a, b))} if a != b else set()
    if tag in ("unary", "at"):
        return compared_params(expr[2], locals_, depth + 1)
    if tag == "binary":
        return compared_params(expr[2], locals_, depth + 1) | compared_params(expr[3], locals_, depth + 1)
    if tag == "local" and locals_ and (value := locals_.get(expr[1])) is not None:
        return compared_params(value, locals_, depth + 1)
    return set()
