"""Work a request can make cost seconds (drawing a large random tiling again, a player page
over thousands of games) runs in one of a few slots, so it cannot take every core; what the
server keeps in memory is bounded by cells, not games (a tiling's session holds megabytes)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import pytest
from ladder_helpers import Site, make_site, sqlite_url

from minesweeper.ladder import endpoints
from minesweeper.ladder import games as games_module
from minesweeper.ladder import live as live_module
from minesweeper.ladder.live import Live, LiveGames, ManualClock
from minesweeper.play.session import GameSession, Settings
from minesweeper.topology import tiling


def slowly(function: Callable[..., Any], seconds: float = 1.5) -> Callable[..., Any]:
    def slow(*args: Any, **named: Any) -> Any:
        time.sleep(seconds)  # stands in for seconds of CPU, holding its thread
        return function(*args, **named)

    return slow


def two_at_once(first: Callable[[], httpx.Response], second: Callable[[], httpx.Response]):
    """The statuses of ``first`` and of ``second`` sent while ``first`` runs."""
    answers: list[int] = []
    thread = threading.Thread(target=lambda: answers.append(first().status_code))
    thread.start()
    time.sleep(0.4)
    answers.append(second().status_code)
    thread.join()
    return sorted(answers)


@pytest.fixture
def site(tmp_path) -> Site:
    return make_site(sqlite_url(tmp_path), cpu_slots=1, cpu_wait_seconds=0.2)


def test_drawing_a_random_tiling_takes_a_slot(site: Site, monkeypatch) -> None:
    # A practice tetromino board of 10,000 pieces took 2.4 s to draw, twice per deal.
    drawn: list[int] = []
    real = tiling.random_tiling

    def counted(*args: Any, **named: Any) -> Any:
        drawn.append(1)
        return real(*args, **named)

    monkeypatch.setattr(tiling, "random_tiling", slowly(counted))
    headers = site.sign_up("alice")
    body = {"mode": "practice", "topology": "tetromino", "rows": 8, "cols": 8}

    def deal() -> httpx.Response:
        return site.client.post("/api/games", json=body, headers=headers)

    assert two_at_once(deal, deal) == [201, 503]
    assert len(drawn) == 1  # once per deal: the size is counted, not drawn


def test_a_player_page_takes_a_slot(site: Site, monkeypatch) -> None:
    # A player's page reads all of their ranked games: 20,000 of them took 0.9 s.
    site.sign_up("alice")
    monkeypatch.setattr(endpoints, "player_page", slowly(endpoints.player_page))

    def page() -> httpx.Response:
        return site.client.get("/api/players/alice")

    assert two_at_once(page, page) == [200, 429]  # one address: one public job at a time


def test_the_games_kept_in_memory_are_bounded_by_their_cells() -> None:
    live = LiveGames(capacity=1000)
    for number in range(5):
        session = GameSession(Settings.preset("expert"))  # 480 cells each
        live.put(str(number), Live(session, ManualClock(), 0))
    kept = [str(number) for number in range(5) if live.get(str(number)) is not None]
    assert kept == ["3", "4"]


def test_a_games_lock_is_its_own_and_one_game_waits_for_itself() -> None:
    # Moves of one game go one at a time; a game holding its lock (a no-guess search of
    # seconds) keeps no other game waiting, however many games there are.
    live = LiveGames()
    others_moved, same_moved = threading.Event(), threading.Event()

    def others() -> None:
        for number in range(500):
            with live.locked(f"game-{number}"):
                pass
        others_moved.set()

    def same_game() -> None:
        with live.locked("held"):
            same_moved.set()

    with live.locked("held"):
        threading.Thread(target=others, daemon=True).start()
        assert others_moved.wait(5)  # no other game's lock is this one
        threading.Thread(target=same_game, daemon=True).start()
        assert not same_moved.wait(0.2)  # the same game waits
    assert same_moved.wait(5)


@pytest.mark.slow
def test_a_long_game_played_through_two_servers_makes_only_the_new_moves(
    tmp_path, monkeypatch
) -> None:
    # A game of 39,000 moves, played through two servers in turn: each server made the whole
    # game again at every move (0.7 s of CPU a move).
    url = sqlite_url(tmp_path)
    one = make_site(url)
    two = make_site(url, one.clock)
    headers = one.sign_up("alice")
    game = one.new_game(headers, mode="practice", preset="expert", seed=3)
    opened = one.move(headers, game["id"], "open", 100).json()["opened"]
    closed = min(set(range(480)) - {cell for cell, _ in opened})
    for _ in range(300):
        assert one.move(headers, game["id"], "flag", closed).status_code == 200
    two.client.get(f"/api/games/{game['id']}", headers=headers)  # the second server has it
    made: list[str] = []
    real = live_module.apply_move

    def counted(session: GameSession, kind: str, cell: int) -> list[int]:
        made.append(kind)
        return real(session, kind, cell)

    for module in (live_module, games_module):  # a move made, and moves made again
        monkeypatch.setattr(module, "apply_move", counted)
    for turn in range(10):
        site = (one, two)[turn % 2]
        assert site.move(headers, game["id"], "flag", closed).status_code == 200
    assert len(made) <= 2 * 10  # its own move, and the other's it had not seen
    state = one.client.get(f"/api/games/{game['id']}", headers=headers).json()
    assert state["moves"] == 311 and state["flags"] == []  # 310 toggles
