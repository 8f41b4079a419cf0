"""Which regions of an entry's traversal can run for that entry, and why the others cannot.

The traversal walks template *patterns*: it reaches every kernel a launcher names. Liveness
walks the same calls as the compiler instantiated them for the entry's concrete types
(``miner.parse.instances``), carrying the constant arguments of each call into the callee
(interprocedural constant propagation), and then explains each pattern-level region that the
instantiated walk never reached:

- ``type``: an ``if constexpr`` decided by the entry's types, or an overload / specialisation
  clang did not select for them;
- ``constant``: a branch on compile-time constants (``static constexpr`` flags, tuning macros),
  or on a parameter every caller on the path fixes (``batch_count = 1`` from a non-batched API);
- ``build``: code the library's default build configuration leaves out (``#if``).

What cannot be decided is ``live``: a host callee whose instantiated body no TU holds makes
everything below it live, with ``unanalysed`` in the detail, never dead. Device code is walked per type for
what it calls (``miner.parse.instances``): a helper overload a live kernel's instantiation never calls is dead
(``type``), one only a folded branch calls is dead (``constant``); a device function whose instantiated body was
not read makes what it calls live with it.

Liveness is over the code the traversal follows: functions the library's rules exclude (logging,
numerics checks) are not walked, so a path through them makes nothing live (rocBLAS's numerics checker
calls ``adjust_ptr_batch`` on the host; for the 32-bit trsm entries the helper is dead with the 64-bit
path that is its one followed caller).

This module is the walk: from an entry's root through the instances its calls select, each with the intervals its
parameters hold in that context. The interval domain it evaluates guards in is ``miner.liveness.domain``; the
verdicts drawn from a walk are ``miner.liveness.verdicts``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import networkx as nx

from miner.liveness.build import BuildDeadFinder
from miner.liveness.domain.evaluate import (
    Interval,
    Linear,
    Relate,
    bound,
    facts,
    interval,
    linear,
    meet,
    params_of,
    substitute,
    truthiness,
)
from miner.liveness.domain.expressions import (
    aliases_of,
    at_line,
    compared_params,
    guard_facts,
    reads_of,
    written_lines,
)
from miner.liveness.domain.intervals import (
    Aliases,
    Binding,
    bounded,
    folded_text,
    interval_within,
    join_bindings,
    narrow,
    reads_lookup,
    refine,
    snap,
    widen_bindings,
)
from miner.liveness.verdicts import VerdictsFromWalk
from miner.models import Expr, Instance, InstanceCall, ParsedTU

_MAX_VISITS = 50_000  # (instance, constants) pairs per entry; the walk stops there, live-side
_MAX_CONTEXTS = 8  # argument contexts per instance and entry before they are widened to their hull
_MAX_SUMMARY_DEPTH = 6  # nested function results evaluated for one expression
_UNDECIDED = object()
_MAX_REASONS = 3  # distinct reasons kept for one dead call site
Trail = tuple[tuple[str, int], ...]  # the calls (caller node, line) from an entry's root to a node


def index_instances(parsed: Iterable[ParsedTU]) -> dict[tuple[str, str], Instance]:
    """Every TU's instances by (USR, variant); the same specialisation is the same code
    wherever it was instantiated, so the first (by TU path) of the TUs clang read whole stands for all."""
    out: dict[tuple[str, str], Instance] = {}
    for tu in sorted(parsed, key=lambda t: (bool(t.incomplete), t.path)):
        for inst in tu.instances:
            out.setdefault((inst.usr, tu.variant), inst)
    return out


def incomplete_instances(parsed: Iterable[ParsedTU]) -> dict[int, str]:
    """The instances of TUs clang did not read whole, by ``id()``, with why the TU is incomplete: such a body may
    lack calls clang could not instantiate, so a walk that uses it (where no whole TU holds the same one, see
    ``index_instances``) decides nothing dead."""
    return {id(inst): why for tu in parsed if (why := tu.incomplete) for inst in tu.instances}


def _usr_of(node: str) -> str:
    """The function a graph node stands for (a node of a function defined per variant carries ``@lp64``)."""
    return node.rsplit("@", 1)[0] if node.endswith(("@lp64", "@ilp64")) else node


@dataclass
class _EntryWalk:
    """The result of walking one entry's instantiated calls."""

    live: dict[str, tuple[str, ...]]  # node -> runtime conditions on the first path found
    instances_of: dict[str, dict[str, Instance]]  # node -> the instances of it visited, by USR
    unanalysed: set[str]  # nodes reached whose instantiated body no TU holds
    # (caller node, line, callee node) -> why, once per distinct reason (calls from two places can be dead for two)
    guarded_dead: dict[tuple[str, int, str], list[tuple[str, int, str, bool, Trail]]]
    complete: bool
    trails: dict[str, Trail] = field(default_factory=dict)
    """node -> the calls (caller node, line) from the root by which the walk reached it, the path whose
    conditions ``live`` holds"""
    calls: dict[str, set[tuple[str, str]]] = field(default_factory=dict)
    """instance USR -> (callee node, callee instance USR or "") of every call it can make: who calls what, per
    instantiation (a kernel's ``T*`` instance calls one ``load_ptr_batch`` overload, its ``T* const*`` one another)"""
    selected: dict[str, dict[int, set[str]]] = field(default_factory=dict)
    """node -> line -> the nodes its visited instances call there (``VerdictsFromWalk._selected_at``)"""


