"""The shared boards beside the daily one (a weekly board with its ranking), the players on
their way to the win-rate ladder's minimum, and a player's figures for every kind of game."""

from __future__ import annotations

import json
from datetime import UTC, datetime

import pytest
from ladder_helpers import Site, make_site, sqlite_url

from minesweeper.ladder.categories import board_period, period_end_ms
from minesweeper.ladder.config import RateLimit
from minesweeper.ladder.schema import Game
from minesweeper.ladder.verify import verify


@pytest.fixture
def site(tmp_path) -> Site:
    return make_site(sqlite_url(tmp_path), win_rate_minimum=3)


def mines_of(site: Site, game_id: str) -> set[int]:
    with site.service.transaction() as db:
        return set(json.loads(db.get(Game, game_id).board))


def play_out(site: Site, headers: dict[str, str], game: dict, win: bool = True) -> dict:
    """Open where the game must be opened first (a shared board's ringed cell), then every
    safe cell (a win), or a mine (a loss); the clock moves 1 s per move."""
    first = game["first_cell"] if game["first_cell"] is not None else game["topology"]["size"] // 2
    answer = site.move(headers, game["id"], "open", first).json()
    mines = mines_of(site, game["id"])
    if not win:
        return site.move(headers, game["id"], "open", min(mines)).json()
    for cell in range(game["topology"]["size"]):
        if answer["state"] != "playing":
            break
        if cell not in mines:
            site.clock.now += 1
            answer = site.move(headers, game["id"], "open", cell).json()
    return answer


def test_board_periods_are_utc_days_and_iso_weeks() -> None:
    monday = int(datetime(2026, 2, 16, 0, 0, tzinfo=UTC).timestamp() * 1000)
    assert board_period("daily", monday) == "2026-02-16"
    assert board_period("weekly", monday) == "2026-W08"
    assert board_period("weekly", monday - 1) == "2026-W07"  # Sunday night still week 7
    new_year = int(datetime(2027, 1, 1, 12, tzinfo=UTC).timestamp() * 1000)
    assert board_period("weekly", new_year) == "2026-W53"  # ISO weeks: the year's last


def test_a_period_ends_at_midnight_utc_after_its_last_day() -> None:
    def iso(ms: int) -> str:
        return datetime.fromtimestamp(ms / 1000, UTC).isoformat()

    assert iso(period_end_ms("2026-02-14")) == "2026-02-15T00:00:00+00:00"
    assert iso(period_end_ms("2026-W07")) == "2026-02-16T00:00:00+00:00"  # the Monday after
    assert iso(period_end_ms("2026-W53")) == "2027-01-04T00:00:00+00:00"


def test_a_weekly_board_stays_hidden_until_its_week_ends(site: Site) -> None:
    # Issue 44 F1 for the weekly board: a scout's lost game, or its replay, would map the
    # board everyone plays all week for a second account.
    scout = site.sign_up("scout")
    game = site.new_game(scout, mode="weekly", preset="expert", rules="modern")
    site.move(scout, game["id"], "open", game["first_cell"])
    mines = mines_of(site, game["id"])
    lost = site.move(scout, game["id"], "open", min(mines)).json()
    week_ends = datetime.fromtimestamp(period_end_ms(game["day"]) / 1000, UTC)
    assert lost["end"]["mines"] == lost["end"]["exploded"] == [min(mines)]
    assert lost["end"]["hidden_until"] == week_ends.isoformat(timespec="milliseconds")
    for headers in ({}, scout):
        answer = site.client.get(f"/api/games/{game['id']}/replay", headers=headers)
        assert answer.status_code == 409 and game["day"] in answer.json()["error"]["message"]
    site.clock.now = week_ends.timestamp() - 1  # the week's last second: still hidden
    assert site.client.get(f"/api/games/{game['id']}/replay").status_code == 409
    site.clock.now = week_ends.timestamp()
    state = site.client.get(f"/api/games/{game['id']}", headers=scout).json()
    assert set(state["end"]["mines"]) == mines and state["end"]["hidden_until"] is None
    assert site.client.get(f"/api/games/{game['id']}/replay").status_code == 200


def test_a_weekly_board_refuses_the_aids_and_counts_among_games_dealt(tmp_path) -> None:
    site = make_site(sqlite_url(tmp_path), games_per_account=RateLimit(2, 3600))
    alice = site.sign_up("alice")
    game = site.new_game(alice, mode="weekly", preset="beginner")
    site.move(alice, game["id"], "open", game["first_cell"])
    for aid in ("hint", "odds", "computer"):
        assert site.client.post(f"/api/games/{game['id']}/{aid}", headers=alice).status_code == 403
    site.client.post(f"/api/games/{game['id']}/resign", headers=alice)
    site.new_game(alice, mode="ranked", preset="beginner")
    third = site.client.post("/api/games", json={"mode": "daily"}, headers=alice)
    assert third.status_code == 429


