"""The client: plays from map text alone, never revisits, stops at the move limit."""

from __future__ import annotations

import contextlib
import io
import random
from collections.abc import Sequence

import pytest
from doubles import FirstUnknown, Scripted
from hypothesis import given, settings
from hypothesis import strategies as st

from minesweeper.boards.generate import random_board
from minesweeper.client import Client, MapError, judge_connection, parse_map, play, traced
from minesweeper.game import Game, State
from minesweeper.solver.strategy import Decision, StrategyError
from minesweeper.topology import SquareTopology


class Server:
    """A crafted server: answers each move with a given map string. No board anywhere."""

    def __init__(self, maps: dict[tuple[int, ...], str]) -> None:
        self.maps = maps
        self.moves: list[tuple[int, ...]] = []

    def __call__(self, move: Sequence[int]) -> str:
        self.moves.append(tuple(move))
        return self.maps[tuple(move)]


def test_plays_from_crafted_maps_alone() -> None:
    # The board (never built): 2x3, mine at (1, 2).
    server = Server(
        {
            (1, 0): "01?\n01?\n",
            (0, 2): "011\n01?\n",
            (1, 2): "011\n01X\n",
        }
    )
    strategy = FirstUnknown()
    client = Client(SquareTopology(2, 3), server, strategy)
    client.InitGame((1, 0))
    assert client.revealed == {0: 0, 1: 1, 3: 0, 4: 1}
    client.Decide()
    assert client.revealed[2] == 1
    assert client.outcome is State.PLAYING
    client.Decide()
    assert client.outcome is State.LOST
    assert client.mines == {5}
    assert server.moves == [(1, 0), (0, 2), (1, 2)]
    assert client.moves == 3
    # The strategy saw the counts and no mine count.
    assert strategy.views[0].revealed == {0: 0, 1: 1, 3: 0, 4: 1}
    assert strategy.views[0].mine_count is None


def test_win_is_read_from_the_map() -> None:
    server = Server({(0, 0): "1?\n", (0, 1): "1@\n"})
    strategy = Scripted([Decision((1,), guess=True)])
    client = Client(SquareTopology(1, 2), server, strategy)
    client.InitGame((0, 0))
    assert client.run() is State.WON
    # A win needs no '@' when the board has no mine: nothing is left unknown.
    assert parse_map("00\n", SquareTopology(1, 2)).outcome is State.WON


def test_proved_mines_are_remembered_and_never_visited() -> None:
    # 1x4: '1' at (0,0); the strategy proves (0,1) a mine, then proposes it again.
    server = Server({(0, 0): "1???\n", (0, 2): "1?1?\n", (0, 3): "1?10\n"})
    strategy = Scripted(
        [
            Decision((2,), mines=frozenset({1})),
            Decision((1, 2, 3)),  # 1 is a proved mine, 2 already visited: only 3 is opened.
        ]
    )
    client = Client(SquareTopology(1, 4), server, strategy)
    client.InitGame((0, 0))
    client.Decide()
    assert client.mines == {1}
    client.Decide()
    assert server.moves == [(0, 0), (0, 2), (0, 3)]


def test_cells_opened_by_a_zero_are_skipped() -> None:
    # Opening (0,0) reveals the whole row; the decision's other cells are not visited.
    server = Server({(0, 0): "000\n"})
    strategy = Scripted([Decision((0, 1, 2))])
    client = Client(SquareTopology(1, 3), server, strategy)
    client.InitGame()
    client.Decide()
    assert server.moves == [(0, 0)]
    assert client.outcome is State.WON


def test_a_strategy_proposing_only_visited_cells_is_an_error() -> None:
    server = Server({(0, 0): "1??\n"})
    client = Client(SquareTopology(1, 3), server, Scripted([Decision((0,))]))
    client.InitGame((0, 0))
    with pytest.raises(StrategyError, match="no unvisited cell"):
        client.Decide()


