"""What the compiler instantiated: the concrete host bodies reachable from a TU's definitions.

The facts of ``clang_facts`` describe template *patterns*, where a launcher names every kernel
it could launch for any type. Here we follow the same code as clang instantiated it for the
concrete types of each entry point (``rocblas_sscal`` → ``rocblas_scal_impl<int, float>`` → …):
a branch clang folds to a constant (``if constexpr``, ``if (using_float && incx == 1)`` with a
``static constexpr bool``, tuning macros) contributes only its taken side, and an overload or
specialisation clang did not select is simply not called. Branches clang cannot fold are kept
as guards, reduced to expressions over the function's parameters, so that constants passed
down the call path (``batch_count = 1``) can decide them later.

Device code (kernels and their helpers) is read only for what it calls: which kernels run is decided on the
host, and walking every instantiated kernel body with the host analysis costs more than the parse itself
(measured: 8.8 s for rocblas_gemv_kernels.cpp). Its calls name the helper overloads and specialisations clang
selected for the kernel's types, on the side of each branch its template arguments fold.

Specialisations are identified by USR (``c:@F@f<#f>#...``), which is the same in every TU, so a
call to ``f<float>`` that is only declared here (an extern template) is linked to the TU that
explicitly instantiates it.
"""

from __future__ import annotations

import ctypes
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace

import clang.cindex as ci

from miner.models import ExecSpace, Expr, Guard, Instance, InstanceCall
from miner.parse.clang_facts import Extractor, _branch_head, _exec_space, _primary_template
from miner.parse.cursor_tree import Node, Ref, evaluate, is_automatic, operator_spelling, raw, tree, type_kind
from miner.parse.cursor_tree import unwrap as _unwrap

K = ci.CursorKind
_CALLABLE = {K.FUNCTION_DECL, K.CXX_METHOD, K.FUNCTION_TEMPLATE}
_REFS = {K.CALL_EXPR, K.DECL_REF_EXPR, K.MEMBER_REF_EXPR}
_PASS_THROUGH = {K.UNEXPOSED_EXPR, K.PAREN_EXPR}
_UNKNOWN: Expr = ("unknown",)
_UNSET: Expr = ("unset",)  # a local declared without an initializer
_ELSE_BEFORE = re.compile(rb"else\s*$")
_MACRO_CALL = re.compile(rb"([A-Z_][A-Z0-9_]*)\s*\(")
_WHITESPACE = re.compile(r"\s+")
_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_ASSIGNS = {"=", "*=", "/=", "%=", "+=", "-=", "<<=", ">>=", "&=", "^=", "|="}
_UNARY_WRITES = {"++", "--", "&"}  # unary & takes the address
_VARIABLES = {K.PARM_DECL, K.VAR_DECL}
_CASTS = {K.UNEXPOSED_EXPR, K.PAREN_EXPR, K.CSTYLE_CAST_EXPR, K.CXX_STATIC_CAST_EXPR, K.CXX_FUNCTIONAL_CAST_EXPR}
T = ci.TypeKind
_SIGNED = {t.value for t in (T.CHAR_S, T.SCHAR, T.SHORT, T.INT, T.LONG, T.LONGLONG)}
_UNSIGNED = {t.value for t in (T.CHAR_U, T.UCHAR, T.USHORT, T.UINT, T.ULONG, T.ULONGLONG)}
_WRITE_KINDS = {K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR, K.UNARY_OPERATOR}
_NOTHING: frozenset[str] = frozenset()
_LABELS = {K.CASE_STMT, K.DEFAULT_STMT, K.LABEL_STMT}
_JUMPS = {K.GOTO_STMT, K.INDIRECT_GOTO_STMT, K.LABEL_STMT}
_MAX_EXPR_DEPTH = 8
_ASSIGN_KINDS = {K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR}
_COMPOUND_OPS = {"+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^"}
_MAX_ARGS = 48  # rocBLAS launchers take up to ~30 arguments; batch_count comes late
# not half precision: it holds integers exactly only to 2048
_FLOATING = {T.FLOAT.value, T.DOUBLE.value, T.LONGDOUBLE.value}
_EXACT_IN_FLOAT = 2**24  # the integers a float holds exactly
_MEMCPY = {"hipMemcpy", "hipMemcpyAsync"}
_SYNCHRONIZE = {"hipStreamSynchronize", "hipDeviceSynchronize"}
_REFERENCES = {T.LVALUEREFERENCE.value, T.RVALUEREFERENCE.value}
_INTEGERS = _SIGNED | _UNSIGNED | {T.BOOL.value, T.ENUM.value}
_NUMBERS = _INTEGERS | _FLOATING
_ARRAYS = {T.CONSTANTARRAY.value, T.INCOMPLETEARRAY.value}
_RANGED = _SIGNED | _UNSIGNED | {T.BOOL.value}  # the types _integer_range gives a range
_POINTER = T.POINTER.value
# clang_isExpression: libclang numbers its expression kinds from 100 and its statements from 200
_EXPRESSIONS = frozenset(k for k in K.get_all_kinds() if 100 <= k.value < 200)
# what a statement goes through on its way to a call it surely makes (``RETURN_IF_HIP_ERROR(call)`` is
# ``do { hipError_t s = call; if (s != hipSuccess) return ...; } while (0)``)
_SURE_PATH = {K.DO_STMT, K.DECL_STMT, K.VAR_DECL, K.UNEXPOSED_EXPR, K.PAREN_EXPR}
_FLOAT_KINDS = {
    K.DECL_REF_EXPR, K.UNARY_OPERATOR, K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR, K.CONDITIONAL_OPERATOR,
    K.CSTYLE_CAST_EXPR, K.CXX_STATIC_CAST_EXPR, K.CXX_FUNCTIONAL_CAST_EXPR,
}  # fmt: skip


def _bind_clang() -> ci.conf.lib:
    lib = ci.conf.lib
    if getattr(lib, "_miner_instances_bound", False):
        return lib
    lib.clang_Cursor_Evaluate.argtypes = [ci.Cursor]
    lib.clang_Cursor_Evaluate.restype = ctypes.c_void_p
    lib.clang_EvalResult_getKind.argtypes = [ctypes.c_void_p]
    lib.clang_EvalResult_getKind.restype = ctypes.c_int
    lib.clang_EvalResult_getAsLongLong.argtypes = [ctypes.c_void_p]
    lib.clang_EvalResult_getAsLongLong.restype = ctypes.c_longlong
    lib.clang_EvalResult_getAsDouble.argtypes = [ctypes.c_void_p]
    lib.clang_EvalResult_getAsDouble.restype = ctypes.c_double
    lib.clang_EvalResult_dispose.argtypes = [ctypes.c_void_p]
    lib.clang_EvalResult_dispose.restype = None
    lib.clang_getExpansionLocation.argtypes = [ci.SourceLocation, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                                               ctypes.c_void_p]  # fmt: skip
    lib.clang_getExpansionLocation.restype = None
    lib._miner_instances_bound = True
    return lib


