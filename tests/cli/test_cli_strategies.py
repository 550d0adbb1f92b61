"""`minesweeper strategies`: every strategy and the settings it declares, as bench takes them."""

from __future__ import annotations

from click.testing import CliRunner

from minesweeper.cli import main
from minesweeper.solver.registry import STRATEGIES, StrategySpec


def test_every_strategy_is_listed_with_its_settings() -> None:
    result = CliRunner().invoke(main, ["strategies"])
    assert result.exit_code == 0, result.output
    for name, cls in STRATEGIES.items():
        assert f"\n{name}: " in f"\n{result.stdout}"
        for setting in cls.settings().values():
            assert f"  {setting.describe()}\n" in result.stdout
    assert "  cutoff=0.9  (a number, 0 to 1)  " in result.stdout
    assert "  think=500 positions  (a whole number, 0 to 60000)  " in result.stdout
    assert "  regions=0  (0 or 1)  " in result.stdout


def test_every_setting_listed_is_one_a_name_takes() -> None:
    """What the listing shows as a default, a name may set again: the same player."""
    for name, cls in STRATEGIES.items():
        for setting in cls.settings().values():
            shown = int(setting.default) if setting.kind is bool else setting.default
            player = StrategySpec(f"{name}:{setting.name}={shown}").build()
            assert getattr(player, setting.name) == setting.default


def test_an_unknown_strategy_is_a_one_line_error() -> None:
    result = CliRunner().invoke(main, ["strategies", "bst"])
    assert result.exit_code == 2
    [line] = result.stderr.splitlines()
    assert "unknown strategy 'bst'" in line
