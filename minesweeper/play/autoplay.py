"""The bridge between a person's `GameSession` and the solver.

The session is core and knows nothing of the solver; this module, a layer above
both, turns a session into the solver's `View` (only what a player sees), lets a
`Strategy` play a session move by move, and builds sessions whose settings ask
for no-guess boards.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from minesweeper.boards.generate import middle_cell
from minesweeper.play.records import COMPUTER
from minesweeper.play.session import GameSession, Settings
from minesweeper.solver.registry import find_strategy
from minesweeper.solver.strategy import Strategy, StrategyError
from minesweeper.solver.view import View

__all__ = ["COMPUTER", "AutoPlayer", "Move", "first_cell", "new_session", "view_of"]


def view_of(session: GameSession) -> View:
    """What a player sees of ``session``: the opened cells' numbers (flags are not trusted),
    and the total number of mines when the game tells it (not under the ACM rules)."""
    return View(
        session.topology,
        session.opened(),
        mine_count=session.mine_count if session.count_told else None,
    )


def new_session(
    settings: Settings,
    *,
    seed: int | None = None,
    clock: Callable[[], float] | None = None,
) -> GameSession:
    """A session for ``settings``, with the no-guess board maker when they ask for one."""
    extra: dict[str, object] = {}
    if clock is not None:
        extra["clock"] = clock
    if settings.no_guess:
        from minesweeper.boards.noguess import board_maker
        from minesweeper.solver.prover import find_prover

        extra["board_maker"] = board_maker(find_prover(settings.prover))
    return GameSession(settings, seed=seed, **extra)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Move:
    """One action of the computer player: ``kind`` is ``open``, ``flag`` or ``unflag``.

    ``guess`` is True for an open the strategy could not prove safe.
    """

    kind: str
    cell: int
    guess: bool = False


def first_cell(session: GameSession) -> int:
    """Where the computer clicks first: the cell in the middle of the printed map."""
    return middle_cell(session.topology)


class AutoPlayer:
    """A strategy playing a session, seeing only `view_of(session)`.

    Each `step` makes one decision's moves: it flags the mines the strategy proved,
    then opens its cells (lifting a flag the player left in the way), stopping
    when the game ends. The first open of a fresh layout is `first_cell`.
    """

    def __init__(self, session: GameSession, strategy: Strategy) -> None:
        self.session = session
        self.strategy = strategy

    @classmethod
    def named(cls, session: GameSession, name: str = "best", seed: int = 0) -> AutoPlayer:
        """An auto-player with the registered strategy ``name``."""
        return cls(session, find_strategy(name)(seed=seed))

    def step(self) -> list[Move]:
        """Make the next decision's moves and return them; ``[]`` once the game is over.

        The session notes the computer's help from its first move on.
        """
        session = self.session
        if session.over:
            return []
        session.note_assist("computer")
        if not session.opened():
            cell = first_cell(session)
            moves = self._unflag(cell)
            session.open(cell)
            return [*moves, Move("open", cell)]
        decision = self.strategy.decide(view_of(session))
        moves = []
        for mine in sorted(decision.mines):
            if mine not in session.flags and not session.is_opened(mine):
                session.toggle_flag(mine)
                moves.append(Move("flag", mine))
        for cell in decision.to_open:
            if session.over:
                break
            if session.is_opened(cell):
                continue
            moves.extend(self._unflag(cell))
            session.open(cell)
            moves.append(Move("open", cell, decision.guess))
        if not any(move.kind == "open" for move in moves):
            raise StrategyError(
                f"strategy {self.strategy.name!r} chose no cell to open: {decision.opens}"
            )
        return moves

    def play(self) -> Iterator[list[Move]]:
        """Step until the game is over, yielding each step's moves."""
        while not self.session.over:
            yield self.step()

    def _unflag(self, cell: int) -> list[Move]:
        if cell in self.session.flags:
            self.session.toggle_flag(cell)
            return [Move("unflag", cell)]
        return []