def test_the_weekly_board_is_everyone_s_for_a_week_played_once_and_ranked(site: Site) -> None:
    boards, results = [], {}
    for name in ("alice", "bob"):
        headers = site.sign_up(name)
        game = site.new_game(headers, mode="weekly", preset="beginner", rules="modern")
        assert game["mode"] == "weekly" and game["first_cell"] == 2 * 9 + 2
        assert game["day"] == board_period("weekly", int(site.clock.now * 1000))
        assert site.move(headers, game["id"], "open", game["first_cell"] + 1).status_code == 400
        results[name] = play_out(site, headers, game)
        boards.append(mines_of(site, game["id"]))
        again = site.client.post("/api/games", json={"mode": "weekly"}, headers=headers)
        assert again.status_code == 409 and "board of" in again.json()["error"]["message"]
    assert boards[0] == boards[1]
    # Not the day's board: the weekly one is a deal of its own.
    carol = site.sign_up("carol")
    daily = site.new_game(carol, mode="daily", preset="beginner", rules="modern")
    site.move(carol, daily["id"], "open", daily["first_cell"])
    assert mines_of(site, daily["id"]) != boards[0]
    # Its ranking, apart from the ranked ladder's and the day's.
    ranking = site.client.get("/api/weekly/beginner/modern").json()
    assert ranking["mode"] == "weekly" and ranking["day"] == game["day"]
    assert sorted(row["player"] for row in ranking["rows"]) == ["alice", "bob"]
    assert site.client.get("/api/ladders/beginner/modern").json()["rows"] == []
    assert site.client.get("/api/daily/beginner/modern").json()["rows"] == []
    assert site.client.get("/api/weekly/beginner/modern?week=2026-7").status_code == 422
    # A week later: a new board, which alice may play.
    site.clock.now += 7 * 24 * 3600
    later = site.new_game(site.sign_up("dave"), mode="weekly", preset="beginner")
    assert later["day"] != game["day"]
    with site.service.transaction() as db:
        found = list(verify(db, site.service.games))
    assert found and all(item.problems == [] for item in found)
    assert {item.category for item in found} == {"beginner"}


@pytest.mark.slow  # 2.5 s or more end to end
def test_the_win_rate_ladder_names_those_on_their_way(site: Site) -> None:
    alice, bob = site.sign_up("alice"), site.sign_up("bob")
    for _ in range(3):
        play_out(site, alice, site.new_game(alice, mode="ranked", preset="beginner"))
    play_out(site, bob, site.new_game(bob, mode="ranked", preset="beginner"), win=False)
    play_out(site, bob, site.new_game(bob, mode="ranked", preset="beginner"))
    ladder = site.client.get("/api/ladders/beginner/modern", params={"board": "win-rate"}).json()
    assert ladder["minimum_games"] == 3
    assert [row["player"] for row in ladder["rows"]] == ["alice"]
    assert ladder["pending"] == [{"player": "bob", "played": 2, "won": 1}]
    assert site.client.get("/api/ladders/beginner/modern").json()["pending"] is None


@pytest.mark.slow  # 2.5 s or more end to end
def test_a_player_s_page_has_figures_for_every_kind_of_game(site: Site) -> None:
    alice = site.sign_up("alice")
    play_out(site, alice, site.new_game(alice, mode="ranked", preset="beginner"))
    play_out(site, alice, site.new_game(alice, mode="daily", preset="beginner"))
    play_out(site, alice, site.new_game(alice, mode="weekly", preset="expert"), win=False)
    play_out(site, alice, site.new_game(alice, topology="hex"))
    helped = site.new_game(alice, topology="hex")
    site.move(alice, helped["id"], "open", 40)
    assert site.client.post(f"/api/games/{helped['id']}/hint", headers=alice).status_code == 200
    play_out(site, alice, {**helped, "first_cell": 40})
    page = site.client.get("/api/players/alice").json()
    kinds = page["kinds"]
    assert list(kinds) == ["ranked", "daily", "weekly", "practice"]
    assert page["categories"] == kinds["ranked"]
    (ranked,) = kinds["ranked"]
    (daily,) = kinds["daily"]
    (weekly,) = kinds["weekly"]
    assert (ranked["category"], ranked["games"], ranked["wins"]) == ("beginner", 1, 1)
    assert (daily["category"], daily["games"], daily["wins"]) == ("beginner", 1, 1)
    assert (weekly["category"], weekly["games"], weekly["wins"]) == ("expert", 1, 0)
    practice = {(item["category"], item["play"]): item for item in kinds["practice"]}
    assert set(practice) == {("hex beginner", "person"), ("hex beginner", "assisted")}
    assert all(item["games"] == 1 for item in practice.values())
    assert {game["mode"] for game in page["games"]} == {"ranked", "daily", "weekly"}
    assert {game["day"] is None for game in page["games"] if game["mode"] == "ranked"} == {True}
