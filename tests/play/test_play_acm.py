"""The ACM rules in a person's game: the mine count is never told, on any face of the game
(settings, session, computer, TUI, records, replays, autoplay)."""

from __future__ import annotations

import asyncio
import json
import re

import pytest
from click.testing import CliRunner
from textual.widgets import Checkbox, Label, Select
from tui_helpers import make_app, private_dirs  # noqa: F401

from minesweeper.cli import main
from minesweeper.play.records import Entry, Records
from minesweeper.play.replay import Replay, ReplayError, read_replay_bytes, save_replay
from minesweeper.play.session import GameSession, Settings, SettingsError
from minesweeper.tui.app import MinesweeperApp
from minesweeper.tui.header import header_text
from minesweeper.tui.records import RecordsScreen
from minesweeper.tui.settings import SettingsScreen
from minesweeper.variant import FirstClick, Rules, Variant

#: An acm game whose count (17) appears nowhere else on the screen by chance.
ACM = Settings(Variant(mines=17, rules=Rules.ACM))


def count_shown(text: str, count: int) -> bool:
    """Whether ``count`` appears in ``text`` as a number of its own."""
    return re.search(rf"(?<![\d.]){count}(?![\d.])", text) is not None


@pytest.mark.parametrize("rules", list(Rules))
def test_rules_reach_the_settings(rules: Rules) -> None:
    settings = Settings.preset("beginner", rules=rules)
    assert settings.variant.rules is rules
    assert settings.variant.count_told is (rules is not Rules.ACM)
    assert Settings.of_category(settings.category()) == settings


def test_a_hidden_count_goes_with_the_opening_first_click() -> None:
    with pytest.raises(SettingsError, match="acm"):
        Rules.of(FirstClick.SAFE, count_told=False)


def test_play_rules_acm_reaches_the_session(tmp_path, monkeypatch) -> None:
    apps: list[MinesweeperApp] = []
    monkeypatch.setattr("minesweeper.cli.play.is_terminal", lambda: True)
    monkeypatch.setattr(MinesweeperApp, "run", lambda self: apps.append(self))
    for rules, told in (("acm", False), ("modern", True), ("classic", True)):
        args = ["play", "--rules", rules, "--records", str(tmp_path / "r.json")]
        result = CliRunner().invoke(main, args)
        assert result.exit_code == 0, result.output
        assert apps.pop().controller.session.count_told is told


def test_the_header_counts_flags_under_acm_and_mines_left_otherwise(tmp_path) -> None:
    async def scenario(settings: Settings) -> str:
        app = make_app(tmp_path, settings)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("space", "right", "right", "right")
            session = app.controller.session
            cell = next(c for c in session.topology.cells() if not session.is_opened(c))
            session.toggle_flag(cell)
            app.redraw()
            await pilot.pause()
            return header_text(app.controller).plain

    header = asyncio.run(scenario(ACM))
    assert re.match(r" Mines\s+\?\s+Flags\s+1 ", header), header
    assert not count_shown(header, 17) and not count_shown(header, 16)
    modern = asyncio.run(scenario(ACM.replace(rules=Rules.MODERN)))
    assert re.match(r" Mines\s+16 ", modern), modern  # 17 mines, one flag


def test_the_legend_says_the_count_is_not_told(tmp_path) -> None:
    """At the start, and whenever nothing else is said, even where the size note is due."""

    async def scenario(settings: Settings, size: tuple[int, int]) -> list[str]:
        app = make_app(tmp_path, settings)
        said = []
        async with app.run_test(size=size) as pilot:
            said.append(str(app.controller.message))
            await pilot.press("space", "up", "f")
            said.append(str(app.controller.message))
            await pilot.press("n")  # the game left says so first
            assert "abandoned" in str(app.controller.message)
            await pilot.press("n")
            said.append(str(app.controller.message))
        return said

    for said in asyncio.run(scenario(ACM, (80, 24))):
        assert "mine count is not told" in said
    for said in asyncio.run(scenario(ACM.replace(rules=Rules.MODERN), (80, 24))):
        assert "not told" not in said
    acm_10 = Settings.preset("acm-10", rules=Rules.ACM)
    first, *_ = asyncio.run(scenario(acm_10, (80, 24)))
    assert "shows best in a" in first and "mine count is not told" in first


