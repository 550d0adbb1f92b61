"""The ladder's HTTP API on SQLite: accounts, games dealt and judged by the server, errors."""

from __future__ import annotations

import json

import pytest
from ladder_helpers import PASSWORD, Site, make_site, sqlite_url
from sqlalchemy import func, select

from minesweeper.intervals import wilson_interval
from minesweeper.ladder.schema import Game, Move
from minesweeper.play.history import Play, PlayedGame, figures
from minesweeper.play.session import Settings
from minesweeper.play.stats import Clicks, GameStats


@pytest.fixture
def site(tmp_path) -> Site:
    return make_site(sqlite_url(tmp_path))


def mines_of(site: Site, game_id: str) -> set[int]:
    """The mines of a started game, read from the database (what no client can do)."""
    with site.service.transaction() as db:
        board = db.get(Game, game_id).board
    assert board is not None
    return set(json.loads(board))


def stored_moves(site: Site, game_id: str) -> int:
    with site.service.transaction() as db:
        return db.scalar(select(func.count()).select_from(Move).where(Move.game_id == game_id))


def win(site: Site, headers: dict[str, str], game: dict) -> dict:
    """Open the middle, then every safe cell left, the clock moving 1 s per move."""
    size = game["topology"]["size"]
    answer = site.move(headers, game["id"], "open", size // 2).json()
    mines = mines_of(site, game["id"])
    opened = {cell for cell, _ in answer["opened"]}
    for cell in range(size):
        if cell in mines or cell in opened:
            continue
        site.clock.now += 1
        answer = site.move(headers, game["id"], "open", cell).json()
        opened |= {c for c, _ in answer["opened"]}
        if answer["state"] != "playing":
            break
    return answer


# -- accounts -----------------------------------------------------------------------------------


def test_sign_up_sign_in_and_sign_out(site: Site) -> None:
    headers = site.sign_up("alice")
    assert site.client.get("/api/me", headers=headers).json() == {
        "name": "alice",
        "bot": False,
        "guest": False,
    }
    answer = site.client.post("/api/sessions", json={"name": "ALICE", "password": PASSWORD})
    assert answer.status_code == 200
    second = {"Authorization": f"Bearer {answer.json()['token']}"}
    assert site.client.delete("/api/sessions/current", headers=headers).status_code == 204
    signed_out = site.client.get("/api/me", headers=headers)
    assert signed_out.status_code == 401
    assert "signed out" in signed_out.json()["error"]["message"]
    assert site.client.get("/api/me", headers=second).status_code == 200


def test_wrong_password_and_unknown_name_read_alike(site: Site) -> None:
    site.sign_up("alice")
    wrong = site.client.post("/api/sessions", json={"name": "alice", "password": "not it at all"})
    unknown = site.client.post("/api/sessions", json={"name": "nobody", "password": PASSWORD})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()


def test_forged_and_missing_tokens_are_refused(site: Site) -> None:
    site.sign_up("alice")
    for headers in ({}, {"Authorization": "Bearer forged"}, {"Authorization": "Basic eDp5"}):
        answer = site.client.post("/api/games", json={}, headers=headers)
        assert answer.status_code == 401, headers
        assert set(answer.json()) == {"error"}


def test_sessions_expire(site: Site) -> None:
    headers = site.sign_up("alice")
    site.clock.now += site.service.config.session_seconds + 1
    answer = site.client.get("/api/me", headers=headers)
    assert answer.status_code == 401
    assert "expired" in answer.json()["error"]["message"]


@pytest.mark.parametrize(
    "name",
    ["ab", "x" * 25, "<script>", "al ice", "-alice", "alice-", "élodie", "computer", "Admin"],
)
def test_names_are_validated(site: Site, name: str) -> None:
    answer = site.client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "bad_request"


def test_names_are_unique_whatever_the_case(site: Site) -> None:
    site.sign_up("alice")
    answer = site.client.post("/api/accounts", json={"name": "Alice", "password": PASSWORD})
    assert answer.status_code == 409


def test_short_passwords_are_refused(site: Site) -> None:
    answer = site.client.post("/api/accounts", json={"name": "alice", "password": "short"})
    assert answer.status_code == 400


def test_sign_up_and_sign_in_are_rate_limited(site: Site) -> None:
    limit = site.service.config.sign_up_per_address.count
    for number in range(limit):
        site.sign_up(f"player{number}")
    answer = site.client.post("/api/accounts", json={"name": "oneTooMany", "password": PASSWORD})
    assert answer.status_code == 429
    assert int(answer.headers["Retry-After"]) > 0
    failures = site.service.config.sign_in_failures_per_address.free
    for _ in range(failures):
        bad = site.client.post("/api/sessions", json={"name": "player0", "password": "wrong one"})
        assert bad.status_code == 401
    # This address is the one guessing: from it, even the right password waits now.
    locked = site.client.post("/api/sessions", json={"name": "player0", "password": PASSWORD})
    assert locked.status_code == 429 and locked.headers["Retry-After"] == "1"
    site.clock.now += 1
    again = site.client.post("/api/sessions", json={"name": "player0", "password": PASSWORD})
    assert again.status_code == 200


# -- games --------------------------------------------------------------------------------------


def test_a_ranked_game_tells_nothing_of_the_mines_until_it_ends(site: Site) -> None:
    headers = site.sign_up("alice")
    game = site.new_game(headers, mode="ranked", preset="beginner", rules="modern")
    assert game["category"] == "beginner"  # as minesweeper.variant writes it
    assert game["end"] is None and game["opened"] == []
    first = site.move(headers, game["id"], "open", 40).json()
    assert first["opened"][0] == [40, 0]  # modern: the first click opens an area
    state = site.client.get(f"/api/games/{game['id']}", headers=headers).json()
    assert sorted(map(tuple, state["opened"])) == sorted(map(tuple, first["opened"]))
    assert "mines" not in json.dumps({k: v for k, v in state.items() if k != "settings"})
    last = win(site, headers, game)
    assert last["state"] == "won"
    assert set(last["end"]["mines"]) == mines_of(site, game["id"])
    assert last["end"]["stats"]["bbbv"] > 0
    assert last["ms"] == last["end"]["ms"] > 0


def test_flags_and_chords(site: Site) -> None:
    headers = site.sign_up("alice")
    game = site.new_game(headers, mode="ranked", preset="beginner", rules="modern")
    opened = dict(map(tuple, site.move(headers, game["id"], "open", 40).json()["opened"]))
    mines = mines_of(site, game["id"])
    neighbours = game["topology"]["neighbours"]
    number = next(
        cell
        for cell, count in opened.items()
        if count and any(n not in opened and n not in mines for n in neighbours[cell])
    )
    for mine in (n for n in neighbours[number] if n in mines):
        assert site.move(headers, game["id"], "flag", mine).json()["flagged"] is True
    chord = site.move(headers, game["id"], "chord", number).json()
    assert chord["kind"] == "chord"
    expected = {n for n in neighbours[number] if n not in mines and n not in opened}
    assert expected <= {cell for cell, _ in chord["opened"]}
    lifted = site.move(headers, game["id"], "flag", next(iter(mines & set(neighbours[number]))))
    assert lifted.json()["kind"] == "unflag" and lifted.json()["flagged"] is False


def test_a_loss_shows_the_mine_that_went_off_and_wrong_flags(site: Site) -> None:
    headers = site.sign_up("alice")
    game = site.new_game(headers, mode="ranked", preset="beginner", rules="classic")
    opened = site.move(headers, game["id"], "open", 0).json()["opened"]
    mines = mines_of(site, game["id"])
    safe = next(c for c in range(81) if c not in mines and c not in {o for o, _ in opened})
    site.move(headers, game["id"], "flag", safe)
    mine = min(mines)
    lost = site.move(headers, game["id"], "open", mine).json()
    assert lost["state"] == "lost" and lost["opened"] == []
    assert lost["end"]["exploded"] == [mine]
    assert lost["end"]["wrong_flags"] == [safe]


def test_another_players_game_is_forbidden_and_nothing_is_stored(site: Site) -> None:
    alice, bob = site.sign_up("alice"), site.sign_up("bob")
    game = site.new_game(alice, mode="ranked", preset="beginner")
    answer = site.move(bob, game["id"], "open", 40)
    assert answer.status_code == 403
    assert site.client.get(f"/api/games/{game['id']}", headers=bob).status_code == 403
    assert stored_moves(site, game["id"]) == 0


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"kind": "open", "cell": 81}, 400),
        ({"kind": "open", "cell": -1}, 400),
        ({"kind": "open", "cell": 2**40}, 422),
        ({"kind": "dig", "cell": 3}, 422),
        ({"kind": "open"}, 422),
        ({"kind": "open", "cell": "3"}, 422),
        ({"kind": "open", "cell": 3, "extra": 1}, 422),
        ({"kind": "open", "cell": 3, "expect": 5}, 409),
    ],
)
def test_bad_moves_get_one_error_and_store_nothing(site: Site, body: dict, status: int) -> None:
    headers = site.sign_up("alice")
    game = site.new_game(headers, mode="ranked", preset="beginner")
    answer = site.client.post(f"/api/games/{game['id']}/moves", json=body, headers=headers)
    assert answer.status_code == status
    assert set(answer.json()) == {"error"} and answer.json()["error"]["message"]
    assert stored_moves(site, game["id"]) == 0


