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
