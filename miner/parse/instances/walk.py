"""The walk of instantiated bodies: from a TU's definitions through the calls clang resolved, each body read for
its calls, the guards on them, its locals and its returns."""

from __future__ import annotations

import ctypes
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import clang.cindex as ci

from miner.models import ExecSpace, Expr, Guard, Instance, InstanceCall
from miner.parse.clang_facts import Extractor, _exec_space, _primary_template
from miner.parse.cursor_tree import Node, Ref, is_automatic, raw, tree
from miner.parse.cursor_tree import unwrap as _unwrap
from miner.parse.instances.cursors import (
    _CALLABLE,
    _CASTS,
    _EXPRESSIONS,
    _GLOBAL,
    _HOST,
    _INTEGERS,
    _MAX_ARGS,
    _POINTER,
    _REFS,
    _SIZES,
    _UNKNOWN,
    _UNSET,
    _WRITE_KINDS,
    K,
    _bind_clang,
    _branches,
    _const_float_pointer,
    _constant_table,
    _is_array,
    _is_floating,
    _is_integer,
    _is_number,
    _range_of,
    _set_local,
    _type_id,
    evaluate_int,
)
from miner.parse.instances.expressions import ExpressionReduction
from miner.parse.instances.guards import ControlFlowGuards
from miner.parse.instances.values import LocalValues


@dataclass(frozen=True, slots=True)
class _Callee:
    pattern: str  # USR of the template it is a specialisation of ("" for a plain function)
    host: bool  # runs on the host: its arguments can decide branches in its body
    body: ci.Cursor | None  # a definition in the checkout, to walk
    bodiless: bool  # declared here, defined in another TU (or nowhere we can see)
    kernel: bool = False  # a ``__global__`` function: a call is a launch


