"""`StrategySpec` names with settings (``best:regions=1``): parsed, checked, built."""

from __future__ import annotations

import pickle

import pytest

from minesweeper.solver.best import Best
from minesweeper.solver.registry import StrategySpec, StrategySpecError, settings_of
from minesweeper.solver.search import Search
from minesweeper.solver.think import Think


def test_a_name_with_settings_builds_its_strategy_so_set() -> None:
    spec = StrategySpec("best:regions=1,blend=0.5,free_candidates=3")
    player = spec.build(7)
    assert isinstance(player, Best)
    assert (player.regions, player.blend, player.free_candidates) == (True, 0.5, 3)
    assert type(player.free_candidates) is int and type(player.regions) is bool
    assert (Best.regions, Best.blend, Best.free_candidates) == (False, 0.25, 4)  # class intact
    assert spec.settings == {"regions": True, "blend": 0.5, "free_candidates": 3}
    assert spec.label == "best:regions=1,blend=0.5,free_candidates=3"
    assert pickle.loads(pickle.dumps(spec)).build().blend == 0.5  # as a worker gets it


def test_settings_go_with_a_think_budget() -> None:
    spec = StrategySpec("search:depth=1", Think(30, None))
    player = spec.build()
    assert isinstance(player, Search) and player.depth == 1
    assert player.think == Think(30, "positions")
    assert spec.label == "search:depth=1 (think 30 positions)"
    [chosen] = StrategySpec.choose(["search:depth=1"], Think(30, None))
    assert chosen == spec  # the budget given keeps the settings


def test_the_settings_are_numbers_and_truth_values_not_the_budget() -> None:
    known = settings_of(Best)
    assert {"regions", "blend", "free_candidates", "cutoff"} <= known.keys()
    assert "think" not in settings_of(Search) and "name" not in known


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("best:colour=1", "best has no setting 'colour' (settings: blend, "),
        ("best:blend=x", "best: setting blend='x' is not a number"),
        ("best:free_candidates=2.5", "is not a whole number"),
        ("best:regions=2", "best: setting regions='2' is not 0 or 1"),
        ("best:regions", "setting 'regions' needs a value"),
        ("search:think=5", "search has no setting 'think'"),  # --think gives budgets
        ("bst:regions=1", "unknown strategy 'bst'"),
    ],
)
def test_a_setting_that_does_not_fit_is_refused_by_name(name: str, message: str) -> None:
    with pytest.raises(StrategySpecError if name != "bst:regions=1" else Exception) as caught:
        StrategySpec(name)
    assert message in str(caught.value)