def _constant(cursor: ci.Cursor | Node) -> int | float | None:
    """What clang's constant evaluator makes of an expression: an integer, a floating-point value, or None."""
    if type(cursor) is Node and evaluate is not None:
        return evaluate(cursor._body.cursors, cursor._i)
    lib = _bind_clang()
    result = lib.clang_Cursor_Evaluate(raw(cursor))
    if not result:
        return None
    try:
        kind = lib.clang_EvalResult_getKind(result)
        if kind == 1:  # CXEval_Int
            return int(lib.clang_EvalResult_getAsLongLong(result))
        if kind == 2:  # CXEval_Float
            return float(lib.clang_EvalResult_getAsDouble(result))
        return None
    finally:
        lib.clang_EvalResult_dispose(result)


def evaluate_int(cursor: ci.Cursor) -> int | None:
    """The value clang's constant evaluator gives an expression, when it is an integer."""
    value = _constant(cursor)
    return value if type(value) is int else None


def _evaluate_exact(cursor: ci.Cursor) -> int | None:
    """The value clang's constant evaluator gives an expression, when it is an integer, or a floating-point
    value that is an integer a float holds exactly (``T(0.0)``, ``-1.0``)."""
    value = _constant(cursor)
    if type(value) is float:
        return int(value) if value.is_integer() and abs(value) <= _EXACT_IN_FLOAT else None
    return value


def _operator(cursor: ci.Cursor, what: str) -> str:
    return cursor.op if type(cursor) is Node else operator_spelling(raw(cursor), what)


_HOST = ExecSpace.HOST.value
_GLOBAL = ExecSpace.GLOBAL.value


@dataclass(frozen=True, slots=True)
class _Callee:
    pattern: str  # USR of the template it is a specialisation of ("" for a plain function)
    host: bool  # runs on the host: its arguments can decide branches in its body
    body: ci.Cursor | None  # a definition in the checkout, to walk
    bodiless: bool  # declared here, defined in another TU (or nowhere we can see)
    kernel: bool = False  # a ``__global__`` function: a call is a launch


