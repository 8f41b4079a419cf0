"""Bundles: schema, families, regions, launch sites, determinism and the warm re-run."""

from __future__ import annotations

import fnmatch
import json

import pytest

from miner.bundle.write import write_jsonl_atomic
from miner.models import Bundle, Role
from miner.parse.cache import ParseCache
from miner.pipeline import MineOptions, mine
from tests.conftest import TINYBLAS, read_jsonl


def _bundles(out) -> dict[str, dict]:
    return {b["id"]: b for b in read_jsonl(out / "bundles.jsonl")}


def _bundle_of(out, entry: str) -> dict:
    entries = {e["name"]: e for e in read_jsonl(out / "entries.jsonl")}
    return _bundles(out)[entries[entry]["bundle"]]


def test_every_bundle_validates_against_the_model(tinyblas, tinysolver):
    for _, out in (tinyblas, tinysolver):
        for raw in read_jsonl(out / "bundles.jsonl"):
            assert Bundle.model_validate(raw).id == raw["id"]


def test_precision_and_64_variants_share_one_bundle(tinyblas):
    _, out = tinyblas
    b = _bundle_of(out, "tinyblas_sscal")
    assert {"tinyblas_sscal", "tinyblas_dscal", "tinyblas_cscal", "tinyblas_zdscal"} <= set(b["entries"])
    b64 = _bundle_of(out, "tinyblas_sscal_64")
    assert {"tinyblas_sscal_64", "tinyblas_dscal_64"} <= set(b64["entries"])
    dot = _bundle_of(out, "tinyblas_sdot")  # dot_64 reaches the very same regions as dot
    assert {"tinyblas_sdot", "tinyblas_sdot_64", "tinyblas_zdotc_64"} <= set(dot["entries"])
    template = next(r for r in dot["regions"] if r["name"] == "tinyblas_internal_dot_template")
    assert template["names"] == ["tinyblas_internal_dot_template", "tinyblas_internal_dot_template_64"]


def test_every_entry_is_in_a_bundle_or_not_reached_with_a_reason(tinyblas, tinysolver):
    for _, out in (tinyblas, tinysolver):
        entries = read_jsonl(out / "entries.jsonl")
        in_bundles = {e for b in read_jsonl(out / "bundles.jsonl") for e in b["entries"]}
        not_reached = {n["entry"]: n for n in read_jsonl(out / "not_reached.jsonl")}
        for e in entries:
            assert (e["name"] in in_bundles) != (e["name"] in not_reached)
            if e["name"] in not_reached:
                assert not_reached[e["name"]]["reason"] and not_reached[e["name"]]["detail"]


def test_macro_defined_entry_region_is_the_macro_with_its_expansion_site(tinyblas):
    _, out = tinyblas
    api = next(r for r in _bundle_of(out, "tinyblas_sscal")["regions"] if r["role"] == Role.API)
    assert api["macro"] and "#define" in api["code"]
    assert api["expanded_at"].startswith("library/src/")
    assert api["expansion"].startswith(api["macro"])
    lines = (TINYBLAS / api["file"]).read_text().splitlines()  # the macro's source, verbatim
    assert api["code"] == "\n".join(lines[api["start_line"] - 1 : api["end_line"]])


def test_region_code_is_verbatim_source(tinyblas):
    _, out = tinyblas
    for region in _bundle_of(out, "tinyblas_sgemv")["regions"]:
        lines = (TINYBLAS / region["file"]).read_text().splitlines()
        assert region["code"] == "\n".join(lines[region["start_line"] - 1 : region["end_line"]])


def test_launch_sites_record_configuration_for_each_launch_form(tinyblas):
    _, out = tinyblas
    sites = [s for b in read_jsonl(out / "bundles.jsonl") for s in b["launch_sites"]]
    forms = {s["via"] for s in sites}
    assert {"TINYBLAS_LAUNCH_KERNEL", "hipLaunchKernelGGL", "<<<>>>"} <= forms
    for s in sites:
        assert s["grid"] and s["block"] and s["kernel_expr"]


def test_branch_conditions_reach_launch_sites(tinyblas):
    _, out = tinyblas
    b = _bundle_of(out, "tinyblas_sscal")
    texts = {(c["kind"], c["text"]) for s in b["launch_sites"] for c in s["conditions"]}
    assert any(kind == "if constexpr" for kind, _ in texts)
    assert any("incx == 1" in text for _, text in texts)


def test_exclusions_name_their_rule(tinyblas):
    _, out = tinyblas
    b = _bundle_of(out, "tinyblas_sscal")
    rules = {e["name"]: e["rule"] for e in b["exclusions"]}
    assert rules["log_trace"] == "deny_names:log_*"
    assert rules["tinyblas_internal_check_numerics_vector_template"].startswith("deny_names:")


