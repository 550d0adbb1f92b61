"""The terminal game driven headless: clicks and keys change the game as the rules say."""

from __future__ import annotations

import asyncio

import pytest
from rich.color import Color
from textual import events
from tui_helpers import (  # noqa: F401
    board_text,
    chordable_number,
    click_cell,
    make_app,
    private_dirs,
    win_by_hand,
)

from minesweeper.play.session import CellState, Settings
from minesweeper.tui.palette import EXPLODED_BG, fill
from minesweeper.variant import Variant


def run(coroutine) -> None:
    asyncio.run(coroutine)


def test_left_click_opens_and_starts_the_timer(tmp_path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            session = app.controller.session
            middle = session.topology.cell_at(4, 4)
            await click_cell(pilot, app, middle)
            assert session.started
            assert session.cell_state(middle) is CellState.OPENED
            assert session.count(middle) == 0  # the first click opens an area
            assert len(session.opened()) > 1
            assert session.points == 10

    run(scenario())


def test_right_click_toggles_a_flag_and_the_counter(tmp_path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            session = app.controller.session
            corner = session.topology.cell_at(0, 0)
            await click_cell(pilot, app, corner, button=3)
            assert session.cell_state(corner) is CellState.FLAGGED
            assert session.mines_left == 9
            assert "  9" in app.header.text.plain
            await click_cell(pilot, app, corner, button=1)  # a flag protects from a left click
            assert session.cell_state(corner) is CellState.FLAGGED
            await click_cell(pilot, app, corner, button=3)
            assert session.cell_state(corner) is CellState.CLOSED
            assert session.mines_left == 10

    run(scenario())


def test_middle_click_chords_around_a_flagged_number(tmp_path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            session = app.controller.session
            await click_cell(pilot, app, session.topology.cell_at(4, 4))
            number, _ = chordable_number(session)
            neighbours = session.topology.neighbours(number)
            await click_cell(pilot, app, number, button=2)  # no flags yet: nothing happens
            assert all(
                session.cell_state(n) is CellState.CLOSED
                for n in neighbours
                if not session.is_opened(n) and n not in session.flags
            )
            for mine in neighbours:
                if session.board.is_mine(mine):
                    await click_cell(pilot, app, mine, button=3)
            await click_cell(pilot, app, number, button=2)
            for cell in neighbours:
                expected = CellState.FLAGGED if session.board.is_mine(cell) else CellState.OPENED
                assert session.cell_state(cell) is expected

    run(scenario())


def test_keyboard_moves_opens_flags_and_chords(tmp_path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            controller = app.controller
            session = controller.session
            topology = session.topology
            assert controller.cursor == topology.cell_at(4, 4)
            await pilot.press("space")
            assert session.is_opened(topology.cell_at(4, 4))
            for key, place in (("up", (3, 4)), ("l", (3, 5)), ("j", (4, 5)), ("H", (4, 4))):
                await pilot.press(key)
                assert controller.cursor == topology.cell_at(*place), key
            number, _ = chordable_number(session)
            for mine in topology.neighbours(number):
                if session.board.is_mine(mine):
                    controller.cursor = mine
                    await pilot.press("f")
                    assert session.cell_state(mine) is CellState.FLAGGED
            controller.cursor = number
            await pilot.press("c")
            for cell in topology.neighbours(number):
                assert session.is_opened(cell) or cell in session.flags

    run(scenario())


def test_after_a_loss_a_second_click_restarts_the_same_layout(tmp_path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            session = app.controller.session
            await click_cell(pilot, app, session.topology.cell_at(4, 4))
            mines = set(session.board.mines)
            wrong = next(
                c for c in session.topology.cells() if not session.is_opened(c) and c not in mines
            )
            await click_cell(pilot, app, wrong, button=3)  # a wrong flag, shown at the end
            mine = min(mines)
            await click_cell(pilot, app, mine)
            assert session.lost
            assert session.cell_state(mine) is CellState.EXPLODED
            assert session.cell_state(wrong) is CellState.WRONG_FLAG
            assert all(session.cell_state(m) is not CellState.CLOSED for m in mines)
            assert "GAME OVER" in app.header.text.plain
            text = board_text(app)
            assert text.count("✱") == len(mines) and "✗" in text
            look = app.board.look(mine)  # the cursor stays on the mine that went off...
            assert look.cursor and look.state is CellState.EXPLODED
            assert fill(look).bgcolor == Color.parse(EXPLODED_BG)  # ...which stays red
            await pilot.press("escape")  # a loss may enter the records: skip the name
            await click_cell(pilot, app, wrong)  # a stray click only shows the board
            assert session.over and "click again" in app.controller.message
            await click_cell(pilot, app, wrong)  # a second click: the same layout again
            assert not session.over and not session.opened() and not session.flags
            assert set(session.board.mines) == mines

    run(scenario())


def test_keys_restart_and_start_a_new_layout(tmp_path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            session = app.controller.session
            await pilot.press("space")
            mines = set(session.board.mines)
            await pilot.press("r")
            assert not session.opened() and set(session.board.mines) == mines
            await pilot.press("space")
            assert set(session.board.mines) == mines  # the layout stays once laid
            await pilot.press("n")
            assert not session.started
            await pilot.press("space")
            assert set(session.board.mines) != mines

    run(scenario())


def test_a_win_shows_the_banner(tmp_path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            session = app.controller.session
            await win_by_hand(app, pilot)
            assert session.won
            assert "YOU WIN!" in app.header.text.plain
            await pilot.press("escape")  # skip the name prompt

    run(scenario())


def test_a_too_small_terminal_shows_a_message(tmp_path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(20, 6)) as pilot:
            await pilot.pause()
            assert app.screen.has_class("too-small")
            assert app.query_one("#too-small").display
            await pilot.press("space")  # the game still works underneath
            assert app.controller.session.started
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            assert not app.screen.has_class("too-small")
            assert app.board.wide
            await pilot.resize_terminal(40, 11)  # 9 rows do not fit under the header: compact
            await pilot.pause()
            assert not app.screen.has_class("too-small")
            assert not app.board.wide and app.board.layout_plan.width == 18

    run(scenario())


@pytest.mark.slow  # 2.5 s or more end to end
def test_large_boards_shrink_then_scroll(tmp_path) -> None:
    async def scenario() -> None:
        expert = Settings.preset("expert")
        app = make_app(tmp_path, expert)
        async with app.run_test(size=(80, 24)) as pilot:
            assert not app.board.wide  # 30 columns of 2 characters fit 80
            assert app.board.layout_plan.width == 60
            await pilot.press("space")
            assert app.controller.session.started
        huge = Settings(Variant(rows=40, cols=60, mines=300))
        app = make_app(tmp_path, huge)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(30):
                await pilot.press("down")
            await pilot.pause()
            area = app.query_one("#board-area")
            assert area.scroll_y > 0  # the cursor's row was scrolled into view

    run(scenario())


def test_a_terminals_press_and_release_make_the_click(tmp_path) -> None:
    """The driver sends only press and release; Textual makes the click, for every button."""

    async def scenario() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            session = app.controller.session
            board = app.board

            async def press_release(cell: int, button: int) -> None:
                x, y = board.layout_plan.anchor(cell)
                sx, sy = board.region.x + x, board.region.y + y
                for kind in (events.MouseDown, events.MouseUp):
                    app.post_message(
                        kind(
                            None,
                            sx,
                            sy,
                            0,
                            0,
                            button,
                            False,
                            False,
                            False,
                            screen_x=sx,
                            screen_y=sy,
                        )
                    )
                    await pilot.pause()

            corner = session.topology.cell_at(0, 0)
            await press_release(corner, 3)
            assert session.flags == {corner}
            await press_release(session.topology.cell_at(4, 4), 1)
            assert session.started

    run(scenario())
