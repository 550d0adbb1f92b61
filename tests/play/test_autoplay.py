"""The computer player: sees only a player's view, plays sessions to the end, enters the records."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from minesweeper.board import Board
from minesweeper.cli import main
from minesweeper.play.autoplay import COMPUTER, AutoPlayer, first_cell, new_session, view_of
from minesweeper.play.records import Records
from minesweeper.play.session import GameSession, Settings
from minesweeper.solver.registry import STRATEGIES, find_strategy
from minesweeper.topology import SquareTopology
from minesweeper.variant import Rules

STRATEGY = "best" if "best" in STRATEGIES else "gauss-powermean"


@pytest.fixture(autouse=True)
def private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MINESWEEPER_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("MINESWEEPER_CONFIG_DIR", str(tmp_path / "config"))


def test_view_shows_only_opened_numbers() -> None:
    session = GameSession.from_board(Board(SquareTopology(1, 4), [3]))
    assert view_of(session).revealed == {}
    session.toggle_flag(3)
    session.open(0)
    view = view_of(session)
    assert dict(view.revealed) == {0: 0, 1: 0, 2: 1}
    assert view.mines == frozenset()  # flags are the player's opinion, not knowledge
    assert view.mine_count == 1


def test_view_under_acm_rules_has_no_mine_count() -> None:
    board = Board(SquareTopology(1, 4), [3])
    session = GameSession.from_board(board, Settings.preset("beginner", rules=Rules.ACM))
    session.open(0)
    assert view_of(session).mine_count is None


@pytest.mark.parametrize("preset", ["beginner", "intermediate"])
def test_plays_to_the_end(preset: str) -> None:
    find_strategy("gauss-powermean")
    for seed in range(3):
        session = new_session(Settings.preset(preset), seed=seed)
        player = AutoPlayer.named(session, "gauss-powermean", seed)
        steps = list(player.play())
        assert session.over
        assert steps[0][0].kind == "open" and steps[0][0].cell == first_cell(session)
        assert player.step() == []
        board = session.board
        assert board is not None
        for moves in steps:
            for move in moves:
                if move.kind == "flag":
                    assert board.is_mine(move.cell)  # only proved mines are flagged
                if move.kind == "open" and not move.guess and move is not steps[0][0]:
                    assert not board.is_mine(move.cell)


def test_no_guess_games_are_won_without_a_guess() -> None:
    session = new_session(Settings.preset("beginner", no_guess=True), seed=2)
    player = AutoPlayer.named(session, "gauss-powermean")
    steps = list(player.play())
    assert session.won
    assert not any(move.guess for moves in steps for move in moves)


def test_the_player_moves_a_wrong_flag_out_of_its_way() -> None:
    session = GameSession.from_board(Board(SquareTopology(3, 3), [0]))
    session.toggle_flag(4)
    moves = AutoPlayer.named(session, "gauss-powermean").step()
    assert [m.kind for m in moves] == ["unflag", "open"]


def test_command_plays_and_enters_the_records(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    runner = CliRunner()
    args = ["autoplay", "--preset", "beginner", "--seed", "3", "--records", str(path)]
    result = runner.invoke(main, [*args, "--strategy", STRATEGY])
    assert result.exit_code == 0, result.output
    assert "step 1: open 4 4" in result.stdout
    assert "points" in result.stdout and "a new record: place 1 (won)" in result.stdout
    [table] = Records(path).load().values()
    assert table[0].name == COMPUTER
    quiet = runner.invoke(main, [*args, "--strategy", STRATEGY, "--quiet", "--first-click", "safe"])
    assert quiet.exit_code == 0 and "step 1:" not in quiet.stdout
    assert len(Records(path).load()) == 2  # another category


def test_command_keeps_playing_with_a_tampered_file(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    path.write_text("{}")
    result = CliRunner().invoke(
        main, ["autoplay", "--seed", "1", "--quiet", "--strategy", STRATEGY, "--records", str(path)]
    )
    assert result.exit_code == 0
    assert "failed its check" in result.stderr and "kept as" in result.stderr
    assert "place 1" in result.stdout  # the game is not lost
    (aside,) = tmp_path.glob("r.damaged-*.json")
    assert aside.read_text() == "{}"


def test_unknown_strategy_is_a_clear_error() -> None:
    result = CliRunner().invoke(main, ["autoplay", "--strategy", "nonsense"])
    assert result.exit_code == 2
    assert "unknown strategy 'nonsense'" in result.stderr


def test_on_a_terminal_the_board_is_redrawn_in_place_in_colour(tmp_path: Path) -> None:
    args = ["autoplay", "--seed", "3", "--delay", "0", "--strategy", STRATEGY]
    args += ["--records", str(tmp_path / "r.json")]
    watched = CliRunner().invoke(main, args, env={"FORCE_COLOR": "1", "COLUMNS": "80"})
    assert watched.exit_code == 0, watched.output
    assert "\x1b[" in watched.stdout and "\x1b[2K" in watched.stdout  # colours, lines redrawn
    piped = CliRunner().invoke(main, args, env={"FORCE_COLOR": None, "TERM": "dumb"})
    assert "\x1b[" not in piped.stdout and "step 1: open 4 4" in piped.stdout
