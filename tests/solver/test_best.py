"""Strategies `best` and `exact-safest`, the 50/50 rule and the exact endgame."""

from __future__ import annotations

import heapq
import json
import random
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from paths import TESTS
from test_probability import kinds, small_topology

from minesweeper.bench.deals import Deal
from minesweeper.board import Board
from minesweeper.boards.cases import load_cases
from minesweeper.boards.generate import random_board
from minesweeper.client import play
from minesweeper.solver import View
from minesweeper.solver.best import (
    Best,
    ExactSafest,
    best_safety,
    blended_safety,
    fifty_fifty,
)
from minesweeper.solver.constraints import InconsistentView, Opening, constraints
from minesweeper.solver.endgame import (
    RegionWatch,
    isolated_regions,
    layouts,
    solve_endgame,
    solve_region,
)
from minesweeper.solver.probability import Budget, probabilities
from minesweeper.solver.registry import find_strategy
from minesweeper.topology import SquareTopology
from minesweeper.variant import PRESETS, FirstClick, Rules


@st.composite
def real_positions(draw, max_unknown: int = 14):
    """A consistent position seen on a random board of a random topology."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    kind = draw(st.sampled_from(kinds()))
    topology = small_topology(kind, draw(st.integers(2, 5)), draw(st.integers(2, 5)), rng)
    assume(topology.size >= 2)  # a tiling of a small board may be a single piece
    size = topology.size
    mines = set(rng.sample(range(size), rng.randint(1, max(1, size // 4))))
    board = Board(topology, mines)
    revealed = {}
    for cell in range(size):
        if cell not in mines and (rng.random() < 0.5 or size - len(revealed) > max_unknown + 4):
            revealed[cell] = board.count(cell)
    if len(revealed) == size - len(mines):
        revealed.pop(next(iter(revealed)))
    known = draw(st.booleans())
    return View(topology, revealed, frozenset(), len(mines) if known else None), board


def played_positions(seed: int, count: int) -> list[tuple[View, object]]:
    """The positions ``best`` guessed from in ``count`` expert classic games (bench's boards
    of ``seed``): large boards, early and late, with known mines and free cells."""
    deal = Deal.of_preset(PRESETS["expert"], Rules("classic"), 1)
    found = []

    class Seen(Best):
        def _outlooks(self, view, result, beat):
            found.append((view, result))
            return super()._outlooks(view, result, beat)

    for index in range(count):
        board, first = deal.game(seed, index)
        play(board, first, Seen(), True)
    return found


SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(real_positions(), st.sampled_from(["best", "exact-safest"]))
def test_never_opens_a_proved_mine(position, name) -> None:
    view, board = position
    exact = probabilities(view)
    decision = find_strategy(name)().decide(view)
    assert decision.opens
    for cell in decision.opens:
        assert cell not in exact.mines
        assert view.is_unknown(cell)
    if decision.guess:
        assert not exact.safe
        assert decision.mines == exact.mines
    else:
        # Certain moves may come in batches: some of the proved cells at a time.
        assert set(decision.opens) <= exact.safe
        assert decision.mines <= exact.mines
        assert not any(board.is_mine(c) for c in decision.opens)


@SETTINGS
@given(real_positions(), real_positions(), st.sampled_from(["best", "exact-safest"]))
def test_a_strategy_moved_to_another_position_decides_afresh(first, second, name) -> None:
    """State kept between moves (constraints, counts, the prover) never leaks into another game."""
    strategy = find_strategy(name)()
    strategy.decide(first[0])
    assert strategy.decide(second[0]) == find_strategy(name)().decide(second[0])


@SETTINGS
@given(real_positions())
def test_exact_safest_guesses_a_safest_cell(position) -> None:
    view, _ = position
    exact = probabilities(view)
    decision = ExactSafest().decide(view)
    if decision.guess:
        lowest = min(exact[c] for c in exact)
        assert exact[decision.opens[0]] == lowest


def optimal_win_chance(view: View) -> Fraction:
    """Perfect play by brute force over views (independent of the endgame search)."""

    @cache
    def value(revealed: frozenset) -> Fraction:
        current = View(view.topology, dict(revealed), view.mines, view.mine_count)
        exact = probabilities(current)
        open_cells = [c for c in exact if c not in exact.mines]
        if not open_cells:
            return Fraction(1)
        best = Fraction(0)
        for cell in open_cells:
            chance = Fraction(0)
            outcomes = []
            for shown in range(len(view.topology.neighbours(cell)) + 1):
                after = {**dict(revealed), cell: shown}
                try:
                    solved = probabilities(View(view.topology, after, view.mines, view.mine_count))
                except Exception:
                    continue
                outcomes.append((solved.layouts, frozenset(after.items())))
            for count, key in outcomes:
                chance += Fraction(count, exact.layouts) * value(key)
            best = max(best, chance)
        return best

    return value(frozenset(view.revealed.items()))


def test_endgame_matches_brute_force_perfect_play() -> None:
    rng = random.Random(5)
    checked = 0
    while checked < 10:
        topology = SquareTopology(rng.randint(2, 3), 3)
        mines = set(rng.sample(range(topology.size), rng.randint(1, 2)))
        board = Board(topology, mines)
        safe = [c for c in range(topology.size) if c not in mines]
        shown = rng.randint(max(1, len(safe) - 4), len(safe) - 1)
        revealed = {c: board.count(c) for c in rng.sample(safe, shown)}
        view = View(topology, revealed, frozenset(), len(mines))
        exact = probabilities(view)
        if exact.safe:
            continue
        cell, chance = solve_endgame(view)
        assert cell not in exact.mines
        assert abs(chance - float(optimal_win_chance(view))) < 1e-12
        checked += 1


def test_best_searches_positions_of_up_to_2000_layouts_exactly() -> None:
    """The default endgame takes positions past the old 500 layouts (seeds 151, 157)."""
    view = View(SquareTopology(4, 4), {0: 1}, mine_count=4)  # 3 x C(12, 3) = 660 layouts
    assert 500 < probabilities(view).layouts <= Best.endgame_layouts.default
    decision = Best().decide(view)
    found = solve_endgame(view, max_nodes=Best.endgame_nodes.default)
    assert found is not None
    assert decision.method == "endgame"
    assert decision.opens == (found[0],)


def test_endgame_layouts_past_the_listing_default_are_listed_and_searched() -> None:
    """`Best.endgame_layouts` above `endgame.MAX_LAYOUTS` takes effect: the layouts are
    listed up to it (before, the listing stopped at 2000 and such a limit did nothing), and
    the exact move beats the look-ahead's cell there."""
    view = View(SquareTopology(4, 6), {7: 2}, mine_count=4)  # 2940 layouts, no certain cell
    exact = probabilities(view)
    assert exact.layouts == 2940 and not exact.safe and not exact.mines
    assert layouts(view) is None  # past the default listing
    old = Best()  # the limits of the eighth round
    old.endgame_layouts, old.endgame_nodes = 2000, 100_000
    plain = old.decide(view)
    assert plain.method == "look-ahead"
    wider = Best()
    wider.endgame_layouts, wider.endgame_nodes = 3000, 100_000
    found = solve_endgame(view, max_nodes=wider.endgame_nodes, max_layouts=3000)
    assert found is not None
    decision = wider.decide(view)
    assert decision.method == "endgame"
    assert decision.opens == (found[0],) != plain.opens

    def chance_after(cell: int) -> float:
        """Win chance opening ``cell`` first: each number it may show weighed by its count
        of layouts (the counting engine), then played perfectly (a search of that view)."""
        total = 0.0
        for shown in range(9):
            after = View(view.topology, {**view.revealed, cell: shown}, mine_count=4)
            try:
                count = probabilities(after).layouts
            except InconsistentView:
                continue
            rest = solve_endgame(after, max_nodes=wider.endgame_nodes, max_layouts=3000)
            assert rest is not None or count == 1  # one layout left: won
            total += count / exact.layouts * (1.0 if rest is None else rest[1])
        return total

    assert chance_after(found[0]) == pytest.approx(found[1])
    assert chance_after(plain.opens[0]) < found[1] - 1e-9  # 0.8272 against 0.8279


