"""The mined example libraries against the hand-written ground truth in examples/expected.json."""

from __future__ import annotations

import fnmatch

import pytest

from tests.conftest import read_jsonl

LIBRARIES = ["tinyblas", "tinysolver"]


def _truth(expected: dict, library: str) -> dict[str, dict]:
    return {k: v for k, v in expected[library].items() if not k.startswith("_")}


def _short(name: str) -> str:
    return name.split("::")[-1]


def kernel_names(entry: dict, *, live: bool | None = None) -> set[str]:
    """Kernel names of an ``entries.jsonl`` record: all the traversal reached (those only code
    left out of the build names are listed too, as dead, but are in no bundle), or only the live
    / dead ones. A name is live when any of its regions (overloads) is."""
    live_names = {k["name"] for k in entry["kernels"] if k["live"]}
    if live is None:
        return {k["name"] for k in entry["kernels"] if k["reason"] != "build"}
    return live_names if live else {k["name"] for k in entry["kernels"]} - live_names


@pytest.fixture(scope="module")
def mined(tinyblas, tinysolver):
    out = {"tinyblas": tinyblas, "tinysolver": tinysolver}
    result = {}
    for lib, (_, path) in out.items():
        bundles = {b["id"]: b for b in read_jsonl(path / "bundles.jsonl")}
        entries = {e["name"]: e for e in read_jsonl(path / "entries.jsonl")}
        result[lib] = (bundles, entries)
    return result


@pytest.mark.parametrize("library", LIBRARIES)
def test_every_kernel_that_can_run_is_in_the_bundle(mined, expected, library):
    bundles, entries = mined[library]
    missing = {}
    for name, truth in _truth(expected, library).items():
        got = kernel_names(entries[name])
        want = set(truth["kernels"])
        if not want <= got:
            missing[name] = sorted(want - got)
    assert not missing


@pytest.mark.parametrize("library", LIBRARIES)
def test_bundle_kernels_are_reachable_on_some_branch(mined, expected, library):
    """Nothing beyond the live kernels and those a branch on type or constant could select."""
    _, entries = mined[library]
    extra = {}
    for name, truth in _truth(expected, library).items():
        allowed = set(truth["kernels"]) | {d["name"] for d in truth.get("dead_kernels", []) if d["reason"] != "build"}
        got = kernel_names(entries[name])
        if not got <= allowed:
            extra[name] = sorted(got - allowed)
    assert not extra


@pytest.mark.parametrize("library", LIBRARIES)
def test_excluded_functions_never_reach_a_bundle(mined, expected, library):
    bundles, entries = mined[library]
    leaked = {}
    for name, truth in _truth(expected, library).items():
        bundle = bundles[entries[name]["bundle"]]
        names = {n for r in bundle["regions"] for n in r["names"]} | {r["qualified_name"] for r in bundle["regions"]}
        bad = {x for x in truth.get("excluded", []) if x in names or _short(x) in names}
        if bad:
            leaked[name] = sorted(bad)
    assert not leaked


@pytest.mark.parametrize("library", LIBRARIES)
def test_host_chain_and_device_helpers_are_in_the_bundle(mined, expected, library):
    bundles, entries = mined[library]
    missing = {}
    for name, truth in _truth(expected, library).items():
        bundle = bundles[entries[name]["bundle"]]
        names = {n for r in bundle["regions"] for n in r["names"]} | {r["qualified_name"] for r in bundle["regions"]}
        want = {_short(x) for x in truth.get("host_functions", [])} | set(truth.get("device_helpers", []))
        # the api region of a macro-defined entry is the macro, named after it
        want.discard(name)
        lacking = {w for w in want if w not in names and _short(w) not in names}
        if lacking:
            missing[name] = sorted(lacking)
    assert not missing


@pytest.mark.parametrize("library", LIBRARIES)
def test_generated_code_is_a_boundary(mined, expected, library):
    bundles, entries = mined[library]
    missing = {}
    for name, truth in _truth(expected, library).items():
        if not truth.get("boundaries"):
            continue
        bundle = bundles[entries[name]["bundle"]]
        got = {b["name"] for b in bundle["boundaries"] if b["kind"] == "generated"}
        if not {_short(b) for b in truth["boundaries"]} <= got:
            missing[name] = sorted(truth["boundaries"])
    assert not missing


def _entry_bundle(mined, library: str, name: str) -> dict:
    bundles, entries = mined[library]
    return bundles[entries[name]["bundle"]]


@pytest.mark.parametrize("library", LIBRARIES)
def test_host_functions_that_cannot_run_are_in_no_region_live_for_the_entry(mined, expected, library):
    """The other arm of a pointer-type dispatch (``T*`` against ``T* const*``): reached, never run."""
    wrong = {}
    checked = 0
    for name, truth in _truth(expected, library).items():
        for dead in truth.get("dead_host_functions", []):
            checked += 1
            regions = [r for r in _entry_bundle(mined, library, name)["regions"] if _short(r["name"]) == dead["name"]]
            if any(name in r["live_for"] for r in regions):
                wrong.setdefault(name, []).append(dead["name"])
    assert checked and not wrong


def test_cross_library_calls_are_edges_from_the_solver_into_the_blas_library(mined, expected):
    wrong = {}
    for name, truth in _truth(expected, "tinysolver").items():
        b = _entry_bundle(mined, "tinysolver", name)
        file_of = {r["id"]: r["file"] for r in b["regions"]}
        name_of = {r["id"]: _short(r["name"]) for r in b["regions"]}
        crossing = {
            name_of[e["callee"]]
            for e in b["edges"]
            if not file_of[e["caller"]].startswith("@") and file_of[e["callee"]].startswith("@tinyblas/")
        }
        if missing := set(truth.get("cross_library_calls", [])) - crossing:
            wrong[name] = sorted(missing)
    assert any(t.get("cross_library_calls") for t in _truth(expected, "tinysolver").values())
    assert not wrong


@pytest.mark.parametrize("library", LIBRARIES)
def test_nothing_from_the_paths_never_in_bundles_is_in_a_bundle(mined, expected, library):
    bundles, _ = mined[library]
    globs = [g.split("/", 1)[1] for g in expected["_meta"]["never_in_bundles"] if g.startswith(f"{library}/")]
    prefix = "" if library == "tinyblas" else "@tinyblas/"
    globs += [prefix + g.split("/", 1)[1] for g in expected["_meta"]["never_in_bundles"] if g.startswith("tinyblas/")]
    files = {r["file"] for b in bundles.values() for r in b["regions"]}
    assert globs and files
    assert not [f for f in files for g in globs if fnmatch.fnmatch(f, g.replace("**", "*"))]
