"""Strategy `search`: safe on every topology, `best` at depth 1, sound bounds and odds."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from test_best import SETTINGS, real_positions
from test_chains import pairs_linked_by_a_mine
from test_probability import kinds, small_topology

from minesweeper.boards.generate import random_board
from minesweeper.client import play
from minesweeper.solver import View
from minesweeper.solver.best import Best, fifty_fifty
from minesweeper.solver.constraints import constraints
from minesweeper.solver.endgame import isolated_regions, layouts
from minesweeper.solver.probability import probabilities
from minesweeper.solver.registry import find_strategy
from minesweeper.solver.rollout import Rollout
from minesweeper.solver.search import Position, Search
from minesweeper.topology import SquareTopology
from minesweeper.variant import FirstClick

#: More positions than any look-ahead here solves.
PLENTY = 60_000  # positions: more than any look-ahead here solves


def test_search_is_registered() -> None:
    assert find_strategy("search") is Search


@pytest.mark.parametrize("kind", kinds())
def test_search_plays_whole_games_on_every_topology(kind: str) -> None:
    rng = random.Random(kind)
    for known in (True, False):
        topology = small_topology(kind, 6, 8, rng)
        board = random_board(topology, topology.size // 6, rng, 0, FirstClick.OPENING)
        record = play(board, 0, Search(), tell_mine_count=known)
        assert record.finished
        assert record.visit_count > 1 or not record.won


@SETTINGS
@given(real_positions())
def test_never_opens_a_proved_mine(position) -> None:
    view, _ = position
    exact = probabilities(view)
    decision = Search().decide(view)
    assert decision.opens
    assert not set(decision.opens) & exact.mines
    if decision.guess:
        assert decision.mines == exact.mines
    else:
        assert set(decision.opens) <= exact.safe
        assert decision.mines <= exact.mines


def guessing_views(count: int, seed: int, side: int = 8) -> list[View]:
    """Positions met in real games where a guess is due (no certain move)."""
    rng = random.Random(seed)
    found: list[View] = []
    while len(found) < count:
        topology = SquareTopology(rng.randint(4, side), rng.randint(4, side + 1))
        board = random_board(topology, topology.size // 5, rng, 0, FirstClick.SAFE)
        known = rng.random() < 0.5
        revealed = {0: board.count(0)}
        # Reveal a few random safe cells and flood nothing: a position with guesses to make.
        safe = [c for c in range(topology.size) if not board.is_mine(c) and c]
        for cell in rng.sample(safe, rng.randint(0, min(4, len(safe)))):
            revealed[cell] = board.count(cell)
        view = View(topology, revealed, frozenset(), board.mine_count if known else None)
        if not probabilities(view).safe:
            found.append(view)
    return found


def plain_best() -> Best:
    """`best` scoring as `search`'s first depth does: the next safety alone, no 50/50
    influence (`best`'s blend and influence are not part of `search`'s scores)."""
    best = Best()
    best.blend = best.influence = 0.0
    return best


@pytest.mark.parametrize("progress_weight", [0.0, -0.2, 0.3])
def test_depth_one_plays_as_best(progress_weight: float) -> None:
    shallow, best = Search(), plain_best()
    shallow.depth = 1
    shallow.progress_weight = best.progress_weight = progress_weight
    for view in guessing_views(25, 1):
        assert shallow.decide(view) == best.decide(view)


def unpruned(search: Search, root: Position, cell: int, before, depth: int = 2) -> float:
    """``cell``'s ``depth``-guess score with all the time in the world, as the search defines it."""
    outcomes = search.answers(root, cell, before)
    total = sum(o.weight for o in outcomes)
    if not total:
        return 1 - root.result.chance(cell)
    worth = 0.0
    for o in outcomes:
        if o.progress:
            value = search.followed(o.position) if search.follow else 1.0
        else:
            value = search.reply(o.position, depth - 1)
        worth += o.weight * o.risk * value
    return (1 - root.result.chance(cell)) * worth / total