@dataclass
class InstanceWalker:
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

    # ------------------------------------------------------------------ branches

    def _sequence(self, block: ci.Cursor, guards, defs: dict, stack) -> None:
        """A block's statements in order: after ``if (c) return ...;`` the rest runs only when
        ``!c`` (``if (batch_count == 1) return block_recursive(...);``), and not at all when
        ``c`` folds to true. Each statement sees the constants its locals surely hold there
        (``trans = rocblas_operation_none;`` just before ``trmv(..., trans, ...)``; see ``_after_defs``)."""
        items = []
        acc: tuple[Guard, ...] | None = guards
        end = block.end_line
        for stmt in block.get_children():
            here, after = self._advance(stmt, defs)
            items.append((stmt, acc, here))
            self._defs = here
            if stmt.kind in (K.IF_STMT, K.DO_STMT):
                acc = self._after_early_exit(stmt, acc, end)
                if acc is None:
                    break
            if stmt.kind in (K.WHILE_STMT, K.IF_STMT):
                acc = self._after_statement(stmt, acc, end)
            defs = after
        stack.extend(reversed(items))

    def _advance(self, stmt, defs: dict) -> tuple[dict, dict]:
        """What holds while ``stmt`` runs (less what it writes, except a table it hands to one call) and after
        it (``_after_defs``; a table a call was given no longer holds; after a label, nothing does)."""
        here = defs
        handed: frozenset[str] = _NOTHING
        if defs:
            changed = self._written_names(stmt)
            if changed & defs.keys():
                handed, once = self._handed(stmt)
                here = {k: v for k, v in defs.items() if k not in changed or k in once}
        if stmt.kind in _LABELS:
            return here, {}  # a jump can arrive here with anything
        if self._blocked is True:
            return here, here
        if stmt.kind == K.IF_STMT and here is not defs:
            saved = self._defs
            self._defs = here
            self._condition_defs(stmt, defs)
            self._defs = saved
        after = self._after_defs(stmt, defs, here)
        if handed & after.keys():  # the callee may have written it
            after = {k: v for k, v in after.items() if k not in handed}
        return here, after

    def _handed(self, stmt) -> tuple[frozenset[str], frozenset[str]]:
        """The arrays ``stmt`` passes to a call, and of those the ones it names only once, as that argument,
        outside any loop: their elements are still as declared when that call receives them."""
        key = id(stmt)
        found = self._passed.get(key)
        if found is not None:
            return found
        passed: dict[str, int] = {}
        named: dict[str, int] = {}
        looped = False
        stack = [stmt]
        while stack:
            node = stack.pop()
            kind = node.kind
            kids = node.children
            if kind in (K.FOR_STMT, K.WHILE_STMT, K.DO_STMT):
                looped = True
            elif kind == K.CALL_EXPR:
                for name in _arrays_passed(node):
                    passed[name] = passed.get(name, 0) + 1
            elif kind == K.DECL_REF_EXPR and (ref := node.referenced) is not None and _is_array(ref):
                named[ref.spelling] = named.get(ref.spelling, 0) + 1
            stack.extend(kids)
        once = () if looped else (n for n, k in passed.items() if k == 1 and named.get(n) == 1)
        found = self._passed[key] = (frozenset(passed), frozenset(once))
        return found

    def _after_defs(self, stmt, before: dict, here: dict) -> dict:
        """The values integer locals surely hold after ``stmt``: ``x = e;`` or ``T x = e;`` sets one, as ``e`` at
        that line (``jb = std::min(n - j, nb)``: what the loop condition says there holds for it); an ``if`` whose
        branches each set it by one such statement (or leave it) gives ``select(cond, a, b)`` (``trans = none;
        if (leftside) trans = transpose;``); a search loop leaves its variable at the first element that
        stopped it; a constant table holds its elements until a call is given it; any other write forgets it."""
        kind = stmt.kind
        if kind == K.DECL_STMT:
            out = here
            for decl in stmt.get_children():
                if decl.kind == K.VAR_DECL:
                    value = self._initial_value(decl)
                    if value is not None:
                        out = {**out, decl.spelling: value}
            return out
        found = self._assigned_value(stmt, before)
        if found is not None:
            return {**here, found[0]: found[1]}
        if kind == K.IF_STMT:
            return {**here, **self._merged(stmt, before)}
        if kind == K.FOR_STMT and (search := self._search_loop(stmt)) is not None:
            return {**here, search[0]: search[1]}
        return here

    def _reassigned_locals(self, body) -> frozenset[str] | None:
        """The locals some statement of ``body`` assigns with ``=`` and the arrays it declares (None when a
        goto or label can jump into a block); sets the arrays it writes an element of."""
        names: set[str] = set()
        tables: set[str] = set()
        named: dict[str, int] = {}  # references to each array
        read: dict[str, int] = {}  # of them, those that index it or pass it to a call
        parents: dict[int, object] = {}
        stack = [body]
        while stack:
            node = stack.pop()
            kind = node.kind
            if kind in _JUMPS:
                return None
            kids = node.children
            if kind == K.VAR_DECL:
                vkind = type_kind(node)
                if vkind in _ARRAYS:
                    names.add(node.spelling)
                elif vkind in _REFERENCES and (aliased := _names_in(node.children)):
                    self._aliases[id(node)] = aliased  # written through the reference, any time
                    self._kept_pointers -= aliased
            elif kind in _WRITE_KINDS and (hit := self._target(node, kind)) is not None:
                if _is_array(hit[1]):
                    tables.add(hit[1].spelling)
                elif hit[1].spelling in self._kept_pointers and hit[1].kind == K.PARM_DECL:
                    self._kept_pointers -= {hit[1].spelling}  # repointed: ``*p`` is not what the caller gave
            elif self._kept_pointers and kind in _ASSIGN_KINDS and kids and _operator(node, "Binary") in _ASSIGNS:
                self._kept_pointers -= _names_in(kids[:1])  # ``(c ? p : q) = r``: it may be p
            elif self._kept_pointers and kind == K.CXX_CONST_CAST_EXPR:
                self._kept_pointers -= _names_in(kids)  # written through once const is cast away
            elif kind == K.DECL_REF_EXPR and (ref := node.referenced) is not None and _is_array(ref):
                named[ref.spelling] = named.get(ref.spelling, 0) + 1
            elif kind == K.CALL_EXPR:
                for name in _arrays_passed(node):
                    read[name] = read.get(name, 0) + 1
                self._note_addresses(node)
            elif kind == K.ARRAY_SUBSCRIPT_EXPR and kids:
                base = _unwrap(kids[0])
                if base.kind == K.DECL_REF_EXPR and (ref := base.referenced) is not None and _is_array(ref):
                    read[ref.spelling] = read.get(ref.spelling, 0) + 1
            for k in kids:
                parents[id(k)] = node
            if kind in (K.COMPOUND_STMT, K.IF_STMT, K.FOR_STMT):
                for stmt in kids[:1] if kind == K.FOR_STMT else kids:
                    inner = _unwrap(stmt)
                    if inner.kind in _ASSIGN_KINDS and (hit := self._target(inner, inner.kind)) and hit[0] in _ASSIGNS:
                        names.add(hit[1].spelling)
            stack.extend(kids)
        for call, inner, var, source in self._async_copies:  # the copy has landed once the next statement syncs
            node = call  # up to the statement of the block it is in (through a macro's ``do { ... } while (0)``)
            while (up := parents.get(id(node))) is not None and (
                up.kind != K.COMPOUND_STMT or getattr(parents.get(id(up)), "kind", None) == K.DO_STMT
            ):
                node = up
            block = up.children if up is not None else []
            at = next((i for i, st in enumerate(block) if st is node), len(block))
            if at + 1 < len(block) and _calls_any(block[at + 1], _SYNCHRONIZE):
                self._copies[id(inner)] = (var, source, True)
        # an array named any other way (``int* p = table;``) may be written through what it was given to
        self._table_written = frozenset(tables | {n for n, k in named.items() if k > read.get(n, 0)})
        return frozenset(names)

    def _note_addresses(self, call) -> None:
        """``&x`` of a floating-point local handed to a pointer-to-const parameter reads ``x``, it does not write
        it (rocSOLVER's ``T one = 1; trsm(..., &one, ...)``); ``hipMemcpy(&x, p, sizeof(T), ...)`` sets ``x`` to
        ``*p``; a pointer parameter bound to a reference to non-const may be repointed there."""
        args = call.children[1:]
        fn = None
        for index, arg in enumerate(args):
            inner = _unwrap(arg)
            if inner.kind == K.DECL_REF_EXPR:
                if inner.spelling in self._kept_pointers and (ref := inner.referenced) is not None:
                    fn = fn or call.referenced
                    if ref.kind == K.PARM_DECL and _binds_mutable(fn, index):
                        self._kept_pointers -= {ref.spelling}
                continue
            if inner.kind != K.UNARY_OPERATOR or not inner.children:
                continue
            var = _unwrap(inner.children[0])
            ref = var.referenced if var.kind == K.DECL_REF_EXPR else None
            if ref is None or ref.kind != K.VAR_DECL or not _is_floating(ref) or not is_automatic(ref):
                continue
            if _operator(inner, "Unary") != "&" or (fn := fn or call.referenced) is None:
                continue
            if index == 0 and fn.spelling in _MEMCPY:
                source = _copy_source(args, ref)
                if source is not None and fn.spelling == "hipMemcpy":
                    self._copies[id(inner)] = (ref.spelling, source, False)
                elif source is not None:
                    self._async_copies.append((call, inner, ref.spelling, source))
                continue
            ptype = _bind_clang().clang_getArgType(fn.type, index)
            if _type_id(ptype) == _POINTER and ptype.get_canonical().get_pointee().is_const_qualified():
                self._const_addresses.add(id(inner))

    def _copied_value(self, stmt, name: str, after: list) -> Expr | None:
        """What ``name`` holds after ``stmt`` (and the statements ``after`` it in its block) when ``stmt`` surely
        makes a ``hipMemcpy`` into it from a pointer parameter the body never repoints, and writes it no other way
        (``RETURN_IF_HIP_ERROR(hipMemcpyAsync(&alpha_h, alpha, sizeof(T), ...))``): ``*alpha``. An asynchronous
        copy counts only when a later statement of the block synchronizes."""
        node = stmt
        while True:
            if node.kind == K.COMPOUND_STMT:
                if not node.children:
                    return None
                node = node.children[0]
                continue
            if node.kind == K.UNARY_OPERATOR and id(node) in self._copies:
                break
            if node.kind == K.CALL_EXPR:
                args = node.children[1:]
                node = _unwrap(args[0]) if args else node
                if node.kind != K.UNARY_OPERATOR:
                    return None
                continue
            if node.kind not in _SURE_PATH or not node.children:
                return None
            if node.kind == K.VAR_DECL and not is_automatic(node):
                return None  # a static local's initializer runs once
            node = node.children[-1] if node.kind == K.VAR_DECL else node.children[0]
        var, source, asynchronous = self._copies[id(node)]
        if var != name or source not in self._kept_pointers or self._writes_besides(stmt, name, id(node)):
            return None
        if asynchronous and not any(_calls_any(s, _SYNCHRONIZE) for s in after):
            return None
        return ("real", ("param", "*" + source))

    def _writes_besides(self, stmt, name: str, copy: int) -> bool:
        """Whether ``stmt`` writes ``name`` anywhere but at the node ``copy``."""
        stack = [stmt]
        while stack:
            node = stack.pop()
            kind = node.kind
            if kind in _WRITE_KINDS:
                hit = self._target(node, kind) if id(node) != copy else None
                written = hit is not None and hit[1].spelling == name
            elif kind == K.CALL_EXPR:
                written = name in self._by_reference(node)
            else:
                written = kind == K.VAR_DECL and (node.spelling == name or name in self._aliases.get(id(node), ()))
            if written:
                return True
            stack.extend(node.children)
        return False

    def _initial_value(self, decl) -> Expr | None:
        name = decl.spelling
        if name in self._blocked or not is_automatic(decl):
            return None
        if _is_array(decl):  # never assigned as a whole: its elements, until something may change them
            return self._table_of(decl)
        if name not in self._reassigned or not _is_number(decl):
            return None
        init = [ch for ch in decl.get_children() if ch.kind in _EXPRESSIONS]
        if not init:
            return None
        return _placed(decl.line, self._expr(init[-1], 0))

    def _assigned_value(self, stmt, before: dict) -> tuple[str, Expr] | None:
        """``(name, value)`` for a statement ``x = e;`` (or ``x op= e;``, which is ``x = x op e``) with ``x`` an
        integer local; ``e`` is read with the values that hold ``before`` the statement (``blk = -blk`` negates
        the ``blk`` given earlier, ``blk *= dim`` multiplies it)."""
        node = _unwrap(stmt)
        if node.kind not in _ASSIGN_KINDS or (hit := self._target(node, node.kind)) is None:
            return None
        if hit[0] not in _ASSIGNS or (hit[0] != "=" and hit[0][:-1] not in _COMPOUND_OPS):
            return None
        _, ref, kids = hit
        name = ref.spelling
        if ref.kind != K.VAR_DECL or name not in self._reassigned or name in self._blocked or len(kids) != 2:
            return None
        if not (_is_integer(ref) or (_is_floating(ref) and hit[0] == "=")) or not is_automatic(ref):
            return None  # floating point: only what is assigned, no arithmetic
        saved = self._defs
        changed = self._written_names(kids[1])
        if changed:
            changed = changed - self._handed(kids[1])[1]  # a table handed to one call holds for that call
        self._defs = {k: v for k, v in before.items() if k not in changed} if changed else before
        try:
            value = self._expr(kids[1], 0)
            if hit[0] != "=":
                value = ("binary", hit[0][:-1], before.get(name, ("local", name)), value)
            value = _placed(node.line, value)
        finally:
            self._defs = saved
        return None if value is None else (name, value)

    def _search_loop(self, loop) -> tuple[str, Expr] | None:
        """``for (i = a; i < b; ++i) { if (c) break; }`` with ``i`` declared before it: after the loop ``i`` is
        the first value in ``[a, b)`` for which ``c`` holds, else ``b`` (rocSOLVER's ``get_index`` finds a size's
        row of a tuning table so)."""
        kids = loop.children
        if len(kids) != 4:
            return None
        init, cond, step, body = (_unwrap(k) for k in kids)
        hit = self._target(init, init.kind) if init.kind == K.BINARY_OPERATOR else None
        if hit is None or hit[0] != "=" or len(hit[2]) != 2:
            return None
        _, var, (_, start) = hit
        name = var.spelling
        if var.kind != K.VAR_DECL or not _is_integer(var) or not is_automatic(var) or name in self._blocked:
            return None
        if cond.kind != K.BINARY_OPERATOR or _operator(cond, "Binary") != "<" or not _names(cond.children[0], var):
            return None
        if step.kind != K.UNARY_OPERATOR or _operator(step, "Unary") != "++" or not _names(step.children[0], var):
            return None
        stmts = body.children if body.kind == K.COMPOUND_STMT else [body]
        if len(stmts) != 1 or stmts[0].kind != K.IF_STMT or len(stmts[0].children) != 2:
            return None
        test, then = stmts[0].children
        then = then.children[0] if then.kind == K.COMPOUND_STMT and len(then.children) == 1 else then
        if then.kind != K.BREAK_STMT or test.kind not in _EXPRESSIONS or self._written_names(test):
            return None
        value = ("first", name, self._expr(start, 0), self._expr(cond.children[1], 0), self._expr(test, 0))
        return name, _placed(loop.line, value)

    def _table_of(self, decl) -> Expr | None:
        """A constant integer table declared here, when nothing writes it (a callee given it is handled by
        ``_sequence``: the table holds for that call, and not after it)."""
        if decl.spelling in self._table_written:
            return None
        return _constant_table(decl)

    def _condition_defs(self, stmt, defs: dict) -> None:
        """Reduces an ``if``'s condition with the values that hold before it, less what the condition itself
        writes (``if (blk == 1) blk = ...`` reads the ``blk`` given before it); reductions are kept per node."""
        split = self._split_if(stmt)
        if split is None or not split[3]:
            return
        header = split[3]
        written = set().union(*(self._written_names(h) for h in header))
        saved = self._defs
        self._defs = {k: v for k, v in defs.items() if k not in written}
        self._expr(header[-1], 0)
        self._defs = saved

    def _merged(self, stmt, before: dict) -> dict:
        key = (id(stmt), id(before))
        found = self._merges.get(key)
        if found is None:  # an else-if chain asks for each inner if once per name it sets
            found = self._merges[key] = (self._merge(stmt, before), before)  # holding ``before`` keeps its id
        return found[0]

    def _merge(self, stmt, before: dict) -> dict:
        """The locals an ``if`` sets in its branches, each as ``select(cond, then, else)`` when every branch
        sets it by one top-level ``x = c;`` or leaves its earlier constant alone."""
        split = self._split_if(stmt)
        if split is None or len(split[3]) != 1 or not split[0]:
            return {}
        _, _, _, header, branches = split
        if len(branches) not in (1, 2) or not any(_assigns_at_top(b) for b in branches):
            return {}
        if self._written_names(header[0]):
            return {}
        then_branch = branches[0]
        else_branch = branches[1] if len(branches) == 2 else None
        if else_branch is None:
            before_then = split[0][max(0, then_branch.offset - 64) : then_branch.offset]
            if _ELSE_BEFORE.search(before_then.rstrip()):
                return {}
        saved = self._defs
        self._defs = before
        try:
            cond = self._expr(header[0], 0)  # what holds before the branches (the header writes nothing)
        finally:
            self._defs = saved
        out = {}
        for name in self._written_names(stmt):
            values = [self._branch_value(b, name, before) for b in (then_branch, else_branch)]
            if all(v is not None for v in values):
                out[name] = ("select", cond, values[0], values[1])
        return out

    def _branch_value(self, branch, name: str, before: dict) -> Expr | None:
        """What ``name`` holds after ``branch`` when it is set there only by one top-level ``name = c;`` or
        by one ``if`` that sets it that way in its own branches."""
        if branch is None or name not in self._written_names(branch):
            return before.get(name)
        stmts = list(branch.get_children()) if branch.kind == K.COMPOUND_STMT else [branch]
        setting = [s for s in stmts if name in self._written_names(s)]
        if len(setting) != 1:
            return None
        prior = before
        for s in stmts[: stmts.index(setting[0])]:  # as the branch's own sequence will see it
            prior = self._advance(s, prior)[1]
        found = self._assigned_value(setting[0], prior)
        if found is not None and found[0] == name:
            return found[1]
        at = stmts.index(setting[0])
        if (copied := self._copied_value(setting[0], name, stmts[at + 1 :])) is not None:
            return copied
        if setting[0].kind == K.IF_STMT:  # nested: if (side == left) { if (uplo == lower) shape = 0; else ... }
            return self._merged(setting[0], prior).get(name)
        return None

    def _target(self, cur, kind):
        """``_write_target``, once per node: the walk and ``_written_names`` both ask."""
        key = id(cur)
        if key in self._const_addresses:
            return None
        if key not in self._targets:
            self._targets[key] = _write_target(cur, kind)
        return self._targets[key]

    def _chosen(self, cur) -> frozenset[str]:
        """The variables an assignment or increment to a conditional (``(c ? n : m) = 0``) may write."""
        found = self._chosen_memo.get(id(cur))
        if found is None:
            found = _NOTHING
            target = _unwrap(cur.children[0]) if cur.children else None
            if target is not None and target.kind == K.CONDITIONAL_OPERATOR:
                op = _operator(cur, "Unary" if cur.kind == K.UNARY_OPERATOR else "Binary")
                if op in _ASSIGNS or op in ("++", "--"):
                    found = _names_in(target.children[1:])
            self._chosen_memo[id(cur)] = found
        return found

    def _by_reference(self, call) -> frozenset[str]:
        key = id(call)
        found = self._bound.get(key)
        if found is None:
            found = self._bound[key] = _bound_to_reference(call)
        return found

    def _written_names(self, node) -> frozenset[str]:
        """The variables ``node`` declares, assigns, increments, takes the address of or binds to a
        non-const reference, anywhere inside it (each node's own set is built once, from its children's)."""
        memo = self._written_memo
        found = memo.get(id(node))
        if found is not None:
            return found
        if node.quiet:
            return _NOTHING
        stack: list[tuple[object, bool]] = [(node, False)]
        while stack:
            cur, done = stack.pop()
            if id(cur) in memo:
                continue
            kids = cur.children
            if not done:
                stack.append((cur, True))
                stack.extend((k, False) for k in kids if not k.quiet and id(k) not in memo)
                continue
            names: set[str] = set()
            for k in kids:
                if not k.quiet:
                    names |= memo[id(k)]
            kind = cur.kind
            if kind == K.VAR_DECL:
                names.add(cur.spelling)
                names |= self._aliases.get(id(cur), _NOTHING)
            elif kind in _WRITE_KINDS:
                if (hit := self._target(cur, kind)) is not None:
                    names.add(hit[1].spelling)
                else:
                    names |= self._chosen(cur)
            elif kind == K.CALL_EXPR:
                names |= self._by_reference(cur)
                names.update(_arrays_passed(cur))  # written through, for all we know
            memo[id(cur)] = frozenset(names) if names else _NOTHING
        return memo[id(node)]

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

    def _expr(self, c: ci.Cursor, depth: int) -> Expr:
        """``c`` as an expression; the same node of a body is reduced once (a call's arguments are read
        for the call and again where its result initialises a local)."""
        if type(c) is not Node:
            return self._reduce(c, depth)
        key = (id(c), depth)
        found = self._exprs.get(key)
        if found is None:
            found = self._exprs[key] = self._reduce(c, depth)
        return found

    def _reduce(self, c: ci.Cursor, depth: int) -> Expr:
        value = _evaluate_exact(c)
        if value is not None:
            return ("const", value)
        if depth >= _MAX_EXPR_DEPTH:
            return _UNKNOWN
        outer = c
        passed = c.kind in _PASS_THROUGH
        to = type_kind(c) if passed else None
        c = _unwrap(c)
        kind = c.kind
        converted = passed and to in _FLOATING
        if passed and c is not outer and to not in _FLOATING and to not in _INTEGERS and _is_number(c):
            return _UNKNOWN  # to half precision, ``_Float16`` or another type not modelled: it may round
        if converted and _narrows(c, outer):
            return _UNKNOWN
        if converted or (kind in _FLOAT_KINDS and _is_floating(c)):
            real = self._real(c, depth)
            if real is not None:
                return real
        if kind in _CASTS and _is_integer(c):  # (int64_t)lda: the value, whatever its width
            inner = next(reversed(list(c.get_children())), None)
            return _UNKNOWN if inner is None else self._expr(inner, depth + 1)
        if kind == K.CXX_NULL_PTR_LITERAL_EXPR or (kind in _CASTS and _is_null(c)):
            return ("const", 0)
        if kind == K.DECL_REF_EXPR:
            ref = c.referenced
            if ref is None or ref.kind not in _VARIABLES:
                return _UNKNOWN
            if ref.kind == K.VAR_DECL and (known := self._defs.get(ref.spelling)) is not None:
                self._defs_used.add(ref.spelling)
                return known
            if ref.kind == K.VAR_DECL and not is_automatic(ref) and _is_array(ref):
                return self._global_table(ref)
            return ("param" if ref.kind == K.PARM_DECL else "local", ref.spelling)
        kids = list(c.get_children())
        if kind == K.BINARY_OPERATOR and len(kids) == 2:
            op = _operator(c, "Binary")
            return ("binary", op, self._expr(kids[0], depth + 1), self._expr(kids[1], depth + 1))
        if kind == K.UNARY_OPERATOR and len(kids) == 1:
            if id(c) in self._const_addresses:
                return ("addr", self._expr(kids[0], depth + 1))
            return ("unary", _operator(c, "Unary"), self._expr(kids[0], depth + 1))
        if kind == K.CONDITIONAL_OPERATOR and len(kids) == 3:
            value = evaluate_int(kids[0])
            if value is not None:
                return self._expr(kids[1] if value else kids[2], depth + 1)
            return ("select", *(self._expr(k, depth + 1) for k in kids))
        if kind == K.CALL_EXPR and (fn := c.referenced) is not None and fn.kind in _CALLABLE:
            # a call's children are its callee and its arguments, except an operator's (source order)
            plain = type(c) is Node and not fn.spelling.startswith("operator")
            args = kids[1:] if plain else list(c.get_arguments())
            parent = fn.semantic_parent
            if fn.spelling in ("min", "max") and len(args) == 2 and parent is not None and parent.spelling == "std":
                return (fn.spelling, self._expr(args[0], depth + 1), self._expr(args[1], depth + 1))
            # a pointer from a one-argument call may be that argument (``cast2constType(B)``; see analyse._aliases)
            wanted = _is_integer(c) or (len(args) == 1 and type_kind(c) == _POINTER)
            if wanted and not _in_system_header(fn) and (usr := fn.get_usr()):
                return ("call", usr, tuple(self._expr(a, depth + 1) for a in args[:_MAX_ARGS]))
        if kind == K.ARRAY_SUBSCRIPT_EXPR and len(kids) == 2:
            base = self._expr(kids[0], depth + 1)
            return _UNKNOWN if base == _UNKNOWN else ("index", base, self._expr(kids[1], depth + 1))
        return _UNKNOWN

    def _real(self, c, depth: int) -> Expr | None:
        """A floating-point expression, wrapped as ``("real", value)`` so that no integer reasoning (relations,
        ranges split into integer parts) applies to it: a variable, ``*p`` of a pointer-to-const parameter the
        body never repoints, a negation or a conversion of one; constants come exact from clang. Arithmetic,
        and an integer converted (a large one rounds), are unknown; a choice (None) is read as for integers."""
        if not _is_floating(c):
            return _UNKNOWN
        kind = c.kind
        if kind == K.CONDITIONAL_OPERATOR:
            return None
        if kind == K.DECL_REF_EXPR:
            ref = c.referenced
            if ref is None or ref.kind not in _VARIABLES:
                return _UNKNOWN
            if ref.kind == K.VAR_DECL and (known := self._defs.get(ref.spelling)) is not None:
                self._defs_used.add(ref.spelling)
                return ("real", known)
            return ("real", ("param" if ref.kind == K.PARM_DECL else "local", ref.spelling))
        kids = c.children if type(c) is Node else list(c.get_children())
        if kind in _CASTS and kids:
            if _narrows(kids[-1], c):
                return _UNKNOWN
            inner = self._expr(kids[-1], depth + 1)
            return inner if inner[0] in ("real", "const") else _UNKNOWN
        if kind == K.UNARY_OPERATOR and len(kids) == 1:
            op = _operator(c, "Unary")
            if op == "-":
                inner = self._expr(kids[0], depth + 1)
                return ("real", ("unary", "-", inner)) if inner[0] in ("real", "const") else _UNKNOWN
            target = _unwrap(kids[0])
            ref = target.referenced if op == "*" and target.kind == K.DECL_REF_EXPR else None
            if ref is not None and ref.kind == K.PARM_DECL and ref.spelling in self._kept_pointers:
                return ("real", ("param", "*" + ref.spelling))
        return _UNKNOWN

    def _global_table(self, var: ci.Cursor) -> Expr:
        """A table outside any function whose elements are const: what it was initialised with."""
        usr = var.get_usr()
        if usr not in self._global_tables:
            table = _constant_table(var) if _const_elements(var.type) else None
            self._global_tables[usr] = table or ("local", var.spelling)
        return self._global_tables[usr]

    def _text(self, c: ci.Cursor) -> str:
        if c.file is None:
            return ""
        s, e = c.offset, c.end_offset
        return " ".join(self.extractor.text(c.file).slice(s, e).split()) if e > s else ""


