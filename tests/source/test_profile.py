"""What part of a profile shapes a parse (and so keys the parse cache)."""

from __future__ import annotations

from dataclasses import replace

from miner.source.profile import load_profile


def test_rules_that_exclude_functions_key_the_parse_and_the_depth_does_not():
    profile = load_profile("tinyblas")
    denied = replace(profile, rules=replace(profile.rules, deny_names=(*profile.rules.deny_names, "tinyblas_x*")))
    deeper = replace(profile, rules=replace(profile.rules, max_depth=profile.rules.max_depth + 1))
    assert denied.parse_hash != profile.parse_hash  # the liveness walk skips what they exclude
    assert deeper.parse_hash == profile.parse_hash


def test_the_exported_proto_header_is_generated_for_the_library_a_profile_names_not_by_library_name():
    from miner.parse.recipe import _generated_protos

    assert load_profile("rocsolver").exported_proto_of == "rocblas"
    assert list(_generated_protos(load_profile("rocsolver"), {})) == ["rocblas/internal/rocblas-exported-proto.hpp"]
    assert _generated_protos(load_profile("tinysolver"), {}) == {}
    profile = load_profile("tinysolver")
    named = type(profile)(**{**{s: getattr(profile, s) for s in profile.__slots__}, "exported_proto_of": "tinyblas"})
    assert list(_generated_protos(named, {})) == ["tinyblas/internal/tinyblas-exported-proto.hpp"]
