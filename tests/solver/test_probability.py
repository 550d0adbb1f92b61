"""The probability engine against brute-force enumeration, exactly."""

from __future__ import annotations

import heapq
import itertools
import random
from decimal import MAX_EMAX, MIN_EMIN, Context
from fractions import Fraction
from math import comb, factorial

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from positions import mesh

from minesweeper.errors import TopologyError
from minesweeper.solver import InconsistentView, View, frontier
from minesweeper.solver.constraints import Constraint, Opening, constraints
from minesweeper.solver.counting import combining, polynomials, programme
from minesweeper.solver.counting.polynomials import binomials
from minesweeper.solver.probability import (
    UNIFORM,
    Budget,
    DensityPrior,
    MineCount,
    PartCache,
    UnknownCells,
    probabilities,
    solve,
    solve_outcomes,
    solve_weight,
)
from minesweeper.topology import TOPOLOGIES, Topology
from minesweeper.topology.graph import GraphTopology
from minesweeper.topology.square import SquareTopology

#: A kind of board beside the registry's: any simple graph, edges drawn at random.
ANY_GRAPH = "any-graph"


def random_graph(rng: random.Random, size: int) -> GraphTopology:
    """Any simple graph on ``size`` nodes, each pair joined with probability 0.3."""
    pairs = itertools.combinations(range(size), 2)
    return GraphTopology(size, [pair for pair in pairs if rng.random() < 0.3])


def kinds() -> list[str]:
    """Every registered topology, and `ANY_GRAPH`."""
    return [*sorted(TOPOLOGIES), ANY_GRAPH]


def small_topology(kind: str, rows: int, cols: int, rng: random.Random) -> Topology:
    """A ``rows x cols`` board of ``kind``; 2x6 when that size cannot be tiled by its pieces."""
    if kind == ANY_GRAPH:
        return random_graph(rng, rows * cols)
    cls = TOPOLOGIES[kind]
    try:
        return cls.random(rows, cols, rng)
    except TopologyError:
        return cls.random(2, 6, rng)  # 12 squares: pieces of 2, 3 and 4 all tile it


def brute_force(view: View, prior: DensityPrior = UNIFORM):
    """Each unknown cell's mine probability, the layout count, by trying every layout."""
    unknown = view.unknown()
    try:
        rules = constraints(view)
    except InconsistentView:
        return None, 0
    n = view.topology.size
    left = None if view.mine_count is None else view.mine_count - len(view.mines)
    total = Fraction(0)
    mine_weight = dict.fromkeys(unknown, Fraction(0))
    layouts = 0
    for bits in range(1 << len(unknown)):
        mines = {c for i, c in enumerate(unknown) if bits >> i & 1}
        if left is not None and len(mines) != left:
            continue
        if any(len(rule.cells & mines) != rule.mines for rule in rules):
            continue
        layouts += 1
        if left is None:
            k = len(view.mines) + len(mines)
            # Beta(a, b) weight of a whole-board layout with k mines of n cells.
            weight = Fraction(
                factorial(k + prior.a - 1) * factorial(n - k + prior.b - 1),
                factorial(n + prior.a + prior.b - 1),
            )
        else:
            weight = Fraction(1)
        total += weight
        for cell in mines:
            mine_weight[cell] += weight
    if total == 0:
        return None, 0
    return {c: w / total for c, w in mine_weight.items()}, layouts