@dataclass
class InstanceWalker(LocalValues, ControlFlowGuards, ExpressionReduction):
    """Walks instantiated bodies. Per worker, each (USR, variant) is walked once; a later TU
    searches it again for its callees' bodies only where it may hold one that earlier TUs lacked,
    so the union of all TUs' instances does not depend on which worker parsed which TU first."""

    extractor: Extractor
    skips: Callable[[ci.Cursor], bool] = lambda fn: False  # a function the traversal excludes: not walked
    memo: dict[tuple[str, str], tuple[Instance, frozenset[str]]] = field(default_factory=dict)
    _callees: dict[str, _Callee] = field(default_factory=dict)  # per TU: cursors belong to it
    _splits: dict[int, tuple | None] = field(default_factory=dict)  # per body, by node id
    _exit_memo: dict[int, list[Guard]] = field(default_factory=dict)  # per body, by node id
    _exprs: dict[tuple[int, int], Expr] = field(default_factory=dict)  # per body, by node id and depth
    _written_memo: dict[int, frozenset[str]] = field(default_factory=dict)  # per body, by node id
    _targets: dict[int, tuple | None] = field(default_factory=dict)  # per body, by node id
    _bound: dict[int, frozenset[str]] = field(default_factory=dict)  # per body, by node id
    _merges: dict[tuple[int, int], tuple[dict, dict]] = field(default_factory=dict)  # per body
    _defs: dict[str, Expr] = field(default_factory=dict)  # constants the locals surely hold where the walk is
    _defs_used: set[str] = field(default_factory=set)  # locals read through ``_defs`` in this body
    _blocked: bool | set[str] = False  # True: no ``_defs`` in this body (a goto); else locals never in them
    _reassigned: frozenset[str] | None = None  # the locals ``_defs`` may hold in this body
    _table_written: frozenset[str] = frozenset()  # arrays this body writes an element of
    _global_tables: dict[str, Expr] = field(default_factory=dict)  # by USR
    _passed: dict[int, tuple[frozenset[str], frozenset[str]]] = field(default_factory=dict)  # per body
    _kept_pointers: frozenset[str] = frozenset()  # pointer-to-const float parameters the body never repoints
    _const_addresses: set[int] = field(default_factory=set)  # ``&x`` handed to a pointer-to-const parameter
    _copies: dict[int, tuple[str, str, bool]] = field(default_factory=dict)  # ``hipMemcpy(&x, p, ...)``: x, p, async
    _aliases: dict[int, frozenset[str]] = field(default_factory=dict)  # ``T& r = x;``: the variables r may write
    _async_copies: list[tuple] = field(default_factory=list)  # ``hipMemcpyAsync`` candidates, until synchronized
    _chosen_memo: dict[int, frozenset[str]] = field(default_factory=dict)  # per body, by node id

    def walk(self, starts: Iterable[ci.Cursor], variant: str) -> list[Instance]:
        self._callees = {}
        _SIZES.clear()
        out: dict[str, Instance] = {}
        complete: dict[str, bool] = {}
        work: list[ci.Cursor | str] = list(starts)  # a cursor to walk, or a USR known from the memo
        while work:
            item = work.pop()
            cursor = item if isinstance(item, ci.Cursor) else None
            usr = cursor.get_usr() if cursor is not None else item
            if not usr or usr in out:
                continue
            hit = self.memo.get((usr, variant))
            if hit is not None and self._complete(usr, variant, complete):
                out[usr] = hit[0]
                work += [c.target for c in hit[0].calls]
                continue
            if cursor is None or self.skips(cursor):
                continue  # defined outside the checkout or only in system headers, or excluded
            if hit is not None:  # the same body again: only the bodies this TU holds for its callees are new
                inst = hit[0]
                bodies, bodiless = self._callee_bodies(cursor, inst)
            else:
                inst, bodies, bodiless = self._instance(cursor) if _on_host(cursor) else self._device_instance(cursor)
            self.memo[(usr, variant)] = (inst, bodiless)
            complete.clear()
            out[usr] = inst
            work += bodies
        return [out[u] for u in sorted(out)]

    def _complete(self, usr: str, variant: str, known: dict[str, bool]) -> bool:
        """Whether the memo holds every body reachable from ``usr``: a callee that had no body
        where ``usr`` was first walked may have one in this TU, and then ``usr`` is searched for it again."""
        if usr in known:
            return known[usr]
        known[usr] = True  # a cycle does not make itself incomplete
        inst, bodiless = self.memo[(usr, variant)]
        ok = all((u, variant) in self.memo for u in bodiless) and all(
            self._complete(c.target, variant, known) for c in inst.calls if (c.target, variant) in self.memo
        )
        known[usr] = ok
        return ok

    def _callee_bodies(self, fn: ci.Cursor, inst: Instance) -> tuple[list[ci.Cursor], frozenset[str]]:
        """What walking ``fn`` again would find besides ``inst``: the bodies this TU holds for its callees,
        and the callees it holds none for."""
        targets = {c.target for c in inst.calls}
        body = None
        for ch in fn.get_children():
            if ch.kind in (K.COMPOUND_STMT, K.CXX_TRY_STMT):
                body = ch
        bodies: list[ci.Cursor] = []
        bodiless: set[str] = set()
        seen: set[str] = set()
        stack = [tree(body)] if body is not None else []
        while stack:
            node = stack.pop()
            stack.extend(node.children)
            if node.kind not in _REFS or (ref := node.referenced) is None or ref.kind not in _CALLABLE or ref.system:
                continue
            target = ref.get_usr()
            if target in targets and target not in seen:
                _follow(target, self._callee_of(target, ref), seen, bodies, bodiless)
        return bodies, frozenset(bodiless)

    # ------------------------------------------------------------------ one body

    def _instance(self, fn: ci.Cursor) -> tuple[Instance, list[ci.Cursor], frozenset[str]]:
        params: list[str] = []
        pointers: list[str] = []
        ranges: dict[str, tuple[int, int] | None] = {}
        body: Node | None = None
        for ch in tree(fn).children:
            if ch.kind == K.PARM_DECL:
                params.append(ch.spelling)
                _note_range(ch, ranges)
                if ch.spelling and _const_float_pointer(ch.type):
                    pointers.append(ch.spelling)
            elif ch.kind in (K.COMPOUND_STMT, K.CXX_TRY_STMT):
                body = ch
        returns_int = _type_id(fn.result_type) in _INTEGERS | {_POINTER}
        # straight-line values only for locals a statement reassigns (the others have one value anyway),
        # and none where a jump can enter a block in the middle
        self._table_written = frozenset()
        self._fresh_memos()  # they are keyed by node ids, which the previous body's freed nodes may share
        self._const_addresses, self._copies, self._aliases, self._async_copies = set(), {}, {}, []
        self._kept_pointers = frozenset(pointers)
        self._reassigned = self._reassigned_locals(body) if body is not None else None  # less those repointed
        self._blocked: bool | set[str] = not self._reassigned
        if self._blocked is False:
            self._blocked = set()
        while True:
            walked = self._walk_body(body, returns_int, dict(ranges))
            escaped = walked[-1]
            if self._blocked is True or not (self._defs_used & escaped):
                break
            self._blocked = self._blocked | escaped  # its address escapes: any call may change it
        returns, writes, calls, decided, bodies, bodiless, written, locals_, assigned, updates, ranges, _ = walked
        written |= self._table_written
        inst = Instance(
            usr=fn.get_usr(),
            pattern=(tpl.get_usr() if (tpl := _primary_template(fn)) is not None else ""),
            params=tuple(params),
            calls=tuple(sorted(calls.values(), key=_call_order)),
            decided=tuple(sorted(decided)),
            written=tuple(sorted(written)),
            locals=_local_values(locals_, assigned, updates, written),
            ranges=tuple((n, r[0], r[1]) for n, r in sorted(ranges.items()) if r is not None),
            returns=tuple(dict.fromkeys(returns)),
            writes=tuple(sorted(writes)),
            pointees=tuple(sorted(self._kept_pointers)),
        )
        return inst, bodies, frozenset(bodiless)

    def _device_instance(self, fn: ci.Cursor) -> tuple[Instance, list[ci.Cursor], frozenset[str]]:
        """A kernel's or device helper's instantiated body, read only for what it calls: the overloads and
        specialisations clang selected, on the side of each branch its template arguments fold
        (``CONJ ? conj(x) : x``). Nothing on the host gives a device function values, so its calls carry no
        guards and the value analysis of host bodies is not run on it (that costs more than the parse)."""
        self._fresh_memos()
        body = next((ch for ch in tree(fn).children if ch.kind in (K.COMPOUND_STMT, K.CXX_TRY_STMT)), None)
        calls: dict[tuple[str, int], InstanceCall] = {}
        decided: set[tuple[int, bool, bool]] = set()
        bodies: list[ci.Cursor] = []
        bodiless: set[str] = set()
        seen: set[str] = set()
        stack = [body] if body is not None else []
        while stack:
            cur = stack.pop()
            kind = cur.kind
            if kind in (K.IF_STMT, K.CONDITIONAL_OPERATOR) and (folded := self._folded(cur)) is not None:
                line, value, constexpr, kept = folded
                decided.add((line, value, constexpr))
                stack.extend(kept)
                continue
            if kind in _REFS and (ref := cur.referenced) is not None and ref.kind in _CALLABLE and not ref.system:
                name, target = ref.spelling, ref.get_usr()
                if name and target and not name.startswith("operator"):
                    callee = self._callee_of(target, ref)
                    calls.setdefault((target, cur.line), InstanceCall(target, callee.pattern, cur.line))
                    if target not in seen:
                        _follow(target, callee, seen, bodies, bodiless)
            stack.extend(cur.children)
        inst = Instance(
            usr=fn.get_usr(),
            pattern=(tpl.get_usr() if (tpl := _primary_template(fn)) is not None else ""),
            params=(),
            calls=tuple(sorted(calls.values(), key=_call_order)),
            decided=tuple(sorted(decided)),
        )
        return inst, bodies, frozenset(bodiless)

    def _folded(self, cur) -> tuple[int, bool, bool, list] | None:
        """An ``if`` or ``?:`` whose condition clang folds: (line, value, constexpr, the nodes still run), else None."""
        if cur.kind == K.CONDITIONAL_OPERATOR:
            parts = list(cur.get_children())
            if len(parts) != 3 or (value := evaluate_int(parts[0])) is None:
                return None
            return cur.line, bool(value), False, [parts[0], parts[1] if value else parts[2]]
        split = self._split_if(cur)
        if split is None or not split[3] or (value := evaluate_int(split[3][-1])) is None:
            return None
        data, _, constexpr, header, branches = split
        then_branch, else_branch = _branches(data, branches)
        taken = then_branch if value else else_branch
        return cur.line, bool(value), constexpr, [*header, *([taken] if taken is not None else [])]

    def _fresh_memos(self) -> None:
        """Forget what was memoised per node of a body."""
        self._splits, self._exit_memo, self._exprs, self._written_memo = {}, {}, {}, {}
        self._chosen_memo = {}
        self._targets, self._bound, self._merges, self._passed = {}, {}, {}, {}

    def _walk_body(self, body, returns_int: bool, ranges: dict):
        self._fresh_memos()
        self._defs_used = set()
        returns: list[tuple[Expr, tuple[Guard, ...]]] = []
        writes: set[tuple[str, int]] = set()
        calls: dict[tuple[str, int, tuple[Guard, ...]], InstanceCall] = {}
        decided: set[tuple[int, bool, bool]] = set()
        bodies: list[ci.Cursor] = []
        bodiless: set[str] = set()
        seen_targets: set[str] = set()
        written: set[str] = set()
        escaped: set[str] = set()
        locals_: dict[str, Expr] = {}
        assigned: dict[str, list[Expr]] = {}
        updates: dict[str, list[tuple[str, Expr]]] = {}
        stack: list[tuple[ci.Cursor, tuple[Guard, ...], dict]] = [(body, (), {})] if body is not None else []
        while stack:
            cur, guards, defs = stack.pop()
            self._defs = defs
            kind = cur.kind
            if kind == K.COMPOUND_STMT:
                self._sequence(cur, guards, defs, stack)
                continue
            if kind == K.IF_STMT and self._if(cur, guards, defs, stack, decided):
                continue
            if kind == K.CONDITIONAL_OPERATOR and self._ternary(cur, guards, defs, stack, decided):
                continue
            if kind in (K.FOR_STMT, K.WHILE_STMT) and self._loop(cur, guards, defs, stack, locals_, written):
                continue
            if kind in _REFS:
                if kind == K.CALL_EXPR:
                    written |= self._by_reference(cur)
                if self._reference(cur, guards, calls, bodies, bodiless, seen_targets, written):
                    state = (calls, bodies, bodiless, seen_targets, written, assigned, updates, writes)
                    self._launch_arguments(cur, guards, state)
                    continue
            elif kind in _WRITE_KINDS:
                self._note_write(cur, kind, written, assigned, updates, writes)
            elif kind == K.VAR_DECL:
                for alias in self._aliases.get(id(cur), ()):  # a reference to it may write it any time
                    written.add(alias)
                    writes.add((alias, -1))
                _note_local(cur, self._expr, locals_, written)
                _note_range(cur, ranges)
                if any(ch.kind in _EXPRESSIONS for ch in cur.get_children()):
                    writes.add((cur.spelling, cur.line))
            elif kind == K.RETURN_STMT and returns_int:
                value = [ch for ch in cur.get_children() if ch.kind in _EXPRESSIONS]
                returns.append((self._expr(value[0], 0) if value else _UNKNOWN, guards))
            elif kind == K.LAMBDA_EXPR:
                escaped |= self._written_names(cur)  # written when the lambda runs, wherever that is
            for ch in cur.get_children():
                stack.append((ch, guards, defs))
        escaped |= {name for name, line in writes if line == -1}
        return (
            returns, writes, calls, decided, bodies, bodiless, written, locals_, assigned, updates, ranges, escaped
        )  # fmt: skip

    def _note_write(
        self,
        cur: ci.Cursor,
        kind: ci.CursorKind,
        written: set[str],
        assigned: dict[str, list[Expr]],
        updates: dict[str, list[tuple[str, Expr]]],
        writes: set[tuple[str, int]],
    ) -> None:
        """A parameter assigned, incremented or whose address is taken: a constant passed for
        it says nothing about its value at a later branch. A local given a new value by plain
        ``=`` keeps each value it is given, with the line it is given at (``jb = std::min(n - j, nb)``
        in a loop: at most ``nb``); one that is only ever increased (``i += nb``, ``nb *= 2``, ``++k``)
        keeps its updates (it never falls below its smallest assigned value)."""
        found = self._target(cur, kind)
        if found is None:
            for name in self._chosen(cur):  # ``(c ? n : m) = 0``: either, for all we know
                written.add(name)
                writes.add((name, -1))
            return
        op, ref, kids = found
        line = cur.line
        through = op == "&" and id(cur) not in self._copies  # a copy into it is a write at its line
        writes.add((ref.spelling, -1 if through else line))  # -1: through a pointer, any time
        number = _is_integer(ref) or (_is_floating(ref) and op == "=")
        local = ref.kind == K.VAR_DECL and number and _unwrap(kids[0]).kind == K.DECL_REF_EXPR
        local = local and is_automatic(ref)  # a global or static: other calls change it too
        if local and op == "=" and len(kids) == 2:
            assigned.setdefault(ref.spelling, []).append(("at", line, self._expr(kids[1], 0)))
        elif local and op in ("+=", "*=", "<<=") and len(kids) == 2:
            updates.setdefault(ref.spelling, []).append((op, self._expr(kids[1], 0)))
        elif local and op == "++":
            updates.setdefault(ref.spelling, []).append(("+=", ("const", 1)))
        else:
            written.add(ref.spelling)

    def _reference(self, cur, guards, calls, bodies, bodiless, seen_targets, written) -> bool:
        """Records a call or a function named; True for a kernel launch, whose arguments are then
        left to ``_launch_arguments`` (a call of a ``__host__ __device__`` helper is walked like any other)."""
        ref = cur.referenced
        if ref is None or ref.kind not in _CALLABLE or ref.system:
            return False
        name = ref.spelling
        if not name or name.startswith("operator"):
            return False
        target = ref.get_usr()
        if not target:
            return False
        callee = self._callee_of(target, ref)
        line = cur.line
        key = (target, line, guards)
        args: tuple[Expr, ...] = ()
        ranges: tuple[tuple[int, int] | None, ...] = ()
        if cur.kind == K.CALL_EXPR:
            arg_cursors = list(cur.get_children())[1 : 1 + _MAX_ARGS]
            for a in arg_cursors:  # a table passed to a function may be written through it
                if (u := _unwrap(a)).kind == K.DECL_REF_EXPR and u.referenced is not None and _is_array(u):
                    written.add(u.referenced.spelling)
            if callee.host:  # a kernel's arguments decide nothing on the host
                args = tuple(self._argument(a, ref, i) for i, a in enumerate(arg_cursors))
                ranges = tuple(_type_range(a) for a in arg_cursors)
        elif key in calls:
            return False
        calls[key] = InstanceCall(target, callee.pattern, line, guards, args, ranges)
        if target not in seen_targets:
            _follow(target, callee, seen_targets, bodies, bodiless)
        return cur.kind == K.CALL_EXPR and callee.kernel

    def _launch_arguments(self, launch, guards, state) -> None:
        """The configuration and arguments of a kernel launch (most of a launcher's nodes): only the
        host calls and writes in them matter. A name there is a value for the device, never a host
        function, so names are not looked up."""
        calls, bodies, bodiless, seen_targets, written, assigned, updates, writes = state
        stack = list(launch.get_children())[1:]
        while stack:
            cur = stack.pop()
            kind = cur.kind
            if kind == K.CALL_EXPR:
                self._reference(cur, guards, calls, bodies, bodiless, seen_targets, written)
            elif kind in _WRITE_KINDS:
                self._note_write(cur, kind, written, assigned, updates, writes)
            stack.extend(cur.get_children())

    def _argument(self, arg: ci.Cursor, callee: ci.Cursor, index: int) -> Expr:
        """An argument as an expression; one the call leaves out (clang shows it as an empty, unplaced
        expression) is the callee's default (``I* permut_idx = nullptr``)."""
        value = self._expr(arg, 0)
        if value != _UNKNOWN or arg.kind != K.UNEXPOSED_EXPR or arg.file is not None:
            return value
        if next(arg.get_children(), None) is not None:
            return value
        default = _default_argument(callee, index)
        return value if default is None else self._expr(default, 0)

    def _callee_of(self, target: str, ref: Ref) -> _Callee:
        callee = self._callees.get(target)
        if callee is None:
            callee = self._callees[target] = self._callee(raw(ref))
        return callee

    def _callee(self, ref: ci.Cursor) -> _Callee:
        tpl = _primary_template(ref)
        pattern = tpl.get_usr() if tpl is not None else ""
        if ref.kind == K.FUNCTION_TEMPLATE:
            return _Callee(pattern, False, None, False)  # a template named without arguments: nothing to follow
        definition = ref.get_definition()
        if definition is None:
            return _Callee(pattern, _exec_space(tpl if tpl is not None else ref) == _HOST, None, True)
        space = _exec_space(tpl if tpl is not None else definition)
        f = definition.location.file
        inside = f is not None and self.extractor.rel(f.name) is not None
        # device code is read too (``_device_instance``), for the helper overloads a kernel's instantiation calls
        return _Callee(pattern, space == _HOST, definition if inside else None, False, space == _GLOBAL)


