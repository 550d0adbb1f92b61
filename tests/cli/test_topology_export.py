"""`minesweeper topology export` and `show`: any board as a graph, and its adjacency drawn.

The export is checked the way the issue asks: the server tells the same story
on a board and on its exported graph (verdict, counts, revealed cells).
"""

from __future__ import annotations

import io
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from judge_helpers import run_cli

from minesweeper.board import Board
from minesweeper.errors import TopologyError
from minesweeper.protocol import format_board, format_move
from minesweeper.server import serve
from minesweeper.topology import TOPOLOGIES

NAMES = sorted(TOPOLOGIES)


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(NAMES),
    rows=st.integers(1, 6),
    cols=st.integers(2, 7),
    seed=st.integers(0, 2**16),
    data=st.data(),
)
def test_server_tells_the_same_story_on_the_exported_graph(name, rows, cols, seed, data):
    try:
        topology = TOPOLOGIES[name].random(rows, cols, random.Random(seed))
    except TopologyError:
        return
    cells = list(topology.cells())
    mines = data.draw(st.sets(st.sampled_from(cells), max_size=topology.size - 1))
    moves = data.draw(st.lists(st.sampled_from(cells), min_size=1, max_size=12))
    text = format_board(Board(topology, mines)) + "".join(
        format_move(topology, cell) + "\n" for cell in moves
    )
    exported = run_cli(["topology", "export", "--topology", name, "-"], stdin=text)
    assert exported.exit_code == 0, exported.stderr

    original = serve(io.StringIO(text), io.StringIO(), TOPOLOGIES[name])
    graph = serve(io.StringIO(exported.stdout), io.StringIO(), TOPOLOGIES["graph"])
    assert graph.finished == original.finished
    assert graph.game.state == original.game.state
    assert graph.game.visit_count == original.game.visit_count
    assert graph.game.step_count == original.game.step_count
    assert graph.game.revealed == original.game.revealed


def test_export_of_a_square_board_by_hand():
    #  .X      cells 0 1      square: all four touch each other
    #  ..            2 3
    run = run_cli(["topology", "export", "-"], stdin="2 2\n.X\n..\n1 1\n")
    assert run.stdout == "4 6\n.X..\n0 1\n0 2\n0 3\n1 2\n1 3\n2 3\n3\n"


def test_export_of_a_tiling_numbers_pieces_in_reading_order():
    #  a a b      a-b, a-c, b-c all touch: a triangle of three nodes.
    #  c c b
    run = run_cli(
        ["topology", "export", "--topology", "domino", "-"],
        stdin="2 3\n..X\n..X\n9 9 4\n2 2 4\n1 0\n",
    )
    assert run.stdout == "3 3\n.X.\n0 1\n0 2\n1 2\n2\n"


def test_export_without_a_board_prints_dots():
    run = run_cli(["topology", "export", "--topology", "hex", "--rows", "2", "--cols", "2"])
    # (0,0) touches (0,1) and (1,0); odd row 1: (1,0) touches (0,0), (0,1), (1,1).
    assert run.stdout == "4 5\n....\n0 1\n0 2\n1 2\n1 3\n2 3\n"


@pytest.mark.parametrize(
    "args, words",
    [
        (["topology", "export"], "give a board FILE, or --rows and --cols"),
        (["topology", "export", "-", "--rows", "2", "--cols", "2"], "not both"),
        (["topology", "export", "--topology", "tromino", "--rows", "2", "--cols", "2"],
         "cannot be tiled by trominoes"),
        (["topology", "show", "--rows", "2", "--cols", "2", "--cell", "x"], "--cell"),
        (["topology", "show", "--rows", "2", "--cols", "2", "--cell", "5 5"], "outside"),
    ],
)  # fmt: skip
def test_export_and_show_errors_are_one_line(args, words):
    run = run_cli(args, stdin="2 2\n..\n..\n")
    assert run.exit_code == 2
    assert len(run.stderr.splitlines()) == 1, run.stderr
    assert words in run.stderr


def test_show_degrees_of_hexagons():
    # Even rows lean left, odd rows right: (0,0) has 2 neighbours, (1,0) has 5.
    run = run_cli(["topology", "show", "--topology", "hex", "--rows", "4", "--cols", "7"])
    assert run.stdout == "2444443\n5666663\n3666665\n3444442\n"


def test_show_a_triangles_neighbours():
    # (2,3) points down: five above, three below, one edge up and two sideways.
    args = ["topology", "show", "--topology", "triangle", "--rows", "5", "--cols", "7"]
    run = run_cli([*args, "--cell", "2 3"])
    assert run.stdout == ".......\n.ccecc.\n.ce@ec.\n..ccc..\n.......\n"


def test_show_a_tiling_prints_its_pieces():
    run = run_cli(["topology", "show", "--topology", "domino", "-"], stdin="1 4\n....\n5 5 1 1\n")
    assert run.stdout == "1111\n\n0 0 1 1\n"
