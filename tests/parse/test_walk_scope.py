"""A library given with ``--with`` is walked only from what the mined library reaches of it, and from what
that reaches in turn across its TUs: the verdicts are those of walking it whole."""

from __future__ import annotations

from pathlib import Path

import pytest

from miner.executors import LocalExecutor
from miner.liveness.analyse import index_instances
from miner.models import Guard, Instance, InstanceCall, WalkScope
from miner.parse.queue import ParseQueue
from miner.parse.stage import ParseStage
from miner.parse.walk_scope import references, unheld
from miner.parse.worker import ParseJob, TUParser, WorkerConfig
from miner.pipeline import MineOptions, _parse_library, analyse_parsed, open_checkout, parse_inputs, resolve_profile
from miner.source.files import translation_units
from tests.conftest import TINYBLAS, TINYSOLVER


def test_references_are_calls_and_results_read_outside_the_instances():
    reads_d = ("binary", "<", ("param", "n"), ("call", "D", (("param", "n"),)))
    caller = Instance(
        "A",
        "",
        ("n",),
        (InstanceCall("B", "", 3, (Guard(reads_d, True, "n < d(n)", 2),)), InstanceCall("C", "", 4)),
        locals=(("k", ("binary", "+", ("call", "E", ()), ("const", 1))),),
        returns=((("call", "A", ()), ()),),
    )
    callee = Instance("B", "", (), (InstanceCall("F", "", 9, (), (("call", "G", ()),)),))
    assert references([caller, callee]) == ("C", "D", "E", "F", "G")


def test_a_wanted_start_no_walk_holds_is_walked_by_the_first_tu_that_offers_it():
    scopes = {
        "b.cpp": WalkScope(("f", "g", "h"), ("f",), ("f", "k")),
        "a.cpp": WalkScope(("g", "h", "k"), (), ()),
        "c.cpp": WalkScope(("m", "x"), ("x",), ()),  # x gave no instance (excluded): walked all the same
        "whole.cpp": None,
    }
    wanted = frozenset({"f", "g", "h", "k", "m", "x", "elsewhere"})
    assert unheld(wanted, scopes) == {"a.cpp": frozenset({"g", "h"}), "c.cpp": frozenset({"m"})}
    assert unheld(frozenset({"f", "k", "x"}), scopes) == {}


def test_a_worker_walks_the_wanted_starts_and_those_its_job_adds(tmp_path):
    (tmp_path / "a.cpp").write_text(
        "int f(int x) { return x; }\nint g(int x) { return x + 1; }\nint h(int x) { return g(x); }\n"
    )
    parser = TUParser(WorkerConfig(str(tmp_path), (), (), (), walk_only=frozenset({"c:@F@f#I#"})))
    job = ParseJob("a.cpp", ("-x", "c++", "-std=c++17"), "lp64", walk_also=frozenset({"c:@F@h#I#"}))
    scope = parser(job).scope
    assert scope.starts == ("c:@F@f#I#", "c:@F@g#I#", "c:@F@h#I#")
    assert scope.walked == ("c:@F@f#I#", "c:@F@h#I#")
    assert scope.held == ("c:@F@f#I#", "c:@F@g#I#", "c:@F@h#I#"), "g is held through h"
    assert TUParser(WorkerConfig(str(tmp_path), (), (), ()))(job).scope is None, "a whole walk has no scope"


def _tinyblas(cache: Path, wanted: frozenset[str] | None, jobs: int = 1):
    opts = MineOptions(path=TINYBLAS, out=cache.parent / "out", jobs=jobs, cache_dir=cache)
    profile = resolve_profile(TINYBLAS, None)
    with ParseQueue(LocalExecutor(jobs)) as queue:
        return _parse_library(
            TINYBLAS.resolve(), profile, {}, cache.resolve(), opts, lambda *a: None, "parse", queue, 0, wanted
        )


