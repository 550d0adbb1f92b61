"""No-guess boards: layouts a prover solves from the first click without a guess.

After the first click, candidate boards are laid (uniformly, as the first-click
rule allows) until a prover, seeing only what a player would see, opens every
safe cell from that click by proof alone. After ``attempts`` candidates, or
`NO_GUESS_SECONDS` of searching, it gives up with `NoGuessFailed`: an
unchecked board is never returned. The time limit only cuts a search short: a
board found is the one the seed gives, however fast the machine.

This module sits above the core and the solver: it replays a candidate on the
judge's `Game` and asks a prover from `minesweeper.solver.prover`.
"""

from __future__ import annotations

import random
import time

from minesweeper.board import Board
from minesweeper.boards.generate import BoardMaker, random_board
from minesweeper.errors import SolverError
from minesweeper.game import Game, State
from minesweeper.limits import NO_GUESS_SECONDS
from minesweeper.solver.prover import PROVERS
from minesweeper.solver.subset import SubsetProver
from minesweeper.topology.base import Topology
from minesweeper.variant import FirstClick

#: Candidates tried before giving up.
DEFAULT_ATTEMPTS = 2000

__all__ = [
    "DEFAULT_ATTEMPTS",
    "PROVERS",
    "NoGuessFailed",
    "Prover",
    "board_maker",
    "no_guess_board",
    "solvable",
]


class NoGuessFailed(SolverError):
    """No candidate board passed the prover within the attempt limit."""


#: A prover by its class (`minesweeper.solver.prover.PROVERS` finds one by name).
Prover = type[SubsetProver]


def solvable(
    board: Board, first: int, prover: Prover = SubsetProver, deadline: float | None = None
) -> bool:
    """Whether ``prover`` opens every safe cell of ``board`` from ``first`` without a guess.

    The prover is told the mine count and every number revealed, nothing else.
    Past ``deadline`` (a `time.monotonic` reading) it raises `NoGuessFailed`.
    """
    if board.is_mine(first):
        return False
    game = Game(board)
    deducer = prover(board.topology, board.mine_count)
    count = board.count
    for cell in game.visit(first):
        deducer.reveal(cell, count(cell))
    while game.state is State.PLAYING:
        if deadline is not None and time.monotonic() > deadline:
            raise NoGuessFailed("out of time")
        safe = deducer.prove().safe
        if not safe:
            return False
        for cell in safe:
            if not game.is_revealed(cell):
                for opened in game.visit(cell):
                    deducer.reveal(opened, count(opened))
    return game.state is State.WON


def no_guess_board(
    topology: Topology,
    mines: int,
    first: int,
    rule: FirstClick = FirstClick.OPENING,
    rng: random.Random | None = None,
    prover: Prover = SubsetProver,
    attempts: int = DEFAULT_ATTEMPTS,
    seconds: float = NO_GUESS_SECONDS,
) -> Board:
    """A board with ``mines`` mines that ``prover`` solves from ``first`` without guessing.

    Candidates are drawn with `random_board` under the first-click ``rule``.
    Raises `NoGuessFailed` after ``attempts`` candidates or ``seconds`` of search.
    """
    rng = rng if rng is not None else random.Random()
    deadline = time.monotonic() + seconds
    tried = 0
    try:
        while tried < attempts:
            tried += 1
            board = random_board(topology, mines, rng, first, rule)
            if solvable(board, first, prover, deadline):
                return board
        within = f"in {attempts} attempts"
    except NoGuessFailed:
        within = f"in {seconds:g} s ({tried} attempt(s))"
    raise NoGuessFailed(
        f"no board that the {prover.name!r} prover solves without guessing was found {within} "
        f"({mines} mines on {topology.size} cells): start again, perhaps with fewer mines "
        "or another first click"
    )


def board_maker(prover: Prover = SubsetProver, attempts: int = DEFAULT_ATTEMPTS) -> BoardMaker:
    """A `minesweeper.boards.generate.BoardMaker` laying no-guess boards with ``prover``."""

    def make(
        topology: Topology, mines: int, first: int, rule: FirstClick, rng: random.Random
    ) -> Board:
        return no_guess_board(topology, mines, first, rule, rng, prover, attempts)

    return make
