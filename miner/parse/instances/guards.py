"""Guards from control flow: which side of an ``if`` or ternary a call is on (or the side clang folds), what an
early return, a ``do { } while (0)`` macro or a loop leaves for the rest of a block."""

from __future__ import annotations

import re
from dataclasses import replace

import clang.cindex as ci

from miner.models import Expr, Guard
from miner.parse.clang_facts import _branch_head
from miner.parse.cursor_tree import unwrap as _unwrap
from miner.parse.instances.cursors import (
    _EXPRESSIONS,
    K,
    T,
    _always_exits,
    _branches,
    _continues,
    _has_goto,
    _is_integer,
    _leaves_loop,
    _names,
    _only_statement,
    _operator,
    _set_local,
    _variables,
    _writes_any,
    evaluate_int,
)

_MACRO_CALL = re.compile(rb"([A-Z_][A-Z0-9_]*)\s*\(")
_WHITESPACE = re.compile(r"\s+")
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")


def _extend(guard: Guard, start: int, end: int) -> Guard:
    """``guard`` also covering lines ``start``..``end`` (the code after the statement that established it)."""
    return Guard(guard.expr, guard.want, guard.text, guard.line, (*guard.regions, (start, end)))


def _render(expr: Expr) -> str:
    """An expression as C source, for the condition of an ``if`` that a macro wrote."""
    tag = expr[0]
    if tag == "const":
        return str(expr[1])
    if tag in ("param", "local"):
        return expr[1]
    if tag == "unary":
        return f"{expr[1]}{_render(expr[2])}"
    if tag == "binary":
        return f"{_render(expr[2])} {expr[1]} {_render(expr[3])}"
    if tag in ("min", "max"):
        return f"std::{tag}({_render(expr[1])}, {_render(expr[2])})"
    return "..."


def _increases(op: str, amount: int | None, init: ci.Cursor) -> bool:
    """Whether ``v op= amount`` never lowers ``v`` from its first value ``init`` (``+= 64``; ``*= 2`` from 1 up)."""
    if amount is None:
        return False
    if op == "+=":
        return amount > 0
    start = evaluate_int(init)
    if op == "*=":
        return amount >= 2 and start is not None and start >= 1
    if op == "<<=":
        return 1 <= amount < 64 and start is not None and start >= 1
    return False


def _spelled(c: ci.Cursor, depth: int = 0) -> str | None:
    """A condition a macro wrote that ``_render`` cannot write, spelled from what clang resolved:
    ``handle->is_device_memory_size_query()``; None when it is not a plain call or reference."""
    kids = list(c.get_children())
    kind = c.kind
    if depth > 8:
        return None
    if kind in (K.UNEXPOSED_EXPR, K.PAREN_EXPR) and len(kids) == 1:
        return _spelled(kids[0], depth + 1)
    if kind == K.DECL_REF_EXPR:
        return c.spelling or None
    if kind == K.MEMBER_REF_EXPR:
        base = _spelled(kids[0], depth + 1) if len(kids) == 1 else None
        if base is None:
            return None
        return f"{base}{'->' if kids[0].type.get_canonical().kind == T.POINTER else '.'}{c.spelling}"
    if kind == K.CALL_EXPR and kids:
        parts = [_spelled(k, depth + 1) for k in kids]
        if any(p is None for p in parts):
            return None
        return f"{parts[0]}({', '.join(parts[1:])})"
    if kind == K.UNARY_OPERATOR and len(kids) == 1 and (inner := _spelled(kids[0], depth + 1)):
        op = _operator(c, "Unary")
        return f"{op}{inner}" if op in ("!", "-", "~", "*") else None
    return None


def _grouped(text: str) -> str:
    return f"({text})" if "||" in text or "?" in text else text


