"""Farming the ranked ladder: dealing game after game until one is easy. Defences as the
world ranking's: a win whose board has too little 3BV ranks no time, and a person is dealt
games only so fast (per account and per address); a started game not won counts as lost."""

from __future__ import annotations

import pytest
from ladder_helpers import PASSWORD, Site, TestClient, make_site, sqlite_url

from minesweeper.ladder import games as games_module
from minesweeper.ladder.config import RateLimit
from minesweeper.play.session import GameSession, Settings

#: A ranked beginner deal whose first click at cell 0 wins the game: 3BV 1, 0 ms
#: (found by dealing seeds 0, 1, 2...: one game in a few thousand is such a board).
ONE_CLICK_SEED, ONE_CLICK_CELL = 3558, 0


def test_a_one_click_win_is_won_but_ranks_no_time(tmp_path, monkeypatch) -> None:
    # F10: a script that opened and resigned unless it won got a 0 ms one-click beginner
    # win after 2121 games in 33 s: rank 1 on the time ladder.
    settings = Settings.preset("beginner")
    reference = GameSession(settings, seed=ONE_CLICK_SEED)
    reference.open(ONE_CLICK_CELL)
    assert reference.won and reference.stats().bbbv == 1 and reference.ms == 0
    site = make_site(sqlite_url(tmp_path), win_rate_minimum=1)
    farmer, player = site.sign_up("farmer"), site.sign_up("player")
    monkeypatch.setattr(games_module.secrets, "randbits", lambda bits: ONE_CLICK_SEED)
    game = site.new_game(farmer, mode="ranked", preset="beginner")
    monkeypatch.undo()
    won = site.move(farmer, game["id"], "open", ONE_CLICK_CELL).json()
    assert won["state"] == "won" and won["ms"] == 0 and won["end"]["stats"]["bbbv"] == 1
    honest = win_beginner(site, player)
    times = ladder(site, "time")
    assert times["minimum_bbbv"] == 2
    assert [row["player"] for row in times["rows"]] == ["player"]
    assert times["rows"][0]["bbbv"] == honest["end"]["stats"]["bbbv"] >= 2
    assert [row["player"] for row in ladder(site, "3bv/s")["rows"]] == ["player"]
    rates = {row["player"]: row["won"] for row in ladder(site, "win-rate")["rows"]}
    assert rates == {"farmer": 1, "player": 1}  # a win all the same


def ladder(site: Site, board: str) -> dict:
    answer = site.client.get("/api/ladders/beginner/modern", params={"board": board})
    assert answer.status_code == 200, answer.text
    return answer.json()


def win_beginner(site: Site, headers: dict[str, str]) -> dict:
    """Ranked beginner games until one is won with a 3BV of 2 or more (resigning the rest)."""
    import json

    from minesweeper.ladder.schema import Game

    for _ in range(20):
        game = site.new_game(headers, mode="ranked", preset="beginner")
        answer = site.move(headers, game["id"], "open", 40).json()
        with site.service.transaction() as db:
            mines = set(json.loads(db.get(Game, game["id"]).board))
        for cell in sorted(set(range(81)) - mines):
            if answer["state"] != "playing":
                break
            site.clock.now += 1
            answer = site.move(headers, game["id"], "open", cell).json()
        if answer["end"]["stats"]["bbbv"] >= 2:
            return answer
    raise AssertionError("no beginner board of 3BV 2 or more in 20 deals")


def test_a_person_is_dealt_games_only_so_fast(tmp_path) -> None:
    # F10: 851 ranked games were dealt and resigned in 30 s, none refused.
    site = make_site(
        sqlite_url(tmp_path),
        games_per_account=RateLimit(10, 3600),
        games_per_address=RateLimit(15, 3600),
    )
    farmer = site.sign_up("farmer")
    for _ in range(10):
        game = site.new_game(farmer, mode="ranked", preset="beginner")
        assert site.client.post(f"/api/games/{game['id']}/resign", headers=farmer).is_success
    refused = site.client.post("/api/games", json={"mode": "ranked"}, headers=farmer)
    assert refused.status_code == 429 and int(refused.headers["Retry-After"]) > 0
    # A second account from the same address has the address's remainder only...
    second = site.sign_up("second")
    statuses = [
        site.client.post("/api/games", json={"mode": "practice"}, headers=second).status_code
        for _ in range(6)
    ]
    assert statuses == [201] * 5 + [429]
    # ...while an account elsewhere is not held back by them.
    elsewhere = TestClient(site.client.app, client=("198.51.100.7", 50000))
    answer = elsewhere.post("/api/sessions", json={"name": "farmer", "password": PASSWORD})
    other = {"Authorization": f"Bearer {answer.json()['token']}"}
    assert elsewhere.post("/api/games", json={}, headers=other).status_code == 429  # the account's
    site.clock.now += 3601
    assert site.client.post("/api/games", json={}, headers=farmer).status_code == 201


def test_bots_are_dealt_as_fast_as_they_play(tmp_path) -> None:
    site = make_site(sqlite_url(tmp_path), games_per_account=RateLimit(2, 3600))
    with site.service.transaction() as db:
        robot = {"Authorization": f"Bearer {site.service.accounts.bot_token(db, 'robot').token}"}
    for _ in range(5):
        game = site.new_game(robot, mode="ranked", preset="beginner")
        assert site.client.post(f"/api/games/{game['id']}/resign", headers=robot).is_success


@pytest.mark.parametrize("mode", ["ranked", "daily"])
def test_a_started_game_left_counts_as_not_won(tmp_path, mode: str) -> None:
    site = make_site(sqlite_url(tmp_path), win_rate_minimum=1)
    headers = site.sign_up("quitter")
    game = site.new_game(headers, mode=mode, preset="beginner")
    first = game["first_cell"] if mode == "daily" else 40
    site.move(headers, game["id"], "open", first)
    site.client.post(f"/api/games/{game['id']}/resign", headers=headers)
    path = "/api/ladders/beginner/modern" if mode == "ranked" else "/api/daily/beginner/modern"
    rows = site.client.get(path, params={"board": "win-rate"}).json()["rows"]
    assert [(row["player"], row["played"], row["won"]) for row in rows] == [("quitter", 1, 0)]
