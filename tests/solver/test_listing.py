"""`listing.list_layouts` (parts multiplied, loose cells combined) against listing every
layout by backtracking over the whole position (`endgame.enumerate_layouts`)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from minesweeper.board import Board
from minesweeper.game import Game
from minesweeper.solver.constraints import constraints
from minesweeper.solver.endgame import enumerate_layouts, layout_tables
from minesweeper.solver.listing import list_layouts
from minesweeper.solver.view import View
from minesweeper.topology import SquareTopology


@st.composite
def views(draw: st.DrawFn) -> View:
    """A game's position after a few clicks, some with flags, the count told or not."""
    rows, cols = draw(st.integers(1, 5)), draw(st.integers(2, 6))
    topology = SquareTopology(rows, cols)
    cells = list(topology.cells())
    mines = draw(st.integers(0, len(cells) // 2))
    rng = random.Random(draw(st.integers(0, 10**6)))
    board = Board(topology, rng.sample(cells, mines))
    game = Game(board)
    for cell in draw(st.lists(st.sampled_from(cells), max_size=4)):
        if not board.is_mine(cell) and not game.over:
            game.visit(cell)
    revealed = {c: board.count(c) for c in cells if game.is_revealed(c)}
    flagged = {c for c in board.mines if draw(st.booleans()) and draw(st.booleans())}
    told = mines if draw(st.booleans()) else None
    return View(topology, revealed, frozenset(flagged), told)


@settings(max_examples=150, deadline=None)
@given(views())
def test_the_layouts_are_the_backtracking_ones_with_their_tables(view: View) -> None:
    cells, rules, limit = view.unknown(), constraints(view), 3000
    found = list_layouts(cells, rules, view.mines_left, limit)
    if not cells:  # the one empty layout, if the count allows it
        assert found is not None
        assert found.layouts() == ([frozenset()] if not view.mines_left else [])
        assert enumerate_layouts(cells, rules, view.mines_left, limit) == found.layouts()
        return
    expected = enumerate_layouts(cells, rules, view.mines_left, limit)
    if expected is None:
        assert found is None
        return
    assert found is not None
    listed = found.layouts()
    assert sorted(map(sorted, listed)) == sorted(map(sorted, expected))
    assert found.sizes() == [len(layout) for layout in listed]
    assert found.tables(view, cells) == layout_tables(view, cells, listed)
    if len(expected) > 1:  # the count is known before any layout is built
        assert list_layouts(cells, rules, view.mines_left, len(expected) - 1) is None
    assert list_layouts(cells, rules, view.mines_left, len(expected)) is not None