def test_malformed_json_gets_one_error(site: Site) -> None:
    headers = site.sign_up("alice")
    game = site.new_game(headers, mode="ranked", preset="beginner")
    for data in (b"{", b"[]", b"\xff\xfe", b'{"kind": "open", "cell": 1e999}'):
        answer = site.client.post(
            f"/api/games/{game['id']}/moves",
            content=data,
            headers={**headers, "Content-Type": "application/json"},
        )
        assert answer.status_code == 422, data
        assert set(answer.json()) == {"error"}
    assert stored_moves(site, game["id"]) == 0


def test_moves_after_the_end_are_refused(site: Site) -> None:
    headers = site.sign_up("alice")
    game = site.new_game(headers, mode="ranked", preset="beginner")
    site.move(headers, game["id"], "open", 40)
    mine = min(mines_of(site, game["id"]))
    assert site.move(headers, game["id"], "open", mine).json()["state"] == "lost"
    before = stored_moves(site, game["id"])
    for kind in ("open", "flag", "chord"):
        answer = site.move(headers, game["id"], kind, 0)
        assert answer.status_code == 409
    assert stored_moves(site, game["id"]) == before


def test_a_move_sent_twice_with_expect_is_made_once(site: Site) -> None:
    headers = site.sign_up("alice")
    game = site.new_game(headers, mode="ranked", preset="beginner")
    assert site.move(headers, game["id"], "flag", 0, expect=0).status_code == 200
    assert site.move(headers, game["id"], "flag", 0, expect=0).status_code == 409
    state = site.client.get(f"/api/games/{game['id']}", headers=headers).json()
    assert state["flags"] == [0] and state["moves"] == 1


