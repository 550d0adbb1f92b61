"""`minesweeper play`: options become settings, bad ones one line, and Textual loads lazily."""

from __future__ import annotations

import subprocess
import sys

from click.testing import CliRunner

from minesweeper.cli import main
from minesweeper.generate import FirstClick
from minesweeper.tui.app import MinesweeperApp


def test_options_reach_the_app(tmp_path, monkeypatch) -> None:
    started = []
    monkeypatch.setattr(MinesweeperApp, "run", lambda self: started.append(self))
    path = tmp_path / "r.json"
    args = ["play", "--rows", "5", "--cols", "7", "--mines", "6", "--topology", "hex"]
    args += ["--first-click", "safe", "--seed", "3", "--records", str(path)]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    (app,) = started
    settings = app.controller.settings
    assert (settings.rows, settings.cols, settings.mines) == (5, 7, 6)
    assert settings.topology == "hex" and settings.first_click is FirstClick.SAFE
    assert app.controller.seed == 3
    assert app.controller.records.path == path


def test_bad_settings_are_one_line(monkeypatch) -> None:
    monkeypatch.setattr(MinesweeperApp, "run", lambda self: None)
    runner = CliRunner()
    for args in (
        ["play", "--rows", "3", "--cols", "3", "--mines", "9"],
        ["play", "--preset", "expert", "--rows", "3"],
        ["play", "--topology", "graph"],
    ):
        result = runner.invoke(main, args)
        assert result.exit_code == 2, args
        assert result.output.count("\n") == 1 and "Traceback" not in result.output


def test_other_commands_do_not_load_textual() -> None:
    code = "import sys, minesweeper.cli; print('textual' in sys.modules)"
    found = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert found.stdout.strip() == "False"
