"""One reviewed picture of the board per topology, as text, compared line by line.

Closed blanks show as ``▒`` so that opened and closed cells differ in text.
To accept a deliberate change: ``MINESWEEPER_UPDATE_SNAPSHOTS=1 pytest
tests/test_tui_snapshots.py``, then look at every file in ``tests/snapshots``.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from tui_helpers import make_app, private_dirs  # noqa: F401

from minesweeper.board import Board
from minesweeper.session import CellState, GameSession
from minesweeper.topology import find_topology

SNAPSHOTS = Path(__file__).parent / "snapshots"
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
BOARDS = [*GRIDS, *PIECES]


def fixed_board(name: str) -> Board:
    """A board of kind ``name`` fixed by hand: no generator decides it."""
    kind = find_topology(name)
    if name in PIECES:
        topology = kind([[int(char, 16) for char in row] for row in PIECES[name]])
    else:
        topology = kind(*GRIDS[name])
    rows, cols = topology.shape
    first = topology.cell_at(rows // 2, cols // 2)
    around = {first, *topology.neighbours(first)}
    free = [cell for cell in topology.cells() if cell not in around]
    return Board(topology, free[1 :: max(2, len(free) // 6)][:6])


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
                    chars[x] = "▒"
        lines.append("".join(chars).rstrip())
    return "\n".join(lines) + "\n"


async def played(name: str, tmp_path: Path) -> str:
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 60)) as pilot:
        controller = app.controller
        board = fixed_board(name)
        controller.session = session = GameSession.from_board(board)
        controller.settings = session.settings
        rows, cols = board.topology.shape
        controller.cursor = board.topology.cell_at(rows // 2, cols // 2)
        app.board.rebuild()
        await pilot.press("space")
        mine = min(session.board.mines)
        session.toggle_flag(mine)
        app.board.blur()  # no cursor in the picture
        await pilot.pause()
        return snapshot_text(app)


@pytest.mark.parametrize("name", BOARDS)
def test_board_picture(name, tmp_path) -> None:
    text = asyncio.run(played(name, tmp_path))
    path = SNAPSHOTS / f"{name}.txt"
    if os.environ.get("MINESWEEPER_UPDATE_SNAPSHOTS"):
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")