def _on_host(fn: ci.Cursor) -> bool:
    """Host code (its body is walked with values); kernels and ``__device__`` / ``__host__ __device__`` helpers
    are read only for their calls."""
    tpl = _primary_template(fn)
    return _exec_space(tpl if tpl is not None else fn) == _HOST


def _follow(target: str, callee: _Callee, seen: set[str], bodies: list, bodiless: set[str]) -> None:
    """A callee a body names for the first time: its body is walked next, or it has none in this TU."""
    seen.add(target)
    if callee.bodiless:
        bodiless.add(target)
    elif callee.body is not None:
        bodies.append(callee.body)


def _default_argument(fn: ci.Cursor, index: int) -> ci.Cursor | None:
    """The default value of ``fn``'s parameter ``index``, as written on the declaration."""
    params = list(fn.get_arguments())
    if index >= len(params):
        return None
    values = [ch for ch in params[index].get_children() if ch.kind in _EXPRESSIONS]
    return values[-1] if values else None


def _type_range(arg: ci.Cursor) -> tuple[int, int] | None:
    """The narrowest integer type the value of ``arg`` passes through (``(int64_t)lda`` with
    ``rocblas_int lda`` is still a 32-bit value), when it is 32 bits or less."""
    best: tuple[int, int] | None = None
    node: ci.Cursor | None = arg
    for _ in range(6):
        if node is None:
            break
        r = _range_of(node)
        if r is not None and (best is None or r[1] - r[0] < best[1] - best[0]):
            best = r
        if node.kind not in _CASTS:
            break
        node = next(reversed(list(node.get_children())), None)
    return best


