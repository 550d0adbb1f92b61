"""The board text formats of every topology: grid, tiling and graph.

Reading what `format_board` wrote gives the same board back; bad input is one
stderr line naming the line, exit status 2, no traceback.
"""

from __future__ import annotations

import io
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from judge_helpers import run_cli

from minesweeper.board import Board
from minesweeper.errors import InputError, TopologyError
from minesweeper.protocol import LineReader, format_board, format_move, read_board
from minesweeper.topology import TOPOLOGIES, DominoTopology, GraphTopology

NAMES = sorted(TOPOLOGIES)


def read(text: str, topology: str) -> Board:
    return read_board(LineReader(io.StringIO(text)), TOPOLOGIES[topology])


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(NAMES),
    rows=st.integers(1, 6),
    cols=st.integers(1, 6),
    seed=st.integers(0, 2**16),
    data=st.data(),
)
def test_format_board_reads_back(name, rows, cols, seed, data):
    try:
        topology = TOPOLOGIES[name].random(rows, cols, random.Random(seed))
    except TopologyError:
        return  # an area the pieces cannot tile
    mines = data.draw(st.sets(st.sampled_from(list(topology.cells())), max_size=topology.size - 1))
    board = Board(topology, mines)
    assert read(format_board(board), name) == board


def test_tiling_ids_are_renumbered_in_reading_order():
    board = read("2 3\nXX.\n...\n7 7 2\n5 5 2\n", "domino")
    assert board.topology.pieces == ((0, 0, 1), (2, 2, 1))
    assert board.mines == {0}
    assert format_board(board) == "2 3\nXX.\n...\n0 0 1\n2 2 1\n"


def test_tiling_moves_name_any_square_and_maps_show_the_piece_on_every_square():
    #  a a b      a is mined; b (squares (0,2) and (1,2)) touches a and c:
    #  c c b      its count is 1 and both its squares print it.
    text = "2 3\nXX.\n...\n0 0 1\n2 2 1\n1 2\n"
    run = run_cli(["server", "--topology", "domino"], stdin=text)
    assert run.stdout == "???\n???\n" + "??1\n??1\n"
    assert "before the game was decided" in run.stderr


def test_graph_format_worked_example():
    # A path 0-1-2-3 with a mine on node 3: node 0 opens 0, 1 and 2.
    text = "4 3\n...X\n0 1\n1 2\n2 3\n0\n"
    run = run_cli(["server", "--topology", "graph"], stdin=text)
    assert run.exit_code == 0, run.stderr
    assert run.stdout == "????\n001@\nYOU WIN!\n3 1\n"


def test_counts_of_ten_and_more_print_as_letters():
    # A star: node 0 has 11 mined neighbours, so it shows 'b'.
    edges = "".join(f"0 {leaf}\n" for leaf in range(1, 12))
    text = f"12 11\n.XXXXXXXXXXX\n{edges}0\n"
    run = run_cli(["server", "--topology", "graph"], stdin=text)
    assert run.stdout.splitlines()[1] == "b@@@@@@@@@@@"


def test_format_move_is_what_the_protocol_reads():
    tiling = DominoTopology([[0, 0, 1], [2, 2, 1]])
    assert format_move(tiling, 1) == "0 2"
    assert format_move(GraphTopology(3, []), 2) == "2"


def test_every_topology_name_works_on_the_server_command():
    for name in NAMES:
        topology = TOPOLOGIES[name].random(2, 6, random.Random(0))
        board = Board(topology, [0])
        moves = "".join(format_move(topology, cell) + "\n" for cell in range(1, topology.size))
        run = run_cli(["server", "--topology", name], stdin=format_board(board) + moves)
        assert run.exit_code == 0, (name, run.stderr)
        assert run.stdout.splitlines()[-2] == "YOU WIN!", name