@pytest.mark.parametrize("follow", [False, True])
def test_deeper_scores_never_exceed_one_move_scores_and_pruning_keeps_the_best(
    follow: bool,
) -> None:
    for view in guessing_views(15, 2):
        search = Search(think=PLENTY)
        search.follow = follow
        result = probabilities(view)
        view = view.with_mines(result.mines)
        shallow = Search(think=PLENTY)
        shallow.depth = 1
        one_move = {o.cell: o.score for o in shallow.outlooks(view, result)}
        # Deepen every candidate, unpruned, as the pruned search would score it.
        search.outlooks(view, result)  # fills the memo of the same root
        root = Position(view, constraints(view), view.unknown(), result)
        before = {frozenset(r) for r in isolated_regions(view)}
        deep = {cell: unpruned(search, root, cell, before) for cell in one_move}
        for cell, score in deep.items():
            assert score <= one_move[cell] + 1e-12
        (chosen,) = search.outlooks(view, result)
        assert chosen.score == pytest.approx(max(deep.values()))


def test_three_guesses_deep_score_at_most_two_and_pruning_keeps_the_best() -> None:
    for view in guessing_views(12, 7):
        result = probabilities(view)
        view = view.with_mines(result.mines)
        two, three = Search(think=PLENTY), Search(think=PLENTY)
        three.depth = 3
        (chosen,) = three.outlooks(view, result)  # fills the memo of the same root
        two.outlooks(view, result)
        root = Position(view, constraints(view), view.unknown(), result)
        before = {frozenset(r) for r in isolated_regions(view)}
        cells = three.candidates(view, result)
        deep = {cell: unpruned(three, root, cell, before, depth=3) for cell in cells}
        for cell, score in deep.items():
            assert score <= unpruned(two, root, cell, before) + 1e-12
        assert chosen.score == pytest.approx(max(deep.values()))


def test_zero_chance_matches_counting_layouts() -> None:
    for view in guessing_views(20, 3, side=5):
        if view.mine_count is None:
            continue
        search = Search()
        result = probabilities(view)
        root = Position(view, constraints(view), view.unknown(), result)
        every = layouts(view, limit=10**6)
        assert every is not None
        for cell in view.unknown()[:6]:
            safe = [m for m in every if cell not in m]
            if not safe:
                continue
            around = [o for o in view.topology.neighbours(cell) if view.is_unknown(o)]
            zero = sum(1 for m in safe if not any(o in m for o in around))
            outcomes = search.answers(root, cell, None)
            total = sum(o.weight for o in outcomes)
            assert search.zero_chance(view, cell, outcomes, total) == pytest.approx(
                zero / len(safe)
            )


def test_no_time_to_think_plays_as_best() -> None:
    hasty = Search(think=0)
    for view in guessing_views(10, 4):
        assert hasty.decide(view) == plain_best().decide(view)


def followed_by_counting(view: View, cell: int) -> float:
    """What opening the one certain safe ``cell`` is worth, by counting layouts.

    Each number it may show weighs its share of the layouts; it is worth 1 when
    some other unknown cell is then safe in every layout (or none is left),
    else the best safety among the unknown cells.
    """
    every = layouts(view, limit=10**6)
    assert every is not None
    around = [o for o in view.topology.neighbours(cell) if view.is_unknown(o)]
    groups: dict[int, list[frozenset[int]]] = {}
    for mines in every:
        groups.setdefault(sum(1 for o in around if o in mines), []).append(mines)
    rest = [c for c in view.unknown() if c != cell]
    worth = 0.0
    for group in groups.values():
        risks = [sum(1 for m in group if c in m) / len(group) for c in rest]
        progress = not rest or min(risks) == 0
        worth += len(group) * (1.0 if progress else 1 - min(risks))
    return worth / len(every)


def test_following_progress_matches_counting_layouts() -> None:
    checked = 0
    for view in guessing_views(60, 6, side=5):
        if view.mine_count is None:
            continue
        search = Search()
        result = probabilities(view)
        view = view.with_mines(result.mines)
        root = Position(view, constraints(view), view.unknown(), result)
        for cell in root.unknown:
            for outcome in search.answers(root, cell, None):
                after = outcome.position
                if len(after.result.safe) != 1:
                    assert search.followed(after) == 1.0
                    continue
                (safe,) = after.result.safe
                counted = followed_by_counting(after.view, safe)
                assert search.followed(after) == pytest.approx(counted)
                checked += 1
    assert checked > 20


