"""libclang, the semantic engine: the function definitions of a TU and every call, launch and
function reference in their bodies, with the branch conditions on the way to each.

Runs inside a parse worker. What libclang shows of HIP code (FACTS.md): macro-defined entry
points are FUNCTION_DECLs located at the macro invocation; a kernel launch (``<<<>>>``,
``hipLaunchKernelGGL`` and library launch macros all expand to one) is a CALL_EXPR with a
``__hipPushCallConfiguration`` child; a dependent call inside an uninstantiated template has no
referenced cursor, only an OVERLOADED_DECL_REF holding clang's candidate set.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

import clang.cindex as ci

from miner.models import (
    CallSite,
    Condition,
    DeclInfo,
    Diagnostic,
    ExecSpace,
    FunctionFacts,
    LaunchConfig,
    Resolution,
)
from miner.parse.cursor_tree import cuda_attributes
from miner.parse.launch_text import DEFINES_WITHIN, parse_launch_expanding
from miner.source.library_paths import other_name
from miner.source.profile import LaunchMacro

K = ci.CursorKind
_FUNCTION_KINDS = {
    K.FUNCTION_DECL, K.FUNCTION_TEMPLATE, K.CXX_METHOD, K.CONSTRUCTOR, K.CONVERSION_FUNCTION,
}  # fmt: skip
_CONTAINER_KINDS = {
    K.NAMESPACE, K.LINKAGE_SPEC, K.UNEXPOSED_DECL, K.CLASS_DECL, K.STRUCT_DECL,
    K.CLASS_TEMPLATE, K.CLASS_TEMPLATE_PARTIAL_SPECIALIZATION,
}  # fmt: skip
_SCOPE_KINDS = _CONTAINER_KINDS - {K.LINKAGE_SPEC, K.UNEXPOSED_DECL}
_TEMPLATE_PARAM_KINDS = {
    K.TEMPLATE_TYPE_PARAMETER, K.TEMPLATE_NON_TYPE_PARAMETER, K.TEMPLATE_TEMPLATE_PARAMETER,
}  # fmt: skip
_VARIABLE_KINDS = {K.PARM_DECL, K.VAR_DECL, K.FIELD_DECL, K.TEMPLATE_NON_TYPE_PARAMETER}
_PUSH_CONFIG = {"__hipPushCallConfiguration", "cudaConfigureCall", "__cudaPushCallConfiguration"}
_WS = re.compile(r"\s+")
_MAX_ARG_TEXT = 160


def _overloaded_decls(cursor: ci.Cursor) -> list[ci.Cursor]:
    lib = ci.conf.lib
    n = lib.clang_getNumOverloadedDecls(cursor)
    return [lib.clang_getOverloadedDecl(cursor, i) for i in range(n)]


def _primary_template(cursor: ci.Cursor) -> ci.Cursor | None:
    tpl = ci.conf.lib.clang_getSpecializedCursorTemplate(cursor)
    return tpl if tpl is not None and not tpl.kind.is_invalid() else None


@dataclass
class _FileText:
    data: bytes

    def slice(self, start: int, end: int) -> str:
        return self.data[start:end].decode("utf-8", "replace")


@dataclass
class Extractor:
    """Walks one parsed TU. Keeps per-process memos so that a header's functions are walked
    once per worker, however many TUs include it (their facts are still emitted per TU)."""

    root: str
    launch_macros: tuple[LaunchMacro, ...]
    others: tuple[tuple[str, str], ...] = ()  # (library, checkout root) of libraries given with ``--with``
    memo: dict[tuple, tuple[FunctionFacts, tuple[DeclInfo, ...]]] = field(default_factory=dict)
    _paths: dict[str, str | None] = field(default_factory=dict)
    _texts: dict[str, _FileText] = field(default_factory=dict)
    _decls: dict[str, DeclInfo] = field(default_factory=dict)

    # ------------------------------------------------------------------ files

    def rel(self, filename: str) -> str | None:
        """Checkout-relative path of a file, None when it lies outside the checkout."""
        if filename not in self._paths:
            norm = os.path.normpath(filename)
            self._paths[filename] = norm[len(self.root) + 1 :] if norm.startswith(self.root + os.sep) else None
        return self._paths[filename]

    def text(self, filename: str) -> _FileText:
        if filename not in self._texts:
            with open(filename, "rb") as fh:
                self._texts[filename] = _FileText(fh.read())
        return self._texts[filename]

    def elsewhere(self, filename: str) -> str | None:
        """``@library/path`` of a file in another library's checkout, None for any other file."""
        return other_name(os.path.normpath(filename), self.others)

    def display_path(self, filename: str) -> str:
        """Where a file is, named the same wherever the checkouts lie: relative to the checkout, as
        ``@library/path`` in another library's, else absolute (the toolchain's headers)."""
        rel = self.rel(filename)
        if rel is not None:
            return rel
        return self.elsewhere(filename) or os.path.normpath(filename)

    # ------------------------------------------------------------------ TU

    def extract(self, tu: ci.TranslationUnit, variant: str) -> tuple[list[FunctionFacts], list[DeclInfo]]:
        functions: list[FunctionFacts] = []
        used: dict[str, DeclInfo] = {}
        stack = [tu.cursor]
        while stack:
            parent = stack.pop()
            for c in parent.get_children():
                kind = c.kind
                if kind in _CONTAINER_KINDS:
                    if not c.location.is_in_system_header:
                        stack.append(c)
                    continue
                if kind not in _FUNCTION_KINDS or c.location.is_in_system_header:
                    continue
                loc_file = c.location.file
                if loc_file is None or self.rel(loc_file.name) is None or not c.is_definition():
                    continue
                key = (c.get_usr(), loc_file.name, c.extent.start.offset, variant)
                hit = self.memo.get(key)
                if hit is None:
                    if kind == K.FUNCTION_DECL and self._is_instantiation(c, loc_file.name):
                        hit = self.memo[key] = (self._instantiation(c, loc_file.name), ())
                        functions.append(hit[0])
                        continue
                    facts = self._function(c, loc_file.name)
                    decls = tuple(self._decls[u] for call in facts.calls for u in call.targets + call.templates if u)
                    hit = self.memo[key] = (facts, decls)
                functions.append(hit[0])
                for d in hit[1]:
                    used[d.usr] = d
        return functions, sorted(used.values(), key=lambda d: d.usr)

    # ------------------------------------------------------------------ functions

    def _is_instantiation(self, c: ci.Cursor, filename: str) -> bool:
        """An explicit instantiation (``template R f<T>(...);``), told apart from an explicit
        specialisation (``template <> R f<T>(...) {...}``) by its text."""
        if _primary_template(c) is None:
            return False
        data = self.text(filename).data
        head = data[c.extent.start.offset : c.location.offset]
        return re.match(rb"\s*template\s*<\s*>", head) is None

    def _instantiation(self, c: ci.Cursor, filename: str) -> FunctionFacts:
        tpl = _primary_template(c)
        return FunctionFacts(
            usr=c.get_usr(),
            name=c.spelling,
            qualified_name=self.qualified(c),
            kind="instantiation",
            file=self.rel(filename) or filename,
            start_line=c.extent.start.line,
            end_line=c.extent.end.line,
            start_offset=c.extent.start.offset,
            end_offset=c.extent.end.offset,
            exec_space=_exec_space(c),
            template_params=_template_args(c),
            params=(self._declare(tpl),) if tpl is not None else (),
        )

    def _function(self, c: ci.Cursor, filename: str) -> FunctionFacts:
        text = self.text(filename)
        start, end = c.extent.start.offset, c.extent.end.offset
        name = c.spelling
        macro = ""
        at = c.location.offset
        # The whole definition comes from a macro (``INST_SCAL_C_API(rocblas_int)``) when its
        # extent starts where its name is expanded; ``R ROCBLAS_API(f)(...) {...}`` is written out.
        if start >= at and not text.data.startswith(name.encode(), at):
            m = re.match(rb"[A-Za-z_]\w*", text.data[at : at + 200])
            macro = m.group(0).decode() if m else "?"
        tparams, params, body = [], [], []
        for ch in c.get_children():
            if ch.kind in _TEMPLATE_PARAM_KINDS:
                tparams.append(ch.spelling)
            elif ch.kind == K.PARM_DECL:
                params.append(ch.spelling)
            elif ch.kind in (K.COMPOUND_STMT, K.CXX_TRY_STMT):
                body.append(ch)
        calls: list[CallSite] = []
        for b in body:
            self._walk(b, text, (), calls)
        calls.sort(key=lambda cs: (cs.line, cs.kind, cs.name, cs.targets))
        kind = "template" if c.kind == K.FUNCTION_TEMPLATE else "method" if c.kind != K.FUNCTION_DECL else "function"
        return FunctionFacts(
            usr=c.get_usr(),
            name=name,
            qualified_name=self.qualified(c),
            kind=kind,
            file=self.rel(filename) or filename,
            start_line=c.extent.start.line,
            end_line=c.extent.end.line,
            start_offset=start,
            end_offset=end,
            exec_space=_exec_space(c),
            macro=macro,
            template_params=tuple(tparams),
            params=tuple(params),
            calls=tuple(calls),
        )

    def qualified(self, c: ci.Cursor) -> str:
        parts = [c.spelling]
        p = c.semantic_parent
        while p is not None and p.kind != K.TRANSLATION_UNIT:
            if p.kind in _SCOPE_KINDS and p.spelling:
                parts.append(p.spelling)
            p = p.semantic_parent
        return "::".join(reversed(parts))

    # ------------------------------------------------------------------ bodies

    def _walk(self, node: ci.Cursor, text: _FileText, conds: tuple[Condition, ...], out: list[CallSite]) -> None:
        """Depth-first over a statement, carrying the branch conditions that guard it."""
        stack: list[tuple[ci.Cursor, tuple[Condition, ...], bool]] = [(node, conds, False)]
        while stack:
            cur, cc, in_callee = stack.pop()
            kind = cur.kind
            if kind == K.CALL_EXPR:
                children = list(cur.get_children())
                self._call(cur, children, text, cc, out, stack)
                continue
            if kind == K.IF_STMT:
                self._if(cur, text, cc, stack)
                continue
            if kind == K.SWITCH_STMT:
                self._switch(cur, text, cc, stack)
                continue
            if kind == K.CONDITIONAL_OPERATOR:
                parts = list(cur.get_children())
                if len(parts) == 3:
                    cond = self._expr_text(parts[0], cur, text)
                    line = cur.extent.start.line
                    stack.append((parts[0], cc, False))
                    if cond:
                        stack.append((parts[1], cc + (Condition("ternary", cond, "then", line),), False))
                        stack.append((parts[2], cc + (Condition("ternary", cond, "else", line),), False))
                    else:
                        stack += [(parts[1], cc, False), (parts[2], cc, False)]
                    continue
            if not in_callee and kind in (K.DECL_REF_EXPR, K.OVERLOADED_DECL_REF):
                self._reference(cur, cc, out)
            for ch in cur.get_children():
                stack.append((ch, cc, in_callee and ch.kind != K.CALL_EXPR))

    def _call(self, cur, children, text, cc, out, stack) -> None:
        push = next((ch for ch in children[1:] if ch.kind == K.CALL_EXPR and ch.spelling in _PUSH_CONFIG), None)
        if not children:
            return
        callee_expr = children[0]
        resolved = self._resolve(cur, callee_expr, launch=push is not None)
        if push is not None:
            args = [ch for ch in children[1:] if ch is not push]
            if resolved is not None:
                config, resolution = self._launch_config(cur, push, text, resolved[0])
                out.append(
                    CallSite(
                        kind="launch",
                        name=resolved[0],
                        targets=resolved[1],
                        templates=resolved[2],
                        resolution=resolution,
                        line=cur.extent.start.line,
                        conditions=cc,
                        template_args=resolved[4],
                        launch=config,
                    )
                )
            for a in args:
                stack.append((a, cc, False))
            return
        if resolved is not None:
            name, targets, templates, resolution, targs = resolved
            args_text: tuple[str, ...] = ()
            if any(self._decls[t].file and not os.path.isabs(self._decls[t].file) for t in targets):
                args_text = self._args_text(cur, children[1:], text)
            out.append(
                CallSite(
                    kind="call",
                    name=name,
                    targets=targets,
                    templates=templates,
                    resolution=resolution,
                    line=cur.extent.start.line,
                    conditions=cc,
                    template_args=targs,
                    args=args_text,
                )
            )
        stack.append((callee_expr, cc, True))
        for a in children[1:]:
            stack.append((a, cc, False))

    def _resolve(self, call: ci.Cursor, callee_expr: ci.Cursor, launch: bool):
        """(name, target USRs, primary template USRs, resolution, template args) or None."""
        ref = call.referenced if not launch else None
        if launch:
            ref = _find_ref(callee_expr)
        if ref is not None and ref.kind in _FUNCTION_KINDS:
            name = ref.spelling
            if name.startswith("operator") or ref.kind in (K.CONSTRUCTOR, K.CONVERSION_FUNCTION):
                return None  # value construction and conversion: not part of the call structure
            tpl = _primary_template(ref)
            usr = self._declare(ref)
            tusr = self._declare(tpl) if tpl is not None else ""
            return name, (usr,), (tusr,), Resolution.CLANG.value, _template_args(ref)
        if _is_operator_call(call):
            return None
        ovl = _find_overloaded(callee_expr)
        if ovl is not None:
            if ovl.spelling.startswith("operator"):
                return None
            cands = [d for d in _overloaded_decls(ovl) if d.kind in _FUNCTION_KINDS]
            if not cands:  # declared only after the template (found by ADL at instantiation)
                return ovl.spelling, (), (), Resolution.NAME_MATCH.value, ()
            usrs = tuple(self._declare(d) for d in cands)
            res = Resolution.CLANG if len(usrs) == 1 else Resolution.OVERLOAD_SET
            return ovl.spelling, usrs, ("",) * len(usrs), res.value, ()
        named = _callee_node(callee_expr)
        if named is None or (named.referenced is not None and named.referenced.kind in _VARIABLE_KINDS):
            return None  # a call through a variable or parameter (``alpha[0](x)``, a functor object)
        name = named.spelling
        if name and not name.startswith("operator"):
            return name, (), (), Resolution.NAME_MATCH.value, ()
        return None

    def _reference(self, cur: ci.Cursor, cc, out: list[CallSite]) -> None:
        if cur.kind == K.OVERLOADED_DECL_REF:
            cands = [d for d in _overloaded_decls(cur) if d.kind in _FUNCTION_KINDS]
        else:
            ref = cur.referenced
            cands = [ref] if ref is not None and ref.kind in _FUNCTION_KINDS else []
        cands = [d for d in cands if not d.location.is_in_system_header]
        if not cands or cands[0].spelling.startswith("operator"):
            return
        usrs = tuple(self._declare(d) for d in cands)
        tpls = tuple((self._declare(t) if (t := _primary_template(d)) is not None else "") for d in cands)
        res = Resolution.CLANG if len(usrs) == 1 else Resolution.OVERLOAD_SET
        out.append(
            CallSite(
                kind="ref",
                name=cands[0].spelling,
                targets=usrs,
                templates=tpls,
                resolution=res.value,
                line=cur.extent.start.line,
                conditions=cc,
            )
        )

    def _declare(self, d: ci.Cursor) -> str:
        usr = d.get_usr()
        if usr and usr not in self._decls:
            f = d.location.file
            self._decls[usr] = DeclInfo(
                usr=usr,
                name=d.spelling,
                qualified_name=self.qualified(d),
                file=self.display_path(f.name) if f is not None else "",
                line=d.location.line,
                exec_space=_exec_space(d),
            )
        return usr

    # ------------------------------------------------------------------ launches

    def _launch_config(self, cur, push, text: _FileText, kernel: str) -> tuple[LaunchConfig, str]:
        start, end = cur.extent.start.offset, cur.extent.end.offset
        snippet = text.slice(start, min(end + 1, start + 4000))
        parsed = parse_launch_expanding(snippet, self.launch_macros, text.slice(max(0, start - DEFINES_WITHIN), start))
        if parsed is not None:
            return parsed
        cfg = [self._expr_text(a, cur, text) for a in push.get_children()]
        cfg = (cfg + ["", "", "", ""])[:4]
        return LaunchConfig("<<<>>>", kernel, *cfg), Resolution.CLANG.value

    # ------------------------------------------------------------------ conditions

    def _if(self, cur: ci.Cursor, text: _FileText, cc, stack) -> None:
        children = list(cur.get_children())
        start = cur.extent.start.offset
        head = _branch_head(text.data, start, b"if")
        if head is None:  # expanded from a macro: no faithful text to quote
            for ch in children:
                stack.append((ch, cc, False))
            return
        cond, close, constexpr = head
        kind = "if constexpr" if constexpr else "if"
        line = cur.extent.start.line
        branches = [ch for ch in children if ch.extent.start.offset > close]
        for ch in children:
            if ch.extent.start.offset <= close:
                stack.append((ch, cc, False))
        if branches:
            stack.append((branches[0], cc + (Condition(kind, cond, "then", line),), False))
        if len(branches) > 1:
            stack.append((branches[1], cc + (Condition(kind, cond, "else", line),), False))

    def _switch(self, cur: ci.Cursor, text: _FileText, cc, stack) -> None:
        children = list(cur.get_children())
        head = _branch_head(text.data, cur.extent.start.offset, b"switch")
        if head is None or not children:
            for ch in children:
                stack.append((ch, cc, False))
            return
        cond, close, _ = head
        line = cur.extent.start.line
        body = [ch for ch in children if ch.extent.start.offset > close]
        for ch in children:
            if ch.extent.start.offset <= close:
                stack.append((ch, cc, False))
        if not body:
            return
        label: Condition | None = None
        for stmt in body[0].get_children() if body[0].kind == K.COMPOUND_STMT else [body[0]]:
            node = stmt
            while node.kind in (K.CASE_STMT, K.DEFAULT_STMT):
                parts = list(node.get_children())
                if node.kind == K.CASE_STMT:
                    value = self._expr_text(parts[0], node, text) if parts else ""
                    label = Condition("switch", cond, f"case {value}", line)
                else:
                    label = Condition("switch", cond, "default", line)
                if not parts:
                    break
                node = parts[-1]
            if node.kind not in (K.CASE_STMT, K.DEFAULT_STMT):
                stack.append((node, cc + ((label,) if label else ()), False))

    def _expr_text(self, expr: ci.Cursor, parent: ci.Cursor, text: _FileText) -> str:
        s, e = expr.extent.start.offset, expr.extent.end.offset
        ps, pe = parent.extent.start.offset, parent.extent.end.offset
        if e <= s or (s, e) == (ps, pe) or expr.extent.start.file is None:
            return ""
        return _WS.sub(" ", text.slice(s, e)).strip()

    def _args_text(self, call: ci.Cursor, args: list[ci.Cursor], text: _FileText) -> tuple[str, ...]:
        out = []
        for a in args[:16]:
            t = self._expr_text(a, call, text)
            out.append(t[:_MAX_ARG_TEXT])
        return tuple(out)


