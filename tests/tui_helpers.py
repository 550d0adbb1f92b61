"""Shared pieces of the terminal game's tests: a seeded app with private records, clicks."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from minesweeper.play.session import Settings
from minesweeper.tui.app import MinesweeperApp


@pytest.fixture(autouse=True)
def private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Keep the records and their key in ``tmp_path``, away from the user's own."""
    monkeypatch.setenv("MINESWEEPER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("MINESWEEPER_CONFIG_DIR", str(tmp_path / "config"))


def make_app(tmp_path: Path, settings: Settings | None = None, **options: object) -> MinesweeperApp:
    """A seeded beginner game whose records live in ``tmp_path`` (never the user's)."""
    options.setdefault("seed", 7)
    return MinesweeperApp(
        settings if settings is not None else Settings(),
        records_path=tmp_path / "records.json",
        **options,  # type: ignore[arg-type]
    )


async def click_cell(pilot, app: MinesweeperApp, cell: int, button: int = 1) -> None:
    """Click the middle of ``cell``'s label with ``button`` (1 left, 2 middle, 3 right)."""
    x, y = app.board.layout_plan.anchor(cell)
    await pilot.click("#board", offset=(x, y), button=button)
    await pilot.pause()


def board_text(app: MinesweeperApp) -> str:
    """The board widget as plain text, line by line (trailing spaces trimmed)."""
    board = app.board
    lines = [board.render_line(y).text.rstrip() for y in range(board.layout_plan.height)]
    return "\n".join(lines) + "\n"


def chordable_number(session) -> tuple[int, list[int]]:
    """An opened number with a closed safe neighbour (so a chord opens something), and
    the mines among its closed neighbours."""
    mines = session.board.mines
    for cell in session.opened():
        closed = [c for c in session.topology.neighbours(cell) if not session.is_opened(c)]
        if session.count(cell) and any(c not in mines for c in closed):
            return cell, [c for c in closed if c in mines]
    raise AssertionError("no number to chord on")


async def win_by_hand(app: MinesweeperApp, pilot) -> None:
    """Open the cell under the cursor by key, then every other safe cell through the session."""
    session = app.controller.session
    await pilot.press("space")
    for cell in session.topology.cells():
        if not session.board.is_mine(cell) and not session.is_opened(cell):
            session.open(cell)
    app.controller._after()
    app.redraw()
    await pilot.pause()


async def wait_until(pilot, done: Callable[[], bool], seconds: float) -> None:
    """Let the app run until ``done()`` holds, for ``seconds`` at most (then the test's
    own assertion says what did not happen)."""
    for _ in range(round(seconds / 0.05)):
        await pilot.pause(0.05)
        if done():
            return
