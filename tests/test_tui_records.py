"""Records in the terminal game: the name prompt, the table screen, a tampered file."""

from __future__ import annotations

import asyncio

from textual.widgets import DataTable, Label
from tui_helpers import click_cell, make_app, private_dirs  # noqa: F401

from minesweeper.play.records import Records
from minesweeper.tui.prompt import NamePrompt
from minesweeper.tui.records import RecordsScreen


async def win(app, pilot) -> None:
    """Open every safe cell (the first by the keyboard, the rest through the session)."""
    session = app.controller.session
    await pilot.press("space")
    for cell in session.topology.cells():
        if not session.board.is_mine(cell) and not session.is_opened(cell):
            session.open(cell)
    app.controller._after()
    app.redraw()
    await pilot.pause()


def test_a_win_asks_a_name_and_enters_the_table(tmp_path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await win(app, pilot)
            assert isinstance(app.screen, NamePrompt)
            await pilot.press("ctrl+a", "ctrl+k", *"Ada", "enter")
            await pilot.pause()
            assert not isinstance(app.screen, NamePrompt)
            assert "place 1" in app.controller.message
            await pilot.press("t")
            assert isinstance(app.screen, RecordsScreen)
            table = app.screen.query_one(DataTable)
            assert table.row_count == 1
            assert table.get_row_at(0)[1] == "Ada"
            assert table.get_row_at(0)[4] == str(app.controller.session.stats().bbbv)
            await pilot.press("escape")
            assert not isinstance(app.screen, RecordsScreen)
        category = app.controller.settings.category()
        (entry,) = Records(tmp_path / "records.json").table(category)
        assert entry.name == "Ada" and entry.won

    asyncio.run(scenario())


def test_a_tampered_records_file_is_reported_and_play_goes_on(tmp_path) -> None:
    path = tmp_path / "records.json"
    path.write_text('{"format": "minesweeper-records", "signature": "0000"}\n')
    before = path.read_bytes()

    async def scenario() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            problem = app.query_one("#records-problem")
            assert problem.display
            assert "failed its check" in str(app.controller.records_problem)
            assert str(path) in str(app.controller.records_problem)
            await win(app, pilot)  # the game goes on; nothing asks for a name
            assert app.controller.session.won
            assert not isinstance(app.screen, NamePrompt)
            await pilot.press("t")
            message = app.screen.query_one("#problem", Label)
            assert "failed its check" in str(message.render())
            await pilot.press("escape")
            await pilot.press("n")
            await click_cell(pilot, app, app.controller.cursor)
            assert app.controller.session.started

    asyncio.run(scenario())
    assert path.read_bytes() == before  # never overwritten
