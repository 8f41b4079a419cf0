"""The call graph: nodes are functions (host functions, kernels, device helpers, and callees
known only by declaration), edges are calls, launches and references, each with its sites.

A node is a definition's USR. An edge goes to the callee's own definition when the checkout
defines it (an explicit specialisation, say), else to its primary template's, else to the
declaration. Calls known only by name (dependent member calls, tree-sitter facts) go to every
definition of that name: ``name-match``, so an audit can filter them."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

import networkx as nx

from miner.models import CallSite, DeclInfo, FunctionFacts, ParsedTU, Resolution


def build_graph(parsed: Iterable[ParsedTU]) -> nx.DiGraph:
    functions: dict[str, FunctionFacts] = {}  # node id -> facts
    variant_of: dict[str, str] = {}
    decls: dict[str, DeclInfo] = {}
    # LP64 first, then by path: the first definition of a USR wins, deterministically. A header
    # function whose body differs under the ILP64 defines (it calls ``ROCBLAS_API(f)``, i.e.
    # ``f_64``) gets a node of its own, ``USR@ilp64``, which that variant's callers reach.
    for tu in sorted(parsed, key=lambda t: (t.variant != "lp64", t.path)):
        for f in tu.functions:
            if f.kind == "instantiation":
                continue
            first = functions.get(f.usr)
            if first is None:
                functions[f.usr] = f
                variant_of[f.usr] = tu.variant
            elif variant_of[f.usr] != tu.variant and first.calls != f.calls:
                node = f"{f.usr}@{tu.variant}"
                if node not in functions:
                    functions[node] = f
                    variant_of[node] = tu.variant
        for d in tu.decls:
            decls.setdefault(d.usr, d)
    clang_names = {(f.file, f.name) for f in functions.values() if not f.usr.startswith("ts:")}
    for usr in [u for u, f in functions.items() if u.startswith("ts:") and (f.file, f.name) in clang_names]:
        del functions[usr]

    by_name: dict[str, list[str]] = defaultdict(list)
    by_qualified: dict[str, list[str]] = defaultdict(list)
    for usr in sorted(u for u in functions if not u.endswith(("@ilp64", "@lp64"))):
        f = functions[usr]
        by_name[f.name].append(usr)
        by_qualified[f.qualified_name].append(usr)

    g = nx.DiGraph()
    for usr, f in functions.items():
        g.add_node(usr, defined=True, facts=f, name=f.name, qualified_name=f.qualified_name, file=f.file,
                   line=f.start_line, exec_space=f.exec_space)  # fmt: skip

    def declared(usr: str) -> str:
        d = decls[usr]
        if usr not in g:
            g.add_node(usr, defined=False, facts=None, name=d.name, qualified_name=d.qualified_name, file=d.file,
                       line=d.line, exec_space=d.exec_space)  # fmt: skip
        return usr

    def unknown(name: str) -> str:
        node = f"name:{name}"
        if node not in g:
            g.add_node(node, defined=False, facts=None, name=name, qualified_name=name, file="", line=0,
                       exec_space="host")  # fmt: skip
        return node

    for usr, f in functions.items():
        variant = variant_of[usr]
        for site in f.calls:
            for target, resolution in _targets(site, functions, decls, by_name, by_qualified, declared, unknown):
                twin = f"{target}@{variant}"
                if twin in functions:
                    target = twin
                if target == usr and site.kind == "ref":
                    continue
                data = g.get_edge_data(usr, target)
                if data is None:
                    g.add_edge(usr, target, kind=site.kind, resolution=resolution, sites=[site])
                else:
                    data["sites"].append(site)
                    if site.kind == "launch":
                        data["kind"] = "launch"
                    elif site.kind == "call" and data["kind"] == "ref":
                        data["kind"] = "call"
                    data["resolution"] = _stronger(data["resolution"], resolution)
    return g


_ORDER = [
    Resolution.CLANG.value,
    Resolution.MACRO_RULE.value,
    Resolution.OVERLOAD_SET.value,
    Resolution.NAME_MATCH.value,
]


def _stronger(a: str, b: str) -> str:
    return a if _ORDER.index(a) <= _ORDER.index(b) else b


def _targets(site: CallSite, functions, decls, by_name, by_qualified, declared, unknown):
    """(node, resolution) pairs for one call site."""
    if site.targets:
        out = []
        for target, template in zip(site.targets, site.templates or ("",) * len(site.targets), strict=False):
            if target in functions:
                out.append((target, site.resolution))
            elif template and template in functions:
                out.append((template, site.resolution))
            elif target in decls:
                # Declared here, defined under another USR (a declaration spelled differently,
                # or a definition only tree-sitter saw): every definition of that qualified name.
                d = decls[target]
                twins = by_qualified.get(d.qualified_name, ())
                if twins:
                    out += [(u, Resolution.NAME_MATCH.value) for u in twins]
                else:
                    out.append((declared(target), site.resolution))
        return out
    named = by_name.get(site.name)
    if named:
        return [(u, Resolution.NAME_MATCH.value) for u in named]
    return [(unknown(site.name), Resolution.NAME_MATCH.value)]
