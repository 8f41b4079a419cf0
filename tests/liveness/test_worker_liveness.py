"""A failure while collecting liveness facts costs a TU its verdicts, never its call graph."""

from __future__ import annotations

from miner.parse import worker as worker_module
from miner.pipeline import make_recipe, resolve_profile
from miner.source.profile import Rules
from tests.conftest import TINYBLAS

TU = "library/src/blas1/tinyblas_scal_kernels.cpp"


def _parse(tmp_path, monkeypatch=None):
    profile = resolve_profile(TINYBLAS, None)
    recipe = make_recipe(TINYBLAS, profile, tmp_path / "stubs", {})
    config = worker_module.WorkerConfig(str(TINYBLAS), profile.launch_macros, profile.kernel_macros,
                                        profile.device_macros)  # fmt: skip
    parser = worker_module.TUParser(config)
    if monkeypatch is not None:

        def explode(*args, **kwargs):
            raise ValueError("Unknown type kind 32")

        monkeypatch.setattr(parser.instances, "walk", explode)
    job = worker_module.ParseJob(rel=TU, args=tuple(recipe.args(TU)), variant="lp64", uses_pch=False)
    return parser(job)


def test_a_liveness_failure_keeps_the_call_graph_and_is_reported(tmp_path, monkeypatch):
    good = _parse(tmp_path)
    bad = _parse(tmp_path, monkeypatch)
    assert good.instances and not bad.instances
    assert bad.engine == "clang" and bad.functions == good.functions
    assert any(d.severity == "liveness" and "Unknown type kind" in d.message for d in bad.diagnostics)


def test_counted_loops_and_std_min_become_expressions(tmp_path):
    profile = resolve_profile(TINYBLAS, None)
    recipe = make_recipe(TINYBLAS, profile, tmp_path / "stubs", {})
    config = worker_module.WorkerConfig(str(TINYBLAS), profile.launch_macros, profile.kernel_macros,
                                        profile.device_macros)  # fmt: skip
    rel = "library/src/src64/blas1/tinyblas_scal_kernels_64.cpp"
    job = worker_module.ParseJob(rel=rel, args=tuple(recipe.variant_args("ilp64")), variant="ilp64", uses_pch=False)
    parsed = worker_module.TUParser(config)(job)
    launcher = next(i for i in parsed.instances if "tinyblas_scal_launcher_64" in i.usr)
    locals_ = dict(launcher.locals)
    assert locals_["b"] == ("between", ("const", 0), ("binary", "-", ("param", "batch_count"), ("const", 1)))
    assert locals_["chunk"][0] == "at"  # the value as assigned, with its line
    assert locals_["chunk"][2] == (
        "min",
        ("binary", "-", ("param", "batch_count"), ("local", "b")),
        ("const", 1 << 15),
    )
    assert "b" not in launcher.written  # the loop's increment is not a write


def test_bodies_the_rules_exclude_are_not_walked(tmp_path):
    """Logging and the numerics checker are excluded by the rules: their instantiated bodies are not walked
    (nothing the traversal follows runs through them); the bodies the traversal follows still are."""
    profile = resolve_profile(TINYBLAS, None)
    recipe = make_recipe(TINYBLAS, profile, tmp_path / "stubs", {})

    def walked(rel: str, rules: Rules) -> set[str]:
        config = worker_module.WorkerConfig(str(TINYBLAS), profile.launch_macros, profile.kernel_macros,
                                            profile.device_macros, rules=rules)  # fmt: skip
        job = worker_module.ParseJob(rel=rel, args=tuple(recipe.args(rel)), variant="lp64", uses_pch=False)
        return {i.usr for i in worker_module.TUParser(config)(job).instances}

    scal, checker = "library/src/blas1/tinyblas_scal.cpp", "library/src/check_numerics.cpp"
    assert any("log_trace" in usr for usr in walked(scal, Rules()))
    followed = walked(scal, profile.rules)
    assert not any("log_" in usr for usr in followed) and any("tinyblas_scal_impl" in usr for usr in followed)
    assert any("check_numerics" in usr for usr in walked(checker, Rules()))
    assert not walked(checker, profile.rules)
