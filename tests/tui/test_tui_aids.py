"""The computer player, the hint and the probability overlay in the terminal game."""

from __future__ import annotations

import asyncio

from doubles import register_doubles
from tui_helpers import board_text, click_cell, make_app, private_dirs, wait_until  # noqa: F401

from minesweeper.play.autoplay import COMPUTER, first_cell, view_of
from minesweeper.play.records import Records
from minesweeper.play.session import Settings
from minesweeper.solver.probability import probabilities
from minesweeper.solver.registry import StrategySpec
from minesweeper.solver.think import Think
from minesweeper.tui.analysis import computer_strategy
from minesweeper.tui.palette import chance_text
from minesweeper.variant import Variant


def test_the_computer_finishes_a_game_and_enters_the_records(tmp_path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path, delay=0.2, seed=11)  # a game of a dozen steps
        async with app.run_test(size=(80, 24)) as pilot:
            controller = app.controller
            session = controller.session
            await pilot.press("a")
            assert controller.playing_computer
            assert "COMPUTER PLAYING" in app.header.text.plain
            await pilot.press("a")  # pause: nothing moves
            opened = len(session.opened())
            assert "PAUSED" in app.header.text.plain
            await pilot.pause(0.1)
            assert len(session.opened()) == opened
            await click_cell(pilot, app, session.topology.cell_at(0, 0))  # the player only watches
            assert "the computer is playing" in controller.message
            await pilot.press("a")  # resume
            await wait_until(pilot, lambda: len(session.opened()) > opened, 120)
            assert len(session.opened()) > opened  # the timer moves again
            for _ in range(200):  # the remaining ticks, without waiting for them
                if session.over:
                    break
                app._computer_move()
                await pilot.pause()
            assert session.over
            assert controller.outcome is not None and controller.outcome.computer
        table = Records(tmp_path / "records.json").table(session.settings.category())
        assert [entry.name for entry in table] == [COMPUTER]
        assert table[0].points == session.points

    asyncio.run(scenario())


def test_a_missing_strategy_falls_back_with_a_note() -> None:
    strategy, note = computer_strategy("no-such-strategy")
    assert strategy.name != "no-such-strategy"
    assert note is not None and "no-such-strategy" in note


def test_the_hint_names_a_cell_the_engine_proves_safe(tmp_path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            controller = app.controller
            session = controller.session
            await pilot.press("h")  # before the first open: anywhere is safe
            assert controller.hint is not None and controller.hint.certain
            await pilot.press("space")
            proved = 0
            for _ in range(15):
                if session.over:
                    break
                await pilot.press("h")
                found = controller.hint
                result = probabilities(view_of(session))
                assert found is not None
                if result.safe:
                    proved += 1
                    assert found.certain and found.cell in result.safe
                    assert not session.board.is_mine(found.cell)
                    assert "certainly safe" in controller.message
                else:  # the computer's strategy's guess
                    guesser, _ = computer_strategy(controller.strategy, controller.seed or 0)
                    assert not found.certain
                    assert found.cell == guesser.decide(view_of(session)).opens[0]
                    assert f"{guesser.name} guesses" in controller.message
                assert controller.cursor == found.cell
                await pilot.press("space")  # follow the hint
            assert proved > 0

    asyncio.run(scenario())


def test_the_overlay_shows_each_unknown_cells_probability(tmp_path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(80, 24)) as pilot:
            session = app.controller.session
            await pilot.press("space")
            before = board_text(app)
            await pilot.press("p")
            after = board_text(app)
            assert after != before
            result = probabilities(view_of(session))
            plan = app.board.layout_plan
            lines = after.splitlines()
            for cell in result:
                x, y, width = plan.label(cell)
                shown = lines[y].ljust(plan.width)[x : x + width].strip()
                assert shown == chance_text(result.chance(cell), width)
            controller = app.controller
            target, start = next(
                (plan.step(cell, 1, 0), cell)
                for cell in session.topology.cells()
                if plan.step(cell, 1, 0) in result
            )
            controller.cursor = start
            await pilot.press("right")  # the message gives the cursor's exact odds
            assert controller.cursor == target
            assert f"mine probability {result[target]} (" in controller.message
            await pilot.press("p")
            assert board_text(app) == before

    asyncio.run(scenario())


def test_with_no_safe_cell_the_hint_is_the_computers_guess_with_its_budget(
    tmp_path, monkeypatch
) -> None:
    register_doubles(monkeypatch)
    settings = Settings(Variant.parse("expert/classic"))
    for seed in range(20):  # a game whose first number proves nothing
        app = make_app(tmp_path, settings, seed=seed, strategy=StrategySpec("pondering", Think(3)))
        controller = app.controller
        session = controller.session
        session.open(first_cell(session))
        if not session.over and not probabilities(view_of(session)).safe:
            break
    else:
        raise AssertionError("no game without a safe cell after the first click")
    found = controller.show_hint()
    unknown = view_of(session).unknown()
    assert found is not None and not found.certain
    assert found.cell == unknown[3 % len(unknown)]  # pondering's pick at 3 ms
    assert controller.message.startswith("hint: nothing is certain; pondering guesses")
    assert "mine)" in controller.message and session.assisted
