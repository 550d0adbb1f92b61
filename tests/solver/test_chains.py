"""Unavoidable 50/50s and chains of them (`fifty_fifty`), checked against every layout."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st
from test_best import SETTINGS, real_positions

from minesweeper.board import Board
from minesweeper.client import play
from minesweeper.solver import View
from minesweeper.solver.best import Best, fifty_fifty
from minesweeper.solver.constraints import constraints
from minesweeper.solver.probability import probabilities
from minesweeper.topology import SquareTopology


def layouts(view: View) -> list[frozenset[int]]:
    """Every set of unknown cells that can be the mines (the count respected when known)."""
    unknown = view.unknown()
    rules = constraints(view)
    left = None if view.mine_count is None else view.mine_count - len(view.mines)
    found = []
    for bits in range(1 << len(unknown)):
        mines = frozenset(c for i, c in enumerate(unknown) if bits >> i & 1)
        if left is not None and len(mines) != left:
            continue
        if all(len(rule.cells & mines) == rule.mines for rule in rules):
            found.append(mines)
    return found


def assert_unavoidable(view: View, chain: list[int]) -> None:
    """Every layout has the mines of one side of the chain, and the layout with the other
    side instead fits too and shows the same number on every cell off the chain."""
    every = set(layouts(view))
    assert every
    cells = set(chain)
    sides = {frozenset(lay & cells) for lay in every}
    assert len(sides) == 2
    first, second = sides
    assert not first & second and first | second == cells and len(first) == len(second)
    neighbours = view.topology.neighbours
    for lay in every:
        mine_side = frozenset(lay & cells)
        other = second if mine_side == first else first
        swapped = (lay - mine_side) | other
        assert swapped in every
        for cell in range(view.topology.size):
            if cell in cells or cell in view.mines or cell in lay:
                continue
            shown = [sum(1 for o in neighbours(cell) if o in mines) for mines in (lay, swapped)]
            assert shown[0] == shown[1]


def wall(cols: int, mines: set[int]) -> View:
    """A 3 x ``cols`` board: row 0 unknown, rows 1 and 2 open, ``mines`` in row 0."""
    topology = SquareTopology(3, cols)
    board = Board(topology, {topology.cell_at(0, c) for c in mines})
    revealed = {cell: board.count(cell) for cell in range(cols, 3 * cols)}
    return View(topology, revealed, frozenset(), len(mines))


def test_a_pair_under_a_wall_of_numbers_is_a_chain() -> None:
    view = wall(2, {0})
    chain = fifty_fifty(view, constraints(view))
    assert chain == [0, 1]
    assert_unavoidable(view, chain)


def pairs_linked_by_a_mine() -> View:
    """Row 0 of 3x5: ? ? F ? ?, the mine at (0,2) known; mines at (0,0) and (0,3): a chain."""
    topology = SquareTopology(3, 5)
    cell = topology.cell_at
    board = Board(topology, {cell(0, 0), cell(0, 2), cell(0, 3)})
    revealed = {c: board.count(c) for c in range(5, 15)}
    return View(topology, revealed, frozenset({cell(0, 2)}), 3)


def test_a_chain_of_pairs_linked_by_mines_is_found_and_guessed() -> None:
    view = pairs_linked_by_a_mine()
    rules = constraints(view)
    chain = fifty_fifty(view, rules)
    assert chain is not None
    assert_unavoidable(view, chain)
    exact = probabilities(view)
    assert all(exact[c] == 0.5 for c in chain)
    strategy = Best()
    strategy.endgame_layouts, strategy.regions = 0, False  # else searched exactly
    decision = strategy.decide(view)
    assert decision.guess and decision.method == "fifty-fifty" and decision.opens[0] in chain


def test_a_number_next_to_one_side_breaks_the_chain() -> None:
    # 3x3, row 0 unknown with one mine at (0,0): (1,0) sees (0,0),(0,1); (1,1) sees all
    # three; (1,2) sees (0,1),(0,2) and shows 0, so (0,1),(0,2) are safe: no 50/50.
    view = wall(3, {0})
    assert fifty_fifty(view, constraints(view)) is None


def test_a_number_next_to_one_cell_of_a_pair_tells_them_apart() -> None:
    # 2x4, unknown (0,0), (0,1), (0,3), (1,3); mines at (0,0) and (0,3). (1,0) and (1,1) put
    # one mine in the pair; (0,2) sees (0,1) and not (0,0), so (0,3), (1,3) hold one mine
    # when (0,0) is the mine and none when (0,1) is: opening them tells the pair apart.
    topology = SquareTopology(2, 4)
    cell = topology.cell_at
    board = Board(topology, {cell(0, 0), cell(0, 3)})
    revealed = {c: board.count(c) for c in (cell(1, 0), cell(1, 1), cell(0, 2), cell(1, 2))}
    view = View(topology, revealed, frozenset())
    pair = {cell(0, 0), cell(0, 1)}
    assert any(rule.cells == pair and rule.mines == 1 for rule in constraints(view))
    assert fifty_fifty(view, constraints(view)) is None


@SETTINGS
@given(real_positions(max_unknown=12))
def test_every_chain_found_is_unavoidable(position) -> None:
    view, _ = position
    exact = probabilities(view)
    view = view.with_mines(exact.mines)
    chain = fifty_fifty(view, constraints(view))
    if chain is not None:
        assert_unavoidable(view, chain)


@SETTINGS
@given(st.integers(0, 2**32 - 1))
def test_chains_found_in_played_games_are_unavoidable(seed) -> None:
    """Positions `best` meets on small dense boards, where chains are common."""
    rng = random.Random(seed)
    topology = SquareTopology(rng.randint(3, 5), rng.randint(3, 6))
    mines = set(rng.sample(range(topology.size), topology.size // 4))
    first = next(c for c in range(topology.size) if c not in mines)
    board = Board(topology, mines)
    found = []

    class Watching(Best):
        def decide(self, view: View):
            exact = self.solve(view)
            seen = view.with_mines(exact.mines)
            chain = fifty_fifty(seen, constraints(seen))
            if chain is not None and not exact.safe:
                found.append((seen, chain))
            return super().decide(view)

    play(board, first, Watching(), tell_mine_count=True)
    for seen, chain in found:
        if len(seen.unknown()) <= 14:
            assert_unavoidable(seen, chain)