def _branches(data: bytes, branches: list) -> tuple:
    """The (then, else) statements of an ``if`` split by ``_split_if``, either possibly None."""
    if len(branches) >= 2:
        return branches[0], branches[1]
    if len(branches) == 1 and not data:
        return branches[0], None  # a macro's if: children are (condition, then[, else])
    if len(branches) == 1:
        before = data[max(0, branches[0].offset - 64) : branches[0].offset]
        return (None, branches[0]) if _ELSE_BEFORE.search(before.rstrip()) else (branches[0], None)
    return None, None


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


_SIZES: dict[int, int] = {}  # a builtin integer type's size by its kind: one per TU (``InstanceWalker.walk`` clears it)


def _range_of(c) -> tuple[int, int] | None:
    """The range of a node's, reference's or cursor's integer type, when 32 bits or less."""
    kind = type_kind(c)
    if kind not in _RANGED:
        return None
    size = _SIZES.get(kind)
    if size is None:
        size = _SIZES[kind] = c.type.get_canonical().get_size()
    return _integer_range(kind, size)


def _integer_range(kind: int, size: int) -> tuple[int, int] | None:
    if kind == T.BOOL.value:
        return (0, 1)
    if kind in _SIGNED and 0 < size <= 4:
        return (-(1 << (8 * size - 1)), (1 << (8 * size - 1)) - 1)
    if kind in _UNSIGNED and 0 < size <= 4:
        return (0, (1 << (8 * size)) - 1)
    return None


