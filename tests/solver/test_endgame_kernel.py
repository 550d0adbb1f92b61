"""The compiled endgame search (`_kernel.best_won`: layouts won, counted exactly and
pruned) against `endgame._Search`, its Python reference: the same move and chance, and
the node budget kept, on random game trees and on real positions (`solve_endgame` with either
engine, each move checked against perfect play)."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_best import real_positions
from test_kernel import engine

from minesweeper.solver.counting import engine as counting_engine
from minesweeper.solver.endgame import _Budget, _Search, layout_tables, layouts, solve_endgame
from minesweeper.solver.perfect import perfect_play

KERNEL = counting_engine.kernel
needs_kernel = pytest.mark.skipif(KERNEL is None, reason="the compiled kernel is not built")
EXAMPLES = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

Tree = tuple[list[int], dict[int, int], dict[int, dict[int, int]], int]


@st.composite
def trees(draw: st.DrawFn) -> Tree:
    """Cells, the layouts where each is a mine, and the layouts where each shows each number,
    from random layouts (bits of ``cells`` cells) and random neighbourhoods; past 64 layouts
    sometimes, so that a set spans several machine words."""
    count = draw(st.integers(1, 9))
    cells = draw(st.permutations(range(0, 3 * count, 3)))  # ids not their places
    size = draw(st.integers(1, min(150, 2**count)))
    found = draw(st.randoms(use_true_random=False)).sample(range(2**count), size)
    mine_masks: dict[int, int] = {}
    shows: dict[int, dict[int, int]] = {}
    for place, cell in enumerate(cells):
        around = draw(st.sets(st.integers(0, count - 1), max_size=count)) - {place}
        mine_mask, by_number = 0, dict[int, int]()
        for i, layout in enumerate(found):
            if layout >> place & 1:
                mine_mask |= 1 << i
            else:
                number = sum(layout >> o & 1 for o in around)
                by_number[number] = by_number.get(number, 0) | 1 << i
        mine_masks[cell] = mine_mask
        shows[cell] = by_number
    return list(cells), mine_masks, shows, len(found)


def reference(tree: Tree, nodes: int) -> tuple[int, float] | None:
    """`_Search.best` from every layout, None past ``nodes`` positions (as `_search`)."""
    cells, mine_masks, shows, layouts = tree
    try:
        return _Search(cells, mine_masks, shows, [1] * layouts, nodes).best((1 << layouts) - 1)
    except _Budget:
        return None


def compiled(tree: Tree, nodes: int) -> tuple[int, int] | None:
    cells, mine_masks, shows, layouts = tree
    masks = [mine_masks[c] for c in cells]
    return KERNEL.best_won(cells, masks, [list(shows[c].values()) for c in cells], layouts, nodes)


@needs_kernel
@EXAMPLES
@given(trees())
def test_the_compiled_search_finds_the_same_move_and_chance(tree: Tree) -> None:
    """Both count exactly, so of equal moves both take the first in the same order."""
    cells, mine_masks, shows, layouts = tree
    expected = reference(tree, 10**7)
    found = compiled(tree, 10**7)
    assert (found is None) == (expected is None)  # (no move: every cell a mine everywhere)
    if found is None or expected is None:
        return
    cell, won = found
    assert (cell, won / layouts) == expected
    search = _Search(cells, mine_masks, shows, [1] * layouts, 10**7)
    everything = (1 << layouts) - 1
    if mine_masks[cell]:  # a risky move: what it wins is the best
        assert sum(search.won(part) for part in search.split(everything, cell)) == won


@needs_kernel
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(real_positions(max_unknown=12), st.sampled_from([5, 50, 20_000]))
def test_solve_endgame_finds_a_perfect_move_with_either_engine(position, nodes: int) -> None:
    view, _ = position
    found = []
    for kernel in (KERNEL, None):
        with engine(kernel):
            found.append(solve_endgame(view, max_nodes=nodes))
    if None in found:
        return  # past the budget (the engines count positions differently)
    assert found[0] == found[1]  # of equal moves, the same one
    play = perfect_play(view)
    for cell, chance in found:
        assert chance == pytest.approx(float(play.chance), abs=1e-12)
        if any(move.cell == cell for move in play.moves):  # (a free cell is no move there)
            assert play.of(cell).chance == play.chance


@needs_kernel
def test_the_budget_stops_the_search() -> None:
    # Seven independent cells, 128 layouts (2 words): a tree of about 3^7 positions.
    cells = list(range(7))
    layouts = 1 << 7
    mine_masks = {c: sum(1 << i for i in range(layouts) if i >> c & 1) for c in cells}
    shows = {c: {0: ((1 << layouts) - 1) & ~mine_masks[c]} for c in cells}
    tree = (cells, mine_masks, shows, layouts)
    assert compiled(tree, 30) is None and reference(tree, 30) is None
    enough = compiled(tree, 20_000)
    assert enough is not None and enough[1] == 1  # every mine must be guessed: 1/2 each


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(real_positions(max_unknown=12), st.integers(0, 3))
def test_the_tables_are_the_layouts_read_one_by_one(position, flagged: int) -> None:
    """`layout_tables` (bit-sliced sums of the neighbours' mine sets) gives, per cell, the layouts
    where it is a mine and, per number, those where it is safe and shows it; known mines
    count in every number."""
    view, board = position
    view = view.with_mines(sorted(board.mines & set(view.unknown()))[:flagged])
    found = layouts(view)
    if not found:
        return
    cells = view.unknown()
    mine_masks, shows = {}, {}
    for cell in cells:  # one layout at a time
        around = view.topology.neighbours(cell)
        base = sum(1 for o in around if o in view.mines)
        mine_mask, by_number = 0, {}
        for i, layout in enumerate(found):
            if cell in layout:
                mine_mask |= 1 << i
            else:
                number = base + sum(1 for o in around if o in layout)
                by_number[number] = by_number.get(number, 0) | 1 << i
        mine_masks[cell], shows[cell] = mine_mask, by_number
    assert layout_tables(view, cells, found) == (mine_masks, shows)
