"""The settings screen: a changed choice starts a new game of that kind at once."""

from __future__ import annotations

import asyncio

from textual.widgets import Checkbox, Input, Label, Select
from tui_helpers import make_app, private_dirs  # noqa: F401

from minesweeper.topology import TOPOLOGIES
from minesweeper.tui.settings import PLAYABLE, SettingsScreen
from minesweeper.variant import FirstClick


def test_settings_start_new_games_at_once(tmp_path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.press("space")
            assert app.controller.session.started
            await pilot.press("s")
            screen = app.screen
            assert isinstance(screen, SettingsScreen)
            await pilot.pause()

            screen.query_one("#topology", Select).value = "hex"
            await pilot.pause()
            session = app.controller.session
            assert session.topology.name == "hex" and not session.started
            assert app.board.layout_plan.width > 9 * 3  # laid out as offset hex rows

            screen.query_one("#preset", Select).value = "intermediate"
            await pilot.pause()
            game = app.controller.settings.variant
            assert (game.rows, game.cols, game.mines, game.name) == (
                16,
                16,
                40,
                "hex",
            )

            screen.query_one("#rules", Select).value = "classic"
            screen.query_one("#no-guess", Checkbox).value = True
            await pilot.pause()
            settings = app.controller.settings
            assert settings.variant.first_click is FirstClick.SAFE and settings.no_guess

            screen.query_one("#mines", Input).value = "999"  # too many: a message, no change
            screen.query_one("#mines", Input).focus()
            await pilot.press("enter")
            assert "999" in str(screen.query_one("#error", Label).render())
            assert app.controller.settings.variant.mines == 40

            await pilot.press("escape")
            assert not isinstance(app.screen, SettingsScreen)
            await pilot.press("space")  # a no-guess game plays like any other
            assert app.controller.session.started

    asyncio.run(scenario())


def test_the_settings_offer_every_topology() -> None:
    assert set(PLAYABLE) == set(TOPOLOGIES)


def test_a_topology_change_fits_the_presets_size(tmp_path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.press("s")
            await pilot.pause()
            screen = app.screen
            screen.query_one("#topology", Select).value = "tetromino"
            await pilot.pause()
            game = app.controller.settings.variant
            assert game.name == "tetromino"
            # As many pieces as beginner's 81 cells (an 18x18 span), and its 10 mines.
            assert (game.rows, game.cols, game.mines) == (18, 18, 10)

    asyncio.run(scenario())


def test_conventions_change_without_a_new_game(tmp_path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.press("space")
            session = app.controller.session
            await pilot.press("s")
            await pilot.pause()
            app.screen.query_one("#left-chords", Checkbox).value = False
            await pilot.pause()
            assert app.controller.conventions.left_chords is False
            assert app.controller.session is session and session.started

    asyncio.run(scenario())


def test_game_keys_wait_while_a_dialog_is_open(tmp_path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path)
        async with app.run_test(size=(100, 40)) as pilot:
            await pilot.press("t")
            await pilot.press("space", "a", "n")
            session = app.controller.session
            assert not session.started and app.controller.auto is None
            await pilot.press("escape", "space")
            assert session.started

    asyncio.run(scenario())
