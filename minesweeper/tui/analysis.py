"""Hints and the analysis overlay: the exact engine's view of what a player sees.

Only the opened cells' numbers and the mine count go to the engine (flags are
the player's opinion, not facts), exactly as the computer player sees them.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from minesweeper.errors import MinesweeperError
from minesweeper.play.autoplay import view_of
from minesweeper.play.session import GameSession
from minesweeper.solver.constraints import InconsistentView
from minesweeper.solver.probability import Probabilities, probabilities
from minesweeper.solver.registry import STRATEGIES, StrategySpec
from minesweeper.solver.strategy import Strategy

#: Strategies the computer falls back on, in order, when the preferred one is missing.
FALLBACKS = ("best", "exact-safest", "gauss-powermean", "worlds")


@dataclass(frozen=True)
class Hint:
    """The move to make: ``cell``, its mine probability, whether it is proved safe, and
    the strategy that chose it as its guess (``guessed_by``; empty: the safest cell)."""

    cell: int
    chance: Fraction
    certain: bool
    guessed_by: str = ""

    def describe(self, where: str) -> str:
        """What the message line says about it; ``where`` names the cell."""
        if self.certain:
            return f"hint: {where} is certainly safe"
        chance = f"{float(self.chance):.0%} mine"
        if self.guessed_by:
            return f"hint: nothing is certain; {self.guessed_by} guesses {where} ({chance})"
        return f"hint: no cell is certainly safe; {where} is the safest ({chance})"


def chances(session: GameSession) -> Probabilities | None:
    """Every unknown cell's exact mine probability, or None before the first open / at the end."""
    if not session.started or session.over:
        return None
    try:
        return probabilities(view_of(session))
    except InconsistentView:
        return None


def hint(
    session: GameSession, near: int | None = None, strategy: Strategy | None = None
) -> Hint | None:
    """The cell to open: a proved safe one, the nearest to ``near`` among them; when there
    is none, ``strategy``'s guess (with its settings, such as its think budget), or
    without a strategy the safest cell, the nearest to ``near`` among equals.

    Before the first open every cell is safe: the first open is protected.
    """
    if session.over:
        return None
    topology = session.topology
    if not session.started:
        cell = near if near is not None else 0
        return Hint(cell, Fraction(0), True)
    result = chances(session)
    if result is None or not len(result):
        return None
    if result.safe:
        candidates, certain = list(result.safe), True
    elif strategy is not None:
        cell = strategy.decide(view_of(session)).opens[0]
        return Hint(cell, result[cell], False, strategy.name)
    else:
        candidates, certain = result.safest(), False
    unflagged = [cell for cell in candidates if cell not in session.flags]
    candidates = unflagged or candidates
    if near is not None:
        row, col = topology.position(near)

        def distance(cell: int) -> tuple[int, int]:
            r, c = topology.position(cell)
            return abs(r - row) + abs(c - col), cell

        cell = min(candidates, key=distance)
    else:
        cell = min(candidates)
    return Hint(cell, result[cell], certain)


def computer_strategy(
    preferred: StrategySpec | str = "best", seed: int = 0
) -> tuple[Strategy, str | None]:
    """The strategy the computer plays with (``preferred``, with its settings), and a note
    when ``preferred`` was not available."""
    try:
        spec = preferred if isinstance(preferred, StrategySpec) else StrategySpec(preferred)
    except MinesweeperError:
        preferred = str(preferred)
    else:
        return spec.build(seed), None
    for name in FALLBACKS:
        if name in STRATEGIES:
            note = f"strategy {preferred!r} is not available: the computer plays {name!r}"
            return STRATEGIES[name](seed=seed), note
    name = sorted(STRATEGIES)[0]
    note = f"strategy {preferred!r} is not available: the computer plays {name!r}"
    return STRATEGIES[name](seed=seed), note
