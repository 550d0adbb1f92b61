"""Hints and the analysis overlay: the exact engine's view of what a player sees.

Only the opened cells' numbers and the mine count go to the engine (flags are
the player's opinion, not facts), exactly as the computer player sees them.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from minesweeper.autoplay import view_of
from minesweeper.errors import MinesweeperError
from minesweeper.session import GameSession
from minesweeper.solver.constraints import InconsistentView
from minesweeper.solver.probability import Probabilities, probabilities
from minesweeper.solver.strategy import STRATEGIES, Strategy, StrategySpec

#: Strategies the computer falls back on, in order, when the preferred one is missing.
FALLBACKS = ("best", "exact-safest", "gauss-powermean", "worlds")


@dataclass(frozen=True)
class Hint:
    """The safest move: ``cell``, its mine probability, and whether it is proved safe."""

    cell: int
    chance: Fraction
    certain: bool

    def describe(self, where: str) -> str:
        """What the message line says about it; ``where`` names the cell."""
        if self.certain:
            return f"hint: {where} is certainly safe"
        chance = f"{float(self.chance):.0%}"
        return f"hint: no cell is certainly safe; {where} is the safest ({chance} mine)"


def chances(session: GameSession) -> Probabilities | None:
    """Every unknown cell's exact mine probability, or None before the first open / at the end."""
    if not session.started or session.over:
        return None
    try:
        return probabilities(view_of(session))
    except InconsistentView:
        return None


def hint(session: GameSession, near: int | None = None) -> Hint | None:
    """The safest cell to open (proved safe when one is), the nearest to ``near`` among equals.

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