def _in_system_header(c) -> bool:
    return c.system if type(c) is Ref else c.location.is_in_system_header


def _is_null(cast: ci.Cursor) -> bool:
    """``(I*)nullptr``: a pointer cast of the null pointer literal."""
    inner = next(reversed(list(cast.get_children())), None)
    return inner is not None and _unwrap(inner).kind == K.CXX_NULL_PTR_LITERAL_EXPR


def _default_argument(fn: ci.Cursor, index: int) -> ci.Cursor | None:
    """The default value of ``fn``'s parameter ``index``, as written on the declaration."""
    params = list(fn.get_arguments())
    if index >= len(params):
        return None
    values = [ch for ch in params[index].get_children() if ch.kind in _EXPRESSIONS]
    return values[-1] if values else None


def _type_id(t: ci.Type) -> int:
    """The id of a type's canonical kind (ids the Python bindings do not name, ``_Float16``, included)."""
    return t.get_canonical()._kind_id


def _is_floating(c) -> bool:
    """Whether a node's, reference's or cursor's type is ``float``, ``double`` or ``long double``."""
    return type_kind(c) in _FLOATING


def _is_number(c) -> bool:
    return type_kind(c) in _NUMBERS


def _narrows(inner, outer) -> bool:
    """Whether a floating-point ``inner`` converted to ``outer``'s type may round (``double`` to ``float``)."""
    return _is_floating(inner) and inner.type.get_size() > outer.type.get_size()


