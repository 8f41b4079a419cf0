"""The mined example libraries against the hand-written ground truth in examples/expected.json."""

from __future__ import annotations

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
