"""Straight-line values of locals (reaching definitions): the constants a local surely holds where the walk is,
through assignments, copies (``hipMemcpy``), branches that both assign, loops, and locals passed by reference."""

from __future__ import annotations

import clang.cindex as ci

from miner.models import Expr, Guard
from miner.parse.cursor_tree import is_automatic, type_kind
from miner.parse.cursor_tree import unwrap as _unwrap
from miner.parse.instances.cursors import (
    _ARRAYS,
    _ASSIGN_KINDS,
    _ASSIGNS,
    _CASTS,
    _COMPOUND_OPS,
    _ELSE_BEFORE,
    _EXPRESSIONS,
    _JUMPS,
    _LABELS,
    _MEMCPY,
    _NOTHING,
    _POINTER,
    _REFERENCES,
    _SURE_PATH,
    _SYNCHRONIZE,
    _UNKNOWN,
    _WRITE_KINDS,
    K,
    _bind_clang,
    _binds_mutable,
    _calls_any,
    _const_float_pointer,
    _constant_table,
    _is_array,
    _is_floating,
    _is_integer,
    _is_number,
    _names,
    _names_in,
    _operator,
    _type_id,
    _write_target,
    evaluate_int,
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


class LocalValues:
    """The values of locals along a body, i.e. reaching definitions: what each local surely holds where a call is made, through assignments, copies, merges of branches and loops. Mixed into ``InstanceWalker``, whose fields it uses."""

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
