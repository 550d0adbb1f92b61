"""Seeded random boards on any topology (the presets and rules: `minesweeper.variant`).

A board is drawn uniformly among the layouts that the first-click rule allows:
the mines are a ``rng.sample`` of the cells the rule leaves free.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from minesweeper.board import Board
from minesweeper.errors import RulesError
from minesweeper.topology.base import Topology
from minesweeper.variant import FirstClick, Variant


def excluded_cells(topology: Topology, first: int | None, rule: FirstClick) -> set[int]:
    """The cells ``rule`` keeps free of mines when the first click is ``first``."""
    if rule is FirstClick.ANY:
        return set()
    if first is None:
        raise RulesError(f"the first-click rule {rule.value!r} needs a first cell")
    if not 0 <= first < topology.size:
        raise RulesError(f"the first cell {first} is not on the board")
    if rule is FirstClick.SAFE:
        return {first}
    return {first, *topology.neighbours(first)}


def random_board(
    topology: Topology,
    mines: int,
    rng: random.Random,
    first: int | None = None,
    rule: FirstClick | str = FirstClick.ANY,
) -> Board:
    """A board with ``mines`` mines, uniform among the layouts ``rule`` allows for ``first``.

    Raises `MinesweeperError` when the mines do not fit: too many for the cells
    the rule leaves free, or so many that no safe cell would remain.
    """
    rule = FirstClick(rule)
    if mines < 0:
        raise RulesError(f"the mine count must not be negative, got {mines}")
    if mines >= topology.size:
        raise RulesError(f"{mines} mine(s) leave no safe cell on a board of {topology.size} cells")
    excluded = excluded_cells(topology, first, rule)
    free = [cell for cell in topology.cells() if cell not in excluded]
    if mines > len(free):
        raise RulesError(
            f"{mines} mine(s) do not fit: the first-click rule {rule.value!r} "
            f"leaves only {len(free)} cell(s) free"
        )
    return Board(topology, rng.sample(free, mines))


def middle_cell(topology: Topology) -> int:
    """The cell in the middle of the printed map."""
    rows, cols = topology.shape
    return topology.cell_at(rows // 2, cols // 2)


def start_cell(topology: Topology, start: tuple[int, int], cols: int) -> int:
    """The cell at printed position ``start`` of a board generated ``rows x cols``.

    A position outside the printed map (a graph prints one line of nodes) is
    read as the row-major index ``r * cols + c`` into that map.
    """
    rows_printed, cols_printed = topology.shape
    row, col = start
    if 0 <= row < rows_printed and 0 <= col < cols_printed:
        return topology.cell_at(row, col)
    index = row * cols + col
    if row >= 0 and 0 <= col < cols and index < rows_printed * cols_printed:
        return topology.cell_at(*divmod(index, cols_printed))
    raise RulesError(f"the first click {start} is outside the {rows_printed}x{cols_printed} board")


#: Lays the mines once the first click is known:
#: ``maker(topology, mines, first_cell, rule, rng) -> Board``. The board must keep
#: ``first_cell`` free of mines as ``rule`` says. `minesweeper.boards.noguess` provides
#: makers of no-guess boards.
BoardMaker = Callable[[Topology, int, int, FirstClick, random.Random], Board]


def lay_mines(
    topology: Topology, mines: int, first: int, rule: FirstClick, rng: random.Random
) -> Board:
    """The default `BoardMaker`: uniform random mines away from the first click.

    An opening that the mines do not fit around falls back to a safe first click.
    """
    if rule is FirstClick.OPENING and mines > topology.size - 1 - len(topology.neighbours(first)):
        rule = FirstClick.SAFE
    return random_board(topology, mines, rng, first, rule)


#: Bits of the seed each board is laid from: one JSON number in a replay.
DEAL_SEED_BITS = 63


def deal(maker: BoardMaker, topology: Topology, variant: Variant, first: int, seed: int) -> Board:
    """The board ``maker`` lays for ``variant`` at the first open ``first`` from ``seed``:
    how a game deals, and how a replay's board is shown to be the game's own."""
    return maker(topology, variant.mines, first, variant.first_click, random.Random(seed))
