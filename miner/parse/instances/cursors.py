"""What the instance walk asks of a clang cursor: its kind and type, the constant clang evaluates it to, and
what a statement reads, writes or calls, on cursors and on the flat tree of ``cursor_tree`` alike."""

from __future__ import annotations

import ctypes
import re

import clang.cindex as ci

from miner.models import ExecSpace, Expr
from miner.parse.cursor_tree import Node, Ref, evaluate, operator_spelling, raw, type_kind
from miner.parse.cursor_tree import unwrap as _unwrap

K = ci.CursorKind
_CALLABLE = {K.FUNCTION_DECL, K.CXX_METHOD, K.FUNCTION_TEMPLATE}
_REFS = {K.CALL_EXPR, K.DECL_REF_EXPR, K.MEMBER_REF_EXPR}
_PASS_THROUGH = {K.UNEXPOSED_EXPR, K.PAREN_EXPR}
_UNKNOWN: Expr = ("unknown",)
_UNSET: Expr = ("unset",)  # a local declared without an initializer
_ELSE_BEFORE = re.compile(rb"else\s*$")
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


def _is_integer(c) -> bool:
    """An integer, bool or enumeration type (``rocblas_status``, ``rocblas_fill``)."""
    return type_kind(c) in _INTEGERS


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


def _has_goto(node: ci.Cursor) -> bool:
    return node.kind in (K.GOTO_STMT, K.INDIRECT_GOTO_STMT) or any(_has_goto(ch) for ch in node.get_children())


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


def _always_exits(stmt: ci.Cursor, depth: int = 0) -> bool:
    """A statement that ends in ``return`` or ``throw`` on every path through it we can see: one, a block whose
    last statement does, or an if/else both of whose branches do (``if (n <= 0) return a; else return b;``)."""
    if stmt.kind in (K.RETURN_STMT, K.CXX_THROW_EXPR):
        return True
    if depth > 8:
        return False
    if stmt.kind == K.COMPOUND_STMT:
        children = list(stmt.get_children())
        return bool(children) and _always_exits(children[-1], depth + 1)
    if stmt.kind == K.IF_STMT:
        kids = list(stmt.get_children())
        return (
            len(kids) == 3
            and kids[0].kind in _EXPRESSIONS
            and _always_exits(kids[1], depth + 1)
            and _always_exits(kids[2], depth + 1)
        )
    return False