class LivenessAnalyser(VerdictsFromWalk):
    def __init__(
        self,
        g: nx.DiGraph,
        instances: dict[tuple[str, str], Instance],
        build: BuildDeadFinder | None = None,
        incomplete: dict[int, str] | None = None,
    ) -> None:
        self.g = g
        self.instances = instances
        self.build = build
        self._typed: dict[tuple[str, str], bool] = {}  # (node, condition) -> decided by template arguments
        self.incomplete = incomplete or {}  # instances from TUs clang did not read whole (``incomplete_instances``)
        self._expansions: dict[tuple, list[tuple]] = {}
        self._locals_of: dict[int, dict] = {}  # by id(): one USR has an instance per variant
        self._results: dict[tuple, Interval | None] = {}
        self._summarising: list[tuple] = []
        self._cut_short = False
        self._facts_of: dict[tuple[int, int], list[list[Linear]]] = {}
        self._compared_of: dict[int, Aliases] = {}
        self._written_of: dict[int, dict[str, list[int]]] = {}
        self._refinements: dict[tuple, object] = {}
        self._lookups: dict[str, Callable[[str], bool]] = {}
        self._table_readers: dict[tuple[str, str], bool] = {}  # what an undecided guard teaches, by the values it reads
        self._plans: dict[tuple, list[tuple]] = {}
        self._guarded: dict[tuple, tuple] = {}  # a call's guards' outcome, by the values they read
        self._bound: dict[tuple, tuple] = {}  # a call's callee bindings, by the values they read

    # ------------------------------------------------------------------ nodes

    def node_of(self, usr: str, pattern: str, variant: str) -> str | None:
        """The graph node of a concrete function: itself when the checkout defines it (a plain
        function, an explicit specialisation), else the template it was instantiated from."""
        for cand in (usr, pattern):
            if cand and f"{cand}@{variant}" in self.g:
                return f"{cand}@{variant}"
            if cand and cand in self.g:
                return cand
        return None

    def footprint(self, root: str, variant: str) -> dict[tuple[str, str], int]:
        """The instances an entry's walk can reach, whatever its guards decide, each with its number of calls:
        an estimate of what walking it costs, and of what it shares with other entries."""
        start = self._instance(_usr_of(root), variant)
        out: dict[tuple[str, str], int] = {}
        stack = [start] if start is not None else []
        while stack:
            inst = stack.pop()
            if (inst.usr, variant) in out:
                continue
            out[(inst.usr, variant)] = len(inst.calls) + 1
            for call in inst.calls:
                target = self._instance(call.target, variant)
                if target is not None and (target.usr, variant) not in out:
                    stack.append(target)
        return out

    # ------------------------------------------------------------------ walk

    def walk(self, root: str, variant: str) -> _EntryWalk:
        result = _EntryWalk({root: ()}, {}, set(), {}, True, trails={root: ()})
        start = self._instance(_usr_of(root), variant)
        if start is None:
            result.unanalysed.add(root)
            return result
        result.instances_of.setdefault(root, {})[start.usr] = start
        seen: set[tuple[str, frozenset]] = set()
        contexts: dict[str, int] = {}
        hulls: dict[str, dict[str, Binding]] = {}
        same_hulls: dict[str, Aliases] = {}
        stack: list[tuple[Instance, str, dict[str, Binding], tuple[str, ...], Aliases, Trail]] = [
            (start, root, {}, (), frozenset(), ())
        ]
        visits = 0
        while stack:
            inst, node, env, conds, same, trail = stack.pop()
            count = contexts.get(inst.usr, 0)
            if count >= _MAX_CONTEXTS:
                # widen: past a few argument contexts, walk the hull of them all, a bound that still
                # grows jumping to the next type boundary (so a recursion settles within a few steps
                # and keeps what holds in all of them: a 32-bit lda)
                env = widen_bindings(hulls[inst.usr], env)
                same = same & same_hulls[inst.usr]
            hulls[inst.usr] = join_bindings(hulls[inst.usr], env) if inst.usr in hulls else dict(env)
            same_hulls[inst.usr] = same_hulls[inst.usr] & same if inst.usr in same_hulls else same
            values = {k: b.value for k, b in env.items()}
            frozen_values = frozenset(values.items())
            key = (inst.usr, frozen_values, same)
            if key in seen:
                continue
            seen.add(key)
            contexts[inst.usr] = count + 1
            visits += 1
            if visits > _MAX_VISITS:
                result.complete = False
                break
            for call, callee, path_conds, dead, target, recipe, aliases in self._expand(
                inst, node, values, frozen_values, same, variant
            ):
                if dead is not None:
                    reasons = result.guarded_dead.setdefault((node, call.line, callee), [])
                    text, line, fixed = dead
                    if len(reasons) < _MAX_REASONS and all((text, line) != (t, n) for t, n, *_ in reasons):
                        detail = ", ".join(
                            env[p].describe(p) if p in env else f"{p} of a narrow integer type" for p in fixed
                        )
                        reasons.append((text, line, detail, not fixed, trail))
                    continue
                conds_here = conds + path_conds
                here = (*trail, (node, call.line))
                if callee not in result.live or len(conds_here) < len(result.live[callee]):
                    result.live[callee] = conds_here
                    result.trails[callee] = here
                result.calls.setdefault(inst.usr, set()).add((callee, target.usr if target is not None else ""))
                if target is None:
                    if self.g.nodes[callee]["defined"] and self.g.nodes[callee]["exec_space"] == "host":
                        result.unanalysed.add(callee)
                    continue
                result.instances_of.setdefault(callee, {})[target.usr] = target
                child_env = {
                    p: env[src[1]] if src[0] == "inherit" else Binding(src[1], src[2])
                    for p, src in recipe
                    if src[0] != "inherit" or src[1] in env  # a type's range is not passed down: the callee has its own
                }
                stack.append((target, callee, child_env, conds_here, aliases, here))
        return result

    def _expand(
        self,
        inst: Instance,
        node: str,
        values: dict[str, Interval],
        frozen_values: frozenset,
        same: Aliases,
        variant: str,
    ) -> list[tuple]:
        """The calls ``inst`` makes when its parameters hold ``values`` and the pairs in ``same`` are equal:
        (call, callee node, runtime conditions, why it cannot happen or None, callee instance or None, how to
        bind the callee's parameters, which of them are equal). Entries share most of their lower call chains, so this is
        computed once per (instance, values); where the values came from is applied per entry."""
        key = (inst.usr, variant, frozen_values, same)  # frozen_values: ``values`` as a frozenset
        found = self._expansions.get(key)
        if found is not None:
            return found
        locals_ = self._locals(inst)
        from_path = values
        values = self._with_types(inst, values)
        calls = self._results_for(variant)
        found = []
        memos: dict = {}
        for step in self._plan(inst, node, locals_, variant):
            call, callee, per_guard, at_call, guard_reads, target, arg_reads, straight, pointed, origin = step
            guard_key = (id(call), variant, same, tuple(map(values.get, guard_reads)))
            guarded = self._guarded.get(guard_key)
            if guarded is None:
                path_conds, dead, vals, locs = self._guards(
                    call, values, locals_, calls, at_call, same, memos, self._refinements, self._lookups_for(variant)
                )
                narrowed = {p: vals[p] for p in guard_reads if p in vals and values.get(p) != vals[p]}
                self._guarded[guard_key] = (path_conds, dead, narrowed, locs)
            else:
                path_conds, dead, narrowed, locs = guarded
                vals = {**values, **narrowed} if narrowed else values
            if dead is not None or target is None:
                found.append((call, callee, path_conds, dead, None, (), frozenset()))
                continue
            passed = tuple(
                True if p in from_path and vals[p] == from_path[p] and (rng is None or interval_within(vals[p], rng))
                else vals.get(p)
                for p, rng in straight
            )  # fmt: skip
            pointees = tuple(
                True if q in vals and q in from_path and vals[q] == from_path[q] else vals.get(q) for q in pointed
            )
            bind_key = (guard_key, tuple(map(values.get, arg_reads)), passed, pointees)
            recipe = self._bound.get(bind_key)
            if recipe is None:
                relate = self._relations(call, per_guard, vals, locs, calls)
                recipe = self._bound[bind_key] = self._bind(call, target, relate, vals, from_path, locs, calls, origin)
            compared = self._compared(target, variant)
            aliases = aliases_of(call, target, same, self._passes_on(variant)) & compared if compared else frozenset()
            found.append((call, callee, path_conds, None, target, recipe, aliases))
        self._expansions[key] = found
        return found

    def _plan(self, inst: Instance, node: str, locals_: dict, variant: str) -> list[tuple]:
        """Per call ``inst`` makes to a node of the graph, what ``_expand`` needs that does not depend on the
        argument context: the callee, the relations its guards establish at the call, the parameters its
        guards read (their values decide the guards' outcome: the outcome is shared by every context that
        agrees on them), and what binding the callee's parameters reads besides (other arguments' parameters,
        parameters passed on as they are, pointer-to-const parameters passed on)."""
        key = (id(inst), variant, node)
        found = self._plans.get(key)
        if found is not None:
            return found
        file = self.g.nodes[node]["file"]
        found = []
        for index, call in enumerate(inst.calls):
            callee = self.node_of(call.target, call.pattern, variant)
            if callee is None:
                continue
            per_guard = self._facts(inst, index, locals_, variant)
            at_call = [facts if at_line(call.line, g) else [] for g, facts in zip(call.guards, per_guard, strict=True)]
            guard_reads: set[str] = set()
            for guard in call.guards:
                guard_reads |= reads_of(guard.expr, locals_)
            target = self._instance(call.target, variant)
            arg_reads: set[str] = set()
            straight: list[tuple[str, Interval | None]] = []
            pointed: list[str] = []
            if target is not None:
                ranges = call.ranges or (None,) * len(call.args)
                for param, arg, rng in zip(target.params, call.args, ranges, strict=False):
                    if param in target.written:
                        continue
                    if arg[0] == "param":
                        straight.append((arg[1], rng))
                    else:
                        arg_reads |= reads_of(arg, locals_)
                for pointer in target.pointees:
                    position = target.params.index(pointer)
                    arg = call.args[position] if position < len(call.args) else ("unknown",)
                    if arg[0] == "param":
                        pointed.append("*" + arg[1])
                    else:
                        arg_reads |= reads_of(arg, locals_)
            found.append((
                call, callee, per_guard, at_call, tuple(sorted(guard_reads)), target, tuple(sorted(arg_reads - guard_reads)),
                tuple(straight), tuple(pointed), f"{file}:{call.line}",
            ))  # fmt: skip
        self._plans[key] = found
        return found

    def _passes_on(self, variant: str) -> Callable[[str], int | None]:
        def passes_on(usr: str) -> int | None:
            """Which argument a function returns unchanged on every way out, if one does."""
            inst = self._instance(usr, variant)
            if inst is None or not inst.returns:
                return None
            found = {value for value, _ in inst.returns}
            if len(found) != 1 or (value := found.pop())[0] != "param" or value[1] in inst.written:
                return None
            return inst.params.index(value[1]) if value[1] in inst.params else None

        return passes_on

    def _compared(self, inst: Instance, variant: str) -> Aliases:
        """The pairs of ``inst``'s parameters whose equality some guard in it or below it compares (``x != y``
        in a dot launcher, through every function that passes both on): only those are carried, so that
        equal arguments nobody compares do not split the argument contexts of a walk. A recursion sees the
        pairs found so far."""
        found = self._compared_of.get(id(inst))
        if found is not None:
            return found
        self._compared_of[id(inst)] = frozenset()
        pairs: set[tuple[str, str]] = set()
        params = set(inst.params)
        locals_ = dict(inst.locals)  # the values as assigned (not narrowed by type)
        for call in inst.calls:
            for guard in call.guards:
                compared = compared_params(guard.expr, locals_)
                pairs |= {p for p in compared if p[0] in params and p[1] in params}
            target = self._instance(call.target, variant)
            if target is None:
                continue
            passed = dict(zip(target.params, call.args, strict=False))
            for a, b in self._compared(target, variant):
                x, y = passed.get(a), passed.get(b)
                if x is not None and y is not None and x[0] == y[0] == "param" and x[1] != y[1]:
                    pairs.add((min(x[1], y[1]), max(x[1], y[1])))
        found = self._compared_of[id(inst)] = frozenset(pairs)
        return found

    def _facts(self, inst: Instance, index: int, locals_: dict, variant: str) -> list[list[Linear]]:
        key = (id(inst), index)
        found = self._facts_of.get(key)
        if found is None:
            written = self._written_of.get(id(inst))
            if written is None:
                written = self._written_of[id(inst)] = written_lines(inst)
            outcome = functools.partial(self._outcome_facts, variant=variant)
            found = self._facts_of[key] = guard_facts(inst.calls[index], written, locals_, outcome)
        return found

    @staticmethod
    def _relations(call: InstanceCall, per_guard: list[list[Linear]], values: dict, locals_: dict, calls):
        """Bounds from the relations the guards of ``call`` establish: at the call itself (a guard whose code
        holds the call), and inside a value assigned at a line a guard covers (the relation held there:
        ``jb = std::min(n - j, nb)`` in the body of ``for (j = 0; j < n; j += nb)`` is at least 1)."""
        if not any(per_guard):
            return None
        usable: dict[int | None, list[Linear]] = {}
        memo: dict = {}

        def value(v: Expr) -> Interval | None:
            return interval(v, values, locals_, 0, calls, memo)

        def relate(expr: Expr, scope: int | None) -> Interval | None:
            found = usable.get(scope)
            if found is None:
                line = call.line if scope is None else scope
                found = usable[scope] = [
                    fact
                    for guard, established in zip(call.guards, per_guard, strict=True)
                    if at_line(line, guard)
                    for fact in established
                ]
            return bound(expr, found, value, locals_) if found else None

        return relate

    def _locals(self, inst: Instance) -> dict:
        """An instance's locals by their values, each bounded by its type where that is 32 bits or less."""
        found = self._locals_of.get(id(inst))
        if found is None:
            found = dict(inst.locals)
            params = set(inst.params)
            for name, lo, hi in inst.ranges:
                if name not in params:
                    found[name] = ("typed", found[name], lo, hi) if name in found else ("range", lo, hi)
            self._locals_of[id(inst)] = found
        return found

    @staticmethod
    def _with_types(inst: Instance, values: dict[str, Interval]) -> dict[str, Interval]:
        """Parameters the call path says nothing about take their type's range (a ``rocblas_int`` is 32-bit)."""
        typed = {name: (lo, hi) for name, lo, hi in inst.ranges if name in inst.params and name not in values}
        return {**typed, **values} if typed else values

    def _lookups_for(self, variant: str) -> Callable[[str], bool]:
        """One function per variant, so that what is memoised per lookup is kept across calls."""
        found = self._lookups.get(variant)
        if found is None:

            def found(usr: str) -> bool:
                return self._reads_table(usr, variant)

            self._lookups[variant] = found
        return found

    def _reads_table(self, usr: str, variant: str, depth: int = 0) -> bool:
        """Whether what ``usr`` returns reads a table element, itself or through the functions it returns the
        results of (``rocsolver_trsm_blksize``; not ``rocblas_internal_trsm_use_substitution``): only such a
        guard is worth splitting a parameter's range for."""
        key = (usr, variant)
        found = self._table_readers.get(key)
        if found is not None:
            return found
        self._table_readers[key] = False  # a recursion reads no table of its own
        inst = self._instance(usr, variant)
        found = False
        if inst is not None and inst.returns and depth < _MAX_SUMMARY_DEPTH:
            locals_ = self._locals(inst)
            found = any(
                reads_lookup(r, locals_, lambda u: self._reads_table(u, variant, depth + 1)) for r, _ in inst.returns
            )
        self._table_readers[key] = found
        return found

    def _results_for(self, variant: str) -> _Results:
        return _Results(self, variant)

    def _result(self, usr: str, args: tuple[Interval | None, ...], variant: str) -> Interval | None:
        """What a function returns for arguments in ``args``: the hull of its reachable ``return``s
        (``rocblas_use_only_gemm(handle, n, k)`` is false for ``k < 500``; a tuning table's block size)."""
        key = (usr, variant, args)
        if key in self._results:
            return self._results[key]
        inst = self._instance(usr, variant)
        if inst is None or not inst.returns:
            return None
        if key in self._summarising or len(self._summarising) >= _MAX_SUMMARY_DEPTH:
            self._cut_short = True  # recursion, or too deep: unknown here, and not remembered above
            return None
        outer_cut, self._cut_short = self._cut_short, False
        self._summarising.append(key)
        try:
            env = {p: iv for p, iv in zip(inst.params, args, strict=False) if iv is not None and p not in inst.written}
            env = self._with_types(inst, env)
            locals_ = self._locals(inst)
            calls = self._results_for(variant)
            parts = [interval(r, env, locals_, 0, calls) for r, _ in inst.returns]
        finally:
            self._summarising.pop()
        found = None if any(p is None for p in parts) else (min(p[0] for p in parts), max(p[1] for p in parts))
        if not self._cut_short:
            self._results[key] = found
        self._cut_short = self._cut_short or outer_cut
        return found

    def _outcome_facts(self, expr: Expr, want: bool, locals_: dict, variant: str) -> tuple[list[Linear], int] | None:
        """When ``expr`` (read as ``want``) says a function's result equals a constant (``status ==
        continue``, with ``status = check(n, k)``), the relations on the function's parameters that hold on
        every way it returns a value that can be that constant, over the arguments of the call; with the
        line of the call. Only relations over parameters the function never writes are kept."""
        if expr[0] == "unary" and expr[1] == "!":
            return self._outcome_facts(expr[2], not want, locals_, variant)
        if expr[0] != "binary" or expr[1] not in ("==", "!=") or (expr[1] == "==") != want:
            return None
        side, const = (expr[2], expr[3]) if expr[3][0] == "const" else (expr[3], expr[2])
        if const[0] != "const" or side[0] not in ("local", "at"):
            return None
        value = side if side[0] == "at" else locals_.get(side[1])
        if value is None:
            return None
        if value[0] == "typed":
            value = value[1]
        if value[0] != "at" or value[2][0] != "call":
            return None
        line, (_, usr, args) = value[1], value[2]
        callee = self._instance(usr, variant)
        if callee is None or not callee.returns:
            return None
        env = self._with_types(callee, {})
        inner = self._locals(callee)
        common: set | None = None
        for result, guards in callee.returns:
            iv = interval(result, env, inner, 0, self._results_for(variant))
            if iv is not None and not iv[0] <= const[1] <= iv[1]:
                continue  # this return never gives the constant
            here = {
                (frozenset(form.items()), c)
                for g in guards
                for form, c in facts(g.expr, g.want, inner)
                if all(var[0] == "param" and var[1] not in callee.written for var in form)
            }
            common = here if common is None else common & here
        if not common:
            return None
        bindings = {p: linear(a, locals_) for p, a in zip(callee.params, args, strict=False)}
        out = [f for form, c in sorted(common, key=repr) if (f := substitute((dict(form), c), bindings)) is not None]
        return out, line

    def _instance(self, usr: str, variant: str) -> Instance | None:
        """The instantiated body of ``usr``: as this variant's TUs built it, else as the other
        variant's did (``f<int64_t>`` is often instantiated only by the LP64 TUs, or the reverse)."""
        found = self.instances.get((usr, variant))
        if found is None:
            found = self.instances.get((usr, "lp64" if variant == "ilp64" else "ilp64"))
        return found

    @staticmethod
    def _guards(
        call: InstanceCall,
        values: dict[str, Interval],
        locals_: dict,
        calls,
        per_guard: list[list[Linear]],
        same: Aliases = frozenset(),
        memos: dict | None = None,
        refinements: dict | None = None,
        lookup=lambda usr: True,
    ):
        """(runtime conditions, None, values, locals) when the call can happen, else (_, (condition text,
        line, the parameters that decided it), _, _). Each guard is evaluated under what the guards before
        it establish (``m >= 2`` after ``if (m < 2) return``); the values returned hold them all. ``memos``
        keeps the locals' values per (values, locals) across the guards of one instance's calls."""
        conds: list[str] = []
        memos = {} if memos is None else memos
        base = locals_  # narrowing only wraps a local's value: what a guard reads is read through these
        for guard, established in zip(call.guards, per_guard, strict=True):
            key = (id(values), id(locals_))
            if key not in memos:
                memos[key] = (values, locals_, {}, {})  # holding both keeps their ids from being reused
            _, _, memo, decided = memos[key]
            found = decided.get(id(guard), _UNDECIDED)  # calls after the same early exit share its guard
            if found is _UNDECIDED:
                holds = truthiness(interval(guard.expr, values, locals_, 0, calls, memo, same=same))
                learnt: tuple | None = ()
                if holds is None and refinements is not None:
                    reads_key = (id(guard), id(base), id(lookup))
                    reads = refinements.get(reads_key)
                    if reads is None:
                        params = tuple(sorted(params_of(guard.expr, base)))
                        reads = refinements[reads_key] = (params, reads_lookup(guard.expr, base, lookup), base, lookup)
                    key = (id(guard), id(locals_), same, tuple(values.get(p) for p in reads[0]))
                    learnt = refinements.get(key, _UNDECIDED)
                    if learnt is _UNDECIDED:
                        learnt = refinements[key] = refine(guard, values, locals_, calls, same, reads[1])
                if learnt is None:
                    holds = not guard.want  # no value of the arguments makes it go this way
                refined = None
                if learnt:
                    refined = values, locals_
                    for var, iv in learnt:
                        refined = bounded(var, iv, *refined)
                found = decided[id(guard)] = (holds, refined)
            holds, refined = found
            if holds is not None and holds != guard.want:
                read = refinements.get((id(guard), id(base))) if refinements is not None else None
                if read is None:  # narrowing wraps a local's value: it reads what the value as assigned reads
                    read = params_of(guard.expr, base, reals=True)
                    if refinements is not None:
                        refinements[(id(guard), id(base))] = read
                fixed = tuple(sorted(read & values.keys()))
                return (), (guard.text, guard.line, fixed), values, locals_
            if holds is None:
                text = folded_text(guard, values, locals_, calls, memo, same)
                conds.append(text if guard.want else f"!({text})")
                if refined is not None:
                    values, locals_ = refined
            if established:
                values, locals_ = narrow(values, locals_, established)
        return tuple(conds), None, values, locals_

    @staticmethod
    def _bind(
        call: InstanceCall,
        callee: Instance,
        relate: Relate | None,
        values: dict,
        from_path: dict,
        locals_: dict,
        calls,
        origin: str,
    ) -> tuple:
        """What this call tells the callee about its parameters: each argument evaluated over
        the caller's known parameters and locals (a constant, ``n - rem``), narrowed to the
        range of its integer type (a 32-bit ``rocblas_int`` passed as ``int64_t``) and by what the
        branches on the way say about it (``n - j`` after ``!(j < n - nb)`` is at most ``nb``). As
        (parameter, ("inherit", caller parameter) or ("value", interval, origin)) pairs."""
        out = []
        memo: dict = {}  # the locals' values, shared by the arguments of this call
        ranges = call.ranges or (None,) * len(call.args)
        for param, arg, rng in zip(callee.params, call.args, ranges, strict=False):
            if param in callee.written:
                continue
            # passed on as the caller got it (with where it came from), unless a guard narrowed it on the way
            passed = arg[0] == "param" and arg[1] in from_path and values[arg[1]] == from_path[arg[1]]
            if passed and (rng is None or interval_within(values[arg[1]], rng)):
                out.append((param, ("inherit", arg[1])))
                continue
            iv = interval(arg, values, locals_, 0, calls, memo, relate)
            if arg[0] not in ("const", "unknown") and relate is not None:
                iv = meet(iv, relate(arg, None))
            if iv is not None and rng is not None:
                iv = (max(iv[0], rng[0]), min(iv[1], rng[1])) if iv[0] <= rng[1] and rng[0] <= iv[1] else None
            if iv is not None:
                out.append((param, ("value", snap(iv), origin)))
            elif rng is not None:
                out.append((param, ("value", rng, f"its type at {origin}")))
        for pointer in callee.pointees:  # ``*alpha``: the floating-point value a pointer-to-const points at
            index = callee.params.index(pointer)
            arg = call.args[index] if index < len(call.args) else ("unknown",)
            if arg[0] == "addr":  # &one
                iv = interval(arg[1], values, locals_, 0, calls, memo)
            elif arg[0] == "param" and (given := "*" + arg[1]) in values:  # passed on
                if given in from_path and values[given] == from_path[given]:
                    out.append(("*" + pointer, ("inherit", given)))
                    continue
                iv = values[given]
            else:
                continue
            if iv is not None:
                out.append(("*" + pointer, ("value", iv, origin)))
        return tuple(out)

    # ------------------------------------------------------------------ verdicts


class _Results:
    """What a called function returns for given arguments (``LivenessAnalyser._result``); ``returns`` says
    first whether it returns anything we read, so that the arguments of a call that cannot tell are not
    evaluated."""

    __slots__ = ("analyser", "variant")

    def __init__(self, analyser: LivenessAnalyser, variant: str) -> None:
        self.analyser, self.variant = analyser, variant

    def returns(self, usr: str) -> bool:
        inst = self.analyser._instance(usr, self.variant)
        return inst is not None and bool(inst.returns)

    def __call__(self, usr: str, args: tuple[Interval | None, ...]) -> Interval | None:
        return self.analyser._result(usr, args, self.variant)