def test_ranked_games_take_no_seed_custom_size_or_topology(site: Site) -> None:
    headers = site.sign_up("alice")
    for body in (
        {"mode": "ranked", "seed": 3},
        {"mode": "ranked", "rows": 5},
        {"mode": "ranked", "topology": "hex"},
        {"mode": "ranked", "no_guess": True},
        {"mode": "ranked", "preset": "acm-10"},
        {"mode": "daily", "rules": "acm"},
    ):
        answer = site.client.post("/api/games", json=body, headers=headers)
        assert answer.status_code == 400, body


@pytest.mark.parametrize(
    "topology", ["square", "hex", "triangle", "parquet", "domino", "tromino", "tetromino", "graph"]
)
def test_practice_plays_every_topology_by_cell_id(site: Site, topology: str) -> None:
    headers = site.sign_up("alice")
    game = site.new_game(headers, mode="practice", topology=topology, seed=4)
    assert game["category"].startswith("practice ")
    assert game["settings"]["topology"] == topology
    shape = game["topology"]
    assert len(shape["neighbours"]) == shape["size"]
    assert (shape["layout"] is None) == (topology == "graph")
    first = site.move(headers, game["id"], "open", shape["size"] // 2).json()
    assert first["opened"] and first["opened"][0][0] == shape["size"] // 2


def test_practice_seeds_deal_again(site: Site) -> None:
    headers = site.sign_up("alice")
    boards = []
    for _ in range(2):
        game = site.new_game(headers, mode="practice", preset="expert", seed=99)
        boards.append(site.move(headers, game["id"], "open", 100).json()["opened"])
    assert boards[0] == boards[1]


def test_unfinished_games_are_limited_and_resigning_frees_one(tmp_path) -> None:
    site = make_site(sqlite_url(tmp_path), open_games=2)
    headers = site.sign_up("alice")
    first = site.new_game(headers, mode="ranked")
    site.new_game(headers, mode="ranked")
    assert site.client.post("/api/games", json={}, headers=headers).status_code == 409
    resigned = site.client.post(f"/api/games/{first['id']}/resign", headers=headers)
    assert resigned.json()["state"] == "resigned"
    assert site.client.post("/api/games", json={}, headers=headers).status_code == 201


def test_a_game_goes_on_in_a_new_process_on_the_same_database(tmp_path) -> None:
    url = sqlite_url(tmp_path)
    first = make_site(url)
    headers = first.sign_up("alice")
    game = first.new_game(headers, mode="ranked", preset="intermediate")
    opened = first.move(headers, game["id"], "open", 100).json()["opened"]
    closed = min(set(range(256)) - {cell for cell, _ in opened})
    first.move(headers, game["id"], "flag", closed)
    second = make_site(url, first.clock)  # nothing in memory: rebuilt from the stored moves
    state = second.client.get(f"/api/games/{game['id']}", headers=headers).json()
    assert sorted(map(tuple, state["opened"])) == sorted(map(tuple, opened))
    assert state["flags"] == [closed] and state["moves"] == 2
    # and moves made through either go on from the other's
    second.move(headers, game["id"], "flag", closed)
    assert first.client.get(f"/api/games/{game['id']}", headers=headers).json()["flags"] == []


def test_replays_and_verify(site: Site) -> None:
    from minesweeper.ladder.verify import verify
    from minesweeper.play.replay import Replay

    headers = site.sign_up("alice")
    game = site.new_game(headers, mode="ranked", preset="beginner")
    assert site.client.get(f"/api/games/{game['id']}/replay").status_code == 409
    last = win(site, headers, game)
    document = site.client.get(f"/api/games/{game['id']}/replay").json()
    replay = Replay.from_bytes(json.dumps(document).encode())
    assert replay.final.won and replay.final.ms == last["ms"] and replay.player == "alice"
    with site.service.transaction() as db:
        findings = list(verify(db, site.service.games))
    assert [(f.game, f.problems) for f in findings] == [(game["id"], [])]
    # A result edited in the database is caught.
    with site.service.transaction() as db:
        db.get(Game, game["id"]).ms = 1
    with site.service.transaction() as db:
        (finding,) = verify(db, site.service.games)
    assert any("took" in problem for problem in finding.problems)


def test_the_daily_board_is_the_same_for_everyone_and_played_once(site: Site) -> None:
    boards = []
    for name in ("alice", "bob"):
        headers = site.sign_up(name)
        game = site.new_game(headers, mode="daily", preset="intermediate", rules="modern")
        first = game["first_cell"]
        assert first == 2 * 16 + 2  # the preset's first click
        elsewhere = site.move(headers, game["id"], "open", first + 1)
        assert elsewhere.status_code == 400
        site.move(headers, game["id"], "open", first)
        boards.append(mines_of(site, game["id"]))
        again = site.client.post(
            "/api/games", json={"mode": "daily", "preset": "intermediate"}, headers=headers
        )
        assert again.status_code == 409
    assert boards[0] == boards[1]
    site.clock.now += 24 * 3600
    headers = site.sign_up("carol")
    game = site.new_game(headers, mode="daily", preset="intermediate", rules="modern")
    site.move(headers, game["id"], "open", game["first_cell"])
    assert mines_of(site, game["id"]) != boards[0]


def test_ladders_rank_each_players_best_people_and_bots_apart(tmp_path) -> None:
    site = make_site(sqlite_url(tmp_path), win_rate_minimum=2)
    alice, bob = site.sign_up("alice"), site.sign_up("bob")
    for headers in (alice, alice, bob):
        win(site, headers, site.new_game(headers, mode="ranked", preset="beginner"))
    lost = site.new_game(bob, mode="ranked", preset="beginner")
    site.move(bob, lost["id"], "open", 40)
    site.move(bob, lost["id"], "open", min(mines_of(site, lost["id"])))
    with site.service.transaction() as db:
        bot = site.service.accounts.bot_token(db, "robot")
    robot = {"Authorization": f"Bearer {bot.token}"}
    win(site, robot, site.new_game(robot, mode="ranked", preset="beginner"))

    def board(name: str, **query: str) -> dict:
        answer = site.client.get("/api/ladders/beginner/modern", params={"board": name, **query})
        assert answer.status_code == 200, answer.text
        return answer.json()

    times = board("time")["rows"]
    assert sorted(row["player"] for row in times) == ["alice", "bob"]  # one row each
    assert [row["ms"] for row in times] == sorted(row["ms"] for row in times)
    assert all(row["replay"] == f"/api/games/{row['game']}/replay" for row in times)
    assert [row["player"] for row in board("time", players="bots")["rows"]] == ["robot"]
    rates = {row["player"]: row for row in board("win-rate")["rows"]}
    assert rates["alice"]["win_rate"] == 1.0 and rates["bob"]["win_rate"] == 0.5
    assert {row["player"] for row in board("3bv/s", period="month")["rows"]} == {"alice", "bob"}
    site.clock.now += 40 * 24 * 3600  # next month: this month's ladder is empty
    assert board("time", period="month")["rows"] == []
    assert board("time")["rows"] == times
    assert site.client.get("/api/ladders/beginner/acm").status_code == 400
    assert site.client.get("/api/ladders/huge/modern").status_code == 400


def test_a_players_page(tmp_path) -> None:
    site = make_site(sqlite_url(tmp_path), win_rate_minimum=3)
    alice = site.sign_up("alice")
    first = win(site, alice, site.new_game(alice, mode="ranked", preset="beginner"))
    site.clock.now += 60
    left = site.new_game(alice, mode="ranked", preset="beginner")
    site.move(alice, left["id"], "open", 40)  # started, then resigned: a game not won
    assert site.client.post(f"/api/games/{left['id']}/resign", headers=alice).status_code == 200
    site.clock.now += 60
    last = win(site, alice, site.new_game(alice, mode="ranked", preset="beginner"))
    site.new_game(alice, mode="ranked", preset="expert")  # never started: not counted
    page = site.client.get("/api/players/ALICE").json()
    assert page["name"] == "alice" and page["bot"] is False
    (beginner,) = page["categories"]
    times = sorted([first["ms"], last["ms"]])
    rates = [first["end"]["stats"]["bbbv_per_second"], last["end"]["stats"]["bbbv_per_second"]]
    assert beginner["category"] == "beginner" and beginner["play"] == "person"
    assert (beginner["games"], beginner["wins"], beginner["abandoned"]) == (3, 2, 1)
    assert beginner["win_rate"] == round(2 / 3, 4)
    assert beginner["interval"] == [round(x, 4) for x in wilson_interval(2, 3)]
    assert (beginner["current_streak"], beginner["best_streak"]) == (1, 1)  # W, resigned, W
    assert (beginner["best_ms"], beginner["median_ms"]) == (times[0], sum(times) / 2)
    assert beginner["best_bbbv_per_second"] == pytest.approx(max(rates), abs=1e-4)
    # One arithmetic: the page is the history model's figures of the same games.
    (model,) = figures(
        PlayedGame.make(
            Settings().category(),
            "alice",
            Play.PERSON,
            GameStats(10, 10 if won else 0, Clicks(5), 1000, won),
            abandoned=not won,
        )
        for won in (True, False, True)
    )
    assert (model.games, model.wins, model.abandoned, model.current_streak) == (3, 2, 1, 1)
    assert beginner["interval"] == model.as_json()["interval"]
    # The win-rate ladder counts the same games the same way.
    ladder = site.client.get("/api/ladders/beginner/modern", params={"board": "win-rate"})
    (row,) = [row for row in ladder.json()["rows"] if row["player"] == "alice"]
    assert (row["played"], row["won"], row["win_rate"]) == (3, 2, beginner["win_rate"])
    assert [game["state"] for game in page["games"]] == ["won", "resigned", "won"]
    guest = site.client.post("/api/guests").json()["player"]["name"]
    assert site.client.get(f"/api/players/{guest}").status_code == 404
    assert site.client.get("/api/players/nobody").status_code == 404


def test_the_migrations_make_the_schema_the_code_declares(tmp_path) -> None:
    from alembic import command
    from alembic.autogenerate import compare_metadata
    from alembic.config import Config
    from alembic.migration import MigrationContext

    from minesweeper.ladder.database import MIGRATIONS, migrate, open_engine
    from minesweeper.ladder.schema import Base

    engine = open_engine(sqlite_url(tmp_path))
    migrate(engine)
    with engine.connect() as connection:
        assert compare_metadata(MigrationContext.configure(connection), Base.metadata) == []
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:  # and every migration goes back down
        config.attributes["connection"] = connection
        command.downgrade(config, "base")
    migrate(engine)  # and up again
    engine.dispose()


def test_an_answer_is_sent_only_once_its_transaction_is_committed(site: Site, monkeypatch) -> None:
    # One dependency opens a route's transaction and commits it: before the answer is sent,
    # so a commit that fails is an error, not a game or move answered and then lost.
    from ladder_helpers import TestClient
    from sqlalchemy.orm import Session

    headers = site.sign_up("alice")
    client = TestClient(site.client.app, raise_server_exceptions=False)

    def failing_commit(self: Session) -> None:
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(Session, "commit", failing_commit)
    answer = client.post("/api/games", json={"mode": "ranked"}, headers=headers)
    monkeypatch.undo()
    assert answer.status_code == 500
    with site.service.transaction() as db:
        assert db.scalar(select(func.count()).select_from(Game)) == 0
