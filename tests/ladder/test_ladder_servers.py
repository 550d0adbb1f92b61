"""Real `ladder serve` processes on SQLite and PostgreSQL: kill -9 mid-game, two servers, verify.

Each test starts uvicorn in a subprocess on a loopback port, as a user would.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from ladder_servers import ServerProcess, postgres  # noqa: F401 (a fixture)
from sqlalchemy import select

from minesweeper.ladder.database import open_engine
from minesweeper.ladder.schema import Game

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'ladder.sqlite3'}"
    return request.getfixturevalue("postgres").new_database()


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[ServerProcess]]:
    started: list[ServerProcess] = []
    yield started
    for server in started:
        server.stop()


def serve(servers: list[ServerProcess], database: str, tmp_path: Path) -> ServerProcess:
    server = ServerProcess(database, tmp_path).start()
    servers.append(server)
    return server


def sign_up(url: str, name: str) -> dict[str, str]:
    answer = httpx.post(f"{url}/api/accounts", json={"name": name, "password": "long enough"})
    assert answer.status_code == 201, answer.text
    return {"Authorization": f"Bearer {answer.json()['token']}"}


def mines(database: str, game: str) -> set[int]:
    engine = open_engine(database)
    try:
        with engine.connect() as connection:
            board = connection.scalar(select(Game.board).where(Game.id == game))
    finally:
        engine.dispose()
    return set(json.loads(board))


@pytest.mark.slow
def test_kill_9_mid_game_loses_no_move_and_the_games_go_on(
    database: str, servers: list[ServerProcess], tmp_path: Path
) -> None:
    first = serve(servers, database, tmp_path)
    headers = sign_up(first.url, "alice")
    games = []
    closed: dict[str, int] = {}  # a cell the opening left closed, flagged and unflagged
    for _ in range(3):
        game = httpx.post(
            f"{first.url}/api/games", json={"mode": "ranked", "preset": "beginner"}, headers=headers
        ).json()
        opened = httpx.post(
            f"{first.url}/api/games/{game['id']}/moves",
            json={"kind": "open", "cell": 40},
            headers=headers,
        ).json()["opened"]
        games.append(game["id"])
        closed[game["id"]] = max(set(range(81)) - {cell for cell, _ in opened})
    answered = dict.fromkeys(games, 1)
    going = threading.Event()

    def hammer() -> None:  # flag toggles on every game, as fast as the server answers
        with httpx.Client(headers=headers, timeout=5) as client:
            while True:
                for game in games:
                    try:
                        answer = client.post(
                            f"{first.url}/api/games/{game}/moves",
                            json={"kind": "flag", "cell": closed[game]},
                        )
                    except httpx.HTTPError:
                        return
                    answered[game] = answer.json()["number"]
                    if min(answered.values()) > 5:
                        going.set()

    thread = threading.Thread(target=hammer)
    thread.start()
    assert going.wait(30)
    first.kill()  # mid-stream: some request is surely in flight
    thread.join(30)
    second = serve(servers, database, tmp_path)
    for game in games:
        state = httpx.get(f"{second.url}/api/games/{game}", headers=headers).json()
        # Every answered move is stored; at most the one in flight was stored unanswered.
        assert answered[game] <= state["moves"] <= answered[game] + 1
        assert state["flags"] == ([closed[game]] if state["moves"] % 2 == 0 else [])
        if state["flags"]:
            httpx.post(
                f"{second.url}/api/games/{game}/moves",
                json={"kind": "flag", "cell": closed[game]},
                headers=headers,
            ).raise_for_status()
        safe = sorted(set(range(81)) - mines(database, game) - {c for c, _ in state["opened"]})
        last = None
        for cell in safe:  # the game goes on, through the new process, to a win
            last = httpx.post(
                f"{second.url}/api/games/{game}/moves",
                json={"kind": "open", "cell": cell},
                headers=headers,
            ).json()
            if last["state"] != "playing":
                break
        assert last is not None and last["state"] == "won"
    verify = subprocess.run(
        [sys.executable, "-m", "minesweeper", "ladder", "verify", "--database", database],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert "3 game(s) checked, 0 failed" in verify.stderr


@pytest.mark.slow
def test_two_servers_share_one_database(
    database: str, servers: list[ServerProcess], tmp_path: Path
) -> None:
    one, two = serve(servers, database, tmp_path), serve(servers, database, tmp_path)
    headers = sign_up(one.url, "alice")
    assert httpx.get(f"{two.url}/api/me", headers=headers).json()["name"] == "alice"
    game = httpx.post(
        f"{one.url}/api/games", json={"mode": "ranked", "preset": "expert"}, headers=headers
    ).json()
    httpx.post(
        f"{two.url}/api/games/{game['id']}/moves",
        json={"kind": "open", "cell": 100},
        headers=headers,
    ).raise_for_status()
    numbers: list[int] = []
    errors: list[str] = []

    def toggle(server: ServerProcess) -> None:  # both servers at once, on one game
        with httpx.Client(headers=headers, timeout=30) as client:
            for _ in range(15):
                answer = client.post(
                    f"{server.url}/api/games/{game['id']}/moves", json={"kind": "flag", "cell": 0}
                )
                if answer.status_code != 200:
                    errors.append(answer.text)
                    return
                numbers.append(answer.json()["number"])

    threads = [threading.Thread(target=toggle, args=(server,)) for server in (one, two)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    assert errors == [], [server.log.read_text()[-3000:] for server in (one, two)]
    assert sorted(numbers) == list(range(2, 32))  # each move stored once, none lost
    for server in (one, two):
        state = httpx.get(f"{server.url}/api/games/{game['id']}", headers=headers).json()
        assert state["moves"] == 31 and state["flags"] == []