@st.composite
def positions(draw, known_count: bool):
    """A random position on a random small topology: from a real board, or with noisy numbers."""
    seed = draw(st.integers(0, 2**32 - 1))
    rng = random.Random(seed)
    kind = draw(st.sampled_from(kinds()))
    topology = small_topology(kind, draw(st.integers(1, 4)), draw(st.integers(1, 4)), rng)
    size = topology.size
    mines = {c for c in range(size) if rng.random() < draw(st.floats(0.05, 0.5))}
    revealed = {}
    for cell in range(size):
        if cell not in mines and rng.random() < 0.45:
            count = sum(1 for o in topology.neighbours(cell) if o in mines)
            if draw(st.booleans()) and rng.random() < 0.15:
                count = max(0, count + rng.choice((-1, 1)))  # maybe inconsistent
            revealed[cell] = count
    flagged = frozenset(c for c in mines if rng.random() < 0.3)
    unknown = size - len(revealed) - len(flagged)
    if unknown > 12:
        # Keep brute force quick: reveal more.
        for cell in range(size):
            if cell not in mines and cell not in revealed and unknown > 12:
                revealed[cell] = sum(1 for o in topology.neighbours(cell) if o in mines)
                unknown -= 1
    count = len(mines) if known_count else None
    if known_count and draw(st.booleans()) and rng.random() < 0.2:
        count = len(mines) + rng.choice((-1, 1))
    return View(topology, revealed, flagged, count)


def check(view: View, prior: DensityPrior = UNIFORM) -> None:
    expected, layouts = brute_force(view, prior)
    if expected is None:
        with pytest.raises(InconsistentView):
            probabilities(view, prior)
        return
    result = probabilities(view, prior)
    assert not result.approximate
    assert {c: result[c] for c in result} == expected
    assert result.layouts == layouts
    assert result.safe == {c for c, p in expected.items() if p == 0}
    assert result.mines == {c for c, p in expected.items() if p == 1}
    for cell, p in expected.items():
        assert result.chance(cell) == float(p)
    assert len(result) == len(expected)
    for count in (1, 2, 3):  # the few lowest, a value per cell, without a float per cell
        assert result.smallest(count) == heapq.nsmallest(count, result.floats().values())
    if expected:
        assert result.lowest() == min(result.floats().values())


FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(positions(known_count=True))
def test_known_count_matches_brute_force(view: View) -> None:
    check(view)


@FAST
@given(positions(known_count=False))
def test_unknown_count_matches_brute_force(view: View) -> None:
    check(view)


@settings(max_examples=40, deadline=None)
@given(positions(known_count=False), st.integers(1, 4), st.integers(1, 12))
def test_any_beta_prior_matches_brute_force(view: View, a: int, b: int) -> None:
    check(view, DensityPrior(a, b))


def test_supercells_count_binomially() -> None:
    # A 1 touching five unknown cells: each is a mine with chance 1/5 and 5 layouts.
    rules = [Constraint(frozenset(range(5)), 1, -1)]
    result = solve(rules, range(5), 1)
    assert all(result[c] == Fraction(1, 5) for c in range(5))
    assert result.layouts == 5


def test_hashable_cells_and_free_cells() -> None:
    rules = [Constraint(frozenset({"a", "b"}), 1, -1)]
    result = solve(rules, ["a", "b", "c", "d"], 2)
    # Layouts: one of a/b, one of c/d -> 4; all cells at 1/2.
    assert result.layouts == 4
    assert {result[c] for c in "abcd"} == {Fraction(1, 2)}


def test_certain_cells() -> None:
    # 1 2 1 above three unknown cells: the outer two are mines, the middle safe.
    topology = SquareTopology(2, 3)
    view = View(topology, {0: 1, 1: 2, 2: 1})
    result = probabilities(view)
    assert result.mines == {3, 5}
    assert result.safe == {4}


def test_inconsistent_position() -> None:
    topology = SquareTopology(1, 3)
    view = View(topology, {0: 1, 2: 0})
    with pytest.raises(InconsistentView):
        probabilities(view)
    with pytest.raises(InconsistentView):
        probabilities(View(topology, {0: 1}, mine_count=3))


