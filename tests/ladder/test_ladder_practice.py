"""Practice on the ladder: guests, and the help (odds, hint, computer) ranked games refuse."""

from __future__ import annotations

import itertools
import threading
import time

import pytest
from ladder_helpers import Site, make_site, sqlite_url

from minesweeper.ladder import games as games_module


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


# -- no-guess deals are heavy work: bounded in time and in number ------------------------------


def test_a_no_guess_deal_gives_up_within_the_ladders_bound(tmp_path) -> None:
    # A guest's no-guess first open searched for up to 30 s of CPU.
    site = make_site(sqlite_url(tmp_path), no_guess_seconds=0.3)
    headers = guest(site)
    game = site.new_game(
        headers, mode="practice", rows=100, cols=100, mines=2600, no_guess=True, seed=1
    )
    answer = site.move(headers, game["id"], "open", 5050)
    assert answer.status_code == 409
    assert "in 0.3 s" in answer.json()["error"]["message"]
    state = site.client.get(f"/api/games/{game['id']}", headers=headers).json()
    assert state["started"] is False and state["moves"] == 0  # nothing lost: try again


def test_no_guess_deals_at_once_take_a_slot_each_and_leave_moves_alone(
    tmp_path, monkeypatch
) -> None:
    # Six no-guess first opens at once starved every other player's deal.
    site = make_site(sqlite_url(tmp_path), cpu_slots=1, cpu_wait_seconds=0.3)
    real = games_module.no_guess_board
    refused = threading.Semaphore(0)

    searches = itertools.count()

    def slow_search(*args, **named):
        # The first search is a hard one, holding its thread and its slot until the five
        # others are refused (a fixed sleep let a late one through on a loaded machine);
        # a game rebuilt later searches its board again, at once.
        if next(searches) == 0:
            for _ in range(5):
                refused.acquire(timeout=10)
        return real(*args, **named)

    monkeypatch.setattr(games_module, "no_guess_board", slow_search)
    guests = [guest(site) for _ in range(6)]
    deals = [site.new_game(h, mode="practice", no_guess=True, seed=i) for i, h in enumerate(guests)]
    other = guest(site)
    plain = site.new_game(other, mode="practice", preset="expert")
    answers: dict[int, int] = {}

    def first_open(index: int) -> None:
        answers[index] = site.move(guests[index], deals[index]["id"], "open", 40).status_code
        if answers[index] == 503:
            refused.release()

    threads = [threading.Thread(target=first_open, args=(i,)) for i in range(6)]
    for thread in threads:
        thread.start()
    time.sleep(0.1)
    assert site.move(other, plain["id"], "open", 100).status_code == 200  # moves need no slot
    for thread in threads:
        thread.join()
    assert sorted(answers.values()) == [200] + [503] * 5
