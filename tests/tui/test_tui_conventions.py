"""Playing conventions (left-click chords, ? marks, asking before quitting) and the overlay's
colour scale."""

from __future__ import annotations

import asyncio

import pytest
from tui_helpers import chordable_number, click_cell, make_app, private_dirs  # noqa: F401

from minesweeper.play.session import CellState
from minesweeper.tui.palette import (
    PROVEN_MINE,
    PROVEN_SAFE,
    PROVEN_SAFE_BG,
    chance_colour,
    chance_text,
)
from minesweeper.tui.prompt import QuitPrompt


async def click_a_satisfied_number(pilot, app) -> int:
    """Open an area, flag exactly the mines around a number, left-click it: cells opened."""
    session = app.controller.session
    await click_cell(pilot, app, session.topology.cell_at(4, 4))
    number, mines = chordable_number(session)
    for mine in mines:
        session.toggle_flag(mine)
    opened = len(session.opened())
    await click_cell(pilot, app, number)
    return len(session.opened()) - opened


def test_a_left_click_on_a_satisfied_number_chords(tmp_path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            assert await click_a_satisfied_number(pilot, app) > 0
            assert not app.controller.session.lost

    asyncio.run(scenario())


def test_without_left_chords_a_left_click_on_a_number_does_nothing(tmp_path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            controller = app.controller
            controller.conventions = type(controller.conventions)(left_chords=False)
            assert await click_a_satisfied_number(pilot, app) == 0

    asyncio.run(scenario())


def test_right_clicks_cycle_flag_mark_nothing(tmp_path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            controller = app.controller
            session = controller.session
            await click_cell(pilot, app, session.topology.cell_at(4, 4))
            cell = next(c for c in session.topology.cells() if not session.is_opened(c))
            await click_cell(pilot, app, cell, button=3)
            assert cell in session.flags and cell not in controller.marks
            await click_cell(pilot, app, cell, button=3)
            assert cell not in session.flags and cell in controller.marks
            assert app.board.look(cell).marked and session.cell_state(cell) is CellState.CLOSED
            await click_cell(pilot, app, cell, button=3)
            assert cell not in session.flags and cell not in controller.marks
            controller.cursor = cell
            await pilot.press("m")  # the key puts a ? directly
            assert cell in controller.marks

    asyncio.run(scenario())


def test_q_asks_during_a_game_and_not_before(tmp_path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("space")
            await pilot.press("q")
            assert isinstance(app.screen, QuitPrompt)
            await pilot.press("n")  # play on
            assert not isinstance(app.screen, QuitPrompt) and app.is_running
            await pilot.press("q", "y")
            await pilot.pause()
            assert not app.is_running

    asyncio.run(scenario())

    async def unstarted() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("q")  # nothing to lose: quits at once
            await pilot.pause()
            assert not app.is_running

    asyncio.run(unstarted())


@pytest.mark.parametrize("width", [1, 2, 3])
def test_the_overlay_marks_proven_cells_and_prints_numbers_only_with_room(width) -> None:
    assert chance_text(0.0, width) == PROVEN_SAFE
    assert chance_text(1.0, width) == PROVEN_MINE
    shown = chance_text(0.21, width)
    assert shown == ("21" if width >= 3 else "")  # never runs like 2121212121


def test_the_overlay_scale_keeps_low_odds_apart_from_proven_safe() -> None:
    colours = [chance_colour(p / 100) for p in range(1, 100)]
    assert PROVEN_SAFE_BG not in colours
    assert chance_colour(0.09) != chance_colour(0.0)
    assert len(set(colours)) > 50  # a scale, not a few buckets