def _names_in(nodes) -> frozenset[str]:
    """The variables named anywhere in ``nodes``."""
    found: set[str] = set()
    stack = list(nodes)
    while stack:
        node = stack.pop()
        if node.kind == K.DECL_REF_EXPR and (ref := node.referenced) is not None and ref.kind in _VARIABLES:
            found.add(ref.spelling)
        stack.extend(node.children)
    return frozenset(found)


def _calls_any(stmt, names: set[str]) -> bool:
    """Whether ``stmt`` calls a function of one of ``names``."""
    stack = [stmt]
    while stack:
        node = stack.pop()
        if node.kind == K.CALL_EXPR and (fn := node.referenced) is not None and fn.spelling in names:
            return True
        stack.extend(node.children)
    return False


def _const_float_pointer(t: ci.Type) -> bool:
    """``const T*`` with ``T`` a floating-point type (rocBLAS's ``alpha``)."""
    if _type_id(t) != _POINTER:
        return False
    pointee = t.get_canonical().get_pointee()
    return pointee.is_const_qualified() and _type_id(pointee) in _FLOATING


def _binds_mutable(fn: ci.Cursor | None, index: int) -> bool:
    """Whether a callee's parameter ``index`` is a reference to non-const (or unknown: no callee, a variadic)."""
    if fn is None or fn.spelling.startswith("operator"):
        return True
    ptype = _bind_clang().clang_getArgType(fn.type, index)
    kind = _type_id(ptype)
    if kind == T.INVALID.value:  # past the declared parameters (a C variadic): unknown
        return _type_id(fn.type) != T.FUNCTIONNOPROTO.value
    return kind == T.RVALUEREFERENCE.value or (
        kind == T.LVALUEREFERENCE.value and not ptype.get_canonical().get_pointee().is_const_qualified()
    )