def test_a_file_of_the_with_library_is_named_the_same_wherever_its_checkout_lies(tinysolver):
    """A function the other library only declares (its code is generated at build time) is a boundary named
    by its header in that library, never by the path of the checkout on this machine."""
    _, out = tinysolver
    named = [(x["name"], x["declared_in"]) for b in read_jsonl(out / "bundles.jsonl")
             for x in b["boundaries"] + b["exclusions"]]  # fmt: skip
    assert ("tinyblas_workspace_hint", "@tinyblas/library/include/internal/tinyblas-exported-proto.hpp") in named
    assert not [n for n in named if n[1].startswith(str(TINYBLAS))]


def test_cross_library_calls_are_real_edges_with_given_checkout(tinysolver):
    _, out = tinysolver
    b = _bundle_of(out, "tinysolver_sgetrf")
    files = {r["file"] for r in b["regions"]}
    assert any(f.startswith("@tinyblas/") for f in files)
    assert not [
        x for x in b["boundaries"] if x["kind"] == "other-library" and x["name"].startswith("tinyblas_internal")
    ]


def test_same_input_gives_byte_identical_output_and_warm_run_parses_nothing(tinyblas, tmp_path):
    _, first = tinyblas
    cache = tmp_path / "cache"
    cold = mine(MineOptions(path=TINYBLAS, out=tmp_path / "a", jobs=2, cache_dir=cache))
    warm = mine(MineOptions(path=TINYBLAS, out=tmp_path / "b", jobs=2, cache_dir=cache))
    assert cold.cache_hits == 0
    assert warm.cache_hits == warm.tus
    for name in ("bundles.jsonl", "entries.jsonl", "not_reached.jsonl"):
        assert (tmp_path / "a" / name).read_bytes() == (tmp_path / "b" / name).read_bytes()
        assert (first / name).read_bytes() == (tmp_path / "a" / name).read_bytes()
    assert json.loads((tmp_path / "b" / "summary.json").read_text())["bundles"] == cold.bundles


def test_a_warm_rerun_into_the_same_directory_keeps_intact_outputs_and_remakes_changed_ones(
    tinyblas, tmp_path, monkeypatch
):
    """Same inputs and options: the outputs are kept as they are (not rewritten, and no cached parse is even
    read); an output edited by hand, or another entry glob, makes the run write them again."""
    _, first = tinyblas
    out, cache = tmp_path / "out", tmp_path / "cache"
    cold = mine(MineOptions(path=TINYBLAS, out=out, jobs=2, cache_dir=cache))
    reported = [r["path"] for r in read_jsonl(out / "parse_report.jsonl")]
    assert reported == sorted(reported) and reported[0].startswith("<pch:")  # fresh parses, in path order
    stamp = (out / "bundles.jsonl").stat().st_mtime_ns
    read: list[str] = []
    original = ParseCache.get
    monkeypatch.setattr(ParseCache, "get", lambda self, rel, salt="": read.append(rel) or original(self, rel, salt))
    warm = mine(MineOptions(path=TINYBLAS, out=out, jobs=2, cache_dir=cache))
    assert [r for r in read if not r.startswith("<pch:")] == []
    assert (out / "bundles.jsonl").stat().st_mtime_ns == stamp
    timings = {"cache_hits", "wall_seconds", "stage_seconds"}
    assert warm.model_dump(exclude=timings) == cold.model_dump(exclude=timings)
    stages = cold.stage_seconds
    assert set(stages) == {"parse", "parse_workers", "liveness_walk", "analyse", "liveness_analysis", "write"}
    assert 0 < stages["liveness_walk"] <= stages["parse_workers"] and stages["liveness_analysis"] <= stages["analyse"]
    assert set(warm.stage_seconds) == {"parse"}  # the outputs were kept: nothing else ran
    rewritten = mine(MineOptions(path=TINYBLAS, out=tmp_path / "elsewhere", jobs=2, cache_dir=cache))
    assert rewritten.stage_seconds["parse_workers"] == 0  # every parse, the PCH's too, came from the cache
    assert warm.cache_hits == warm.tus and json.loads((out / "summary.json").read_text())["cache_hits"] == warm.tus

    with open(out / "entries.jsonl", "a") as fh:
        fh.write('{"name": "edited by hand"}\n')
    mine(MineOptions(path=TINYBLAS, out=out, jobs=2, cache_dir=cache))
    assert (out / "entries.jsonl").read_bytes() == (first / "entries.jsonl").read_bytes()

    some = mine(MineOptions(path=TINYBLAS, out=out, jobs=2, cache_dir=cache, entry_glob="tinyblas_?scal"))
    assert some.entry_points < cold.entry_points
    names = [e["name"] for e in read_jsonl(out / "entries.jsonl")]
    assert len(names) == some.entry_points and {"tinyblas_sscal", "tinyblas_zscal"} <= set(names)
    assert all(fnmatch.fnmatchcase(n, "tinyblas_?scal") for n in names)


def test_a_jsonl_write_that_fails_leaves_the_earlier_file_and_no_temporary(tmp_path):
    path = tmp_path / "records.jsonl"
    write_jsonl_atomic(path, [{"a": 1}])

    def records():
        yield {"a": 2}
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError):
        write_jsonl_atomic(path, records())
    assert path.read_text() == '{"a":1}\n' and [f.name for f in tmp_path.iterdir()] == ["records.jsonl"]