def test_a_strategy_calling_an_opened_cell_a_mine_is_an_error() -> None:
    server = Server({(0, 0): "1??\n"})
    client = Client(SquareTopology(1, 3), server, Scripted([Decision((1,), frozenset({0}))]))
    client.InitGame((0, 0))
    with pytest.raises(StrategyError, match="declared the opened cell"):
        client.Decide()


def test_a_strategy_naming_a_cell_off_the_board_is_an_error() -> None:
    server = Server({(0, 0): "1??\n"})
    client = Client(SquareTopology(1, 3), server, Scripted([Decision((3,), guess=True)]))
    client.InitGame((0, 0))
    with pytest.raises(StrategyError, match="off the board"):
        client.Decide()


def test_stops_at_the_move_limit() -> None:
    # A server that never ends the game: every visited cell shows 1, forever unknown around.
    topology = SquareTopology(40, 40)
    visited: list[int] = []

    def endless(move: Sequence[int]) -> str:
        visited.append(topology.cell_from_move(move))
        chars = ["?"] * topology.size
        for cell in visited:
            chars[cell] = "1"
        return "".join("".join(chars[r * 40 : r * 40 + 40]) + "\n" for r in range(40))

    client = Client(topology, endless, FirstUnknown())
    client.InitGame((0, 0))
    assert client.run() is State.PLAYING
    assert client.moves == 1000
    assert len(visited) == 1000 == len(set(visited))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("???\n???\n", "2 row"),
        ("???\n???\n???\n???\n", "4 row"),
        ("???\n??\n???\n", "row 2 has 2 character"),
        ("???\n????\n???\n", "row 2 has 4 character"),
        ("???\n?#?\n???\n", "unexpected character '#'"),
        ("???\n???\n??9\n", "shows 9"),
        ("4??\n???\n???\n", "shows 4"),
        ("X??\n??@\n???\n", "both"),
        ("", "0 row"),
    ],
)
def test_malformed_maps_are_clear_errors(text: str, message: str) -> None:
    client = Client(SquareTopology(3, 3), Server({}), FirstUnknown())
    with pytest.raises(MapError, match=message):
        client.ReadMap(text)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="?0123459abX@.\n \r", max_size=30))
def test_any_text_parses_or_is_a_map_error(text: str) -> None:
    with contextlib.suppress(MapError):
        parse_map(text, SquareTopology(3, 4))


def test_trace_writes_each_move_and_map() -> None:
    stream = io.StringIO()
    server = Server({(0, 0): "1?\n", (0, 1): "1X\n"})
    client = Client(SquareTopology(1, 2), traced(server, stream), FirstUnknown())
    client.InitGame((0, 0))
    client.run()
    assert stream.getvalue() == "0 0\n1?\n0 1\n1X\n"


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 9), st.integers(2, 9), st.integers(0, 2**32))
def test_text_client_and_fast_loop_play_the_same_game(rows: int, cols: int, seed: int) -> None:
    topology = SquareTopology(rows, cols)
    rng = random.Random(seed)
    first = rng.randrange(topology.size)
    board = random_board(topology, rng.randrange(topology.size), rng, first, "safe")
    game = Game(board)
    client = Client(topology, judge_connection(game), FirstUnknown())
    client.InitGame(topology.move_of(first))
    outcome = client.run()
    record = play(board, first, FirstUnknown())
    assert record.won == (outcome is State.WON)
    assert (record.visit_count, record.steps) == (game.visit_count, game.step_count)
    assert record.finished


def test_fast_loop_tells_the_count_only_when_asked() -> None:
    topology = SquareTopology(5, 5)
    board = random_board(topology, 4, random.Random(1), 12, "opening")
    told, untold = FirstUnknown(), FirstUnknown()
    play(board, 12, told, tell_mine_count=True)
    play(board, 12, untold)
    assert told.views[0].mine_count == 4
    assert untold.views[0].mine_count is None
    # What the strategy sees is only what was revealed: never a mine.
    assert not set(told.views[-1].revealed) & board.mines
