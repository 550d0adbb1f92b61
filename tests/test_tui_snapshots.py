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

from minesweeper.session import CellState, Settings

SNAPSHOTS = Path(__file__).parent / "snapshots"
#: A small board of each kind, the size its pieces allow.
BOARDS = {
    "square": (8, 8, 8),
    "hex": (8, 8, 8),
    "triangle": (8, 8, 8),
    "parquet": (4, 8, 5),
    "domino": (6, 6, 5),
    "tromino": (6, 6, 4),
    "tetromino": (6, 8, 4),
}


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
    rows, cols, mines = BOARDS[name]
    app = make_app(tmp_path, Settings(rows=rows, cols=cols, mines=mines, topology=name), seed=3)
    async with app.run_test(size=(100, 60)) as pilot:
        session = app.controller.session
        await pilot.press("space")
        mine = min(session.board.mines)
        session.toggle_flag(mine)
        app.board.blur()  # no cursor in the picture
        await pilot.pause()
        return snapshot_text(app)


@pytest.mark.parametrize("name", list(BOARDS))
def test_board_picture(name, tmp_path) -> None:
    text = asyncio.run(played(name, tmp_path))
    path = SNAPSHOTS / f"{name}.txt"
    if os.environ.get("MINESWEEPER_UPDATE_SNAPSHOTS"):
        SNAPSHOTS.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert text == path.read_text(encoding="utf-8")
