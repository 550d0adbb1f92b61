"""`Player`: what a player sees of one game and the loop that asks a strategy for moves;
`play_out`: a game played on from a position with it, straight on a `Game`.

It sits with the solver so that a strategy may play games on in its head, over
layouts it drew itself (`wins_on`, for `minesweeper.solver.rollout`); the client's
front ends (`minesweeper.client`) use the same loop on the real board. Either way
the strategy is given views only: this is the one solver module that may hold a
board (tests/core/test_layers.py).
"""

from __future__ import annotations

from collections.abc import Callable

from minesweeper.board import Board
from minesweeper.game import Game, State
from minesweeper.solver.strategy import Decision, Strategy, StrategyError
from minesweeper.solver.view import View
from minesweeper.topology.base import Topology

#: The assignment's limit on a client's moves.
MAX_MOVES = 1000
#: Told of each guess: the view the strategy saw, its decision, the guess's move number
#: (the first click is move 1).
GuessObserver = Callable[[View, Decision, int], None]


class Player:
    """What a player sees of one game, and the loop that asks a strategy for moves.

    ``revealed`` maps opened cells to their counts; ``mines`` holds the cells the
    strategy proved to be mines (never visited). ``mine_count`` is told to the
    strategy only when the rules tell it.
    """

    def __init__(
        self,
        topology: Topology,
        strategy: Strategy,
        mine_count: int | None = None,
        max_moves: int = MAX_MOVES,
    ) -> None:
        self.topology = topology
        self.strategy = strategy
        self.mine_count = mine_count
        self.max_moves = max_moves
        self.on_guess: GuessObserver | None = None
        self.reset()

    def reset(self) -> None:
        """Forget everything seen: a new game on the same board size."""
        self.revealed: dict[int, int] = {}
        self.mines: set[int] = set()
        self.visited: set[int] = set()
        self.outcome = State.PLAYING
        self.moves = 0
        self.guesses = 0

    @property
    def over(self) -> bool:
        """True once the game is decided or the move limit is reached."""
        return self.outcome is not State.PLAYING or self.moves >= self.max_moves

    def view(self) -> View:
        """The position as the strategy sees it (a snapshot: later moves do not change it)."""
        return View(self.topology, dict(self.revealed), frozenset(self.mines), self.mine_count)

    def decide(self) -> list[int]:
        """Ask the strategy once; remember the mines it proved; the cells it wants opened.

        A guess opens only its first cell (`Decision.to_open`).
        """
        view = self.view()
        decision = self.strategy.decide(view)
        size = self.topology.size
        if any(not 0 <= cell < size for cell in (*decision.opens, *decision.mines)):
            raise StrategyError(f"strategy {self.strategy.name!r} named a cell off the board")
        for mine in decision.mines:
            if mine in self.revealed or mine in self.visited:
                raise StrategyError(
                    f"strategy {self.strategy.name!r} declared the opened cell "
                    f"{self.topology.move_of(mine)} a mine"
                )
        self.mines.update(decision.mines)
        cells = [cell for cell in decision.to_open if self._may_open(cell)]
        if not cells:
            raise StrategyError(
                f"strategy {self.strategy.name!r} proposed no unvisited cell "
                f"(it proposed {[self.topology.move_of(cell) for cell in decision.opens]})"
            )
        self.guesses += decision.guess
        if decision.guess and self.on_guess is not None:
            self.on_guess(view, decision, self.moves + 1)
        return cells

    def turn(self, open_cell: Callable[[int], None]) -> None:
        """One decision: open its cells through ``open_cell`` until the game ends.

        Cells revealed meanwhile (a zero's area) are skipped: no cell is visited twice.
        """
        for cell in self.decide():
            if self.over:
                return
            if self._may_open(cell):
                self.move(cell, open_cell)

    def move(self, cell: int, open_cell: Callable[[int], None]) -> None:
        """Open ``cell`` through ``open_cell``, counting the move."""
        self.visited.add(cell)
        self.moves += 1
        open_cell(cell)

    def _may_open(self, cell: int) -> bool:
        return cell not in self.revealed and cell not in self.mines and cell not in self.visited


def play_out(
    board: Board,
    view: View,
    cell: int,
    strategy: Strategy,
    tell_mine_count: bool = False,
    max_moves: int = MAX_MOVES,
    on_guess: GuessObserver | None = None,
) -> tuple[Game, Player]:
    """The game of ``board`` played on from ``view`` (its revealed cells opened, its known
    mines known) by opening ``cell``, then with ``strategy`` to the end; and its player.

    ``view`` must be a position of ``board``: its numbers are the board's.
    """
    game = Game(board)
    player = Player(
        board.topology, strategy, board.mine_count if tell_mine_count else None, max_moves
    )
    player.on_guess = on_guess
    count = board.count
    revealed = player.revealed
    for known in view.revealed:
        if not game.revealed[known]:
            for other in game.visit(known):
                revealed[other] = count(other)
    player.mines.update(view.mines)
    player.visited.update(view.revealed)
    game.step_count = 0

    def open_cell(cell: int) -> None:
        opened = game.visit(cell)
        if game.state is State.LOST:
            player.outcome = State.LOST
            return
        for other in opened:
            revealed[other] = count(other)
        if game.state is State.WON:
            player.outcome = State.WON

    player.move(cell, open_cell)
    while not player.over:
        player.turn(open_cell)
    return game, player


def wins_on(
    mines: frozenset[int],
    view: View,
    cell: int,
    strategy: Strategy,
    on_guess: GuessObserver | None = None,
) -> bool:
    """Whether ``strategy`` wins the layout ``mines`` of ``view`` (one a strategy drew to
    play on in its head), played on by opening ``cell``; the count told as ``view`` tells it."""
    board = Board(view.topology, mines)
    game, _ = play_out(board, view, cell, strategy, view.mine_count is not None, on_guess=on_guess)
    return game.state is State.WON
