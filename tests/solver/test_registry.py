"""`StrategySpec` names with settings (``best:regions=1``): parsed, checked, built."""

from __future__ import annotations

import pickle

import pytest

from minesweeper.solver.best import Best
from minesweeper.solver.registry import StrategySpec, StrategySpecError
from minesweeper.solver.search import Search
from minesweeper.solver.think import Think


def test_a_name_with_settings_builds_its_strategy_so_set() -> None:
    spec = StrategySpec("best:regions=1,blend=0.5,free_candidates=3")
    player = spec.build(7)
    assert isinstance(player, Best)
    assert (player.regions, player.blend, player.free_candidates) == (True, 0.5, 3)
    assert type(player.free_candidates) is int and type(player.regions) is bool
    defaults = (Best.regions.default, Best.blend.default, Best.free_candidates.default)
    assert defaults == (False, 0.25, 4)  # the declarations intact
    assert (Best().regions, Best().blend, Best().free_candidates) == defaults
    assert spec.settings == {"regions": True, "blend": 0.5, "free_candidates": 3}
    assert spec.label == "best:regions=1,blend=0.5,free_candidates=3"
    assert pickle.loads(pickle.dumps(spec)).build().blend == 0.5  # as a worker gets it


def test_settings_go_with_a_think_budget() -> None:
    spec = StrategySpec("search:depth=1", Think(30, None))
    player = spec.build()
    assert isinstance(player, Search) and player.depth == 1
    assert player.think == 30
    assert spec.label == "search:depth=1 (think 30 positions)"
    [chosen] = StrategySpec.choose(["search:depth=1"], Think(30, None))
    assert chosen == spec  # the budget given keeps the settings


def test_each_strategy_declares_its_settings_with_kind_range_and_help() -> None:
    known = Best.settings()
    assert {"regions", "blend", "free_candidates", "cutoff"} <= known.keys()
    assert "name" not in known and "think" not in known and Best.thinking() is None
    cutoff = known["cutoff"]
    assert (cutoff.kind, cutoff.default, cutoff.low, cutoff.high) == (float, 0.9, 0, 1)
    assert cutoff.help and cutoff.describe().startswith("cutoff=0.9  (a number, 0 to 1)")
    think = Search.thinking()
    assert think is not None and (think.default, think.unit, think.high) == (
        500,
        "positions",
        60_000,
    )
    assert Search.settings()["regions"].default is True  # its own default for best's setting
    assert Search(think=7, depth=1).think == 7 and Search().think == 500


def test_a_name_may_set_the_budget_as_any_other_setting() -> None:
    spec = StrategySpec("search:think=40,depth=1")
    assert spec.build().think == 40 and spec.budget == Think(40, "positions")
    assert spec.label == "search:think=40,depth=1"  # the name says it already
    assert StrategySpec.choose(["search:think=40", "rollout"], Think(8, None)) == [
        StrategySpec("search:think=40"),
        StrategySpec("rollout", Think(8, "layouts")),
    ]
    with pytest.raises(StrategySpecError, match="two budgets for 'search:think=40'"):
        StrategySpec("search:think=40", Think(8, None))


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("best:colour=1", "best has no setting 'colour' (settings: blend, "),
        ("best:blend=x", "best: setting blend='x' is not a number"),
        ("best:free_candidates=2.5", "is not a whole number"),
        ("best:regions=2", "best: setting regions='2' is not 0 or 1"),
        ("best:regions", "setting 'regions' needs a value"),
        ("search:think=70000", "search: setting think=70000 is out of range (0 to 60000)"),
        ("best:cutoff=2", "best: setting cutoff=2.0 is out of range (0 to 1)"),
        ("best:think=5", "best has no setting 'think'"),
        ("bst:regions=1", "unknown strategy 'bst'"),
    ],
)
def test_a_setting_that_does_not_fit_is_refused_by_name(name: str, message: str) -> None:
    with pytest.raises(StrategySpecError if name != "bst:regions=1" else Exception) as caught:
        StrategySpec(name)
    assert message in str(caught.value)
