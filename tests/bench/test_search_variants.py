"""scripts/search_variants.py: a variant's settings, the think budget among them."""

from __future__ import annotations

import click
import pytest
from paths import script

from minesweeper.solver.search import Search

search_variants = script("search_variants.py")


def test_a_variant_sets_numbers_and_the_think_budget_in_the_strategys_unit() -> None:
    strategy = search_variants.make("search:think=25,blend=0.25,depth=3", 7)
    assert isinstance(strategy, Search)
    assert strategy.think == 25
    assert (strategy.blend, strategy.depth) == (0.25, 3)
    assert search_variants.make("search:think=40positions", 7).think == 40
    assert Search.think.default == 500  # the declaration is left alone


@pytest.mark.parametrize("setting", ["think=25ms", "think=many", "colour=1"])
def test_a_setting_that_does_not_fit_is_a_clear_error(setting: str) -> None:
    with pytest.raises(click.BadParameter):
        search_variants.make(f"search:{setting}", 7)
