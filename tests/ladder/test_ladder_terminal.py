"""Ranked play in the terminal: the game on screen is the server's, and the token is private."""

from __future__ import annotations

import json
import stat

import pytest
from click.testing import CliRunner
from ladder_helpers import Site, make_site, sqlite_url

from minesweeper.cli import main
from minesweeper.ladder.categories import MINIMUM_BBBV
from minesweeper.ladder.remote import LadderClient, TokenStore
from minesweeper.ladder.schema import Game
from minesweeper.play.session import CellState, Settings
from minesweeper.tui.controller import LEFT, RIGHT
from minesweeper.tui.ladder import UNAIDED, LadderController
from minesweeper.variant import Variant


@pytest.fixture
def site(tmp_path) -> Site:
    return make_site(sqlite_url(tmp_path))


def controller(site: Site, tmp_path, game: str = "beginner") -> LadderController:
    remote = LadderClient("http://testserver", http=site.client)
    remote.sign_in("alice", "long enough", new=True)
    from minesweeper.play.records import Records

    records = Records(tmp_path / "records.json")  # never written: ranked games are the server's
    return LadderController(remote, Settings(Variant.parse(game)), records=records)


def mines(site: Site, game: str) -> set[int]:
    with site.service.transaction() as db:
        return set(json.loads(db.get(Game, game).board))


def test_a_ranked_game_in_the_terminal_is_played_on_the_server(site: Site, tmp_path) -> None:
    screen = controller(site, tmp_path)
    session = screen.session
    assert "ranked beginner" in screen.message
    screen.press(40, LEFT)
    assert session.started and session.count(40) == 0
    board = mines(site, session.game_id)
    closed = [c for c in range(81) if session.cell_state(c) is CellState.CLOSED]
    mine = next(c for c in closed if c in board)
    screen.conventions = screen.conventions.__class__(question_marks=False)
    screen.press(mine, RIGHT)
    assert session.cell_state(mine) is CellState.FLAGGED
    state = site.client.get(
        f"/api/games/{session.game_id}", headers={"Authorization": f"Bearer {screen.remote.token}"}
    ).json()
    assert state["flags"] == [mine] and dict(map(tuple, state["opened"])) == session.opened()
    for aid in (screen.show_hint, screen.toggle_overlay, screen.start_computer):
        aid()
        assert screen.message == UNAIDED
    for cell in range(81):
        if cell not in board and not session.is_opened(cell):
            screen.press(cell, LEFT)
    assert session.won and session.stats().bbbv > 0
    assert "on the ladder" in screen.message and session.game_id in screen.message
    assert not (tmp_path / "records.json").exists()


def win(screen: LadderController, site: Site) -> None:
    session = screen.session
    screen.press(40, LEFT)
    board = mines(site, session.game_id)
    for cell in range(81):
        if cell not in board and not session.is_opened(cell):
            screen.press(cell, LEFT)
    assert session.won


def test_a_win_under_the_least_3bv_says_it_ranks_no_time(
    site: Site, tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 40: the page said so, the terminal said "on the ladder" for a win the time
    # ladder leaves out. The least raised past any beginner board: every win is under it.
    monkeypatch.setitem(MINIMUM_BBBV, "beginner", 10_000)
    screen = controller(site, tmp_path)
    win(screen, site)
    bbbv = screen.session.stats().bbbv
    said = f"a win, but a board of 3BV {bbbv} ranks no time (the least is 10000)"
    assert said in screen.message and "on the ladder" not in screen.message
    ladder = site.client.get("/api/ladders/beginner/modern?board=time").json()
    assert ladder["rows"] == []  # the server agrees: no time entered


def test_a_loss_shows_the_servers_mines(site: Site, tmp_path) -> None:
    screen = controller(site, tmp_path, "beginner/classic")
    session = screen.session
    screen.press(0, LEFT)
    board = mines(site, session.game_id)
    screen.press(min(board), LEFT)
    assert session.lost
    assert session.cell_state(min(board)) is CellState.EXPLODED
    assert all(session.cell_state(c) is CellState.MINE for c in board - {min(board)})


def test_leaving_a_started_game_resigns_it(site: Site, tmp_path) -> None:
    screen = controller(site, tmp_path)
    first = screen.session.game_id
    screen.press(40, LEFT)
    screen.new_game()
    assert screen.session.game_id != first
    with site.service.transaction() as db:
        assert db.get(Game, first).state == "resigned"
    assert screen.history.games() == []  # the ladder keeps it (as not won), not the history
    screen.new_game(Settings(Variant.parse("hex beginner")))  # not ranked: refused
    assert "unknown ranked category" in screen.message or "presets on squares" in screen.message


def test_the_token_is_kept_private(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("MINESWEEPER_CONFIG_DIR", str(tmp_path / "config"))
    store = TokenStore()
    store.put("http://ladder.example/", "alice", "secret-token")
    assert store.get("http://ladder.example") == "secret-token"
    assert stat.S_IMODE(store.path.stat().st_mode) == 0o600
    assert stat.S_IMODE(store.path.parent.stat().st_mode) == 0o700
    store.forget("http://ladder.example")
    assert store.get("http://ladder.example") is None


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--preset", "acm-10"], "unknown ranked category"),
        (["--topology", "hex"], "unknown ranked category"),
        (["--no-guess"], "drop --board/--no-guess"),
        ([], "needs a terminal"),
    ],
)
def test_play_ladder_errors_in_one_line(args: list[str], said: str) -> None:
    result = CliRunner().invoke(main, ["play", "--ladder", "http://127.0.0.1:9", *args])
    assert result.exit_code == 2
    assert said in result.output and result.output.count("\n") == 1