def _copy_source(args: list, var: ci.Cursor) -> str | None:
    """The pointer parameter a ``hipMemcpy(&var, p, sizeof(T), ...)`` copies one value of ``var``'s type from."""
    if len(args) < 3:
        return None
    src = _unwrap(args[1])
    while src.kind in _CASTS and src.children:
        src = _unwrap(src.children[-1])
    ref = src.referenced if src.kind == K.DECL_REF_EXPR else None
    if ref is None or ref.kind != K.PARM_DECL or not _const_float_pointer(ref.type):
        return None
    if _type_id(ref.type.get_canonical().get_pointee()) != type_kind(var):
        return None
    return ref.spelling if evaluate_int(args[2]) == var.type.get_size() else None


def _is_integer(c) -> bool:
    """An integer, bool or enumeration type (``rocblas_status``, ``rocblas_fill``)."""
    return type_kind(c) in _INTEGERS


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


def _extend(guard: Guard, start: int, end: int) -> Guard:
    """``guard`` also covering lines ``start``..``end`` (the code after the statement that established it)."""
    return Guard(guard.expr, guard.want, guard.text, guard.line, (*guard.regions, (start, end)))


def _call_order(call: InstanceCall) -> tuple:
    """Calls by line, callee and guards (one macro line can call the same function under different guards)."""
    return call.line, call.target, tuple((g.line, g.want, g.text, repr(g.expr)) for g in call.guards)


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


_MAX_TABLE = 4096


def _constant_table(decl: ci.Cursor) -> Expr | None:
    """``("table", elements)`` of an integer array initialised with constants, rows of a two-dimensional one
    as nested tuples; elements the initializer leaves out are zero, as in C."""
    init = [ch for ch in decl.get_children() if ch.kind == K.INIT_LIST_EXPR]
    if len(init) != 1:
        return None
    count = [0]

    def build(node: ci.Cursor, t: ci.Type):
        size = t.get_array_size()
        element = t.get_array_element_type()
        if node.kind != K.INIT_LIST_EXPR:
            return None
        out = []
        for child in node.get_children():
            if _type_id(element) in _ARRAYS:
                value = build(child, element)
            else:
                value = evaluate_int(child)
                count[0] += 1
            if value is None or count[0] > _MAX_TABLE:
                return None
            out.append(value)
        if size > len(out):
            if _type_id(element) in _ARRAYS:
                return None  # a row left out entirely: rare, not worth shaping
            out += [0] * (size - len(out))
        return tuple(out) if out and (size < 0 or size == len(out)) else None

    try:
        table = build(init[0], decl.type.get_canonical())
    except ValueError:  # a type kind this libclang binding does not name
        return None
    return None if table is None else ("table", table)


def _const_elements(t: ci.Type) -> bool:
    """Whether an array's elements are const (``static constexpr int sizes[][N]``): nothing writes them."""
    try:
        t = t.get_canonical()
        while t.kind in (T.CONSTANTARRAY, T.INCOMPLETEARRAY):
            t = t.get_array_element_type()
        return t.is_const_qualified()
    except ValueError:
        return False


def _is_array(c) -> bool:
    return type_kind(c) in _ARRAYS


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


def _leaves_loop(body: ci.Cursor) -> bool:
    """A ``break`` of this loop (not of a loop or switch inside it) or a ``goto`` anywhere in ``body``."""
    stack = [body]
    while stack:
        node = stack.pop()
        if node.kind in (K.BREAK_STMT, K.GOTO_STMT, K.INDIRECT_GOTO_STMT):
            return True
        for ch in node.get_children():
            if ch.kind == K.GOTO_STMT:
                return True
            if ch.kind not in (K.FOR_STMT, K.WHILE_STMT, K.DO_STMT, K.SWITCH_STMT):
                stack.append(ch)
            elif any(_has_goto(g) for g in ch.get_children()):
                return True
    return False


