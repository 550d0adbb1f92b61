"""`Game`: the judge's rules of visiting cells on a `Board`."""

from __future__ import annotations

import enum

from minesweeper.board import Board
from minesweeper.errors import RulesError


class State(enum.Enum):
    """Where a game stands."""

    PLAYING = "playing"
    WON = "won"
    LOST = "lost"


class Game:
    """A game as the ACM judge plays it: only visits, no flags.

    Visiting a safe cell reveals its count; a zero also reveals its neighbours,
    spreading through zeros. Visiting a mine loses; revealing every safe cell wins.
    ``step_count`` counts every visit, repeats included; ``visit_count`` the
    safe cells revealed.
    """

    def __init__(self, board: Board) -> None:
        self.board = board
        self.revealed = bytearray(board.size)
        self.visit_count = 0
        self.step_count = 0
        self.exploded: int | None = None
        self.state = State.PLAYING

    @property
    def over(self) -> bool:
        return self.state is not State.PLAYING

    def is_revealed(self, cell: int) -> bool:
        return bool(self.revealed[cell])

    def visit(self, cell: int) -> list[int]:
        """Visit ``cell`` and return the cells newly revealed (in reveal order).

        Raises `RulesError` if the game is already over.
        """
        if self.over:
            raise RulesError("the game is over")
        self.step_count += 1
        if self.revealed[cell]:
            return []
        board = self.board
        if board.is_mine(cell):
            self.revealed[cell] = 1
            self.exploded = cell
            self.state = State.LOST
            return [cell]
        opened = self._flood(cell)
        self.visit_count += len(opened)
        if self.visit_count == board.safe_count:
            self.state = State.WON
        return opened

    def _flood(self, start: int) -> list[int]:
        """Reveal ``start`` and, iteratively, everything its zeros reach."""
        revealed, counts = self.revealed, self.board.counts
        neighbours = self.board.topology.neighbours
        revealed[start] = 1
        opened = [start]
        stack = [start] if counts[start] == 0 else []
        while stack:
            for cell in neighbours(stack.pop()):
                if not revealed[cell]:
                    # A zero's neighbours are never mines, so no check is needed.
                    revealed[cell] = 1
                    opened.append(cell)
                    if counts[cell] == 0:
                        stack.append(cell)
        return opened