def _note_local(decl: ci.Cursor, expr, locals_: dict, written: set[str]) -> None:
    """An integer, bool or floating-point local and its initializer, by name; a name declared twice with different
    initializers (shadowing, two loops) is treated as written, so it is never evaluated. An integer
    table initialised with constants (``I size[][N] = {TUNING_TABLE}``) stands for the range of them."""
    name = decl.spelling
    if name and not is_automatic(decl) and not decl.type.is_const_qualified():
        written.add(name)  # a static local keeps what earlier calls left in it
        return
    if name and _is_array(decl):
        table = _constant_table(decl)
        if table is not None:
            _set_local(name, table, locals_, written)
        return
    if not name or not _is_number(decl):
        return
    init = [ch for ch in decl.get_children() if ch.kind in _EXPRESSIONS]
    _set_local(name, ("at", decl.line, expr(init[-1], 0)) if init else _UNSET, locals_, written)


def _call_order(call: InstanceCall) -> tuple:
    """Calls by line, callee and guards (one macro line can call the same function under different guards)."""
    return call.line, call.target, tuple((g.line, g.want, g.text, repr(g.expr)) for g in call.guards)


def _note_range(decl: ci.Cursor, ranges: dict[str, tuple[int, int] | None]) -> None:
    """The range of a variable's integer type, when 32 bits or less; a name also declared wider has none."""
    name = decl.spelling
    if not name:
        return
    r = _range_of(decl)
    if name in ranges:
        old = ranges[name]
        r = None if old is None or r is None else (min(old[0], r[0]), max(old[1], r[1]))
    ranges[name] = r


