"""The chance to win on from a position (`replay --analyze`'s summary): exact where the
endgame search covers it, else sampled, and the sample agrees with the exact value."""

from __future__ import annotations

from minesweeper.bench.outlook import Outlook, outlook
from minesweeper.solver.view import View
from minesweeper.topology import SquareTopology


def corner_position() -> View:
    """A 2x2 board with one mine, a corner opened showing 1: each other cell hides the
    mine with 1/3, and no number can tell the last two apart, so perfect play wins
    with 2/3 * 1/2 = 1/3."""
    topology = SquareTopology(2, 2)
    return View(topology, {topology.cell_at(0, 0): 1}, mine_count=1)


def test_the_exact_chance_where_the_endgame_search_applies() -> None:
    found = outlook(corner_position(), layouts=10)
    assert found.exact is not None and abs(found.exact - 1 / 3) < 1e-12
    assert found.played == 0 and found.interval == (found.exact, found.exact)
    assert found.describe() == "perfect play wins 33.3% (exact: every layout searched)"


def test_the_sampled_chance_holds_the_exact_one_and_is_seeded() -> None:
    found = outlook(corner_position(), layouts=300, seed=5, search=False)
    assert found.exact is None and found.played == 300
    low, high = found.interval
    assert low < 1 / 3 < high and high - low < 0.12
    assert outlook(corner_position(), layouts=300, seed=5, search=False) == found
    assert f"of 300 layouts that fit (95%: {low:.1%}-{high:.1%})" in found.describe()
    assert found.describe().startswith("the best strategy wins ")


def test_a_position_won_for_certain_and_one_not_estimated() -> None:
    topology = SquareTopology(1, 3)
    # 1x3, one mine, the left cell opened showing 1: the middle is the mine, the right safe.
    view = View(topology, {0: 1}, mine_count=1)
    sure = outlook(view, layouts=20, search=False)
    assert (sure.won, sure.played) == (20, 20) and sure.chance == 1
    assert Outlook("best").chance is None
    assert "not estimated" in Outlook("best").describe()


def test_a_time_budget_ends_the_sample_and_says_so() -> None:
    asked = []

    def stop() -> bool:  # asked once at the start, then before each layout: five are played
        asked.append(1)
        return len(asked) > 6

    found = outlook(corner_position(), layouts=50, search=False, stop=stop)
    assert (found.played, found.stopped) == (5, True)
    assert found.describe().endswith(", the time budget stopping it)")
    one = outlook(corner_position(), layouts=1, search=False)
    assert " of 1 layout that fits (95%: " in one.describe()
    none = outlook(corner_position(), layouts=50, search=False, stop=lambda: True)
    assert none.played == 0 and none.chance is None
    assert none.describe() == "the chance to win was not estimated (the time budget was spent)"