def test_layouts_lists_every_fitting_layout() -> None:
    topology = SquareTopology(2, 3)
    view = View(topology, {0: 1, 1: 1}, mine_count=1)
    found = layouts(view)
    assert sorted(sorted(x) for x in found) == [[3], [4]]
    assert probabilities(view).layouts == len(found)


def test_unavoidable_fifty_fifty_is_taken() -> None:
    # Two 1s above two unknown cells on a 2x2 board: one mine, nothing can tell which.
    topology = SquareTopology(2, 2)
    view = View(topology, {0: 1, 1: 1})
    exact = probabilities(view)
    assert exact[2] == exact[3] == Fraction(1, 2)
    assert fifty_fifty(view, constraints(view)) == [2, 3]
    # On a wider board the cell beside them breaks the symmetry: no forced 50/50.
    wide = View(SquareTopology(2, 3), {0: 1, 1: 1}, mine_count=1)
    assert fifty_fifty(wide, constraints(wide)) is None


def test_best_plays_whole_games_on_every_topology() -> None:
    rng = random.Random(3)
    for kind in kinds():
        topology = small_topology(kind, 6, 8, rng)
        for known in (True, False):
            first = 0
            board = random_board(topology, topology.size // 7, rng, first, FirstClick.OPENING)
            record = play(board, first, Best(), tell_mine_count=known)
            assert record.finished
            assert record.visit_count > 1 or not record.won


def test_isolated_region_search_matches_the_whole_board_search() -> None:
    # When the isolated region is every unknown cell, both searches are the same game.
    rng = random.Random(11)
    checked = 0
    for _ in range(400):
        topology = SquareTopology(rng.randint(2, 4), rng.randint(2, 4))
        mines = set(rng.sample(range(topology.size), rng.randint(1, 3)))
        board = Board(topology, mines)
        safe = [c for c in range(topology.size) if c not in mines]
        if len(safe) < 2:
            continue
        revealed = {c: board.count(c) for c in rng.sample(safe, rng.randint(1, len(safe) - 1))}
        for count in (len(mines), None):
            view = View(topology, revealed, frozenset(), count)
            exact = probabilities(view)
            if exact.safe or exact.mines:
                continue
            regions = isolated_regions(view)
            if [sorted(r) for r in regions] != [sorted(exact)]:
                continue
            whole = solve_endgame(view)
            local = solve_region(view, regions[0])
            assert whole is not None and local is not None
            assert abs(whole[1] - local[1]) < 1e-12
            checked += 1
    assert checked >= 10


def test_isolated_regions_exclude_cells_next_to_the_open_board() -> None:
    # A 1 in the corner of a 3x3 board: its centre neighbour touches unconstrained cells.
    assert isolated_regions(View(SquareTopology(3, 3), {0: 1})) == []
    # Enclosed by revealed cells: (1,0) and (1,1) form a region.
    topology = SquareTopology(2, 3)
    view = View(topology, {0: 1, 1: 1, 2: 1, 5: 1})
    assert isolated_regions(view) == [[3, 4]]


def test_moves_match_the_recorded_games() -> None:
    """Speed-ups keep every guess: recorded games guess the same cells from the same positions."""
    from solver_moves import FIXTURE, games, key, play_recorded

    recorded = json.loads(FIXTURE.read_text())
    assert len(recorded) == len(games())
    for game in games():
        assert play_recorded(*game) == recorded[key(*game)], key(*game)


@pytest.mark.parametrize("counts", [3, 4_000, Budget().counts])
def test_the_crash_board_plays_to_the_end_under_any_budget(counts: int) -> None:
    """Issue 11's board: an approximate count of an impossible outcome once raised mid-game."""
    case = load_cases(TESTS / "data" / "crash.in")[0]
    for strategy in (Best(budget=Budget(counts)), ExactSafest(budget=Budget(counts))):
        record = play(case.board, case.first, strategy, tell_mine_count=True)
        assert record.finished


@SETTINGS
@given(real_positions(), st.sampled_from([0.0, 0.25, 1.0]))
def test_blended_safety_weighs_the_two_safest_cells(position, blend) -> None:
    view, _ = position
    exact = probabilities(view)
    safeties = sorted((1 - exact[c] for c in exact), reverse=True)
    second = safeties[1] if len(safeties) > 1 else Fraction(0)
    expected = (safeties[0] + Fraction(blend) * second) / (1 + Fraction(blend))
    assert blended_safety(exact, blend) == pytest.approx(float(expected), abs=1e-12)
    if blend == 0:
        assert blended_safety(exact, blend) == pytest.approx(best_safety(exact), abs=1e-12)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(real_positions(max_unknown=20), st.integers(0, 2**32 - 1), st.booleans())
def test_region_watch_finds_the_new_regions_of_the_whole_board(position, seed, proved) -> None:
    """Opening a cell and learning mines: the regions `RegionWatch` finds near the change are
    exactly the whole board's isolated regions that were not isolated before, in order."""
    view, _ = position
    rng = random.Random(seed)
    if proved:  # as `best` sees it: the proved mines known
        view = view.with_mines(probabilities(view).mines)
    unknown = view.unknown()
    assume(unknown)
    rules = constraints(view)
    before = {frozenset(r) for r in isolated_regions(view, [r.cells for r in rules])}
    cell = rng.choice(unknown)
    others = [c for c in unknown if c != cell]
    few = rng.randint(0, min(2, len(others))) if rng.random() < 0.7 else len(others)
    mines = frozenset(rng.sample(others, rng.randint(0, few)))  # any mines, as a test
    opening = Opening.of(view, rules, cell)
    after = View(view.topology, {**view.revealed, cell: 0}, view.mines, view.mine_count)
    after = after.with_mines(mines)
    linked = [r.cells - mines for r in opening.after(opening.known)]
    whole = [
        r for r in isolated_regions(after, [c for c in linked if c]) if frozenset(r) not in before
    ]
    near = RegionWatch(view, [r.cells for r in rules]).created(cell, opening.around, mines)
    assert [r for r in near if frozenset(r) not in before] == whole


@SETTINGS
@given(real_positions(max_unknown=20), st.sampled_from([0.0, 0.5]))
def test_decide_skips_only_candidates_that_cannot_win(position, progress) -> None:
    """`decide`'s look-ahead leaves out the candidates whose `Best.most` is below a score
    found: its best outlook is the best of every candidate's, and no score passes its most."""
    view, _ = position
    strategy = Best()
    strategy.progress_weight = progress
    result = strategy.solve(view)
    assume(not result.safe and len(result) > 0)
    view = view.with_mines(result.mines)
    every = strategy.outlooks(view, result)
    kept = strategy._outlooks(view, result, True)
    assert max(kept, key=_ranked).cell == max(every, key=_ranked).cell
    if len(every) == 1:  # a lone candidate is the move: it is not looked at
        assert [look.cell for look in kept] == [every[0].cell]
    else:
        assert max(kept, key=_ranked) == max(every, key=_ranked)
        assert {look.cell: look for look in kept}.items() <= {
            look.cell: look for look in every
        }.items()
    influence = strategy.fifties(view, result).influence()
    for look in every:
        assert look.score <= strategy.most(look.cell, look.safety, influence)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    real_positions(max_unknown=20),
    st.integers(0, 2**32 - 1),
    st.sampled_from([-0.1, -1e-6, 1e-6, 0.1]),
)
def test_outcomes_stop_only_when_their_mean_worth_is_under_the_least_asked(
    position, pick, offset
) -> None:
    """``least``: `Best.outcomes` gives the same list, or None only when the outcomes' mean
    worth is under ``least`` (whatever order it values them in)."""
    view, _ = position
    strategy = Best()
    result = strategy.solve(view)
    assume(not result.safe and len(result) > 0)
    view = view.with_mines(result.mines)
    rules = strategy.rules(view)
    cells = sorted(result)
    cell = cells[pick % len(cells)]
    before = strategy.isolated(view, rules)
    every = strategy.outcomes(view, rules, cell, before)
    assert every is not None
    total = sum(weight for weight, _, _ in every)
    assume(total > 0)
    mean = sum(weight / total * worth for weight, worth, _ in every)
    least = mean + offset
    bounded = strategy.outcomes(view, rules, cell, before, least=least)
    if bounded is None:
        assert mean < least
    else:
        assert bounded == every


