"""Honest records end to end: replays with entries, `records --times`, `records verify --replays`.

Each forged entry below carries a valid signature (it goes in through `Records.add`,
as someone holding the key would put it there); only its replay gives it away.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from doubles import FakeClock

from minesweeper.cli import main
from minesweeper.play.autoplay import AutoPlayer, new_session
from minesweeper.play.records import COMPUTER, Entry, Records
from minesweeper.play.replay import Replay
from minesweeper.play.session import GameSession, Settings

BEGINNER = Settings.preset("beginner")


def person_game(seed: int = 1, lose: bool = False, hint: bool = False) -> GameSession:
    """A person who knows the board: opens every safe cell, 0.7 s apart (or a mine, to lose)."""
    clock = FakeClock()
    session = GameSession(BEGINNER, seed=seed, clock=clock)
    session.open(session.topology.cell_at(4, 4))
    board = session.board
    assert board is not None
    if hint:
        session.note_assist("hint")
    for cell in board.topology.cells():
        if session.over:
            break
        mine = board.is_mine(cell)
        if (lose and mine) or not (mine or session.is_opened(cell)):
            clock.now += 0.7
            session.open(cell)
    assert session.over
    return session


def computer_game(seed: int = 2) -> GameSession:
    session = new_session(BEGINNER, seed=seed)
    for _ in AutoPlayer.named(session, "gauss-powermean").play():
        pass
    return session


def add(records: Records, session: GameSession, entry: Entry, player: str | None = None) -> None:
    replay = Replay.of(session, player=player or entry.name).to_bytes()
    records.add(BEGINNER.category(), entry, replay)


def verify(path: Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, ["records", "verify", "--replays", "--records", str(path)])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(autouse=True)
def private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MINESWEEPER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("MINESWEEPER_CONFIG_DIR", str(tmp_path / "config"))


def test_honest_entries_pass(tmp_path: Path) -> None:
    records = Records(tmp_path / "r.json")
    won, lost, machine = person_game(1), person_game(3, lose=True), computer_game()
    add(records, won, won.entry("Ann"))
    add(records, lost, lost.entry("Bob"))
    add(records, machine, machine.entry(COMPUTER))
    code, out, err = verify(records.path)
    assert (code, err) == (0, "")
    assert "every replay bears out its result (3)" in out


def forge_points(session: GameSession) -> Entry:
    return dataclasses.replace(session.entry("Ann"), points=session.points + 500)


def forge_time(session: GameSession) -> Entry:
    return dataclasses.replace(session.entry("Ann"), seconds=1.0)


FORGERIES = {
    "points": (lambda: person_game(), forge_points, None, "the entry has"),
    "time": (lambda: person_game(), forge_time, None, "the entry took 1.0 s, the replay"),
    "loss as a win": (
        lambda: person_game(3, lose=True),
        lambda s: dataclasses.replace(s.entry("Ann"), won=True),
        None,
        "the entry says won, the replay lost",
    ),
    "assisted under a name": (
        lambda: person_game(hint=True),
        lambda s: s.entry("Ann"),
        None,
        "an assisted game (hint) entered under a person's name",
    ),
    "the computer's game under a name": (
        computer_game,
        lambda s: s.entry("Ann"),
        None,
        "an assisted game (computer) entered under a person's name",
    ),
    "a person's game as the computer's": (
        lambda: person_game(),
        lambda s: s.entry(COMPUTER),
        None,
        "a Computer entry whose replay was not played by the computer alone",
    ),
    "someone else's replay": (
        lambda: person_game(),
        lambda s: s.entry("Ann"),
        "Bob",
        "the entry names 'Ann', the replay 'Bob'",
    ),
}


@pytest.mark.parametrize("kind", FORGERIES)
def test_a_forged_entry_is_caught_by_its_replay(tmp_path: Path, kind: str) -> None:
    make, forge, player, message = FORGERIES[kind]
    records = Records(tmp_path / "r.json")
    honest = person_game(5)
    add(records, honest, honest.entry("Zoe"))
    session = make()
    add(records, session, forge(session), player)
    assert (
        CliRunner().invoke(main, ["records", "verify", "--records", str(records.path)]).exit_code
        == 0
    )
    code, _, err = verify(records.path)
    assert code == 2
    assert message in err
    assert "Zoe" not in err  # the honest entry passes
    assert (
        err.strip().splitlines()[-1]
        == "minesweeper: 1 of 2 result(s) are not borne out by their replays"
    )


def test_a_replay_of_another_board_is_caught(tmp_path: Path) -> None:
    records = Records(tmp_path / "r.json")
    mine, other = person_game(1), person_game(2)
    records.add(BEGINNER.category(), mine.entry("Ann"), Replay.of(other, player="Ann").to_bytes())
    code, _, err = verify(records.path)
    assert code == 2 and "the entry" in err


def test_a_changed_missing_or_absent_replay_is_caught(tmp_path: Path) -> None:
    records = Records(tmp_path / "r.json")
    game = person_game()
    add(records, game, game.entry("Ann"))
    (entry,) = records.table(BEGINNER.category())
    path = records.replay_path(entry)
    assert path is not None
    document = json.loads(path.read_bytes())
    document["actions"] = document["actions"][:-1]
    path.write_text(json.dumps(document))
    assert "was changed" in verify(records.path)[2]
    path.unlink()
    assert "is missing" in verify(records.path)[2]
    records.add(BEGINNER.category(), Entry.make("Old", 1, 5.0, False))  # no replay at all
    code, _, err = verify(records.path)
    assert code == 2 and "Old" in err and "no replay" in err


def test_times_lists_the_fastest_wins_of_people_with_3bv_per_second(tmp_path: Path) -> None:
    records = Records()
    fast, slow = sorted((person_game(1), person_game(4)), key=lambda game: game.elapsed)
    machine = computer_game()
    add(records, slow, dataclasses.replace(slow.entry("Slow")))
    add(records, fast, fast.entry("Fast"))
    add(records, machine, machine.entry(COMPUTER))
    result = CliRunner().invoke(main, ["records", "--times"], terminal_width=200)
    assert result.exit_code == 0
    out = result.stdout
    assert "fastest" in out and COMPUTER not in out
    stats = fast.stats()
    assert f"{fast.elapsed:.3f} s" in out and f"{stats.bbbv / stats.seconds:.2f}" in out
    assert fast.elapsed < slow.elapsed  # fewer safe cells to open, 0.7 s each
    assert out.index("Fast") < out.index("Slow")
    points = CliRunner().invoke(main, ["records"], terminal_width=200).stdout
    assert COMPUTER in points


def test_autoplay_keeps_and_saves_its_replay(tmp_path: Path) -> None:
    folder = tmp_path / "replays"
    args = ["autoplay", "--seed", "3", "--quiet", "--replay-dir", str(folder)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    assert "3BV " in result.stdout and "clicks (" in result.stdout and "efficiency" in result.stdout
    (saved,) = folder.iterdir()
    assert f"replay saved: {saved}" in result.stdout
    replay = Replay.from_bytes(saved.read_bytes())
    assert replay.player == COMPUTER and list(replay.assists) == [("computer", 0)]
    (entry,) = Records().table(BEGINNER.category())
    assert entry.replay is not None and entry.bbbv == replay.stats().bbbv
    code, _, err = verify(Records().path)
    assert code == 0, err
    # Another game: a second file, the first one kept.
    assert CliRunner().invoke(main, args).exit_code == 0
    assert len(list(folder.iterdir())) == 2


def test_replay_stats_and_bad_files(tmp_path: Path) -> None:
    game = person_game()
    path = tmp_path / "game.json"
    path.write_bytes(Replay.of(game, player="Ann").to_bytes())
    result = CliRunner().invoke(main, ["replay", str(path), "--stats"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "square 9x9, 10 mines, opening first click"
    assert lines[1].startswith("Ann, ") and f"won, {game.points} points" in lines[1]
    assert lines[2] == game.stats().summary()
    path.write_bytes(path.read_bytes()[:100])
    result = CliRunner().invoke(main, ["replay", str(path), "--stats"])
    assert result.exit_code == 2 and result.stdout == ""
    assert len(result.stderr.splitlines()) == 1 and str(path) in result.stderr
    result = CliRunner().invoke(main, ["replay", str(tmp_path / "none.json")])
    assert result.exit_code == 2 and "cannot read" in result.stderr