def _variables(expr: ci.Cursor) -> set[str]:
    """The parameters and locals an expression reads."""
    out = set()
    stack = [expr]
    while stack:
        node = stack.pop()
        if node.kind == K.DECL_REF_EXPR and (ref := node.referenced) is not None and ref.kind in _VARIABLES:
            out.add(ref.spelling)
        stack.extend(node.get_children())
    return out


def _writes_any(stmt: ci.Cursor, names: set[str]) -> bool:
    """Whether ``stmt`` assigns, increments or takes the address of one of ``names`` (or declares one)."""
    stack = [stmt]
    while stack:
        node = stack.pop()
        kind = node.kind
        if kind == K.VAR_DECL and node.spelling in names:
            return True
        if kind in _WRITE_KINDS and (found := _write_target(node, kind)) is not None and found[1].spelling in names:
            return True
        stack.extend(node.get_children())
    return False


def _write_target(cur: ci.Cursor, kind: ci.CursorKind) -> tuple[str, ci.Cursor, list[ci.Cursor]] | None:
    """(operator, variable, operands) of an assignment, increment or address-of of a parameter or local."""
    unary = kind == K.UNARY_OPERATOR
    op = _operator(cur, "Unary" if unary else "Binary")
    if op not in (_UNARY_WRITES if unary else _ASSIGNS):
        return None
    kids = list(cur.get_children())
    if not kids:
        return None
    target = _unwrap(kids[0])
    while target.kind == K.ARRAY_SUBSCRIPT_EXPR and (base := next(target.get_children(), None)) is not None:
        target = _unwrap(base)  # table[i] = v changes the table
    if target.kind != K.DECL_REF_EXPR or (ref := target.referenced) is None or ref.kind not in _VARIABLES:
        return None
    return op, ref, kids


def _assigns_at_top(branch) -> bool:
    """Whether a branch has an assignment (or other binary operator) as one of its own statements, or in
    the branches of an ``if`` that is one."""
    stmts = branch.children if branch.kind == K.COMPOUND_STMT else [branch]
    return any(
        _unwrap(s).kind in _ASSIGN_KINDS or (s.kind == K.IF_STMT and any(_assigns_at_top(c) for c in s.children))
        for s in stmts
    )


_MAX_PLACED = 256  # nodes in the value a local holds at a place; past it the value is forgotten


def _placed(line: int, value: Expr) -> Expr | None:
    """A local's value as given at ``line``: a constant as itself, anything else as ``("at", line, value)`` (its
    relations are those that hold there); None for what is unknown or too large to carry (a chain of
    ``x = f(x)`` would grow it at each step)."""
    if value == _UNKNOWN:
        return None
    if value[0] == "const" or (value[0] == "select" and value[1][0] == "const"):
        return value
    budget = [_MAX_PLACED]

    def fits(e) -> bool:
        budget[0] -= 1
        if budget[0] < 0:
            return False
        return all(fits(x) for x in e if type(x) is tuple and x and type(x[0]) is str) if type(e) is tuple else True

    if not fits(value):
        return None
    return value if value[0] in ("at", "table") else ("at", line, value)


def _bound_to_reference(call) -> frozenset[str]:
    """Integer and floating-point locals a call may change through a reference parameter: one passed as itself (clang wraps
    one passed by value in a conversion) where the parameter is not a reference to const."""
    bare = [(i, k) for i, k in enumerate(list(call.get_children())[1:]) if k.kind == K.DECL_REF_EXPR]
    if not bare:
        return frozenset()
    names = set()
    fn = None
    for index, ref in bare:
        var = ref.referenced
        if var is None or var.kind != K.VAR_DECL or not _is_number(var):
            continue
        fn = fn or call.referenced
        if _binds_mutable(fn, index):
            names.add(var.spelling)
    return frozenset(names)


def _arrays_passed(call) -> list[str]:
    """The arrays a call is given as arguments (each decays to a pointer the callee may write through)."""
    out = []
    for arg in call.children[1:]:
        inner = _unwrap(arg)
        ref = inner.referenced if inner.kind == K.DECL_REF_EXPR else None
        if ref is not None and ref.kind == K.VAR_DECL and _is_array(ref):
            out.append(ref.spelling)
    return out


def _has_goto(node: ci.Cursor) -> bool:
    return node.kind in (K.GOTO_STMT, K.INDIRECT_GOTO_STMT) or any(_has_goto(ch) for ch in node.get_children())


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


def _set_local(name: str, value: Expr, locals_: dict, written: set[str]) -> None:
    """Two declarations of one name (two loops, two branches) are one local only when they agree; the same
    initializer at two lines is the hull of both."""
    old = locals_.setdefault(name, value)
    if old == value:
        return
    inner = old[1:] if old[0] == "hull" else (old,)
    if value[0] == "at" and all(v[0] == "at" and v[2] == value[2] for v in inner):
        locals_[name] = ("hull", *inner, value)
    else:
        written.add(name)


def _names(expr: ci.Cursor, var: ci.Cursor) -> bool:
    """Whether ``expr`` is (a cast of) a reference to the variable ``var``."""
    expr = _unwrap(expr)
    return expr.kind == K.DECL_REF_EXPR and expr.referenced is not None and raw(expr.referenced) == raw(var)


def _only_statement(branch: ci.Cursor) -> ci.Cursor | None:
    """An ``if`` branch that is one ``if`` statement, braced or not."""
    if branch.kind == K.IF_STMT:
        return branch
    if branch.kind == K.COMPOUND_STMT:
        children = list(branch.get_children())
        if len(children) == 1 and children[0].kind == K.IF_STMT:
            return children[0]
    return None


def _continues(body: ci.Cursor) -> bool:
    """A ``continue`` of this loop (not of a loop inside it) in ``body``."""
    stack = [body]
    while stack:
        node = stack.pop()
        if node.kind == K.CONTINUE_STMT:
            return True
        stack += [ch for ch in node.get_children() if ch.kind not in (K.FOR_STMT, K.WHILE_STMT, K.DO_STMT)]
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


def _always_exits(stmt: ci.Cursor) -> bool:
    """A branch that ends in ``return`` or ``throw`` on every path through it we can see."""
    if stmt.kind in (K.RETURN_STMT, K.CXX_THROW_EXPR):
        return True
    if stmt.kind == K.COMPOUND_STMT:
        children = list(stmt.get_children())
        return bool(children) and children[-1].kind in (K.RETURN_STMT, K.CXX_THROW_EXPR)
    return False


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
