"""Closeness with mismatch statistics, and the canary."""

from __future__ import annotations

import math

import torch

from miner.verify.checks import compare, weak_case


def test_compare_reports_statistics_of_the_difference():
    expected = torch.arange(10, dtype=torch.float32)
    got = expected.clone()
    got[3] = 100.0
    got[7] = math.nan
    m = compare("out", got, expected, 1e-4, 1e-4)
    assert m is not None
    assert m.first_bad_index == [3]
    assert m.nan_count == 1
    assert m.mismatch_fraction == 0.2
    assert m.max_abs_err == math.inf  # the NaN counts as infinitely wrong


def test_compare_accepts_within_tolerance_and_matching_nans():
    expected = torch.tensor([1.0, math.nan, 3.0])
    assert compare("out", expected + 1e-5, expected, 1e-4, 1e-4) is None
    assert compare("out", expected.clone(), expected, 0, 0, equal_nan=True) is None
    assert compare("out", expected.clone(), expected, 0, 0, equal_nan=False) is not None


def test_compare_is_exact_for_integers():
    assert compare("i", torch.tensor([3], dtype=torch.int32), torch.tensor([4], dtype=torch.int32), 1, 1) is not None


def test_canary_marks_empty_and_trivial_cases_weak_and_real_ones_strong():
    x = torch.randn(100)
    assert weak_case([torch.empty(0)], ["out"], {"x": torch.empty(0)}, [(1e-4, 1e-3)])
    assert "copy-of-x" in weak_case([x.clone()], ["out"], {"x": x}, [(1e-4, 1e-3)])
    assert weak_case([torch.softmax(x, 0)], ["out"], {"x": x}, [(1e-4, 1e-3)]) == []


def test_plausibility_flags_fast_hidden_and_too_good_timings():
    from miner.verify.timing import plausibility_flags

    honest = plausibility_flags(speedup=3.0, candidate_us=100.0, event_us=100.0, wall_us=104.0, floor_us=60.0)
    assert honest == []
    assert (
        "over 20x"
        in plausibility_flags(speedup=45.0, candidate_us=100.0, event_us=100.0, wall_us=100.0, floor_us=None)[0]
    )
    assert (
        "move the data"
        in plausibility_flags(speedup=2.0, candidate_us=10.0, event_us=10.0, wall_us=10.0, floor_us=60.0)[0]
    )
    hidden = plausibility_flags(speedup=2.0, candidate_us=90.0, event_us=20.0, wall_us=90.0, floor_us=None)
    assert "outside the timed stream" in hidden[0]


def test_checksum_changes_with_any_byte_and_position():
    from miner.verify.checks import checksum

    x = torch.arange(1000, dtype=torch.float32)
    y = x.clone()
    y[500] = 0.5 + y[500]
    z = x.flip(0)
    assert checksum(x) == checksum(x.clone()) and len({checksum(x), checksum(y), checksum(z)}) == 3