def wall(cols: int) -> View:
    """A 3-row strip: the top row revealed with alternating numbers, the rest unknown."""
    topology = SquareTopology(3, cols)
    rng = random.Random(cols)
    mines = {c for c in range(cols, 2 * cols) if rng.random() < 0.3}
    revealed = {c: sum(1 for o in topology.neighbours(c) if o in mines) for c in range(cols)}
    return View(topology, revealed, mine_count=len(mines) + cols // 5)


def test_long_frontier_is_exact_and_agrees_with_a_split() -> None:
    # 100 connected frontier cells: far beyond brute force, still exact.
    view = wall(100)
    result = probabilities(view)
    assert not result.approximate
    assert result.layouts > 2**20
    total = sum(result[c] for c in view.unknown())
    assert total == view.mine_count


def test_state_cap_gives_a_flagged_approximation() -> None:
    view = mesh(6, 16)
    exact = probabilities(view)
    rough = probabilities(view, budget=Budget(counts=3))
    assert rough.approximate and not exact.approximate
    # Relaxing constraints keeps certain cells sound.
    assert rough.safe <= exact.safe and rough.mines <= exact.mines
    assert rough.safe or rough.mines or exact.safe == exact.mines == frozenset()


@pytest.mark.parametrize("known", [True, False])
def test_an_approximate_answer_loses_nothing_to_rounded_arithmetic(monkeypatch, known) -> None:
    """Past the budget, counts combine in 40-digit decimals: as good as 1000 digits."""
    view = mesh(16, 30)
    if not known:
        view = View(view.topology, view.revealed)
    rough = probabilities(view, budget=Budget(counts=200))
    assert rough.approximate
    monkeypatch.setattr(combining, "ROUNDED", Context(prec=1000, Emax=MAX_EMAX, Emin=MIN_EMIN))
    monkeypatch.setattr(combining, "INTEGRAL_DIGITS", 500)
    fine = probabilities(view, budget=Budget(counts=200))
    assert fine.approximate and fine.safe == rough.safe and fine.mines == rough.mines
    for cell, chance in fine.floats().items():
        assert rough.floats()[cell] == pytest.approx(chance, rel=1e-12, abs=1e-300)


@pytest.mark.parametrize("known", [True, False])
def test_an_overdue_answer_is_still_flagged_and_sound(known: bool) -> None:
    """Past ``due``, deduction, counting and the walk back each take their quickest path."""
    view = mesh(16, 30)  # one group of hundreds of cells: settled first, when there is time
    if not known:
        view = View(view.topology, view.revealed)
    exact = probabilities(view)
    rough = probabilities(view, budget=Budget(deadline=0.0, due=0.0))
    assert rough.approximate and not exact.approximate
    assert set(rough) == set(exact)
    assert all(0 <= rough[cell] <= 1 for cell in rough)
    assert rough.safe <= exact.safe and rough.mines <= exact.mines


@FAST
@given(st.one_of(positions(known_count=True), positions(known_count=False)))
def test_an_overdue_walk_back_keeps_each_components_expected_mines(view: View) -> None:
    """Counted exactly but walked back after ``due``: each component's mines are spread
    evenly over its cells, so the expected number of mines stays exact."""
    try:
        exact = probabilities(view)
    except InconsistentView:
        with pytest.raises(InconsistentView):
            probabilities(view, budget=Budget(due=0.0))
        return
    with pytest.MonkeyPatch.context() as patch:
        # Programmes as small as a hurried count are walked back anyway: here none is.
        patch.setattr(programme, "SPENT_COUNTS", 0)
        rough = probabilities(view, budget=Budget(due=0.0))
    assert rough.layouts == exact.layouts and rough.weight == exact.weight
    assert sum(rough[c] for c in rough) == sum(exact[c] for c in exact)
    assert rough.safe <= exact.safe and rough.mines <= exact.mines
    assert rough.approximate or all(rough[c] == exact[c] for c in exact)


def test_an_overdue_walk_back_of_a_small_count_stays_exact() -> None:
    view = mesh(6, 16)
    exact = probabilities(view)
    assert not exact.approximate
    late = probabilities(view, budget=Budget(due=0.0))
    assert not late.approximate
    assert all(late[cell] == exact[cell] for cell in exact)


def test_settled_mines_shift_the_count_instead_of_lengthening_it(monkeypatch) -> None:
    """Mines that deduction settles (hundreds on a wide board) are one offset: no product
    or correlation of the count runs over them (exactness: the brute-force tests above)."""
    topology = SquareTopology(40, 40)
    rng = random.Random(40)
    mines = set(rng.sample(range(topology.size), topology.size // 5))
    revealed = {
        cell: sum(1 for o in topology.neighbours(cell) if o in mines)
        for cell in topology.cells()
        if cell not in mines and rng.random() < 0.5
    }
    view = View(topology, revealed)
    lengths: list[int] = []
    convolve, correlated = polynomials.convolve, combining.correlated

    def spied_convolve(a, b):
        lengths.append(len(a) + len(b) - 1)
        return convolve(a, b)

    def spied_correlated(g, p, n):
        lengths.append(n)
        return correlated(g, p, n)

    monkeypatch.setattr(polynomials, "convolve", spied_convolve)
    monkeypatch.setattr(combining, "correlated", spied_correlated)
    result = probabilities(view)
    assert not result.approximate
    assert len(result.mines) > 200 and lengths
    assert max(lengths) < 50  # the settled mines' own product alone would be 200 long


def test_wide_connected_frontier_returns() -> None:
    view = mesh(16, 30)
    assert len(frontier(view)) > 300
    result = probabilities(view)
    assert len(result) == len(view.unknown())
    assert result.layouts > 0


def outcomes_one_by_one(view: View, cell: int) -> tuple[dict, list, frozenset, list]:
    """Each count of mines around ``cell`` (opened) that fits, solved as its own position."""
    kept = [
        Constraint(rule.cells - {cell}, rule.mines, rule.source)
        for rule in constraints(view)
        if rule.cells != {cell}
    ]
    around = frozenset(o for o in view.topology.neighbours(cell) if view.is_unknown(o))
    rest = [c for c in view.unknown() if c != cell]
    left = None if view.mine_count is None else view.mine_count - len(view.mines)
    found = {}
    for count in range(len(around) + 1):
        number = [Constraint(around, count, cell)] if around else []
        try:
            found[count] = solve(
                [*kept, *number], rest, MineCount(left, known_mines=len(view.mines))
            )
        except InconsistentView:
            continue
    return found, kept, around, rest


def assert_same_outcomes(view: View, cell: int) -> None:
    expected, kept, around, rest = outcomes_one_by_one(view, cell)
    left = None if view.mine_count is None else view.mine_count - len(view.mines)
    told = MineCount(left, known_mines=len(view.mines))
    got = solve_outcomes(kept, around, rest, told, cache={})
    assert got is not None
    assert got.keys() == expected.keys()
    for count, result in got.items():
        want = expected[count]
        assert {c: result[c] for c in result} == {c: want[c] for c in want}
        assert (result.weight, result.layouts, result.safe, result.mines) == (
            want.weight,
            want.layouts,
            want.safe,
            want.mines,
        )
        assert not result.approximate
    # The opened cell left out by solve_outcomes itself: the same answers, cells in order.
    unknown = view.unknown()
    alone = solve_outcomes(kept, around, unknown, told, opened=cell, cache={})
    assert alone is not None
    assert {n: (list(r), [r[c] for c in r]) for n, r in alone.items()} == {
        n: (list(r), [r[c] for c in r]) for n, r in got.items()
    }


@FAST
@given(st.one_of(positions(known_count=True), positions(known_count=False)), st.integers(0, 99))
def test_outcomes_in_one_count_match_one_by_one(view: View, pick: int) -> None:
    try:
        constraints(view)
        probabilities(view)
    except InconsistentView:
        return
    unknown = view.unknown()
    if unknown:
        assert_same_outcomes(view, unknown[pick % len(unknown)])


def test_outcomes_in_one_count_on_a_settled_long_frontier() -> None:
    # 200 frontier cells: the group is settled by deduction before it is counted.
    view = wall(100)
    for column in (0, 37, 99):
        assert_same_outcomes(view, view.topology.cell_at(1, column))


@FAST
@given(
    st.one_of(positions(known_count=True), positions(known_count=False)),
    st.integers(1, 4),
    st.integers(1, 12),
    st.integers(0, 99),
)
def test_weight_alone_is_the_weight_of_the_probabilities(view: View, a: int, b: int, pick) -> None:
    """`solve_weight` gives `solve`'s weight (and its error), with and without an extra rule."""
    try:
        rules = constraints(view)
    except InconsistentView:
        return
    unknown = view.unknown()
    extra = []
    if unknown:  # as a 50/50 asks: one of two cells a mine
        pair = frozenset({unknown[pick % len(unknown)], unknown[(pick // 7) % len(unknown)]})
        extra = [Constraint(pair, pick % 2, -1)]
    left = None if view.mine_count is None else view.mine_count - len(view.mines)
    count = MineCount(left, DensityPrior(a, b), known_mines=len(view.mines))
    cache: dict[object, object] = {}
    for system in (rules, [*rules, *extra]):
        try:
            want = solve(system, unknown, count, cache=cache).weight
        except InconsistentView:
            with pytest.raises(InconsistentView):
                solve_weight(system, unknown, count, cache=cache)
            continue
        assert solve_weight(system, unknown, count, cache=cache) == want


def test_binomials_along_a_row_are_math_comb() -> None:
    """`binomials`, the free cells' weights by exact steps, is ``comb`` for every range."""
    for n in range(0, 14):
        for low in range(-4, n + 5):
            for high in range(low - 1, n + 6):
                want = [comb(n, r) if 0 <= r <= n else 0 for r in range(low, high + 1)]
                assert binomials(n, low, high) == want
    assert binomials(480, 30, 99) == [comb(480, r) for r in range(30, 100)]


def lone_cells(view: View) -> dict[int, list[int]]:
    """The unknown cells whose unknown neighbours no rule of ``view`` touches, by how many
    unknown neighbours they have (at least one)."""
    rules = constraints(view)
    constrained = {c for rule in rules for c in rule.cells}
    found: dict[int, list[int]] = {}
    for cell in view.unknown():
        if cell in constrained:
            continue
        around = {o for o in view.topology.neighbours(cell) if view.is_unknown(o)}
        if around and constrained.isdisjoint(around):
            found.setdefault(len(around), []).append(cell)
    return found


def outcome_facts(outcomes: dict | None) -> dict | None:
    """Everything a `solve_outcomes` answer tells, orders of cells included."""
    if outcomes is None:
        return None
    return {
        count: (
            list(result),
            [result[c] for c in result],
            len(result),
            result.weight,
            result.layouts,
            result.safe,
            result.mines,
            result.approximate,
            result.smallest(2),
        )
        for count, result in outcomes.items()
    }


@pytest.mark.parametrize("known", [True, False])
@pytest.mark.parametrize("seed", range(6))
def test_a_lone_cells_outcomes_serve_another_alike(seed: int, known: bool, monkeypatch) -> None:
    """Opening cells whose unknown neighbours no rule touches: the outcomes kept from one
    (`_LoneOutcomes`) give another with as many neighbours exactly what its own count
    gives, cells and their order included, and no count is made for it."""
    rng = random.Random(seed)
    topology = SquareTopology(9, 12)
    mines = set(rng.sample(range(topology.size), 20))
    revealed: dict[int, int] = {}
    for cell in rng.sample(range(topology.size), 14):
        if cell not in mines:
            revealed[cell] = sum(1 for o in topology.neighbours(cell) if o in mines)
    flagged = frozenset(rng.sample(sorted(mines), 2))
    view = View(topology, revealed, flagged, len(mines) if known else None)
    try:
        rules = constraints(view)
        probabilities(view)
    except InconsistentView:
        pytest.skip("the drawn numbers admit no layout")
    served = 0
    for cells in lone_cells(view).values():
        cache = PartCache()
        for cell in cells:
            opening = Opening.of(view, rules, cell)
            rest = [c for c in view.unknown() if c != cell]
            count = MineCount.of(view, opened=1)
            fresh = solve_outcomes(opening.rules, opening.around, rest, count)
            counts: list[int] = []
            real = combining.combine_outcomes

            def counted(*args, counts=counts, real=real):
                counts.append(1)
                return real(*args)

            monkeypatch.setattr(combining, "combine_outcomes", counted)
            kept = solve_outcomes(opening.rules, opening.around, rest, count, cache=cache)
            monkeypatch.setattr(combining, "combine_outcomes", real)
            assert outcome_facts(kept) == outcome_facts(fresh)
            if cell != cells[0]:
                assert not counts  # served from the first cell's outcomes
                served += 1
    assert served or not any(len(cells) > 1 for cells in lone_cells(view).values())


@FAST
@given(
    st.one_of(positions(known_count=True), positions(known_count=False)),
    st.integers(0, 99),
    st.booleans(),
)
def test_a_positions_unknown_cells_made_once_serve_every_cells_outcomes(
    view: View, pick: int, distinct: bool
) -> None:
    """`UnknownCells` made once for a position (given each cell once, or with repeats) serves
    the `solve_outcomes` of every cell opened there, lone cells served from another's count
    included: each answer is what a plain list gives, and its cells are the unknown cells but
    the opened one, the free block (the cells no rule holds, in their order) last."""
    try:
        rules = constraints(view)
        probabilities(view)
    except InconsistentView:
        return
    unknown = view.unknown()
    if not unknown:
        return
    once = UnknownCells(unknown, distinct=True) if distinct else UnknownCells(unknown + unknown)
    count = MineCount.of(view, opened=1)
    plain_cache, once_cache = PartCache(), PartCache()
    for cell in dict.fromkeys([unknown[pick % len(unknown)], *unknown[:4]]):
        opening = Opening.of(view, rules, cell)
        args = (opening.rules, opening.around)
        plain = solve_outcomes(*args, list(unknown), count, opened=cell, cache=plain_cache)
        kept = solve_outcomes(*args, once, count, opened=cell, cache=once_cache)
        assert outcome_facts(kept) == outcome_facts(plain)
        held = {c for rule in opening.rules for c in rule.cells} | opening.around
        free = [c for c in unknown if c != cell and c not in held]
        rest = [c for c in unknown if c != cell]
        for result in (kept or {}).values():
            cells = list(result)
            assert sorted(cells) == sorted(rest) and len(result) == len(rest)
            assert cells[len(cells) - len(free) :] == free
            assert {result[c] for c in free} <= {result[free[0]]} if free else True


def test_floats_are_a_new_dict_each_time() -> None:
    """`Probabilities.floats` is made once and handed out as a copy: changing one answer
    leaves the next as it was."""
    view = View(SquareTopology(3, 4), {0: 1, 5: 2}, mine_count=3)
    result = probabilities(view)
    first = result.floats()
    assert first == {cell: result.chance(cell) for cell in result}
    first[next(iter(first))] = 2.0
    assert result.floats() == {cell: result.chance(cell) for cell in result}


def test_a_rule_on_a_cell_not_unknown_is_a_clear_error() -> None:
    """Every entry point checks the rules against the unknown cells it is given (a list, or
    `UnknownCells`): a rule naming another cell, or the cell being opened, is a ValueError;
    a rule needing more mines than it has cells says so."""
    rule = Constraint(frozenset({1, 2}), 1, -1)
    for unknown in ([0, 1], UnknownCells([0, 1]), UnknownCells([0, 1], distinct=True)):
        with pytest.raises(ValueError, match="not unknown"):
            solve([rule], unknown)
        with pytest.raises(ValueError, match="not unknown"):
            solve_outcomes([rule], [0], unknown)
    with pytest.raises(ValueError, match="not unknown"):
        solve_weight([rule], [0, 1])
    with pytest.raises(ValueError, match="not unknown"):
        solve_outcomes([rule], [0], [0, 1, 2, 3], opened=2)
    with pytest.raises(InconsistentView, match="needs 3 mine"):
        solve([Constraint(frozenset({1, 2}), 3, -1)], UnknownCells([0, 1, 2]))
    assert solve([rule], UnknownCells([0, 1, 2, 1], distinct=False)).layouts == 2 * 2
