"""One reviewed picture of the board per topology, as text, compared line by line.

Closed blanks show as ``▒``, ``▓``, ``░`` or ``█`` by the cell's shade, so that opened
and closed cells, and neighbours told apart only by their shade, differ in text.
Beside the small boards: an expert hex board and a beginner parquet floor at 100x32,
and the odds overlay on an expert board at 80x24, drawn at the size the app picks.
To accept a deliberate change: ``MINESWEEPER_UPDATE_SNAPSHOTS=1 pytest
tests/test_tui_snapshots.py``, then look at every file in ``tests/snapshots``.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from paths import TESTS
from tui_helpers import make_app, private_dirs  # noqa: F401

from minesweeper.board import Board
from minesweeper.play.session import CellState, GameSession
from minesweeper.topology import find_topology

SNAPSHOTS = TESTS / "snapshots"
#: Fixed piece grids, so that the pictures do not depend on the random tiler.
PIECES = {
    "domino": ["001223", "451673", "458679", "AA8BB9"],
    "tromino": ["000122", "344125", "346155", "366777", "889AAB", "899ABB"],
    "tetromino": [
        "00012233",
        "01112334",
        "56662744",
        "55687774",
        "9588AAAB",
        "9CC8ABBB",
        "9CCDEEEE",
        "9DDDFFFF",
    ],
}
#: Rows and columns of the grid topologies.
GRIDS = {"square": (8, 8), "hex": (8, 8), "triangle": (8, 8), "parquet": (4, 8)}
#: A small graph with its own coordinates: a wheel of 8 around a hub, and a tail.
WHEEL = (
    [(4, 2)]
    + [
        (4 + 3 * dx, 2 + 2 * dy)
        for dx, dy in ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
    ]
    + [(10, 6)]
)
GRAPH_EDGES = [(0, i) for i in range(1, 9)] + [(i, i % 8 + 1) for i in range(1, 9)] + [(4, 9)]
BOARDS = [*GRIDS, *PIECES, "graph"]
#: Larger pictures: (name, topology, rows, cols, terminal size, overlay).
SCREENS = [
    ("hex-expert-100x32", "hex", 16, 30, (100, 32), False),
    ("parquet-beginner-100x32", "parquet", 9, 9, (100, 32), False),
    ("overlay-expert-80x24", "square", 16, 30, (80, 24), True),
]
SHADES = "▒▓░█"


def fixed_board(name: str, size: tuple[int, int] | None = None) -> Board:
    """A board of kind ``name`` fixed by hand: no generator decides it."""
    kind = find_topology(name)
    if name == "graph":
        topology = kind(len(WHEEL), GRAPH_EDGES, WHEEL)
    elif name in PIECES:
        topology = kind([[int(char, 16) for char in row] for row in PIECES[name]])
    else:
        topology = kind(*(size or GRIDS[name]))
    rows, cols = topology.shape
    first = topology.cell_at(rows // 2, cols // 2)
    around = {first, *topology.neighbours(first)}
    free = [cell for cell in topology.cells() if cell not in around]
    count = 6 if size is None else topology.size // 6
    return Board(topology, free[1 :: max(2, len(free) // count)][:count])


def snapshot_text(app) -> str:
    """The board as drawn, with closed blanks as ``▒``."""
    board = app.board
    session = app.controller.session
    lines = []
    for y, spans in enumerate(board.layout_plan.lines):
        strip = board.render_line(y).text
        chars = list(strip[: board.layout_plan.width])
        for span in spans:
            if span.cell is None or session.cell_state(span.cell) is not CellState.CLOSED:
                continue
            for x in range(span.x, span.x + span.width):
                if chars[x] == " ":
                    chars[x] = SHADES[board.layout_plan.shade.get(span.cell, 0)]
        lines.append("".join(chars).rstrip())
    return "\n".join(lines) + "\n"


async def played(
    name: str,
    tmp_path: Path,
    size: tuple[int, int] | None = None,
    terminal: tuple[int, int] = (100, 60),
    overlay: bool = False,
) -> str:
    app = make_app(tmp_path)
    async with app.run_test(size=terminal) as pilot:
        controller = app.controller
        board = fixed_board(name, size)
        controller.session = session = GameSession.from_board(board)
        controller.settings = session.settings
        rows, cols = board.topology.shape
        controller.cursor = board.topology.cell_at(rows // 2, cols // 2)
        app.board.rebuild(app._wide() if size is not None else True)
        await pilot.press("space")
        mine = min(session.board.mines)
        session.toggle_flag(mine)
        if overlay:
            await pilot.press("p")
        app.board.blur()  # no cursor in the picture
        await pilot.pause()
        if size is not None:  # it fits the terminal, beside the header, message and footer
            plan = app.board.layout_plan
            assert plan.width <= terminal[0] - 2 and plan.height <= terminal[1] - 3
        return snapshot_text(app)


def check(text: str, name: str) -> None:
    path = SNAPSHOTS / f"{name}.txt"
    if os.environ.get("MINESWEEPER_UPDATE_SNAPSHOTS"):
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", BOARDS)
def test_board_picture(name, tmp_path) -> None:
    check(asyncio.run(played(name, tmp_path)), name)


@pytest.mark.parametrize(("name", "topology", "rows", "cols", "terminal", "overlay"), SCREENS)
def test_large_board_picture(name, topology, rows, cols, terminal, overlay, tmp_path) -> None:
    text = asyncio.run(played(topology, tmp_path, (rows, cols), terminal, overlay))
    check(text, name)
