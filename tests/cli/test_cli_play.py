"""`minesweeper play`: options become settings, bad ones one line, and Textual loads lazily."""

from __future__ import annotations

import subprocess
import sys

import pytest
from click.testing import CliRunner

from minesweeper.cli import main
from minesweeper.tui.app import MinesweeperApp
from minesweeper.variant import FirstClick


@pytest.fixture
def started(monkeypatch) -> list[MinesweeperApp]:
    """The apps `play` would run, on a pretend terminal."""
    apps: list[MinesweeperApp] = []
    monkeypatch.setattr("minesweeper.cli.play.is_terminal", lambda: True)
    monkeypatch.setattr(MinesweeperApp, "run", lambda self: apps.append(self))
    return apps


def test_options_reach_the_app(tmp_path, started) -> None:
    path = tmp_path / "r.json"
    args = ["play", "--rows", "5", "--cols", "7", "--mines", "6", "--topology", "hex"]
    args += ["--rules", "classic", "--seed", "3", "--records", str(path)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    (app,) = started
    game = app.controller.settings.variant
    assert (game.rows, game.cols, game.mines) == (5, 7, 6)
    assert game.name == "hex" and game.first_click is FirstClick.SAFE
    assert app.controller.seed == 3
    assert app.controller.records.path == path


@pytest.mark.parametrize(
    ("args", "size"),
    [
        ([], (9, 9, 10)),
        (["--first-click", "safe"], (9, 9, 10)),  # the old name of --rules classic
        (["--preset", "acm-15"], (30, 30, 135)),
        (["--rows", "18", "--cols", "18"], (18, 18, 40)),  # beginner's density
        (["--preset", "expert", "--rows", "8"], (8, 30, 50)),
        # As many tetrominoes as beginner's cells (81: an 18x18 span) and its 10 mines.
        (["--topology", "tetromino"], (18, 18, 10)),
        (["--topology", "domino", "--rows", "8", "--cols", "8"], (8, 8, 4)),
        (["--topology", "graph"], (9, 9, 10)),
    ],
)
def test_sizes_default_from_the_preset(args, size, tmp_path, started) -> None:
    result = CliRunner().invoke(main, ["play", *args, "--records", str(tmp_path / "r.json")])
    assert result.exit_code == 0, result.output
    game = started[0].controller.settings.variant
    assert (game.rows, game.cols, game.mines) == size


def test_a_graph_board_file_is_played(tmp_path, started) -> None:
    board = tmp_path / "g.txt"
    board.write_text("4 4 xy\nX...\n0 0\n1 0\n1 1\n0 1\n0 1\n1 2\n2 3\n3 0\n")
    result = CliRunner().invoke(
        main, ["play", "--topology", "graph", "--board", str(board), "--records", str(board) + "r"]
    )
    assert result.exit_code == 0, result.output
    session = started[0].controller.session
    assert session.topology.coordinates == ((0, 0), (1, 0), (1, 1), (0, 1))
    assert session.board is not None and session.board.mines == frozenset({0})


def test_a_bad_board_file_is_named_with_its_line(tmp_path, started) -> None:
    board = tmp_path / "g.txt"
    board.write_text("3 2 xy\n.X.\n0 0\nfar\n")
    result = CliRunner().invoke(main, ["play", "--topology", "graph", "--board", str(board)])
    assert result.exit_code == 2 and not started
    assert (
        result.output
        == f"minesweeper: {board}: line 4: expected the coordinates 'x y' of node 1, got 'far'\n"
    )


def test_bad_settings_are_one_line(started) -> None:
    runner = CliRunner()
    for args in (
        ["play", "--rows", "3", "--cols", "3", "--mines", "9"],
        ["play", "--topology", "tetromino", "--rows", "9", "--cols", "9"],
        ["play", "--rules", "modern", "--first-click", "safe"],
        ["play", "--strategy", "nonsense"],
        ["play", "--board", __file__, "--no-guess"],
    ):
        result = runner.invoke(main, args)
        assert result.exit_code == 2, args
        assert result.output.count("\n") == 1 and "Traceback" not in result.output, args
        assert not started


def test_without_a_terminal_play_says_so_and_exits() -> None:
    found = subprocess.run(
        [sys.executable, "-m", "minesweeper", "play"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert found.returncode == 2
    assert found.stderr.startswith("minesweeper: play needs a terminal")
    assert found.stderr.count("\n") == 1 and found.stdout == ""


def test_other_commands_do_not_load_textual() -> None:
    code = "import sys, minesweeper.cli; print('textual' in sys.modules)"
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "False"
