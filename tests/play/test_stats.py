"""3BV and the other statistics of a game, on hand-counted boards and by property."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minesweeper import Board, Game
from minesweeper.play.stats import Clicks, GameStats, bbbv, openings, solved_bbbv
from minesweeper.protocol import LineReader, read_board
from minesweeper.topology import GraphTopology, HexTopology, SquareTopology, TriangleTopology
from minesweeper.topology.registry import find_topology


def square(*rows: str) -> Board:
    """A square board from ``.``/``X`` rows."""
    return read_board(LineReader([f"{len(rows)} {len(rows[0])}", *rows]))


# -- hand-counted boards ----------------------------------------------------------------------


def test_a_board_without_mines_is_one_opening() -> None:
    assert bbbv(square("...", "...", "...")) == 1


def test_one_corner_mine_leaves_one_opening() -> None:
    # The three numbers around the mine lie on the opening's edge.
    board = square("X..", "...", "...")
    assert len(openings(board)) == 1
    assert bbbv(board) == 1


def test_numbers_apart_from_any_zero_count_one_each() -> None:
    # X2X / 121 / 000: the bottom row is an opening whose edge is the middle row;
    # the top 2 touches no zero, so it needs its own click.
    assert bbbv(square("X.X", "...", "...")) == 2


def test_a_wall_of_mines_splits_two_openings() -> None:
    # Columns 0 and 4 are zeros, columns 1 and 3 their numbered edges.
    board = square("..X..", "..X..", "..X..")
    assert [len(group) for group in openings(board)] == [3, 3]
    assert bbbv(board) == 2


def test_no_zero_anywhere_means_one_click_per_safe_cell() -> None:
    # A checkerboard: every safe cell touches a mine and no zero.
    board = square("X.X", ".X.", "X.X")
    assert openings(board) == []
    assert bbbv(board) == 4


def test_two_openings_and_two_lone_numbers() -> None:
    #   1X100      zeros top right: one opening; zeros bottom left: another
    #   11100      (they touch only through numbers, so they stay apart);
    #   00111      the 1 at the top left and the 1 at the bottom right touch
    #   001X1      no zero: one click each.
    board = square(".X...", ".....", ".....", "...X.")
    assert [len(group) for group in openings(board)] == [4, 4]
    assert bbbv(board) == 4


def test_hex_board_hand_counted() -> None:
    # A 1x5 strip of hexagons is a path: mine in the middle splits two openings.
    board = Board(HexTopology(1, 5), {2})
    assert bbbv(board) == 2
    # Mines at both ends of the strip leave one opening in between (cells 1-3, zero at 2).
    assert bbbv(Board(HexTopology(1, 5), {0, 4})) == 1


def test_graph_board_hand_counted() -> None:
    # A star: centre 0 with leaves 1..4; a mine on leaf 1. The centre shows 1, the
    # other leaves 0 but they only touch the centre: three openings sharing one edge.
    star = GraphTopology(5, [(0, 1), (0, 2), (0, 3), (0, 4)])
    board = Board(star, {1})
    assert len(openings(board)) == 3
    assert bbbv(board) == 3
    # A mine on the centre: every leaf shows 1 and touches no zero.
    assert bbbv(Board(star, {0})) == 4


def test_solved_counts_revealed_openings_and_lone_cells() -> None:
    board = square("X.X", "...", "...")  # an opening (bottom rows) + the lone top 2
    assert solved_bbbv(board, set()) == 0
    assert solved_bbbv(board, {7}) == 1  # a zero of the opening
    assert solved_bbbv(board, {1}) == 1  # the lone 2
    assert solved_bbbv(board, {3}) == 0  # an edge number alone solves nothing
    assert solved_bbbv(board, {1, 3, 4, 5, 6, 7, 8}) == 2


def test_game_stats_figures() -> None:
    stats = GameStats(
        bbbv=30, solved=30, clicks=Clicks(left=20, right=6, chord=4), ms=12_500, won=True
    )
    assert stats.clicks.total == 30
    assert stats.efficiency == 1.0
    assert stats.bbbv_per_second == pytest.approx(2.4)
    assert "3BV 30/30" in stats.summary()
    assert "2.40 3BV/s" in stats.summary()
    empty = GameStats(bbbv=5, solved=0, clicks=Clicks(), ms=0, won=False)
    assert empty.efficiency is None and empty.bbbv_per_second is None
    assert empty.as_json()["clicks"] == {"left": 0, "right": 0, "chord": 0, "total": 0}


# -- properties on every topology ---------------------------------------------------------------


@st.composite
def boards(draw: st.DrawFn) -> Board:
    name = draw(st.sampled_from(["square", "hex", "triangle", "parquet", "domino", "graph"]))
    rows = draw(st.integers(2, 6))
    cols = draw(st.integers(1, 3)) * 2  # even, so that dominoes tile it
    topology = find_topology(name).random(rows, cols, random.Random(draw(st.integers(0, 99))))
    mines = draw(st.sets(st.integers(0, topology.size - 1), max_size=topology.size - 1))
    return Board(topology, mines)


def clicks_to_clear(board: Board) -> int:
    """Clicks of the ideal player: one zero of each opening, then each safe cell still closed."""
    game = Game(board)
    safe = [cell for cell in board.topology.cells() if not board.is_mine(cell)]
    order = sorted(safe, key=lambda cell: board.count(cell) != 0)  # zeros first
    clicks = 0
    for cell in order:
        if not game.is_revealed(cell):
            game.visit(cell)
            clicks += 1
    assert game.visit_count == board.safe_count
    return clicks


@settings(max_examples=150, deadline=None)
@given(boards())
def test_bbbv_is_the_clicks_of_the_ideal_player(board: Board) -> None:
    assert bbbv(board) == clicks_to_clear(board)


@settings(max_examples=100, deadline=None)
@given(boards(), st.randoms(use_true_random=False))
def test_solved_grows_to_bbbv_as_a_game_reveals_the_board(board: Board, rng: random.Random) -> None:
    game = Game(board)
    safe = [cell for cell in board.topology.cells() if not board.is_mine(cell)]
    rng.shuffle(safe)
    before = 0
    revealed: set[int] = set()
    for cell in safe:
        if game.is_revealed(cell):
            continue
        revealed.update(game.visit(cell))
        now = solved_bbbv(board, revealed)
        assert before <= now <= bbbv(board)
        before = now
    assert before == bbbv(board)


def test_every_topology_has_a_3bv() -> None:
    for topology in (HexTopology(4, 4), TriangleTopology(4, 5), SquareTopology(3, 3)):
        board = Board(topology, {0})
        assert 1 <= bbbv(board) <= board.safe_count


# -- the reference: ms-toollib -------------------------------------------------------------------


def test_bbbv_agrees_with_ms_toollib_on_random_square_boards() -> None:
    toollib = pytest.importorskip("ms_toollib")
    rng = random.Random(2026)
    for _ in range(1000):
        rows, cols = rng.randint(1, 16), rng.randint(1, 30)
        size = rows * cols
        mines = rng.sample(range(size), rng.randint(0, size - 1))
        board = Board(SquareTopology(rows, cols), mines)
        grid = [
            [-1 if board.is_mine(r * cols + c) else board.count(r * cols + c) for c in range(cols)]
            for r in range(rows)
        ]
        assert bbbv(board) == toollib.cal_bbbv(grid), (rows, cols, sorted(mines))