def _ranked(look):
    return (look.score, -look.cell)


def candidates_by_every_cell(strategy: Best, view: View, result) -> list[int]:
    """`Best.candidates` as it was first written, ranking every unconstrained cell: the
    reference its quicker walk (only the cells near the frontier and the first few far
    from it) must equal."""
    chances = result.floats()
    best = 1 - min(chances.values())
    floor = 1 - strategy.cutoff * best
    near = sorted((p, c) for c, p in chances.items() if p <= floor)
    neighbours = view.topology.neighbours
    constrained = {o for c in view.revealed for o in neighbours(c) if o in chances}
    edge = [c for p, c in near if c in constrained][: strategy.frontier_candidates]
    ranked = []
    for _, c in near:
        if c in constrained:
            continue
        around = [o for o in neighbours(c) if o in chances]
        ranked.append((len(around), -sum(o in constrained for o in around), c))
    open_first = [c for _, _, c in heapq.nsmallest(strategy.free_candidates, ranked)]
    near_first = [
        c
        for _, _, c in heapq.nsmallest(
            strategy.near_free_candidates, ((t, u, c) for u, t, c in ranked if t)
        )
    ]
    found = edge + list(dict.fromkeys(open_first + near_first))
    return found or [min(result, key=lambda cell: (result.chance(cell), cell))]


@SETTINGS
@given(
    real_positions(),
    st.integers(0, 6),
    st.integers(0, 3),
    st.integers(1, 9),
    st.randoms(use_true_random=False),
)
def test_candidates_are_the_reference_ranking(position, free, near_free, frontier, rng) -> None:
    """On small boards of every kind, some mines flagged (cells the engine leaves out)."""
    view, board = position
    flagged = frozenset(c for c in board.mines if rng.random() < 0.5)
    view = View(view.topology, view.revealed, flagged, view.mine_count)
    try:
        result = probabilities(view)
    except InconsistentView:
        return
    view = view.with_mines(result.mines)
    strategy = Best()
    strategy.free_candidates, strategy.near_free_candidates = free, near_free
    strategy.frontier_candidates = frontier
    assert strategy.candidates(view, result) == candidates_by_every_cell(strategy, view, result)


def test_candidates_are_the_reference_ranking_in_played_games() -> None:
    cases = played_positions(3, 10)
    for view, result in cases:
        for free, near_free in ((4, 0), (3, 2), (9, 1)):
            strategy = Best()
            strategy.free_candidates, strategy.near_free_candidates = free, near_free
            assert strategy.candidates(view, result) == candidates_by_every_cell(
                strategy, view, result
            )
