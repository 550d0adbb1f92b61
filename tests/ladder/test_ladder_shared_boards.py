"""A daily board is everyone's that day: nothing shows its mines until the day ends, not even
to a player who has finished it (a scout's lost game would map the board for a second account)."""

from __future__ import annotations

import json

import pytest
from ladder_helpers import Site, make_site, sqlite_url

from minesweeper.ladder.schema import Game


@pytest.fixture
def site(tmp_path) -> Site:
    return make_site(sqlite_url(tmp_path))


def mines_of(site: Site, game_id: str) -> set[int]:
    """The test's oracle: the mines the server laid (read from its database)."""
    with site.service.transaction() as db:
        return set(json.loads(db.get(Game, game_id).board))


def midnight(site: Site) -> str:
    """The next midnight UTC after the site's clock, as the API writes times."""
    from datetime import UTC, datetime, timedelta

    today = datetime.fromtimestamp(site.clock.now, UTC).date()
    next_day = datetime(today.year, today.month, today.day, tzinfo=UTC) + timedelta(days=1)
    return next_day.isoformat(timespec="milliseconds")


def scout_loses(site: Site, headers: dict[str, str]) -> tuple[dict, dict, set[int], int]:
    """A scout opens today's expert daily where it must, flags a safe cell, opens a mine."""
    game = site.new_game(headers, mode="daily", preset="expert", rules="modern")
    opened = site.move(headers, game["id"], "open", game["first_cell"]).json()["opened"]
    mines = mines_of(site, game["id"])
    safe = min(set(range(480)) - mines - {cell for cell, _ in opened})
    site.move(headers, game["id"], "flag", safe)
    lost = site.move(headers, game["id"], "open", min(mines)).json()
    assert lost["state"] == "lost"
    return game, lost, mines, safe


def test_a_lost_daily_game_shows_nothing_of_the_board_until_the_day_ends(site: Site) -> None:
    # F1: a scout lost today's expert daily in 90 ms; its replay, public, showed every mine
    # of the board all players get that day; a second account won in 6 s and took rank 1.
    scout = site.sign_up("scout")
    game, lost, mines, safe = scout_loses(site, scout)
    end = lost["end"]
    assert end["mines"] == end["exploded"] == [min(mines)]
    assert end["wrong_flags"] == []  # else a flag not called wrong would be a mine found
    assert end["hidden_until"] == midnight(site)
    state = site.client.get(f"/api/games/{game['id']}", headers=scout).json()
    assert state["end"]["mines"] == [min(mines)] and state["end"]["wrong_flags"] == []
    for headers in ({}, scout):  # anyone, the player too
        answer = site.client.get(f"/api/games/{game['id']}/replay", headers=headers)
        assert answer.status_code == 409
        assert midnight(site) in answer.json()["error"]["message"]
    site.clock.now += 24 * 3600  # the day is over: the board is shown whole
    state = site.client.get(f"/api/games/{game['id']}", headers=scout).json()
    assert set(state["end"]["mines"]) == mines and state["end"]["wrong_flags"] == [safe]
    assert state["end"]["hidden_until"] is None
    replay = site.client.get(f"/api/games/{game['id']}/replay")
    assert replay.status_code == 200 and replay.json()["player"] == "scout"


def test_a_resigned_daily_game_has_no_replay_that_day(site: Site) -> None:
    scout = site.sign_up("scout")
    game = site.new_game(scout, mode="daily", preset="expert")
    site.move(scout, game["id"], "open", game["first_cell"])
    assert site.client.post(f"/api/games/{game['id']}/resign", headers=scout).status_code == 200
    assert site.client.get(f"/api/games/{game['id']}/replay").status_code == 409


def test_a_won_daily_game_shows_its_player_what_they_found(site: Site) -> None:
    alice = site.sign_up("alice")
    game = site.new_game(alice, mode="daily", preset="beginner")
    answer = site.move(alice, game["id"], "open", game["first_cell"]).json()
    mines = mines_of(site, game["id"])
    for cell in sorted(set(range(81)) - mines):
        if answer["state"] != "playing":
            break
        answer = site.move(alice, game["id"], "open", cell).json()
    assert answer["state"] == "won"
    assert set(answer["end"]["mines"]) == mines  # every closed cell: she knows them all
    assert site.client.get(f"/api/games/{game['id']}/replay").status_code == 409


def test_ranked_replays_show_as_soon_as_the_game_ends(site: Site) -> None:
    alice = site.sign_up("alice")
    game = site.new_game(alice, mode="ranked", preset="beginner")
    site.move(alice, game["id"], "open", 40)
    lost = site.move(alice, game["id"], "open", min(mines_of(site, game["id"]))).json()
    assert set(lost["end"]["mines"]) == mines_of(site, game["id"])
    assert lost["end"]["hidden_until"] is None
    assert site.client.get(f"/api/games/{game['id']}/replay").status_code == 200
