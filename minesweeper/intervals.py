"""Confidence intervals of rates: a benchmark's win rate and a player's alike."""

from __future__ import annotations

import math

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