def _local_values(
    locals_: dict[str, Expr],
    assigned: dict[str, list[Expr]],
    updates: dict[str, list[tuple[str, Expr]]],
    written: set[str],
):
    """Each integer local that only ever takes the values of its initializer and of plain ``=``
    assignments, as that value or as the hull of those values; one also increased in place, as
    ``("grow", value, (op, amount)...)``."""
    out = []
    for name, init in sorted(locals_.items()):
        values = [v for v in dict.fromkeys((init, *assigned.get(name, ()))) if v != _UNSET]
        if name in written or not values:
            continue
        value = values[0] if len(values) == 1 else ("hull", *values)
        if name in updates:
            value = ("grow", value, *dict.fromkeys(updates[name]))
        out.append((name, value))
    return tuple(out)


_START_SCOPES = {K.NAMESPACE.value, K.LINKAGE_SPEC.value, K.UNEXPOSED_DECL.value}
_FUNCTION_DECL = K.FUNCTION_DECL.value
_START_KINDS = _START_SCOPES | {_FUNCTION_DECL}


class _Files:
    """Where a cursor was expanded, as libclang's file handle, and that file's checkout path: the few C
    calls ``instance_starts`` makes for each of a TU's ten thousand top-level declarations."""

    def __init__(self, tu: ci.TranslationUnit, extractor: Extractor) -> None:
        lib = _bind_clang()
        self._location = lib.clang_getCursorLocation
        self._expansion = lib.clang_getExpansionLocation
        self._name = lib["clang_getFileName"]  # a fresh pointer: takes the handle as a plain address
        self._name.argtypes, self._name.restype = [ctypes.c_void_p], ci._CXString
        self._name.errcheck = ci._CXString.from_result
        self.in_system_header = lib.clang_Location_isInSystemHeader
        self._handle = ctypes.c_void_p()
        self._out = ctypes.byref(self._handle)
        self._rel: dict[int | None, str | None] = {None: None}
        self.extractor = extractor
        self.main = ctypes.cast(lib.clang_getFile(tu, tu.spelling), ctypes.c_void_p).value

    def of(self, c: ci.Cursor) -> tuple[ci.SourceLocation, int | None, str | None]:
        """The cursor's location, its file's handle and its checkout path (None outside the checkout)."""
        loc = self._location(c)
        self._expansion(loc, self._out, None, None, None)
        handle = self._handle.value
        if handle not in self._rel:
            self._rel[handle] = self.extractor.rel(self._name(handle))
        return loc, handle, self._rel[handle]