def _branch_head(data: bytes, start: int, keyword: bytes) -> tuple[str, int, bool] | None:
    """Condition text of ``if (...)``/``switch (...)`` at ``start``, the ``)`` offset, constexpr."""
    if not data.startswith(keyword, start):
        return None
    i = start + len(keyword)
    m = re.compile(rb"\s*(constexpr)?\s*\(").match(data, i)
    if m is None:
        return None
    open_at = m.end() - 1
    depth, j = 0, open_at
    n = len(data)
    while j < n:
        ch = data[j]
        if ch == 0x28:
            depth += 1
        elif ch == 0x29:
            depth -= 1
            if depth == 0:
                cond = _WS.sub(" ", data[open_at + 1 : j].decode("utf-8", "replace")).strip()
                return cond, j, m.group(1) is not None
        j += 1
    return None


def _exec_space(c: ci.Cursor) -> str:
    glob, dev, host = cuda_attributes(c)
    if glob:
        return ExecSpace.GLOBAL.value
    if dev and host:
        return ExecSpace.HOST_DEVICE.value
    return ExecSpace.DEVICE.value if dev else ExecSpace.HOST.value


def _is_operator_call(call: ci.Cursor) -> bool:
    """A dependent ``a <= b`` or ``*p == 1``: a CALL_EXPR whose operator is an overload set."""
    for ch in call.get_children():
        node = ch
        for _ in range(2):
            if node.kind == K.OVERLOADED_DECL_REF:
                return node.spelling.startswith("operator")
            kids = list(node.get_children())
            if len(kids) != 1:
                break
            node = kids[0]
    return False


