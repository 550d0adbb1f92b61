"""Points of a person's game.

- Opening a cell by the player's own action (a single open, or each cell a chord
  opens): a zero scores `ZERO_POINTS`, a number scores that number. Cells that a
  zero's flood opens automatically score nothing.
- On a win: `FLAG_POINTS` for every correctly placed flag, plus
  ``floor(N**2 / (10 + T))`` with N the number of mines and T the whole seconds played.
"""

from __future__ import annotations

#: Points for opening a zero by hand.
ZERO_POINTS = 10
#: Points per correctly placed flag, on a win.
FLAG_POINTS = 5


def open_points(count: int) -> int:
    """Points for opening, by the player's own action, a safe cell showing ``count``."""
    return ZERO_POINTS if count == 0 else count


def time_bonus(mines: int, seconds: int) -> int:
    """The win's time bonus: ``floor(mines**2 / (10 + seconds))``."""
    return mines * mines // (10 + max(seconds, 0))


def win_bonus(mines: int, correct_flags: int, seconds: int) -> int:
    """Everything a win adds: the flags' points and the time bonus."""
    return FLAG_POINTS * correct_flags + time_bonus(mines, seconds)
