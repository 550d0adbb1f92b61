"""`minesweeper topology`: look at a topology's adjacency, or export it as a graph."""

from __future__ import annotations

import random
from typing import IO

import click

from minesweeper.board import Board
from minesweeper.cli.common import F, fail, read_input, reports_errors, seed_option, topology_option
from minesweeper.limits import check_cells
from minesweeper.protocol import (
    COUNT_DIGITS,
    LineReader,
    format_board,
    format_move,
    parse_integers,
    parse_move,
    read_board,
)
from minesweeper.topology import GraphTopology, Topology

#: What `show --cell` prints at each position.
CHOSEN, EDGE, CORNER, AWAY = "@", "e", "c", "."


def _board_and_moves(
    file: IO[bytes] | None,
    topology: type[Topology],
    rows: int | None,
    cols: int | None,
    seed: int,
) -> tuple[Board, list[int]]:
    """The board (and any moves after it) of FILE, or an empty board of ``rows x cols``."""
    if file is not None:
        if rows is not None or cols is not None:
            fail("give either FILE or --rows/--cols, not both")
        reader = LineReader(read_input(file))
        board = read_board(reader, topology)
        moves = []
        while (line := reader.next()) is not None:
            moves.append(parse_move(*line, board.topology))
        return board, moves
    if rows is None or cols is None:
        fail("give a board FILE, or --rows and --cols")
    kind = topology
    check_cells(rows * cols, kind.text_format)
    shape: Topology = kind.random(rows, cols, random.Random(seed))
    return Board(shape, ()), []


def _cell_named(shape: Topology, move: str) -> int:
    arity = shape.move_arity
    return shape.cell_from_move(parse_integers(None, move, arity, f"--cell as {arity} integer(s)"))


def _size_options(command: F) -> F:
    command = seed_option(fresh=False, draws="shape")(command)
    command = click.option("--cols", type=click.IntRange(min=1), help="Columns, with no FILE.")(
        command
    )
    return click.option("--rows", type=click.IntRange(min=1), help="Rows, with no FILE.")(command)


@click.group()
def topology() -> None:
    """Inspect the shapes of boards (`--topology`)."""


@topology.command()
@click.argument("file", type=click.File("rb"), required=False)
@topology_option
@_size_options
@reports_errors
def export(
    file: IO[bytes] | None,
    topology: type[Topology],
    rows: int | None,
    cols: int | None,
    seed: int,
) -> None:
    """Print a board's adjacency as a `graph` board, its moves as node ids.

    FILE is a board in the topology's format (`-` for stdin); moves after it
    are translated too, so `minesweeper server --topology graph` replays the
    same game. Without FILE, --rows and --cols give an empty board (tilings
    and graphs drawn with --seed). Node ids: grid cells row-major
    (r * cols + c); tiling pieces in the order their first square is read.
    """
    board, moves = _board_and_moves(file, topology, rows, cols, seed)
    check_cells(board.topology.size, GraphTopology.text_format)  # the graph is built in full
    graph = GraphTopology.from_topology(board.topology)
    lines = format_board(Board(graph, board.mines))
    lines += "".join(format_move(graph, cell) + "\n" for cell in moves)
    click.echo(lines, nl=False)


@topology.command()
@click.argument("file", type=click.File("rb"), required=False)
@topology_option
@_size_options
@click.option(
    "--cell",
    "move",
    metavar="MOVE",
    help="Show this cell's neighbours instead of degrees: 'R C', or a node id for graphs.",
)
@reports_errors
def show(
    file: IO[bytes] | None,
    topology: type[Topology],
    rows: int | None,
    cols: int | None,
    seed: int,
    move: str | None,
) -> None:
    """Print the map of a topology with each cell's neighbour count.

    With --cell, print the cell as `@`, neighbours across an edge as `e`,
    neighbours at a corner only as `c`, and everything else as `.`.
    Tilings also print their piece ids.
    """
    board, _ = _board_and_moves(file, topology, rows, cols, seed)
    shape = board.topology
    if move is None:
        marks = [COUNT_DIGITS[len(shape.neighbours(cell))] for cell in shape.cells()]
    else:
        chosen = _cell_named(shape, move)
        edge, near = set(shape.edge_neighbours(chosen)), set(shape.neighbours(chosen))
        marks = [AWAY] * shape.size
        for cell in near:
            marks[cell] = EDGE if cell in edge else CORNER
        marks[chosen] = CHOSEN
    printed_rows, printed_cols = shape.shape
    for row in range(printed_rows):
        click.echo("".join(marks[shape.cell_at(row, col)] for col in range(printed_cols)))
    if shape.text_format == "tiling":
        click.echo()
        for line in format_board(board).splitlines()[1 + printed_rows :]:
            click.echo(line)
