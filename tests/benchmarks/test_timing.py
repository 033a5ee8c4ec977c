"""The A/B timing of the benchmarks (benchmarks/timing.py): the two sides take turns, A B A B ...,
and the ratio reported is the median of the per-round ratios.  No assertion on a measured time:
where a ratio is checked, the sides report their own seconds."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def _timing():
    spec = importlib.util.spec_from_file_location("benchmarks_timing", BENCHMARKS / "timing.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # a dataclass looks its module up there
    spec.loader.exec_module(module)
    return module


timing = _timing()


def test_the_two_sides_take_turns_a_then_b_every_round():
    calls = []
    paired = timing.alternate(4, lambda: calls.append("A") or "a", lambda: calls.append("B") or "b")
    assert calls == ["A", "B"] * 4
    assert paired.rounds == 4 and len(paired.b_seconds) == 4
    assert (paired.a_result, paired.b_result) == ("a", "b")


def test_the_ratio_is_the_median_of_the_per_round_ratios_not_the_ratio_of_the_medians():
    # each call reports (units, seconds) of its own: A's rates 1, 0.5, 0.25; B's 1/3, 0.5, 0.05
    a = iter([(1, 1.0), (1, 2.0), (1, 4.0)])
    b = iter([(1, 3.0), (1, 2.0), (1, 20.0)])
    paired = timing.alternate(3, lambda: next(a), lambda: next(b), units=lambda r: r[0], seconds=lambda r: r[1])
    assert paired.ratios == pytest.approx((3.0, 1.0, 5.0))
    assert paired.ratio == pytest.approx(3.0)  # the ratio of the median rates would be 0.5 / (1/3) = 1.5
    assert paired.a_rate / paired.b_rate == pytest.approx(1.5)
    assert paired.spread == pytest.approx((1.0, 5.0))
    assert paired.ratio_text() == "3.00x (1.00-5.00x)"


def test_rates_count_the_units_each_call_did():
    a = iter([(200, 2.0), (300, 1.0)])
    b = iter([(50, 1.0), (100, 1.0)])
    paired = timing.alternate(2, lambda: next(a), lambda: next(b), units=lambda r: r[0], seconds=lambda r: r[1])
    assert paired.a_rates == (100.0, 300.0) and paired.b_rates == (50.0, 100.0)
    assert paired.ratios == (2.0, 3.0) and paired.ratio == 2.5


def test_without_its_own_seconds_a_call_is_timed_by_the_wall_clock():
    paired = timing.alternate(2, lambda: None, lambda: None)
    assert all(s >= 0 for s in paired.a_seconds + paired.b_seconds) and paired.a_units == (1, 1)


def test_no_rounds_is_refused():
    with pytest.raises(ValueError, match="rounds must be 1 or more"):
        timing.alternate(0, lambda: None, lambda: None)


def test_the_load_average_names_its_three_spans():
    assert timing.load_average().endswith("(1 / 5 / 15 min)")