def _reachable(instances: dict[str, Instance], seed: str) -> set[str]:
    out, stack = set(), [seed]
    while stack:
        usr = stack.pop()
        if usr in out or usr not in instances:
            continue
        out.add(usr)
        stack.extend(references([instances[usr]]))
    return out


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> dict[str, Instance]:
    outcome = _tinyblas(tmp_path_factory.mktemp("whole") / "cache", None)
    return {usr: inst for (usr, _), inst in index_instances(outcome.parsed).items()}


def _trsm_seed(whole: dict[str, Instance]) -> str:
    """A trsm template whose walk goes on to a gemm template that another TU (parsed first) instantiates."""
    return next(
        u
        for u in sorted(whole)
        if "internal_trsm_template" in u and any("internal_gemm" in r for r in _reachable(whole, u))
    )


def test_a_scoped_walk_holds_everything_its_wanted_functions_reach(whole, tmp_path):
    seed = _trsm_seed(whole)
    outcome = _tinyblas(tmp_path / "cache", frozenset({seed}))
    scoped = {usr for (usr, _) in index_instances(outcome.parsed)}
    reach = _reachable(whole, seed)
    assert any("gemm" in usr for usr in reach)
    assert reach <= scoped
    assert len(scoped) < len(whole)
    # blas3/tinyblas_gemm_kernels.cpp is parsed before blas3/tinyblas_trsm_kernels.cpp finds its template wanted
    assert outcome.walked_again >= 1


def test_a_cached_scoped_walk_holds_for_any_wanted_set_and_grows_where_it_lacks_one(whole, tmp_path):
    seed = _trsm_seed(whole)
    scal = next(u for u in sorted(whole) if "internal_scal_template" in u)
    tus = len(translation_units(TINYBLAS.resolve(), resolve_profile(TINYBLAS, None)))
    cache = tmp_path / "cache"
    first = _tinyblas(cache, frozenset({seed}))
    again = _tinyblas(cache, frozenset({seed}))
    assert (first.cache_hits, again.cache_hits, again.worker_seconds, again.walked_again) == (0, tus, 0, 0)
    assert again.digest == first.digest
    wider = _tinyblas(cache, frozenset({seed, scal}))
    assert wider.walked_again >= 1, "the first TU offering the scal template walks it"
    assert wider.cache_hits == tus - wider.walked_again
    assert scal in {usr for (usr, _) in index_instances(wider.parsed)}
    assert wider.digest != first.digest
    assert _tinyblas(cache, frozenset({scal})).walked_again == 0, "a walk only grows"
    assert _tinyblas(cache, None).cache_hits < tus, "walks from some starts do not stand for a whole walk"
    assert _tinyblas(cache, frozenset({seed})).cache_hits == tus


def test_a_dependency_walked_from_what_is_wanted_gives_the_verdicts_of_a_whole_walk(tmp_path, monkeypatch):
    def mine(name: str):
        opts = MineOptions(
            path=TINYSOLVER,
            out=tmp_path / name,
            jobs=2,
            cache_dir=tmp_path / f"cache-{name}",
            with_libraries={"tinyblas": TINYBLAS},
        )
        with open_checkout(TINYSOLVER, None) as checkout:
            p = parse_inputs(opts, checkout)
            verdicts = analyse_parsed(p, opts).liveness
        other = p.other_outcomes[0][2]
        aside = other.instances_aside
        held = sum(len(aside[tu.path]()) if tu.path in aside else len(tu.instances) for tu in other.parsed)
        return verdicts, held

    scoped, scoped_held = mine("scoped")
    run = ParseStage.run
    monkeypatch.setattr(ParseStage, "run", lambda self, tus, on_result, wanted=None: run(self, tus, on_result))
    whole, whole_held = mine("whole")
    assert scoped == whole
    assert any(not v.live for verdicts in whole.values() for v in verdicts.values())
    assert scoped_held < whole_held