def reply_by_counting(view: View, blend: float) -> float | None:
    """The best one-guess score in ``view``, by counting its layouts.

    A cell's score is its safety times what its numbers leave, each weighted by
    its share of the layouts where the cell is safe: ``(s1 + blend * s2) / (1 +
    blend)`` of the two safest cells left (1 when none is left; s2 = 0 when one
    is), which is the best safety left (or 1 with progress) when ``blend`` is 0.
    None past 3000 layouts (too slow to count).
    """
    every = layouts(view, limit=3000)
    if every is None:
        return None
    unknown = view.unknown()
    best = 0.0
    for cell in unknown:
        safe = [m for m in every if cell not in m]
        if not safe:
            continue
        around = [o for o in view.topology.neighbours(cell) if view.is_unknown(o)]
        groups: dict[int, list[frozenset[int]]] = {}
        for mines in safe:
            groups.setdefault(sum(1 for o in around if o in mines), []).append(mines)
        rest = [c for c in unknown if c != cell]
        worth = 0.0
        for group in groups.values():
            safeties = sorted(1 - sum(c in m for m in group) / len(group) for c in rest)[::-1]
            if safeties:
                second = safeties[1] if len(safeties) > 1 else 0.0
                worth += len(group) * (safeties[0] + blend * second) / (1 + blend)
            else:
                worth += len(group)
        best = max(best, len(safe) / len(every) * worth / len(safe))
    return best


def test_a_reply_is_the_best_one_guess_score_by_counting_layouts() -> None:
    """Depth 2's value of an outcome without progress: its best reply's one-move score."""
    checked = 0
    for view in guessing_views(30, 11, side=5):
        if view.mine_count is None:
            continue
        search = Search(think=PLENTY)
        search.replies = 10**6
        result = probabilities(view)
        view = view.with_mines(result.mines)
        root = Position(view, constraints(view), view.unknown(), result)
        search._candidates = list(root.unknown)  # every cell may reply
        for cell in root.unknown[:4]:
            for outcome in search.answers(root, cell, None):
                if outcome.progress:
                    continue
                counted = reply_by_counting(outcome.position.view, 0.0)
                if counted is not None:
                    assert search.reply(outcome.position) == pytest.approx(counted)
                    checked += 1
    assert checked > 20


def test_the_budget_is_counted_in_positions() -> None:
    deepened = 0
    for view in guessing_views(12, 5):
        result = probabilities(view)
        view = view.with_mines(result.mines)
        full = Search(think=PLENTY)
        (deep,) = full.outlooks(view, result)
        work = full.solved
        shallow = Search(think=PLENTY)
        shallow.depth = 1
        one_move = shallow.outlooks(view, result)
        root = shallow.solved  # the one-move scores' positions, never cut short
        assert 0 < root <= work
        enough = Search(think=work)
        assert enough.outlooks(view, result) == [deep] and enough.solved == work
        for budget in {0, root - 1, work - 1} if work > root else set():
            short = Search(think=budget)
            # Depth 2 left incomplete: the one-move scores decide.
            assert short.outlooks(view, result) == one_move
            assert short.solved == max(root, budget)
            deepened += 1
    assert deepened  # some look-aheads went past the one-move scores


class _Counting(Search):
    """`Search` that keeps the work of each of its look-aheads."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.work: list[int] = []

    def outlooks(self, view, result):
        found = super().outlooks(view, result)
        self.work.append(self.solved)
        return found


def test_a_rerun_plays_the_same_moves_when_the_budget_binds() -> None:
    rng = random.Random(8)
    topology = SquareTopology(9, 9)
    bound = 0
    for _ in range(6):
        board = random_board(topology, 14, rng, 0, FirstClick.OPENING)
        plays = []
        for _ in range(2):
            guesses: list[tuple[int, ...]] = []
            seen = guesses.append
            player = _Counting(think=25)
            record = play(board, 0, player, True, on_guess=lambda v, d, m, s=seen: s(d.opens))
            plays.append((record.won, record.visit_count, guesses, player.work))
            bound += sum(work >= 25 for work in player.work)
        assert plays[0] == plays[1]
    assert bound  # some look-aheads were cut short by the budget


def test_the_deeper_strategies_guess_an_unavoidable_50_50_as_best_does() -> None:
    view = pairs_linked_by_a_mine()
    chain = fifty_fifty(view, constraints(view))
    assert chain is not None
    players = [Best(), Search(), Rollout()]
    for player in players:
        player.endgame_layouts, player.regions = 0, False  # else searched exactly
    decisions = [player.decide(view) for player in players]
    assert decisions[0].method == "fifty-fifty" and decisions[0].opens[0] in chain
    assert all(d == decisions[0] and d.method == "fifty-fifty" for d in decisions)