DOMINO_BAD = [
    # (input, line, words)
    ("2 2\nXX\n..\n0 0\n1 2\n", 5, "piece 1 has only 1 square"),
    ("2 2\n..\n..\n0 0\n0 1\n", 5, "piece 0 has more than 2 squares"),
    ("2 3\n...\n...\n0 1 0\n2 1 2\n", 4, "the squares of piece 0 are not connected"),
    ("2 2\nX.\n..\n0 0\n1 1\n", 2, "is half mined: (0, 0) is 'X' but (0, 1) is '.'"),
    ("2 2\n..\nX.\n0 1\n0 1\n", 3, "is half mined: (0, 0) is '.' but (1, 0) is 'X'"),
    ("2 2\n..\n..\n0 0\n1\n", 5, "2 piece ids (row 2)"),
    ("2 2\n..\n..\n0 0\n1 x\n", 5, "2 piece ids"),
    ("2 2\n..\n..\n0 0\n", 5, "row 2 of 2 of piece ids"),
    ("2 2\n.#\n..\n0 0\n1 1\n", 2, "unexpected character '#' in row 1"),
    ("2 2\nXX\nXX\n0 0\n1 1\n", 5, "no safe cell"),
    ("2 2\nXX\n..\n0 0\n1 1\n2 0\n", 6, "outside"),
]


@pytest.mark.parametrize(("text", "line", "words"), DOMINO_BAD)
def test_bad_tilings(text, line, words):
    _check_bad(["server", "--topology", "domino"], text, line, words)


def test_a_tetromino_needs_four_squares():
    text = "2 4\n....\n....\n0 0 1 1\n0 0 1 2\n"
    _check_bad(["server", "--topology", "tetromino"], text, 5, "piece 1 has only 3 square(s)")


GRAPH_BAD = [
    ("3 2\n...\n0 1\n1 3\n", 4, "edge 1-3 names node 3, not in 0..2"),
    ("3 2\n...\n0 1\n2 2\n", 4, "edge 2-2 is a self-loop"),
    ("3 3\n...\n0 1\n1 2\n1 0\n", 5, "edge 1-0 is listed twice"),
    ("3 2\n...\n0 1\n", 4, "edge 2 of 2"),
    ("3 1\n...\n0 1 2\n", 3, "an edge 'u v'"),
    ("0 0\n\n", 1, "at least 1 node"),
    ("3 -1\n...\n", 1, "cannot be negative"),
    ("3\n", 1, "the header 'N E'"),
    ("3 0\n....\n", 2, "the node line has 4 characters, expected 3"),
    ("3 0\n.x.\n", 2, "unexpected character 'x' in the node line"),
    ("2 1\nXX\n0 1\n", 3, "no safe cell"),
    ("3 1\n..X\n0 1\n0 1\n", 4, "a move of 1 integer"),
    ("3 1\n..X\n0 1\n5\n", 4, "node 5 is not in 0..2"),
]


@pytest.mark.parametrize(("text", "line", "words"), GRAPH_BAD)
def test_bad_graphs(text, line, words):
    _check_bad(["server", "--topology", "graph"], text, line, words)


def test_unknown_topology_is_one_line():
    run = run_cli(["server", "--topology", "cube"], stdin="1 2\n.X\n")
    assert run.exit_code == 2
    (line,) = run.stderr.splitlines()
    assert line.startswith(
        "minesweeper: server: Invalid value for '--topology': unknown topology 'cube' (known: "
        "domino, graph, hex, parquet, square, tetromino, triangle, tromino) (see '"
    )


def _check_bad(args, text, line, words):
    run = run_cli(args, stdin=text)
    assert run.exit_code == 2, run.stdout
    lines = run.stderr.splitlines()
    assert len(lines) == 1, run.stderr
    assert f"line {line}:" in lines[0]
    assert words in lines[0]
    assert "Traceback" not in run.stderr


def test_a_graph_may_say_where_its_nodes_are_drawn() -> None:
    text = "3 2 xy\n.X.\n0 0\n2.5 -1\n4 0\n0 1\n1 2\n"
    board = read_board(LineReader(text.splitlines()), TOPOLOGIES["graph"])
    assert board.topology.coordinates == ((0.0, 0.0), (2.5, -1.0), (4.0, 0.0))
    assert (
        board.topology
        == read_board(LineReader("3 2\n.X.\n0 1\n1 2\n".splitlines()), TOPOLOGIES["graph"]).topology
    )
    with pytest.raises(InputError, match="line 4: expected the coordinates 'x y' of node 1"):
        read_board(
            LineReader("3 2 xy\n.X.\n0 0\nfar\n4 0\n0 1\n1 2\n".splitlines()), TOPOLOGIES["graph"]
        )
