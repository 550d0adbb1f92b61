"""Help and the screens around a game: ?/F1, the footer, F2, the settings at 80x24, a won
board's flags, a record's replay from the records screen and from `records play`."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from click.testing import CliRunner
from paths import TESTS
from textual.widgets import Checkbox, DataTable, Label
from tui_helpers import make_app, private_dirs, wait_until, win_by_hand  # noqa: F401

from minesweeper.cli import main
from minesweeper.play.records import Records
from minesweeper.play.session import CellState, GameSession, Settings
from minesweeper.tui.app import MinesweeperApp
from minesweeper.tui.board import BoardView
from minesweeper.tui.help import KEYS, HelpScreen
from minesweeper.tui.records import RecordsScreen
from minesweeper.tui.replay import ReplayScreen
from minesweeper.tui.settings import SettingsScreen

SNAPSHOT = TESTS / "snapshots" / "help-80x24.txt"


def screen_text(app) -> str:
    """What the terminal shows, line by line (trailing spaces trimmed)."""
    strips = app.screen._compositor.render_strips()
    return "\n".join(strip.text.rstrip() for strip in strips) + "\n"


def test_the_help_screen_at_80x24_lists_every_control(tmp_path: Path) -> None:
    updating = bool(os.environ.get("MINESWEEPER_UPDATE_SNAPSHOTS"))
    expected = "" if updating else SNAPSHOT.read_text(encoding="utf-8")

    def complete(text: str) -> bool:
        return all(keys in text and what in text for keys, what in KEYS) and (
            updating or text == expected
        )

    async def scenario() -> str:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("question_mark")
            assert isinstance(app.screen, HelpScreen)
            # The screen fills in as the app settles, later on a loaded machine.
            await wait_until(pilot, lambda: complete(screen_text(app)), 60)
            text = screen_text(app)
            await pilot.press("escape")
            assert not isinstance(app.screen, HelpScreen)
            await pilot.press("f1")
            assert isinstance(app.screen, HelpScreen)
            return text

    text = asyncio.run(scenario())
    for keys, what in KEYS:
        assert f"{keys}  " in text and what in text  # one line each: nothing wraps at 80
    assert len(text.splitlines()) <= 24
    if os.environ.get("MINESWEEPER_UPDATE_SNAPSHOTS"):
        SNAPSHOT.write_text(text, encoding="utf-8")
    assert text == SNAPSHOT.read_text(encoding="utf-8")


def test_every_bound_key_is_in_the_help() -> None:
    listed = {key.strip() for keys, _ in KEYS for key in keys.replace("arrows", "").split(",")}
    names = {"question_mark": "?", "space": "space", "enter": "enter"}
    for binding in [*MinesweeperApp.BINDINGS, *BoardView.BINDINGS]:
        for key in binding.key.split(","):  # type: ignore[union-attr]
            shown = names.get(
                key, key.upper() if key.startswith("f") and key[1:].isdigit() else key
            )
            if key in ("left", "right", "up", "down"):
                continue
            assert shown in listed or shown in {"H j k l"} or key in "Hjkl", key


def test_the_footer_names_the_essentials_and_fits_80(tmp_path: Path) -> None:
    essentials = ("←↑↓→ Move", "space Open", "f Flag", "m Mark ?", "n New", "? Help", "q Quit")

    def footer(app) -> str:
        return screen_text(app).splitlines()[-1]

    async def scenario() -> str:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            # The footer fills in as the app settles, later on a loaded machine.
            await wait_until(pilot, lambda: all(w in footer(app) for w in essentials), 60)
            return footer(app)

    footer_line = asyncio.run(scenario())
    for words in essentials:
        assert words in footer_line
    assert len(footer_line) <= 80


def test_f2_deals_a_new_game(tmp_path: Path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("space")
            first = app.controller.session.board
            await pilot.press("f2")
            assert not app.controller.session.started
            await pilot.press("space")
            assert app.controller.session.board != first

    asyncio.run(scenario())


def test_the_settings_fit_80x24_with_labelled_switches(tmp_path: Path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("s")
            assert isinstance(app.screen, SettingsScreen)
            await pilot.pause()
            text = screen_text(app)
            assert "Settings" in text
            assert "A change starts a new game; the last three apply at once." in text
            for box in app.screen.query(Checkbox):
                label = str(box.label)
                assert label and label in text  # each switch says what it does, whole
                mark = "X" if box.value else " "
                assert f"▐{mark}▌ {label}" in text  # and an empty box when off
            assert "…" not in text

    asyncio.run(scenario())


def test_a_won_board_shows_its_mines_flagged_and_the_counter_at_0() -> None:
    session = GameSession(Settings(), seed=3)
    session.open(40)
    flagged = min(session.board.mines)
    session.toggle_flag(flagged)
    for cell in session.topology.cells():
        if not session.board.is_mine(cell) and not session.is_opened(cell):
            session.open(cell)
    assert session.won and session.mines_left == 0
    assert {session.cell_state(mine) for mine in session.board.mines} == {CellState.FLAGGED}
    # The points counted only the flag the player placed.
    before = GameSession.from_board(session.board)
    assert session.points > 0 and before.points == 0


async def _recorded_win(app, pilot, name: str | None = "Ada") -> None:
    """Win, and enter the result under ``name`` (None: the default name)."""
    await win_by_hand(app, pilot)
    keys = ["enter"] if name is None else ["ctrl+a", "ctrl+k", *name, "enter"]
    await pilot.press(*keys)
    await pilot.pause()


def test_the_records_screen_opens_the_selected_entry_s_replay(tmp_path: Path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await _recorded_win(app, pilot)
            await pilot.press("t")
            assert isinstance(app.screen, RecordsScreen)
            table = app.screen.query_one(DataTable)
            assert table.row_count == 1
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, ReplayScreen)
            assert app.screen.viewer.replay.player == "Ada"
            await pilot.press("end")
            assert app.screen.viewer.session.won
            await pilot.press("escape")
            assert isinstance(app.screen, RecordsScreen)

    asyncio.run(scenario())


def test_an_entry_without_its_replay_says_so(tmp_path: Path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await _recorded_win(app, pilot, None)
            for path in (tmp_path / "replays").glob("*.json"):
                path.unlink()
            await pilot.press("t", "enter")
            await pilot.pause()
            assert isinstance(app.screen, RecordsScreen)
            assert "No such file" in str(app.screen.query_one("#problem", Label).render())

    asyncio.run(scenario())


def test_records_play_shows_an_entry_s_replay(tmp_path: Path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await _recorded_win(app, pilot)

    asyncio.run(scenario())
    records = str(tmp_path / "records.json")
    runner = CliRunner()
    result = runner.invoke(main, ["records", "play", "1", "--stats", "--records", records])
    assert result.exit_code == 0, result.output
    assert "Ada" in result.output and "won" in result.output and "3BV" in result.output
    missing = runner.invoke(main, ["records", "play", "2", "--stats", "--records", records])
    assert missing.exit_code == 2 and "no place 2" in missing.output
    none = runner.invoke(
        main, ["records", "play", "1", "--category", "expert", "--records", records]
    )
    assert none.exit_code == 2 and "no top 10 by points table matches" in none.output
    assert Records(records).verify() == 1
