"""Honest records in the terminal game: assisted games, statistics, replays, the viewer."""

from __future__ import annotations

import asyncio
from pathlib import Path

from doubles import FakeClock
from tui_helpers import make_app, private_dirs, wait_until  # noqa: F401

from minesweeper.board import Board
from minesweeper.play.records import COMPUTER, Records
from minesweeper.play.replay import Replay, check_entry, read_replay
from minesweeper.play.session import Settings
from minesweeper.topology import SquareTopology
from minesweeper.tui.controller import GIVEN_BOARD, NOT_RECORDED, Controller
from minesweeper.tui.header import header_text
from minesweeper.tui.replay import ReplayApp, ReplayViewer


def controller(tmp_path: Path, **options: object) -> Controller:
    return Controller(
        Settings(),
        seed=7,
        records=Records(tmp_path / "records.json"),
        clock=FakeClock(tick=0.25),
        **options,  # type: ignore[arg-type]
    )


def win(control: Controller, first: int = 40) -> None:
    """Open the middle, then every other safe cell by hand."""
    control.open(first)
    session = control.session
    for cell in session.topology.cells():
        if not session.board.is_mine(cell) and not session.is_opened(cell):
            control.open(cell)
    assert session.won


def test_a_person_s_win_keeps_its_replay_and_shows_its_statistics(tmp_path: Path) -> None:
    control = controller(tmp_path)
    win(control)
    stats = control.session.stats()
    assert stats.summary() in control.message
    assert control.outcome is not None and control.outcome.waiting_for_name
    assert control.enter_record("Ada") == 1
    assert "place 1" in control.message and "3BV" in control.message
    records = control.records
    (entry,) = records.table(control.settings.category())
    assert (entry.name, entry.bbbv, entry.clicks) == ("Ada", stats.bbbv, stats.clicks.total)
    path = records.replay_path(entry)
    assert path is not None
    assert check_entry(read_replay(path), control.settings.category(), entry) == []
    assert records.load_times()[control.settings.category()] == [entry]


def test_a_hint_makes_the_game_assisted_and_unrecorded(tmp_path: Path) -> None:
    control = controller(tmp_path)
    control.open(40)
    assert "assisted" not in header_text(control).plain
    assert control.show_hint() is not None
    assert "assisted" in header_text(control).plain
    win(control, first=40)
    assert control.outcome is not None and control.outcome.assisted
    assert not control.outcome.waiting_for_name
    assert f"you won; {NOT_RECORDED}" in control.message
    assert control.records.load() == {}


def test_the_odds_overlay_makes_the_game_assisted(tmp_path: Path) -> None:
    control = controller(tmp_path)
    control.toggle_overlay()  # on before the first open: nothing to see yet
    control.open(40)
    assert not control.session.assisted
    session = control.session
    closed = [c for c in session.topology.cells() if not session.is_opened(c)]
    control.open(next(c for c in closed if not session.board.is_mine(c)))  # seeing the odds
    assert [kind for kind, _ in control.session.assists] == ["odds"]


def test_the_computer_taking_over_makes_the_game_assisted(tmp_path: Path) -> None:
    control = controller(tmp_path)
    control.open(40)
    control.start_computer()
    while control.computer_step():
        pass
    assert control.session.over
    assert NOT_RECORDED in control.message
    assert control.records.load() == {}


def test_the_computer_s_own_game_enters_as_computer_with_its_replay(tmp_path: Path) -> None:
    control = controller(tmp_path, replay_dir=tmp_path / "saved")
    control.start_computer()
    while control.computer_step():
        pass
    (entry,) = control.records.table(control.settings.category())
    assert entry.name == COMPUTER and entry.replay is not None
    (saved,) = (tmp_path / "saved").iterdir()
    assert f"replay saved: {saved.name} (in {saved.parent})" in control.message
    assert check_entry(read_replay(saved), control.settings.category(), entry) == []


def test_a_given_board_is_played_but_not_recorded(tmp_path: Path) -> None:
    board = Board(SquareTopology(3, 3), [0])
    control = controller(tmp_path, board=board)
    assert control.session.board == board
    control.open(8)  # the zero in the corner opens everything but the mine's corner... and wins
    assert control.session.won
    assert GIVEN_BOARD in control.message
    assert control.records.load() == {}
    control.new_game()
    assert not control.given_board  # a new random layout counts again


def test_the_viewer_steps_and_ends_with_the_statistics(tmp_path: Path) -> None:
    control = controller(tmp_path)
    win(control)
    replay = Replay.of(control.session, player="Ada")
    viewer = ReplayViewer(replay)
    assert viewer.session.opened() == {} and "clicks to come" in viewer.status()
    viewer.step()
    assert viewer.session.is_opened(40) and "click 1/" in viewer.status()
    assert viewer.wait(2.0) == (replay.actions[1].ms - replay.actions[0].ms) / 2000
    viewer.step(-5)
    assert viewer.index == 0
    viewer.go(10_000)
    assert viewer.finished and viewer.session.won and viewer.wait(1.0) is None
    assert replay.stats().summary() in viewer.status()


def test_the_viewer_app_plays_pauses_and_steps(tmp_path: Path) -> None:
    control = controller(tmp_path)
    win(control)
    replay = Replay.of(control.session, player="Ada")

    async def scenario() -> None:
        app = ReplayApp(replay, speed=1000)
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: app.viewer.finished, 120)  # only bounds a hang
            assert app.viewer.finished  # played through at 1000 times the pace
            await pilot.press("left")
            assert app.paused and app.viewer.index == app.viewer.total - 1
            await pilot.press("space")
            await wait_until(pilot, lambda: app.viewer.finished, 120)
            assert app.viewer.finished
            status = str(app.screen.query_one("#status").render())
            assert "3BV" in status and "efficiency" in status

    asyncio.run(scenario())


def test_the_game_screen_ends_with_the_statistics(tmp_path: Path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path, replay_dir=tmp_path / "saved")
        async with app.run_test(size=(100, 32)) as pilot:
            session = app.controller.session
            await pilot.press("h")  # a hint: the game becomes assisted once it is on
            await pilot.press("space")
            await pilot.press("h")
            for cell in session.topology.cells():
                if not session.board.is_mine(cell) and not session.is_opened(cell):
                    app.controller.open(cell)
            app.redraw()
            await pilot.pause()
            message = str(app.main.query_one("#message").render())
            assert NOT_RECORDED in message and "3BV" in message and "replay saved" in message

    asyncio.run(scenario())