def instance_starts(tu: ci.TranslationUnit, extractor: Extractor) -> list[ci.Cursor]:
    """Concrete host functions defined in the TU's main file (entry points, non-template helpers)
    and the host specialisations it instantiates. libclang lists explicit instantiations among
    a TU's top-level declarations only when the index excludes PCH declarations."""
    files = _Files(tu, extractor)
    main = files.main
    starts = []
    stack = [tu.cursor]
    found: list[ci.Cursor] = []

    def visit(child: ci.Cursor, _parent, _data) -> int:
        if child._kind_id in _START_KINDS:  # most are classes, templates and typedefs: not listed
            child._tu = tu
            found.append(child)
        return 1  # CXChildVisit_Continue

    callback = ci.callbacks["cursor_visit"](visit)
    while stack:
        found.clear()
        ci.conf.lib.clang_visitChildren(stack.pop(), callback, None)
        for c in list(found):
            kind = c._kind_id
            loc, handle, rel = files.of(c)
            if rel is None or files.in_system_header(loc):
                continue
            if kind in _START_SCOPES:
                stack.append(c)
                continue
            in_main = handle == main
            tpl = None if in_main else _primary_template(c)
            if in_main or tpl is not None:
                d = c.get_definition()
                if d is not None and _exec_space(tpl if not in_main else d) == ExecSpace.HOST.value:
                    starts.append(d)
    return starts
