"""Help in practice games: the odds, a hint, the computer's move (never in ranked games).

Each reads only what the player sees (`minesweeper.play.autoplay.view_of`): the
opened numbers and the mine count when the rules tell it.
"""

from __future__ import annotations

from minesweeper.boards.generate import middle_cell
from minesweeper.ladder.api import HintOut, OddsOut
from minesweeper.play.autoplay import AutoPlayer, Move, view_of
from minesweeper.play.session import GameSession
from minesweeper.solver.constraints import InconsistentView
from minesweeper.solver.probability import Probabilities, probabilities

#: The computer's strategy in practice games.
COMPUTER_STRATEGY = "best"


def _chances(session: GameSession) -> Probabilities | None:
    if not session.started or session.over:
        return None
    try:
        return probabilities(view_of(session))
    except InconsistentView:
        return None


def odds(session: GameSession) -> OddsOut:
    """Every closed cell's exact mine probability (None for opened cells, and before the
    first open, when every cell is safe to click)."""
    result = _chances(session)
    size = session.topology.size
    if result is None:
        return OddsOut(odds=[None] * size, approximate=False)
    chance = result.floats()
    return OddsOut(
        odds=[round(chance[cell], 4) if cell in chance else None for cell in range(size)],
        approximate=result.approximate,
    )


def hint(session: GameSession) -> HintOut:
    """A proved-safe closed cell (the lowest id), or else the safest one."""
    if not session.started:
        return HintOut(cell=middle_cell(session.topology), safe=True, p=0.0)
    result = _chances(session)
    if result is None or not len(result):
        return HintOut(cell=None, safe=False, p=None)
    safe = sorted(result.safe)
    candidates = safe or result.safest()
    unflagged = [cell for cell in candidates if cell not in session.flags]
    cell = min(unflagged or candidates)
    return HintOut(cell=cell, safe=bool(safe), p=round(result.chance(cell), 4))


def computer_step(session: GameSession) -> tuple[list[Move], list[int]]:
    """The computer's next decision made on ``session``: its moves and the cells opened."""
    before = set(session.opened())
    moves = AutoPlayer.named(session, COMPUTER_STRATEGY).step()
    return moves, sorted(set(session.opened()) - before)
