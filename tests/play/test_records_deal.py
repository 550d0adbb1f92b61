"""Issue 27: records accept only games whose board the replay proves the game dealt.

A replay carries the seed its board was laid from; `records verify --replays` lays the
board again from that seed at the replay's first open and refuses a replay whose board
differs (a hand-made board, played by someone who knew where the mines were) or that
carries no seed.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from doubles import FakeClock

from minesweeper.board import Board
from minesweeper.cli import main
from minesweeper.play.autoplay import AutoPlayer, new_session
from minesweeper.play.records import COMPUTER, Records
from minesweeper.play.replay import Replay, deal_problems
from minesweeper.play.session import GameSession, Settings

BEGINNER = Settings.preset("beginner")


def win_knowing(session: GameSession, first: int) -> GameSession:
    """Open ``first``, then every safe cell, 0.5 s apart: a perfect game of a known board."""
    clock = session.clock
    session.open(first)
    board = session.board
    assert board is not None
    for cell in board.topology.cells():
        if not (board.is_mine(cell) or session.is_opened(cell) or session.over):
            clock.now += 0.5  # type: ignore[attr-defined]
            session.open(cell)
    assert session.won
    return session


def forged_game() -> GameSession:
    """A beginner game on a board made by hand: every mine in the bottom rows."""
    topology = GameSession(BEGINNER).topology
    mines = [topology.cell_at(8, col) for col in range(9)] + [topology.cell_at(7, 0)]
    return GameSession.from_board(Board(topology, mines), BEGINNER, clock=FakeClock())


def verify(path: Path) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["records", "verify", "--replays", "--records", str(path)])
    return result.exit_code, result.stderr


@pytest.fixture(autouse=True)
def private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MINESWEEPER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("MINESWEEPER_CONFIG_DIR", str(tmp_path / "config"))


def test_a_record_on_a_hand_made_board_is_refused(tmp_path: Path) -> None:
    records = Records(tmp_path / "r.json")
    game = win_knowing(forged_game(), 0)
    replay = Replay.of(game, player="Mallory").to_bytes()
    records.add(BEGINNER.category(), game.entry("Mallory"), replay)
    status, err = verify(records.path)
    assert status == 2
    assert "Mallory" in err and "no seed" in err


def test_a_hand_made_board_with_a_seed_written_in_is_refused(tmp_path: Path) -> None:
    records = Records(tmp_path / "r.json")
    game = win_knowing(forged_game(), 0)
    document = json.loads(Replay.of(game, player="Mallory").to_bytes())
    document["seed"] = 12345  # any seed: it does not deal this board
    records.add(BEGINNER.category(), game.entry("Mallory"), json.dumps(document).encode())
    status, err = verify(records.path)
    assert status == 2
    assert "not the one the game deals from its seed" in err


def test_games_the_game_dealt_are_accepted(tmp_path: Path) -> None:
    records = Records(tmp_path / "r.json")
    person = win_knowing(GameSession(BEGINNER, seed=8, clock=FakeClock()), 40)
    records.add(
        BEGINNER.category(),
        person.entry("Ann"),
        Replay.of(person, player="Ann").to_bytes(),
    )
    machine = new_session(Settings.preset("beginner", no_guess=True), seed=3)
    for _ in AutoPlayer.named(machine, "best").play():
        pass
    category = machine.settings.category()
    records.add(category, machine.entry(COMPUTER), Replay.of(machine, player=COMPUTER).to_bytes())
    status, err = verify(records.path)
    assert (status, err) == (0, "")


def test_a_replay_seed_must_be_a_deal_seed() -> None:
    game = GameSession(BEGINNER, seed=8, clock=FakeClock())
    game.open(40)
    document = json.loads(Replay.of(game).to_bytes())
    assert 0 <= document["seed"] < 2**63
    for bad in (-1, 2**63, True, "7"):
        document["seed"] = bad
        with pytest.raises(Exception, match="seed"):
            Replay.from_bytes(json.dumps(document).encode())


def test_a_game_on_a_board_of_its_own_still_carries_no_seed() -> None:
    game = win_knowing(forged_game(), 0)
    replay = Replay.of(game)
    assert replay.seed is None
    (problem,) = deal_problems(replay)
    assert "no seed" in problem
