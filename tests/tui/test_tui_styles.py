"""The terminal game's styles are Textual CSS files shipped with the package."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

import minesweeper.tui
from minesweeper.tui.app import MinesweeperApp
from minesweeper.tui.header import GameHeader
from minesweeper.tui.help import HelpScreen
from minesweeper.tui.prompt import NamePrompt, QuitPrompt
from minesweeper.tui.records import RecordsScreen
from minesweeper.tui.replay import ReplayScreen
from minesweeper.tui.settings import SettingsScreen
from minesweeper.tui.stats import StatsScreen

PACKAGE = Path(minesweeper.tui.__file__).parent
ROOT = PACKAGE.parents[1]
STYLED = [
    MinesweeperApp,
    HelpScreen,
    NamePrompt,
    QuitPrompt,
    RecordsScreen,
    ReplayScreen,
    SettingsScreen,
    StatsScreen,
]


def test_every_screen_reads_its_styles_from_a_file_not_a_string() -> None:
    for styled in STYLED:
        assert "DEFAULT_CSS" not in vars(styled) and "CSS" not in vars(styled), styled
        path = PACKAGE / str(styled.CSS_PATH)
        assert path.suffix == ".tcss" and path.is_file(), styled
    assert "DEFAULT_CSS" not in vars(GameHeader)  # styled by the game's file


def test_a_non_editable_install_ships_every_style_file() -> None:
    """Each .tcss file matches the package data pyproject.toml declares for the package."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    globs = config["tool"]["setuptools"]["package-data"]["minesweeper.tui"]
    found = sorted(path.relative_to(PACKAGE).as_posix() for path in PACKAGE.rglob("*.tcss"))
    assert found
    for name in found:
        assert any(fnmatch.fnmatch(name, pattern) for pattern in globs), name