def test_no_screen_of_an_acm_game_shows_its_count(tmp_path) -> None:
    """The game from start to end, the records and the help: the count appears nowhere."""

    async def scenario() -> list[str]:
        app = make_app(tmp_path, ACM)
        seen: list[str] = []

        def look() -> None:
            seen.append(header_text(app.controller).plain)
            seen.append(str(app.controller.message))
            seen.extend(str(label.render()) for label in app.screen.query(Label))

        async with app.run_test(size=(100, 32)) as pilot:
            look()
            await pilot.press("space")
            look()
            session = app.controller.session
            mine = next(iter(session.board.mines))
            session.open(mine)  # lose: the end of the game and its summary
            app.controller._after()
            app.redraw()
            await pilot.pause()
            assert session.lost
            look()  # the name prompt of an empty table included
            await pilot.press("escape")
            look()
            await pilot.press("t")
            assert isinstance(app.screen, RecordsScreen)
            look()
            await pilot.press("tab")
            look()
        return seen

    seen = asyncio.run(scenario())
    assert any("not told" in text for text in seen)
    for text in seen:
        assert not count_shown(text, 17), text


def test_the_settings_offer_the_acm_rules_and_keep_them(tmp_path) -> None:
    async def scenario() -> None:
        app = make_app(tmp_path, ACM)
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.press("s")
            screen = app.screen
            assert isinstance(screen, SettingsScreen)
            assert screen.query_one("#rules", Select).value == "acm"
            screen.query_one("#no-guess", Checkbox).value = True  # another change keeps acm
            await pilot.pause()
            assert app.controller.settings.variant.count_told is False
            assert "not told" in app.controller.message
            screen.query_one("#rules", Select).value = "modern"
            await pilot.pause()
            assert app.controller.session.count_told
            assert re.match(r" Mines\s+17 ", header_text(app.controller).plain)

    asyncio.run(scenario())


def test_acm_games_rank_apart_and_their_label_hides_the_count(tmp_path) -> None:
    acm, modern = ACM.category(), ACM.replace(rules=Rules.MODERN).category()
    assert acm != modern
    assert "17" not in acm.label and "not told" in acm.label
    assert "17 mines" in modern.label
    store = Records(tmp_path / "r.json", tmp_path / "k")
    store.add(acm, Entry.make("Ann", 50, 20.0, True))
    store.add(modern, Entry.make("Bob", 40, 30.0, True))
    assert [e.name for e in store.table(acm)] == ["Ann"]
    assert [e.name for e in store.table(modern)] == ["Bob"]
    # Only the acm category names the field: the others are written as before.
    assert store.path.read_text().count('"count_told"') == 1


def test_an_acm_replay_keeps_its_rules(tmp_path) -> None:
    session = GameSession(ACM, seed=3)
    session.open(session.topology.cell_at(4, 4))
    replay = Replay.of(session, player="Ann")
    path = save_replay(replay.to_bytes(), tmp_path, "acm")
    again = Replay.from_bytes(read_replay_bytes(path))
    assert again.category == ACM.category()
    assert again.session().count_told is False


def test_autoplay_under_acm_prints_no_count(tmp_path) -> None:
    args = ["autoplay", "--rules", "acm", "--mines", "17", "--seed", "1"]
    args += ["--records", str(tmp_path / "r.json"), "--strategy", "worlds"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "not told" in result.output
    assert not count_shown(result.output.split("\n\n")[-1], 17)


def test_a_replay_hiding_the_count_of_a_classic_game_is_refused(tmp_path) -> None:
    session = GameSession(ACM, seed=3)
    session.open(session.topology.cell_at(4, 4))
    document = Replay.of(session).as_json()
    assert document["count_told"] is False
    document["first_click"] = "safe"
    with pytest.raises(ReplayError, match="acm"):
        Replay.from_bytes(json.dumps(document).encode())
    document["first_click"], document["count_told"] = "opening", "no"
    with pytest.raises(ReplayError, match="count_told"):
        Replay.from_bytes(json.dumps(document).encode())
