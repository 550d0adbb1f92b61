"""Property tests of the judge's rules on `Board` and `Game`."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from minesweeper import Board, Game, State
from minesweeper.topology import SquareTopology


@st.composite
def boards(draw: st.DrawFn, max_side: int = 7) -> Board:
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    size = rows * cols
    mines = draw(st.sets(st.integers(0, size - 1), max_size=size - 1))
    return Board(SquareTopology(rows, cols), mines)


def square_neighbours(board: Board, cell: int) -> set[int]:
    """The 8-neighbourhood written out independently of the topology code."""
    rows, cols = board.topology.shape
    row, col = divmod(cell, cols)
    return {
        r * cols + c
        for r in range(row - 1, row + 2)
        for c in range(col - 1, col + 2)
        if (r, c) != (row, col) and 0 <= r < rows and 0 <= c < cols
    }


@given(boards())
def test_counts_equal_neighbouring_mines(board: Board) -> None:
    for cell in board.topology.cells():
        assert board.count(cell) == len(square_neighbours(board, cell) & board.mines)


def expected_reveal(board: Board, start: int) -> set[int]:
    """The zero-connected region of ``start`` and its border, by a fixpoint."""
    if board.count(start) != 0:
        return {start}
    region = {start}
    changed = True
    while changed:
        changed = False
        for cell in list(region):
            for other in square_neighbours(board, cell):
                if board.count(other) == 0 and other not in board.mines and other not in region:
                    region.add(other)
                    changed = True
    border = {other for cell in region for other in square_neighbours(board, cell)}
    return region | border


@given(boards(), st.data())
def test_visit_opens_exactly_the_zero_region_and_its_border(
    board: Board, data: st.DataObject
) -> None:
    safe = sorted(set(board.topology.cells()) - board.mines)
    start = data.draw(st.sampled_from(safe))
    game = Game(board)
    opened = game.visit(start)
    assert len(opened) == len(set(opened))
    assert set(opened) == expected_reveal(board, start)
    assert {cell for cell in board.topology.cells() if game.is_revealed(cell)} == set(opened)
    assert not set(opened) & board.mines


@settings(max_examples=200)
@given(boards(), st.data())
def test_counts_and_outcome_over_random_move_sequences(board: Board, data: st.DataObject) -> None:
    game = Game(board)
    cells = list(board.topology.cells())
    moves = data.draw(st.lists(st.sampled_from(cells), max_size=3 * len(cells)))
    for steps, move in enumerate(moves, 1):
        if game.over:
            break
        was_revealed = game.is_revealed(move)
        opened = game.visit(move)
        assert game.step_count == steps
        if was_revealed:
            assert opened == []
        revealed_safe = {c for c in cells if game.is_revealed(c) and c not in board.mines}
        assert game.visit_count == len(revealed_safe)
        if move in board.mines and not was_revealed:
            assert game.state is State.LOST
            assert game.exploded == move
        elif len(revealed_safe) == board.safe_count:
            assert game.state is State.WON
        else:
            assert game.state is State.PLAYING


def test_huge_flood_is_iterative() -> None:
    rows = cols = 1000
    board = Board(SquareTopology(rows, cols), [rows * cols - 1])
    game = Game(board)
    opened = game.visit(0)
    assert len(opened) == rows * cols - 1
    assert game.state is State.WON
    assert (game.visit_count, game.step_count) == (rows * cols - 1, 1)
