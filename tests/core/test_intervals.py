"""`intervals.median_interval`: the order statistics around a median, covering it as often
as it says."""

from __future__ import annotations

import random

import pytest

from minesweeper.intervals import median_interval


def test_the_interval_is_two_order_statistics_around_the_middle() -> None:
    values = [float(v) for v in range(100)]
    random.Random(1).shuffle(values)
    low, high = median_interval(values)
    assert (low, high) == (40.0, 60.0)  # 50 -+ 1.96 * sqrt(100) / 2, outward
    assert median_interval([3.0]) == (3.0, 3.0)
    assert median_interval([2.0, 1.0]) == (1.0, 2.0)
    with pytest.raises(ValueError):
        median_interval([])


def test_it_covers_the_median_about_95_times_in_100() -> None:
    rng = random.Random(7)
    covered = 0
    for _ in range(2000):
        sample = [rng.expovariate(1.0) for _ in range(51)]  # skewed; median ln 2
        low, high = median_interval(sample)
        covered += low <= 0.6931471805599453 <= high
    assert 0.93 <= covered / 2000 <= 0.985