def _find_ref(expr: ci.Cursor, depth: int = 6) -> ci.Cursor | None:
    """The function a callee expression names, through parens and implicit casts."""
    node = expr
    for _ in range(depth):
        ref = node.referenced
        if ref is not None and ref.kind in _FUNCTION_KINDS:
            return ref
        children = list(node.get_children())
        if not children:
            return None
        node = children[0]
    return None


def _find_overloaded(expr: ci.Cursor, depth: int = 6) -> ci.Cursor | None:
    node = expr
    for _ in range(depth):
        if node.kind == K.OVERLOADED_DECL_REF:
            return node
        children = list(node.get_children())
        found = next((ch for ch in children if ch.kind == K.OVERLOADED_DECL_REF), None)
        if found is not None:
            return found
        if not children:
            return None
        node = children[0]
    return None


def _callee_node(expr: ci.Cursor) -> ci.Cursor | None:
    """The named reference a callee expression comes down to, through parens and casts."""
    node = expr
    for _ in range(4):
        if node.kind in (K.MEMBER_REF_EXPR, K.DECL_REF_EXPR) and node.spelling:
            return node
        children = list(node.get_children())
        if not children:
            return None
        node = children[0]
    return None


def _template_args(ref: ci.Cursor) -> tuple[str, ...]:
    try:
        n = ref.get_num_template_arguments()
    except (AttributeError, ValueError):
        return ()
    out = []
    for i in range(max(n, 0)):
        try:
            kind = ref.get_template_argument_kind(i)
        except ValueError:  # a kind this binding does not know (packs)
            out.append("?")
            continue
        if kind == ci.TemplateArgumentKind.TYPE:
            out.append(ref.get_template_argument_type(i).spelling)
        elif kind == ci.TemplateArgumentKind.INTEGRAL:
            out.append(str(ref.get_template_argument_value(i)))
        else:
            out.append("?")
    return tuple(out)


def diagnostics(tu: ci.TranslationUnit, extractor: Extractor) -> list[Diagnostic]:
    out = []
    for d in tu.diagnostics:
        if d.severity < ci.Diagnostic.Error:
            continue
        f = d.location.file
        out.append(
            Diagnostic(
                severity="fatal" if d.severity >= ci.Diagnostic.Fatal else "error",
                file=extractor.display_path(f.name) if f is not None else "",
                line=d.location.line,
                message=d.spelling,
            )
        )
    return out
