"""Expressions of an instantiated body reduced to ``Expr`` (``miner.models``): constants, parameters, locals by
their value, calls to integer functions by their returns, constant tables, floating-point values."""

from __future__ import annotations

import clang.cindex as ci

from miner.models import Expr
from miner.parse.cursor_tree import Node, is_automatic, type_kind
from miner.parse.cursor_tree import unwrap as _unwrap
from miner.parse.instances.cursors import (
    _CALLABLE,
    _CASTS,
    _FLOATING,
    _INTEGERS,
    _MAX_ARGS,
    _PASS_THROUGH,
    _POINTER,
    _UNKNOWN,
    _VARIABLES,
    K,
    _const_elements,
    _constant_table,
    _evaluate_exact,
    _in_system_header,
    _is_array,
    _is_floating,
    _is_integer,
    _is_null,
    _is_number,
    _narrows,
    _operator,
    evaluate_int,
)

_MAX_EXPR_DEPTH = 8
_FLOAT_KINDS = {
    K.DECL_REF_EXPR, K.UNARY_OPERATOR, K.BINARY_OPERATOR, K.COMPOUND_ASSIGNMENT_OPERATOR, K.CONDITIONAL_OPERATOR,
    K.CSTYLE_CAST_EXPR, K.CXX_STATIC_CAST_EXPR, K.CXX_FUNCTIONAL_CAST_EXPR,
}  # fmt: skip


class ExpressionReduction:
    """Expressions of an instantiated body reduced to ``Expr``: what liveness can evaluate. Mixed into ``InstanceWalker``, whose fields it uses."""

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
