"""Confidence intervals of rates (a benchmark's win rate and a player's alike), and of two
players paired on the same games."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson_interval(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default); ``(0, 1)`` for no games."""
    if games == 0:
        return 0.0, 1.0
    if not 0 <= wins <= games:
        raise ValueError(f"wins must lie in 0..{games}, got {wins}")
    rate = wins / games
    z2 = z * z
    denominator = 1 + z2 / games
    centre = (rate + z2 / (2 * games)) / denominator
    half = z / denominator * math.sqrt(rate * (1 - rate) / games + z2 / (4 * games * games))
    # At the ends the exact bound is 0 or 1; floating point would leave noise there.
    low = 0.0 if wins == 0 else centre - half
    high = 1.0 if wins == games else centre + half
    return low, high


def paired_interval(only_a: int, only_b: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The interval of A's win rate minus B's on the same ``games``, of which only A won
    ``only_a`` and only B ``only_b``: Agresti and Min's adjusted Wald interval (half a
    game added to each of the four cells), which keeps its coverage near the nominal
    even with few discordant games."""
    if games == 0:
        return -1.0, 1.0
    b, c, n = only_a + 0.5, only_b + 0.5, games + 2
    centre = (b - c) / n
    half = z * math.sqrt(max(0.0, (b + c) - (b - c) ** 2 / n)) / n
    return max(-1.0, centre - half), min(1.0, centre + half)


def mcnemar_exact(only_a: int, only_b: int) -> float:
    """McNemar's exact two-sided p: the chance of a split of the discordant games at
    least this uneven if each were a fair coin (1 with none)."""
    if only_a < 0 or only_b < 0:
        raise ValueError("game counts cannot be negative")
    n, low = only_a + only_b, min(only_a, only_b)
    if n == 0 or only_a == only_b:
        return 1.0
    tail, term = 0, 1  # term = comb(n, i), exact integers
    for i in range(low + 1):
        tail += term
        term = term * (n - i) // (i + 1)
    return min(1.0, float(Fraction(2 * tail, 1 << n)))


def median_interval(values: Sequence[float], z: float = Z95) -> tuple[float, float]:
    """A distribution-free interval of the median of ``values`` (95% by default): the
    order statistics whose ranks a binomial count of the values below the median puts
    ``z`` standard deviations either side of the middle (``n / 2 -+ z * sqrt(n) / 2``)."""
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    n = len(ordered)
    half = z * math.sqrt(n) / 2
    low = max(0, math.floor(n / 2 - half))
    high = min(n - 1, math.ceil(n / 2 + half))
    return ordered[low], ordered[high]
