"""Bots on the ladder: a token made beside the database, the Execute/ReadMap client over HTTP."""

from __future__ import annotations

import subprocess
import sys

import pytest
from click.testing import CliRunner
from ladder_helpers import Site, make_site, sqlite_url
from ladder_servers import ServerProcess

from minesweeper.cli import main
from minesweeper.ladder.remote import LadderClient, RemoteError, play_bot_games
from minesweeper.solver.registry import find_strategy


@pytest.fixture
def site(tmp_path) -> Site:
    return make_site(sqlite_url(tmp_path))


def bot(site: Site, name: str = "robot") -> LadderClient:
    with site.service.transaction() as db:
        issued = site.service.accounts.bot_token(db, name)
    return LadderClient("http://testserver", issued.token, http=site.client)


def test_a_bot_plays_ranked_games_through_execute_and_readmap(site: Site) -> None:
    remote = bot(site)
    assert remote.me() == {"name": "robot", "bot": True, "guest": False}
    results = list(play_bot_games(remote, "beginner", 3, lambda i: find_strategy("best")(i)))
    assert len(results) == 3 and all(r.state in ("won", "lost") for r in results)
    mine = site.client.get("/api/games", headers={"Authorization": f"Bearer {remote.token}"})
    assert sorted(g["id"] for g in mine.json()) == sorted(r.game for r in results)
    people = site.client.get("/api/ladders/beginner/modern", params={"players": "people"})
    assert people.json()["rows"] == []  # bots never enter the people's ladder
    bots = site.client.get("/api/ladders/beginner/modern", params={"players": "bots"}).json()
    assert [row["player"] for row in bots["rows"]] == (
        ["robot"] if any(r.won for r in results) else []
    )


def test_remote_errors_carry_the_servers_message(site: Site) -> None:
    remote = LadderClient("http://testserver", "forged", http=site.client)
    with pytest.raises(RemoteError, match="not valid") as error:
        remote.me()
    assert error.value.status == 401


def test_a_persons_account_cannot_get_a_bot_token(site: Site) -> None:
    site.sign_up("alice")
    with site.service.transaction() as db, pytest.raises(Exception, match="person's"):
        site.service.accounts.bot_token(db, "alice")


def test_token_needs_bot(tmp_path) -> None:
    result = CliRunner().invoke(
        main, ["ladder", "token", "robot", "--database", sqlite_url(tmp_path)]
    )
    assert result.exit_code == 2 and "--bot" in result.output


@pytest.mark.slow
def test_the_client_command_plays_on_a_ladder_server(tmp_path) -> None:
    database = sqlite_url(tmp_path)
    run = [sys.executable, "-m", "minesweeper"]
    token = subprocess.run(
        [*run, "ladder", "token", "robot", "--bot", "--database", database],
        capture_output=True, text=True, timeout=120, check=True,
    ).stdout.strip()  # fmt: skip
    server = ServerProcess(database, tmp_path).start()
    try:
        played = subprocess.run(
            [*run, "client", "--ladder", server.url, "--token", token, "--preset", "beginner",
             "--games", "2", "--strategy", "best"],
            capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        assert played.returncode == 0, played.stderr
        lines = played.stdout.splitlines()
        assert len(lines) == 3 and lines[-1].startswith("won ")
        assert "of 2" in lines[-1] and "ranked beginner" in lines[-1]
        forged = subprocess.run(
            [*run, "client", "--ladder", server.url, "--token", "forged"],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert forged.returncode == 2
        assert forged.stderr.count("\n") == 1 and "not valid" in forged.stderr
    finally:
        server.stop()
