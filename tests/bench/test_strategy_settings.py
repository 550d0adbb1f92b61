"""bench plays a strategy with settings (``--strategy best:cutoff=0.5``) as its own player."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from minesweeper.cli import main
from minesweeper.solver.best import Best
from minesweeper.solver.registry import STRATEGIES

NARROW = "best:cutoff=0.5,free_candidates=1,frontier_candidates=1"


class NarrowBest(Best):
    """`best` with NARROW's settings as class attributes: what the settings must play."""

    name = "narrow-best"
    cutoff = 0.5
    free_candidates = 1
    frontier_candidates = 1


def games(path: Path, strategy: str) -> dict[int, tuple[object, ...]]:
    rows = [json.loads(line) for line in path.read_text().splitlines()]
    keep = ("won", "steps", "guesses", "visit_count")
    return {r["game"]: tuple(r[k] for k in keep) for r in rows if r["strategy"] == strategy}


def test_a_strategy_with_settings_plays_as_those_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(STRATEGIES, NarrowBest.name, NarrowBest)
    base = ["bench", "--preset", "intermediate", "--rules", "classic", "--games", "12"]
    set_log, class_log = tmp_path / "set.jsonl", tmp_path / "class.jsonl"
    two = ["--strategy", "best", "--strategy", NARROW, "--jobs", "2", "--per-game", str(set_log)]
    result = CliRunner().invoke(main, [*base, *two])
    assert result.exit_code == 0, result.output
    one = ["--strategy", NarrowBest.name, "--jobs", "1", "--per-game", str(class_log)]
    assert CliRunner().invoke(main, [*base, *one]).exit_code == 0
    narrow = games(set_log, NARROW)
    assert narrow == games(class_log, NarrowBest.name)  # in worker processes too
    assert narrow != games(set_log, "best")  # and the settings change the games
    again = CliRunner().invoke(main, [*base, *two[:-2], "--resume", str(set_log)])
    assert again.exit_code == 0, again.output  # a log tells the two of one name apart


def test_a_setting_it_does_not_take_is_a_one_line_error() -> None:
    result = CliRunner().invoke(main, ["bench", "--strategy", "best:colour=1", "--games", "1"])
    assert result.exit_code == 2
    [line] = result.stderr.splitlines()
    assert "best has no setting 'colour'" in line
