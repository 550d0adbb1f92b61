"""Records in the terminal game: the name prompt, both tables' screen, a tampered file."""

from __future__ import annotations

import asyncio

from click.testing import CliRunner
from textual.widgets import DataTable, Label
from tui_helpers import click_cell, make_app, private_dirs, win_by_hand  # noqa: F401

from minesweeper.cli import main
from minesweeper.play.records import Entry, Ranking, Records
from minesweeper.tui.prompt import NamePrompt
from minesweeper.tui.records import RecordsScreen

win = win_by_hand


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
            assert str(table.get_row_at(0)[4]) == str(app.controller.session.stats().bbbv)
            await pilot.press("escape")
            assert not isinstance(app.screen, RecordsScreen)
        category = app.controller.settings.category()
        (entry,) = Records(tmp_path / "records.json").table(category)
        assert entry.name == "Ada" and entry.won

    asyncio.run(scenario())


def test_a_tampered_records_file_is_reported_and_costs_no_game(tmp_path) -> None:
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
            await win(app, pilot)  # the game goes on, and its result is not lost
            assert app.controller.session.won
            assert isinstance(app.screen, NamePrompt)
            await pilot.press("ctrl+a", "ctrl+k", *"Ada", "enter")
            await pilot.pause()
            assert "place 1" in app.controller.message
            assert "kept as" in str(app.controller.records_problem)
            await pilot.press("t")
            table = app.screen.query_one(DataTable)
            assert table.get_row_at(0)[1] == "Ada"
            await pilot.press("escape")
            await pilot.press("n")
            await click_cell(pilot, app, app.controller.cursor)
            assert app.controller.session.started

    asyncio.run(scenario())
    (aside,) = tmp_path.glob("records.damaged-*.json")
    assert aside.read_bytes() == before  # kept aside whole, never overwritten
    assert [entry.name for entry in Records(path).entries()] == ["Ada"]


def cells(table: DataTable) -> list[list[str]]:
    """The table's rows as plain text."""
    return [[str(cell) for cell in table.get_row_at(row)] for row in range(table.row_count)]


def test_tab_switches_to_the_fastest_wins_as_records_times_shows_them(tmp_path) -> None:
    """Points and fastest wins rank differently: the screen shows each as the CLI does."""

    async def scenario() -> tuple[list[list[str]], list[list[str]], list[list[str]]]:
        app = make_app(tmp_path)
        category = app.controller.settings.category()
        store = app.controller.records
        store.add(category, Entry.make("Slow", 300, 90.0, True, bbbv=30))
        store.add(category, Entry.make("Quick", 100, 12.5, True, bbbv=25))
        store.add(category, Entry.make("Loser", 200, 5.0, False, bbbv=20))
        store.add(category, Entry.make("Computer", 90, 1.0, True, bbbv=20))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("t")
            screen = app.screen
            assert isinstance(screen, RecordsScreen)
            points = cells(screen.query_one(DataTable))
            await pilot.press("tab")
            assert screen.ranking is Ranking.TIMES
            times = cells(screen.query_one(DataTable))
            await pilot.press("tab")
            back = cells(screen.query_one(DataTable))
            await pilot.press("f")
            assert cells(screen.query_one(DataTable)) == times
            await pilot.press("escape")
            assert not isinstance(app.screen, RecordsScreen)
        return points, times, back

    points, times, back = asyncio.run(scenario())
    assert [row[1] for row in points] == ["Slow", "Loser", "Quick", "Computer"]
    assert [row[1] for row in times] == ["Quick", "Slow"]  # wins by people, fastest first
    assert times[0][2:5] == ["12.500 s", "25", "2.00"]  # time, 3BV, 3BV/s
    assert back == points
    # The same rows as `records --times` prints.
    result = CliRunner().invoke(
        main,
        ["records", "--times", "--records", str(tmp_path / "records.json")],
        terminal_width=200,
    )
    printed = [line for line in result.output.splitlines() if "Quick" in line or "Slow" in line]
    assert [[cell.strip() for cell in line.split("│")[1:-1]] for line in printed] == times


def test_the_fastest_wins_of_a_new_kind_of_game_say_none_yet(tmp_path) -> None:
    async def scenario() -> str:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("t", "tab")
            return str(app.screen.query_one("#empty", Label).render())

    assert "No person has won" in asyncio.run(scenario())
