"""scripts/search_variants.py: a variant's settings, the think budget among them."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import click
import pytest

from minesweeper.solver.search import Search
from minesweeper.solver.think import Think

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "search_variants.py"


def load():
    spec = importlib.util.spec_from_file_location("search_variants", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_variant_sets_numbers_and_the_think_budget_in_the_strategys_unit() -> None:
    strategy = load().make("search:think=25,blend=0.25,depth=3", 7)
    assert isinstance(strategy, Search)
    assert strategy.think == Think(25, "positions")
    assert (strategy.blend, strategy.depth) == (0.25, 3)
    assert load().make("search:think=40positions", 7).think == Think(40, "positions")
    assert Search.think == Think(500, "positions")  # the class default is left alone


@pytest.mark.parametrize("setting", ["think=25ms", "think=many", "colour=1"])
def test_a_setting_that_does_not_fit_is_a_clear_error(setting: str) -> None:
    with pytest.raises(click.BadParameter):
        load().make(f"search:{setting}", 7)