class ControlFlowGuards:
    """Guards from control flow: the branches, early exits and loops on the way to a call. Mixed into ``InstanceWalker``, whose fields it uses."""

    def _split_if(self, cur: ci.Cursor):
        """(file bytes, condition text, constexpr, header children, branch children) of an ``if``;
        one a macro expands to (``if(pivot) LAUNCH(a) else LAUNCH(b)`` in a launch macro) is split by
        its children, its condition rendered from what clang resolved."""
        key = id(cur)
        if key not in self._splits:
            self._splits[key] = self._split(cur)
        return self._splits[key]

    def _split(self, cur: ci.Cursor):
        if cur.file is None:
            return None
        data = self.extractor.text(cur.file).data
        head = _branch_head(data, cur.offset, b"if")
        children = list(cur.get_children())
        if head is None:
            if len(children) not in (2, 3) or children[0].kind not in _EXPRESSIONS:
                return None
            text = _render(self._expr(children[0], 0))
            if "..." in text:
                text = _spelled(children[0]) or text
            if "..." in text and evaluate_int(children[0]) is None:
                return None  # a runtime condition we could neither evaluate nor name
            return b"", text, False, children[:1], children[1:]
        text, close, constexpr = head
        header = [ch for ch in children if ch.offset <= close]
        branches = [ch for ch in children if ch.offset > close]
        return data, text, constexpr, header, branches

    def _after_early_exit(self, cur: ci.Cursor, guards: tuple[Guard, ...], end: int) -> tuple[Guard, ...] | None:
        """The guards on the rest of a block after ``cur``: with ``!c`` after ``if (c) return ...;``, with
        ``!(a && b)`` after ``if (a) { if (b) return ...; }``, and after each such ``if`` in a
        ``do { ... } while (0)`` (a macro's statement: ``RETURN_ZERO_DEVICE_MEMORY_SIZE_IF_QUERIED(handle)``);
        None when the rest cannot run."""
        if cur.kind == K.DO_STMT:
            return self._after_do_once(cur, guards, end)
        found = self._exit_condition(cur, 0)
        if found is None:
            return guards
        if found is True:
            return None
        expr, text = found
        line = cur.line
        return (*guards, Guard(expr, False, text, line, ((line, end),)))

    def _exit_condition(self, cur: ci.Cursor, depth: int) -> tuple[Expr, str] | bool | None:
        """When an ``if`` without ``else`` surely leaves the function: (condition, its text); True when always;
        None when it may not (or we cannot tell)."""
        split = self._split_if(cur)
        if split is None or depth > 3:
            return None
        _, text, _, header, branches = split
        if not header or len(branches) != 1:
            return None
        value = evaluate_int(header[-1])
        if value == 0:
            return None
        branch = branches[0]
        inner: tuple[Expr, str] | bool | None = True
        if not _always_exits(branch):
            nested = _only_statement(branch)
            inner = self._exit_condition(nested, depth + 1) if nested is not None else None
            if inner is None:
                return None
        if value is not None:
            return inner
        outer = self._expr(header[-1], 0)
        if inner is True:
            return outer, text
        expr, inner_text = inner
        return ("binary", "&&", outer, expr), f"{_grouped(text)} && {_grouped(inner_text)}"

    def _after_do_once(self, cur: ci.Cursor, guards: tuple[Guard, ...], end: int) -> tuple[Guard, ...] | None:
        kids = list(cur.get_children())
        if len(kids) != 2 or evaluate_int(kids[1]) != 0 or _leaves_loop(kids[0]) or _continues(kids[0]):
            return guards
        body = kids[0]
        statements = list(body.get_children()) if body.kind == K.COMPOUND_STMT else [body]
        acc: tuple[Guard, ...] | None = guards
        for stmt in statements:
            if stmt.kind == K.IF_STMT:
                acc = self._after_early_exit(stmt, acc, end)
                if acc is None:
                    return None
        own = {d.spelling for stmt in statements if stmt.kind == K.DECL_STMT for d in stmt.get_children()}
        named = self._macro_call(cur) if own else None
        if named is None or acc is None:
            return acc
        # a check macro's status local (`TMP_STATUS_FOR_CHECK != rocblas_status_success`) means nothing where it
        # is shown: name the check by the macro's invocation
        return tuple(
            g if i < len(guards) or not own & set(_IDENTIFIER.findall(g.text)) else replace(g, text=f"{named} returns")
            for i, g in enumerate(acc)
        )

    def _macro_call(self, cur: ci.Cursor) -> str | None:
        """The invocation ``NAME(args)`` a macro-written statement expands from, shortened to fit a condition."""
        if cur.file is None:
            return None
        data = self.extractor.text(cur.file).data
        m = _MACRO_CALL.match(data, cur.offset)
        if m is None:
            return None
        depth, j = 0, m.end() - 1
        while j < len(data):
            depth += {0x28: 1, 0x29: -1}.get(data[j], 0)
            if depth == 0:
                break
            j += 1
        text = _WHITESPACE.sub(" ", data[cur.offset : j + 1].decode("utf-8", "replace"))
        return text if len(text) <= 80 else f"{m.group(1).decode()}(...)"

    def _after_statement(self, cur: ci.Cursor, guards: tuple[Guard, ...], end: int) -> tuple[Guard, ...]:
        """The rest of the block runs with what ``cur`` leaves behind (``_exits``): after ``while (j < n - nb)``
        with no ``break``, or an if/else whose branches both end in that loop, ``j >= n - nb``."""
        return (*guards, *(_extend(g, cur.end_line + 1, end) for g in self._exits(cur)))

    def _exits(self, stmt: ci.Cursor) -> list[Guard]:
        """What holds when ``stmt`` completes normally, as guards whose regions run to its end: a ``while``
        loop's negated condition; what the loops of a block leave behind; what both branches of an if/else
        leave behind (``if (upper) { while (j < n - nb) ... } else { while (j < n - nb) ... }``)."""
        key = id(stmt)
        if key not in self._exit_memo:
            self._exit_memo[key] = self._exits_of(stmt)
        return self._exit_memo[key]

    def _exits_of(self, stmt: ci.Cursor) -> list[Guard]:
        kind = stmt.kind
        if kind == K.WHILE_STMT:
            kids = list(stmt.get_children())
            if len(kids) != 2 or kids[0].kind not in _EXPRESSIONS or _leaves_loop(kids[1]):
                return []
            if evaluate_int(kids[0]) is not None:
                return []
            after = stmt.end_line + 1
            return [Guard(self._expr(kids[0], 0), False, self._text(kids[0]), stmt.line, ((after, after - 1),))]
        if kind == K.COMPOUND_STMT:
            end = stmt.end_line
            out: list[Guard] = []
            for child in stmt.get_children():
                out += [_extend(g, child.end_line + 1, end) for g in self._exits(child)]
            return out
        if kind == K.IF_STMT:
            split = self._split_if(stmt)
            if split is None or not split[3] or len(split[4]) != 2:
                return []
            cond, (then_branch, else_branch) = split[3][-1], split[4]
            value = evaluate_int(cond)
            if value is not None:
                return self._exits(then_branch if value else else_branch)
            then_exits = {(repr(g.expr), g.want): g for g in self._exits(then_branch)}
            both = []
            for g in self._exits(else_branch) if then_exits else ():
                twin = then_exits.get((repr(g.expr), g.want))
                if twin is not None:
                    both.append(Guard(g.expr, g.want, g.text, g.line, twin.regions + g.regions))
            return both if not both or not _has_goto(stmt) else []  # a goto could leave either branch early
        return []

    def _if(self, cur: ci.Cursor, guards, defs: dict, stack, decided) -> bool:
        split = self._split_if(cur)
        if split is None or not split[3]:
            return False
        data, text, constexpr, header, branches = split
        cond = header[-1]
        for ch in header:
            stack.append((ch, guards, defs))
        then_branch, else_branch = _branches(data, branches)
        line = cur.line
        value = evaluate_int(cond)
        if value is not None:
            decided.add((line, bool(value), constexpr))
            taken = then_branch if value else else_branch
            if taken is not None:
                stack.append((taken, guards, defs))
            return True
        expr = self._expr(cond, 0)
        for branch, want in ((then_branch, True), (else_branch, False)):
            if branch is not None:
                guard = Guard(expr, want, text, line, ((line, branch.end_line),))
                stack.append((branch, (*guards, guard), defs))
        return True

    def _ternary(self, cur: ci.Cursor, guards, defs: dict, stack, decided) -> bool:
        parts = list(cur.get_children())
        if len(parts) != 3:
            return False
        line = cur.line
        stack.append((parts[0], guards, defs))
        value = evaluate_int(parts[0])
        if value is not None:
            decided.add((line, bool(value), False))
            stack.append((parts[1] if value else parts[2], guards, defs))
            return True
        text = self._text(parts[0])
        expr = self._expr(parts[0], 0)
        for part, want in ((parts[1], True), (parts[2], False)):
            stack.append((part, (*guards, Guard(expr, want, text, line, ((line, part.end_line),))), defs))
        return True

    def _loop(self, cur: ci.Cursor, guards, defs: dict, stack, locals_: dict, written: set[str]) -> bool:
        """``while (c) body`` or ``for (init; c; step) body``; a counted ``for`` also bounds its variable."""
        kids = list(cur.get_children())
        if not kids:
            return False
        body = kids[-1]
        if cur.kind == K.WHILE_STMT:
            cond = kids[0] if len(kids) == 2 else None
            header = kids[:-1]
        else:
            cond = kids[1] if len(kids) == 4 else None
            init = self._counted_loop(kids, locals_, written)
            header = [kids[1], *init] if init is not None else kids[:-1]  # a counted loop's step is no write
        stack.extend((part, guards, defs) for part in header)
        stack.append((body, self._in_loop(cur, cond, body, guards), defs))
        return True

    def _in_loop(self, loop: ci.Cursor, cond: ci.Cursor | None, body: ci.Cursor, guards):
        """The guards of a loop's body: with the loop's runtime condition. Its region, where the relation it
        states holds, runs from the body's first line after the loop's own line (where a ``for`` loop's step
        writes) up to the first statement of the body that writes one of its variables (``j += nb`` at the end
        of a ``while (j < n - nb)`` body). A body with a statement on the loop's line has none."""
        if cond is None or cond.kind not in _EXPRESSIONS or evaluate_int(cond) is not None:
            return guards
        line = loop.line
        stmts = list(body.get_children()) if body.kind == K.COMPOUND_STMT else [body]
        if not stmts or stmts[0].line <= line:
            return guards
        start = body.line if body.line > line else line + 1
        end = body.end_line
        names = _variables(cond)
        for stmt in stmts:
            if _writes_any(stmt, names):
                end = stmt.line - 1
                break
        regions = ((start, end),) if end >= start else ()
        return (*guards, Guard(self._expr(cond, 0), True, self._text(cond), line, regions))

    def _counted_loop(self, kids: list[ci.Cursor], locals_: dict, written: set[str]) -> list[ci.Cursor] | None:
        """``for (T v = a; v < b; v += step)`` with a positive constant step: inside the body, ``v`` is
        between ``a`` and ``b - 1`` (``for (int64_t b = 0; b < batch_count; b += chunk)`` with
        ``batch_count = 1`` runs once, with ``b = 0``). The increment is not a write; any other is.
        Returns the initializer to walk, None when the loop is not counted."""
        if len(kids) != 4 or kids[0].kind != K.DECL_STMT:
            return None
        decls = list(kids[0].get_children())
        if len(decls) != 1 or decls[0].kind != K.VAR_DECL or not _is_integer(decls[0]):
            return None
        var = decls[0]
        init = [ch for ch in var.get_children() if ch.kind in _EXPRESSIONS]
        cond, step = _unwrap(kids[1]), _unwrap(kids[2])
        if not init or cond.kind != K.BINARY_OPERATOR or (op := _operator(cond, "Binary")) not in ("<", "<="):
            return None
        lhs, bound = list(cond.get_children())
        if not _names(lhs, var):
            return None
        if step.kind == K.UNARY_OPERATOR:
            if _operator(step, "Unary") != "++" or not _names(next(step.get_children()), var):
                return None
        elif step.kind == K.COMPOUND_ASSIGNMENT_OPERATOR:
            target, amount = list(step.get_children())
            if not _names(target, var) or not _increases(_operator(step, "Binary"), evaluate_int(amount), init[-1]):
                return None
        else:
            return None
        last = self._expr(bound, 0)
        if op == "<":
            last = ("binary", "-", last, ("const", 1))
        _set_local(var.spelling, ("between", self._expr(init[-1], 0), last), locals_, written)
        return init
