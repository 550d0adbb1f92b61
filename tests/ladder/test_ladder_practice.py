"""Practice on the ladder: guests, and the help (odds, hint, computer) ranked games refuse."""

from __future__ import annotations

import pytest
from ladder_helpers import Site, make_site, sqlite_url


@pytest.fixture
def site(tmp_path) -> Site:
    return make_site(sqlite_url(tmp_path))


def guest(site: Site) -> dict[str, str]:
    answer = site.client.post("/api/guests")
    assert answer.status_code == 201
    assert answer.json()["player"]["guest"] is True
    assert answer.json()["player"]["name"].startswith("guest-")
    return {"Authorization": f"Bearer {answer.json()['token']}"}


def test_guests_practise_but_never_rank(site: Site) -> None:
    headers = guest(site)
    game = site.new_game(headers, mode="practice", preset="beginner")
    assert site.move(headers, game["id"], "open", 40).status_code == 200
    for mode in ("ranked", "daily"):
        answer = site.client.post("/api/games", json={"mode": mode}, headers=headers)
        assert answer.status_code == 403


def test_guest_names_cannot_be_taken(site: Site) -> None:
    answer = site.client.post("/api/accounts", json={"name": "guest-1234abcd", "password": "x" * 9})
    assert answer.status_code == 400


def test_the_odds_and_hints_are_noted_and_exact(site: Site) -> None:
    headers = site.sign_up("alice")
    game = site.new_game(headers, mode="practice", preset="beginner", rules="classic", seed=11)
    before = site.client.post(f"/api/games/{game['id']}/hint", headers=headers).json()
    assert before["safe"] is True  # the first click is protected
    opened = dict(map(tuple, site.move(headers, game["id"], "open", 0).json()["opened"]))
    odds = site.client.post(f"/api/games/{game['id']}/odds", headers=headers).json()["odds"]
    assert all((odds[cell] is None) == (cell in opened) for cell in range(81))
    assert all(0 <= p <= 1 for p in odds if p is not None)
    hint = site.client.post(f"/api/games/{game['id']}/hint", headers=headers).json()
    assert hint["cell"] not in opened and hint["p"] == min(p for p in odds if p is not None)
    state = site.client.get(f"/api/games/{game['id']}", headers=headers).json()
    assert [kind for kind, _ in state["assists"]] == ["hint", "odds"]


def test_the_computer_plays_a_practice_game_to_its_end(site: Site) -> None:
    headers = site.sign_up("alice")
    game = site.new_game(headers, mode="practice", preset="beginner", seed=5)
    for _ in range(200):
        answer = site.client.post(f"/api/games/{game['id']}/computer", headers=headers)
        assert answer.status_code == 200, answer.text
        if answer.json()["state"] != "playing":
            break
    assert answer.json()["end"] is not None
    state = site.client.get(f"/api/games/{game['id']}", headers=headers).json()
    assert state["assists"][0][0] == "computer"
    assert state["moves"] >= len(answer.json()["moves"])
    replay = site.client.get(f"/api/games/{game['id']}/replay").json()
    assert replay["assists"] == [["computer", 0]]
    assert replay["result"]["won"] == (state["state"] == "won")


def test_ranked_games_get_no_help(site: Site) -> None:
    headers = site.sign_up("alice")
    game = site.new_game(headers, mode="ranked", preset="beginner")
    site.move(headers, game["id"], "open", 40)
    for aid in ("hint", "odds", "computer"):
        answer = site.client.post(f"/api/games/{game['id']}/{aid}", headers=headers)
        assert answer.status_code == 403
    state = site.client.get(f"/api/games/{game['id']}", headers=headers).json()
    assert state["assists"] == [] and state["moves"] == 1
