"""The player's history and lifetime figures, against a hand-made history."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from click.testing import CliRunner
from doubles import FakeClock
from textual.widgets import DataTable, Label
from tui_helpers import private_dirs  # noqa: F401

from minesweeper.board import Board
from minesweeper.cli import main
from minesweeper.intervals import wilson_interval
from minesweeper.play.history import (
    Best,
    History,
    HistoryError,
    Play,
    PlayedGame,
    figures,
    row,
)
from minesweeper.play.records import COMPUTER, Records
from minesweeper.play.session import Settings
from minesweeper.play.stats import Clicks, GameStats
from minesweeper.topology import SquareTopology
from minesweeper.tui.controller import Controller

BEGINNER = Settings().category()
NO_GUESS = Settings(no_guess=True).category()  # a category of its own
START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def game(
    number: int,
    won: bool,
    ms: int = 5000,
    solved: int = 10,
    clicks: int = 20,
    *,
    player: str = "Ada",
    play: Play = Play.PERSON,
    category=BEGINNER,
    abandoned: bool = False,
) -> PlayedGame:
    stats = GameStats(30, solved if not won else 30, Clicks(left=clicks), ms, won)
    if won:
        stats = GameStats(solved, solved, Clicks(left=clicks), ms, won)
    when = START + timedelta(minutes=number)
    return PlayedGame.make(category, player, play, stats, when, abandoned=abandoned)


#: Ada's unaided beginner games, in order: W L W W L W, then one left unfinished (and
#: others kept apart).
HAND_MADE = [
    game(1, True, 10_000, 20, 25),
    game(2, False, 3_000),
    game(3, True, 8_000, 16, 16),
    game(4, True, 12_000, 30, 40),
    game(5, False, 1_000),
    game(6, True, 9_000, 18, 30),
    game(7, True, 2_000, 40, 10, play=Play.ASSISTED),
    game(8, True, 6, 20, 20, player=COMPUTER, play=Play.COMPUTER),
    game(9, True, 4_000, 10, 10, category=NO_GUESS),
    game(10, False, 4_000, player="Bob"),
    game(11, False, 2_500, abandoned=True),
]


def test_every_figure_of_a_hand_made_history() -> None:
    found = {(f.player, f.category, f.play): f for f in figures(HAND_MADE)}
    assert len(found) == 5  # Ada unaided, assisted, no-guess; the computer; Bob
    ada = found["Ada", BEGINNER, Play.PERSON]
    # The game left unfinished counts as a game not won, and is told apart.
    assert (ada.games, ada.wins, ada.abandoned) == (7, 4, 1)
    assert ada.win_rate == pytest.approx(4 / 7)
    assert ada.interval == wilson_interval(4, 7)
    assert (ada.current_streak, ada.best_streak) == (0, 2)
    assert ada.best_ms == 8_000
    assert ada.median_ms == 9_500  # of 10, 8, 12 and 9 s
    assert ada.best_bbbv_per_second == pytest.approx(2.5)  # 30 in 12 s, not the fastest win
    assert ada.efficiency == pytest.approx((0.75 + 0.8) / 2)  # 0.8, 1.0, 0.75, 0.6
    assisted = found["Ada", BEGINNER, Play.ASSISTED]
    assert (assisted.games, assisted.best_ms) == (1, 2_000)  # never in the unaided figures
    assert found["Ada", NO_GUESS, Play.PERSON].games == 1
    bob = found["Bob", BEGINNER, Play.PERSON]
    assert (bob.wins, bob.best_ms, bob.median_ms, bob.efficiency) == (0, None, None, None)
    assert (bob.current_streak, bob.best_streak) == (0, 0)
    assert [f.player for f in figures(HAND_MADE, "Bob")] == ["Bob"]


def test_a_row_of_figures() -> None:
    (ada,) = [
        f for f in figures(HAND_MADE, "Ada") if f.category == BEGINNER and f.play.value == "person"
    ]
    low, high = wilson_interval(4, 7)
    assert row(ada) == (
        "unaided", "7", "4", "1", "57%", f"{low * 100:.0f}-{high * 100:.0f}", "0/2",
        "8.00", "9.50", "2.50", "78%",
    )  # fmt: skip
    (computer,) = figures(HAND_MADE, COMPUTER)
    assert row(computer)[7:10] == ("-", "-", "-")  # its times are its move delay


def test_the_file_keeps_every_game_in_order(tmp_path: Path) -> None:
    history = History(tmp_path / "history.json")
    assert history.games() == []
    for played in HAND_MADE:
        history.add(played)
    assert history.games() == HAND_MADE
    document = json.loads((tmp_path / "history.json").read_text())
    assert document["format"] == "minesweeper-history" and len(document["games"]) == 11
    assert [g.get("abandoned") for g in document["games"]] == [None] * 10 + [True]
    assert history.figures() == figures(HAND_MADE)
    assert [f["games"] for f in (x.as_json() for x in history.figures("Ada"))] == [7, 1, 1]
    assert [f["abandoned"] for f in (x.as_json() for x in history.figures("Ada"))] == [1, 0, 0]


@pytest.mark.parametrize(
    "damage",
    [b"{not json", b'{"format": "other"}', b'{"format": "minesweeper-history", "version": 1}'],
)
def test_a_damaged_file_is_reported_and_never_overwritten(tmp_path: Path, damage: bytes) -> None:
    path = tmp_path / "history.json"
    path.write_bytes(damage)
    history = History(path)
    with pytest.raises(HistoryError, match="history file"):
        history.games()
    with pytest.raises(HistoryError):
        history.add(HAND_MADE[0])
    assert path.read_bytes() == damage


def test_a_bad_game_is_named(tmp_path: Path) -> None:
    path = tmp_path / "history.json"
    History(path).add(HAND_MADE[0])
    document = json.loads(path.read_text())
    document["games"][0]["ms"] = -1
    path.write_text(json.dumps(document))
    with pytest.raises(HistoryError, match="game 1"):
        History(path).games()


def test_personal_bests() -> None:
    win = GameStats(20, 20, Clicks(left=20), 7_000, True)
    assert Best(None, None).news(win) == ["your first win of this kind: 7.000 s"]
    assert Best(8_000, 3.0).news(win) == ["personal best time: 7.000 s (was 8.000 s)"]
    assert Best(8_000, 2.0).news(win)[1] == "personal best 3BV/s: 2.86 (was 2.00)"
    assert Best(6_000, 3.0).news(win) == []
    assert Best(8_000, 2.0).news(GameStats(20, 3, Clicks(left=3), 1_000, False)) == []


# -- the games that go in ------------------------------------------------------------------


def controller(tmp_path: Path, **options: object) -> Controller:
    return Controller(
        Settings(),
        seed=7,
        records=Records(tmp_path / "records.json"),
        clock=FakeClock(tick=0.5),
        player="Ada",
        **options,  # type: ignore[arg-type]
    )


def win(control: Controller) -> None:
    control.open(40)
    session = control.session
    for cell in session.topology.cells():
        if not session.board.is_mine(cell) and not session.is_opened(cell):
            control.open(cell)
    assert session.won


def test_every_finished_game_goes_in_kept_apart(tmp_path: Path) -> None:
    control = controller(tmp_path)
    win(control)
    assert "your first win of this kind" in control.message
    control.enter_record(None)  # declining the records keeps the game in the history
    control.new_game()
    control.open(40)
    control.show_hint()
    control.open(min(control.session.board.mines))  # an assisted loss
    control.new_game()
    control.start_computer()
    while control.computer_step():
        pass
    games = History(tmp_path / "history.json").games()
    assert [(g.player, g.play, g.won) for g in games] == [
        ("Ada", Play.PERSON, True),
        ("Ada", Play.ASSISTED, False),
        (COMPUTER, Play.COMPUTER, control.session.won),
    ]
    assert games[0].stats.ms == 0 or games[0].stats.bbbv > 0


def test_a_game_left_unfinished_is_kept_as_abandoned(tmp_path: Path) -> None:
    control = controller(tmp_path)
    control.new_game()  # nothing opened yet: no game to keep
    control.open(40)
    assert not control.session.over
    control.new_game()  # left after its first click
    assert "abandoned (not won)" in control.message
    control.open(40)
    control.restart()  # a restart in the middle leaves that game too
    assert "abandoned" in control.message
    win(control)
    control.enter_record(None)
    control.new_game()  # a finished game is not left: nothing more is kept
    assert "abandoned" not in control.message
    games = History(tmp_path / "history.json").games()
    assert [(g.won, g.abandoned) for g in games] == [(False, True), (False, True), (True, False)]
    assert games[0].stats.solved >= 1  # its figures as far as it went
    (ada,) = History(tmp_path / "history.json").figures("Ada")
    assert (ada.games, ada.wins, ada.abandoned, ada.current_streak) == (3, 1, 2, 1)


def test_quitting_in_the_middle_keeps_the_game_as_abandoned(tmp_path: Path) -> None:
    from tui_helpers import make_app

    async def scenario() -> None:
        app = make_app(tmp_path, player="Ada")
        async with app.run_test(size=(80, 24)) as pilot:
            app.controller.open(40)
            await pilot.press("q")  # asks first: the prompt says what quitting costs
            assert "abandoned (not won)" in str(app.screen.query_one("Label").render())
            await pilot.press("y")
        games = History(tmp_path / "history.json").games()
        assert [(g.player, g.abandoned) for g in games] == [("Ada", True)]

    asyncio.run(scenario())


def test_a_faster_win_is_a_personal_best(tmp_path: Path) -> None:
    control = controller(tmp_path)
    slow = PlayedGame.make(
        Settings().category(), "Ada", Play.PERSON, GameStats(10, 10, Clicks(10), 999_000, True)
    )
    control.history.add(slow)
    win(control)
    assert "personal best time:" in control.message and "(was 999.000 s)" in control.message
    control.enter_record("Ada")
    assert "a new record" in control.message and "personal best time:" in control.message


def test_a_given_board_is_not_in_the_history(tmp_path: Path) -> None:
    topology = SquareTopology(3, 3)
    board = Board(topology, frozenset({topology.cell_at(0, 0)}))
    control = controller(tmp_path, board=board)
    control.open(topology.cell_at(2, 2))
    assert control.session.won
    assert History(tmp_path / "history.json").games() == []


def test_the_stats_command(tmp_path: Path) -> None:
    records = tmp_path / "records.json"
    history = History.beside(Records(records))
    for played in HAND_MADE:
        history.add(played)
    runner = CliRunner()
    result = runner.invoke(main, ["stats", "--records", str(records), "--player", "Ada"])
    assert result.exit_code == 0, result.output
    assert "beginner: square 9x9, 10 mines" in result.output
    assert "unaided" in result.output and "assisted" in result.output
    assert "Bob" not in result.output and "Computer" not in result.output
    result = runner.invoke(
        main, ["stats", "--records", str(records), "--json", "--category", "no-guess"]
    )
    (only,) = json.loads(result.output)
    assert (only["player"], only["games"], only["best_ms"]) == ("Ada", 1, 4_000)
    empty = runner.invoke(main, ["stats", "--records", str(tmp_path / "none" / "records.json")])
    assert empty.exit_code == 0 and "no games yet" in empty.output
    (tmp_path / "history.json").write_text("{")
    broken = runner.invoke(main, ["stats", "--records", str(records)])
    assert broken.exit_code != 0 and "damaged" in broken.output and "Traceback" not in broken.output


def test_the_statistics_screen(tmp_path: Path) -> None:
    from tui_helpers import make_app

    from minesweeper.tui.stats import StatsScreen

    history = History.beside(Records(tmp_path / "records.json"))
    for played in HAND_MADE:
        history.add(played)

    async def scenario() -> None:
        app = make_app(tmp_path, player="Ada")
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.press("i")
            assert isinstance(app.screen, StatsScreen)
            table = app.screen.query_one(DataTable)
            rows = [[str(c).strip() for c in table.get_row_at(i)] for i in range(table.row_count)]
            assert [r[:3] for r in rows] == [
                ["unaided", "7", "4"],
                ["assisted", "1", "1"],
                ["computer", "1", "1"],
            ]  # Bob's game is his, not Ada's
            title = str(app.screen.query_one("#title", Label).render())
            assert "Ada" in title and "(1/2)" in title
            await pilot.press("tab")
            assert "no-guess" in str(app.screen.query_one("#title", Label).render())
            await pilot.press("escape")
            assert not isinstance(app.screen, StatsScreen)

    asyncio.run(scenario())


def test_the_name_typed_stays_the_player_s(tmp_path: Path) -> None:
    control = controller(tmp_path)
    win(control)
    control.enter_record("Grace")
    again = Controller(Settings(), seed=7, records=Records(tmp_path / "records.json"))
    assert again.player == "Grace"
    given = Controller(
        Settings(), seed=7, records=Records(tmp_path / "records.json"), player="Alan"
    )
    assert given.player == "Alan"
