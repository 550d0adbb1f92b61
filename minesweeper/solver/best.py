"""Strategies on the exact probability engine: ``exact-safest`` and ``best``.

``exact-safest`` opens every certain safe cell, else the cell least likely to
be a mine (ties: lowest cell id).

``best`` also opens certain cells first. When it must guess:

1. Endgame: when at most `Best.endgame_layouts` layouts remain, it searches the
   game tree exactly over them (at most `Best.endgame_nodes` positions) and
   opens the cell with the highest chance to win the game.
2. Isolated regions: frontier cells walled off from everything else (no unknown
   neighbour outside them) must be cleared some time at a risk nothing else can
   lower. With `Best.regions` on, the region is played first, by the same exact
   search over its local layouts (each weighted by the ways to lay the other
   mines); off, it is left for later, when the mine count or the exact endgame
   often settles it. Its risk counts in the look-ahead either way (long-term
   risk, below).
3. Unavoidable 50/50: cells linked in pairs by numbers that need one mine
   among two, split in two sides of which one holds the mines, that no cell
   off them can ever tell apart (`fifty_fifty`, a chain as D. Hill's solver
   finds them); it is guessed at once, at its most informative cell.
4. Otherwise, among the near-safest cells (safety at least `Best.cutoff` times
   the best), each candidate is scored by looking one move ahead: for every
   number it could show, the engine solves the position with that number; the
   outcome is worth 1 when it leaves two certain safe cells, else the blended
   safety of the next guess, ``(s1 + blend * s2) / (1 + blend)`` of the two
   safest cells (s1 = 1 with one certain cell), times the chance to clear any
   isolated region the move would wall off (long-term risk). The score is
   ``safety * E[worth] * (1 + progress_weight * P(progress))``: the chance of
   surviving this guess and the next, with an optional bonus for progress,
   raised by ``influence * settles / safety``, ``settles`` the chance that
   opening the cell settles a potential 50/50 (a pair of cells that nothing
   could tell apart once their other neighbours are mines:
   `minesweeper.solver.pairs`), a risk that would otherwise be faced later.
   Cells whose influence brings them near the best join the candidates.

All of it works with the mine count known or unknown (the engine's prior) and
on every topology; a proved mine is never opened. Why each default is what it
is (paired measurements): docs/research/best.md.
"""

from __future__ import annotations

import heapq
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

from minesweeper.solver.book import BOOK
from minesweeper.solver.constraints import (
    Constraint,
    ConstraintTracker,
    InconsistentView,
    Opening,
)
from minesweeper.solver.endgame import (
    MAX_LAYOUTS,
    RegionWatch,
    best_endgame_move,
    isolated_regions,
    solve_region,
)
from minesweeper.solver.pairs import Fifties
from minesweeper.solver.probability import (
    DEFAULT_BUDGET,
    UNIFORM,
    Budget,
    DensityPrior,
    MineCount,
    PartCache,
    Probabilities,
    UnknownCells,
    probabilities,
    solve,
    solve_outcomes,
)
from minesweeper.solver.settings import Setting, Value
from minesweeper.solver.strategy import Decision, Strategy
from minesweeper.solver.subset import Prover, subset_prover
from minesweeper.solver.view import View
from minesweeper.topology.base import Topology


def certain(view: View, result: Probabilities) -> Decision | None:
    """Open every proved safe cell (reporting the proved mines), if there is one."""
    if result.safe:
        return Decision(tuple(sorted(result.safe)), result.mines)
    return None


def makes_progress(result: Probabilities) -> bool:
    """Whether ``result``'s position has a certain safe cell, or no unknown cell left."""
    return bool(result.safe) or len(result) == 0


def best_safety(result: Probabilities) -> float:
    """The chance that the safest unknown cell of ``result``'s position is safe."""
    return 1 - result.lowest()


def blended_safety(result: Probabilities, blend: float) -> float:
    """``(s1 + blend * s2) / (1 + blend)`` of ``result``'s two best safeties (1 when empty).

    Two certain safe cells make it 1; one makes it at least ``1 / (1 + blend)``.
    """
    if len(result) == 0:
        return 1.0
    low = result.smallest(2)
    first = 1 - low[0]
    second = 1 - low[1] if len(low) > 1 else 0.0
    return (first + blend * second) / (1 + blend)


@lru_cache(maxsize=16)
def by_degree(topology: Topology) -> list[int]:
    """``topology``'s cells, fewest neighbours first (ties: the lowest id first)."""
    return sorted(topology.cells(), key=lambda cell: (len(topology.neighbours(cell)), cell))


def safest(result: Probabilities) -> int:
    """The cell least likely to be a mine; ties go to the lowest id."""
    return min(result, key=lambda cell: (result.chance(cell), cell))


class EngineStrategy(Strategy):
    """A strategy on the exact engine: its prior, its budget, and counts kept between moves.

    The cache holds groups of constraints already counted (by the constraints
    alone, so it is sound across moves and games); it is emptied when it
    grows past `max_cached` groups. ``rules`` gives a view's constraints,
    updated from the last view's.
    """

    max_cached = Setting(
        5_000, "counted groups of constraints kept between moves (emptied past this)", 1
    )

    def __init__(
        self,
        seed: int = 0,
        *,
        prior: DensityPrior = UNIFORM,
        budget: Budget = DEFAULT_BUDGET,
        **settings: Value,
    ) -> None:
        super().__init__(seed, **settings)
        self.prior = prior
        self.budget = budget
        self._cache = PartCache()
        self._last: tuple[View, Probabilities] | None = None
        self.rules = ConstraintTracker()
        self._prover: Prover | None = None

    @property
    def cache(self) -> PartCache:
        """The counted groups kept between moves (emptied first when it is too large)."""
        if len(self._cache) > self.max_cached:
            self._cache.clear()
        return self._cache

    def proved(self, view: View) -> Decision | None:
        """Open the cells the subset rules prove safe, if there are any.

        Most moves of a game follow from one number or a pair of numbers, so
        this cheap prover, fed only what each view adds, answers them before
        the engine is asked. Opening proved cells in smaller batches than the
        engine would leaves every guess where it was: a game reaches the same
        position, where nothing more is certain, either way.
        """
        prover = self._prover
        try:
            if prover is None or not prover.follows(view):
                prover = self._prover = subset_prover(view.topology, view.mine_count)
            prover.see(view)
            prover.prove()
        except InconsistentView:
            self._prover = None  # the engine says what is wrong
            return None
        if not prover.safe:
            return None
        return Decision(tuple(sorted(prover.safe)), frozenset(prover.mines - view.mines))

    def solve(self, view: View) -> Probabilities:
        """The engine's probabilities for ``view`` (the last answer again for the same view)."""
        if self._last is None or self._last[0] is not view:
            rules = self.rules(view)
            self._last = (view, probabilities(view, self.prior, self.budget, self.cache, rules))
        return self._last[1]


class ExactSafest(EngineStrategy):
    """Certain moves, else the engine's plain safest cell."""

    name = "exact-safest"

    def decide(self, view: View) -> Decision:
        found = self.proved(view)
        if found is not None:
            return found
        result = self.solve(view)
        found = certain(view, result)
        if found is not None:
            return found
        return Decision((safest(result),), result.mines, guess=True, method="safest")


@dataclass(frozen=True)
class Outlook:
    """What opening a cell promises: its safety, the chance of progress, the score."""

    cell: int
    safety: float
    progress: float
    score: float


class Best(EngineStrategy):
    """Certain moves; else an exact endgame, an early 50/50, or a look-ahead guess."""

    name = "best"

    cutoff = Setting(0.9, "candidates must be at least this share of the best safety", 0, 1)
    progress_weight = Setting(
        0.0, "w in a candidate's score safety * E[worth] * (1 + w * P(progress))"
    )
    frontier_candidates = Setting(8, "most candidates on the frontier looked at", 0)
    free_candidates = Setting(
        4, "most unconstrained cells looked at, those most likely to open an area", 0
    )
    near_free_candidates = Setting(
        0, "most unconstrained cells touching the frontier looked at besides", 0
    )
    endgame_layouts = Setting(
        MAX_LAYOUTS, "search the game tree exactly when at most this many layouts remain", 0
    )
    endgame_nodes = Setting(100_000, "most positions the exact endgame search visits", 0)
    regions = Setting(
        False, "play isolated regions first, by exact search (off: they are often settled later)"
    )
    long_term = Setting(True, "count the risk of isolated regions a guess would wall off")
    blend = Setting(
        0.25,
        "an outcome without progress is worth (s1 + blend * s2) / (1 + blend), s1 and s2 the"
        " two best safeties of the next position",
        0,
    )
    influence = Setting(
        0.9,
        "a candidate's score is raised by this share of its chance to settle a potential"
        " 50/50 over its safety; cells it raises near the best become candidates too",
        0,
    )

    #: Whether a decision depends on the position and the settings alone, so that the
    #: process's `minesweeper.solver.book.Book` may keep it for later games. A subclass
    #: is not pure unless it says so (a clock, a random draw or a memory of earlier moves
    #: would make the book's answer another than its own).
    pure: ClassVar[bool] = True

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls.pure = bool(vars(cls).get("pure", False))

    def decide(self, view: View) -> Decision:
        found = self.proved(view)
        if found is not None:
            return found
        key = self.book_key(view)
        if key is not None:
            found = BOOK.get(key)
            if found is None:
                found = self._decide(view)
                BOOK.put(key, found)
            return found
        return self._decide(view)

    def book_key(self, view: View) -> Hashable | None:
        """Where the book keeps ``view``'s decision, or None when it does not keep it (a
        strategy that is not `pure`, a budget on a clock, a later position)."""
        if not self.pure or not self.budget.timeless():
            return None
        settings = tuple(getattr(self, name) for name in self._settings)
        return BOOK.key((type(self), settings, self.prior, self.budget), view)

    def _decide(self, view: View) -> Decision:
        """`decide` once no cheap proof found a safe cell."""
        result = self.solve(view)
        found = certain(view, result)
        if found is not None:
            return found
        view = view.with_mines(result.mines)
        cell, method = None, "endgame"
        if result.layouts <= self.endgame_layouts and not result.approximate:
            cell = best_endgame_move(view, self.prior, self.endgame_nodes, self.endgame_layouts)
        if cell is None and self.regions:
            cell, method = self.isolated_move(view), "region"
        if cell is None:
            cell, method = self.fifty_fifty_move(view), "fifty-fifty"
        if cell is None:
            cell, method = self.look_ahead(view, result), "look-ahead"
        return Decision((cell,), result.mines, guess=True, method=method)

    def look_ahead(self, view: View, result: Probabilities) -> int:
        """The cell the look-ahead guesses: the best `outlooks` score (ties: the lowest
        cell). Only the best counts, so the candidates that cannot beat a score found are
        not looked at (`_outlooks`); a strategy that scores its own way overrides this."""
        return top(self._outlooks(view, result, True))

    def fifty_fifty_move(self, view: View) -> int | None:
        """The cell of an unavoidable 50/50 (`fifty_fifty`) whose numbers promise most, if any.

        Every cell of it is safe with chance 1/2 and the risk is due some time
        whatever is opened first, so the guess is made now, at the cell whose
        outcomes are worth most (see `outcomes`).
        """
        rules = self.rules(view)
        chain = fifty_fifty(view, rules)
        if chain is None:
            return None
        watch = RegionWatch(view, [rule.cells for rule in rules])
        before = self.isolated(view, rules) if self.long_term else set()
        best: tuple[float, int] | None = None
        unknown = view.unknown()
        for cell in chain:
            outcomes = self.outcomes(view, rules, cell, before, watch, unknown) or []
            total = sum(weight for weight, _, _ in outcomes)
            worth = sum(w / total * v for w, v, _ in outcomes) if total else 0.0
            if best is None or worth > best[0]:
                best = (worth, cell)
        return best[1] if best else None

    def isolated_move(self, view: View) -> int | None:
        """The best move in an isolated region, searched exactly, if there is one.

        Such a region must be cleared some time, at a risk that nothing
        elsewhere can lower, so its perfect play is taken first (the region
        whose best move most likely wins first).
        """
        moves = []
        rules = self.rules(view)
        for region in isolated_regions(view, [rule.cells for rule in rules]):
            found = solve_region(
                view, region, self.prior, budget=self.budget, cache=self.cache, rules=rules
            )
            if found is not None:
                moves.append((-found[1], found[0]))
        return min(moves)[1] if moves else None

    def candidates(self, view: View, result: Probabilities) -> list[int]:
        """The near-safest cells worth a look-ahead, best first."""
        chances = result.floats()
        best = 1 - result.lowest()
        floor = 1 - self.cutoff * best
        neighbours = view.topology.neighbours
        revealed = view.revealed
        constrained = {o for c in revealed for o in neighbours(c) if o in chances}
        edge = sorted((chances[c], c) for c in constrained if chances[c] <= floor)
        free = self.free_ranked(view, chances, constrained, floor)
        found = [c for _, c in edge][: self.frontier_candidates] + free
        return found or [safest(result)]

    def free_ranked(
        self, view: View, chances: dict[int, float], constrained: set[int], floor: float
    ) -> list[int]:
        """The unconstrained candidates (chance at most ``floor``), best first.

        They share one probability: those most likely to open an area (fewest unknown
        neighbours) and those touching the frontier are looked at. Each ranking is
        ``(unknown neighbours, -neighbours on the frontier, cell)``. A cell off the
        frontier with neither a frontier cell nor a cell the engine leaves out (a known
        mine) next to it has every neighbour unknown and none on the frontier: only the
        few first of those in `by_degree` order can rank.
        """
        neighbours = view.topology.neighbours
        outside = [c for c in view.mines if c not in chances]
        near_edge = {o for c in (*constrained, *outside) for o in neighbours(c)}
        ranked = []
        for c in near_edge:
            if c in constrained or chances.get(c, 2.0) > floor:
                continue
            unknown_around = touching = 0
            for o in neighbours(c):
                if o in chances:  # the frontier's cells are unknown too
                    unknown_around += 1
                    touching += o in constrained
            ranked.append((unknown_around, -touching, c))
        lone = 0
        for c in by_degree(view.topology):
            if lone >= self.free_candidates:
                break
            if c in near_edge or c in constrained or chances.get(c, 2.0) > floor:
                continue
            ranked.append((len(neighbours(c)), 0, c))
            lone += 1
        open_first = [c for _, _, c in heapq.nsmallest(self.free_candidates, ranked)]
        near_first = [
            c
            for _, _, c in heapq.nsmallest(
                self.near_free_candidates, ((t, u, c) for u, t, c in ranked if t)
            )
        ]
        return list(dict.fromkeys(open_first + near_first))

    def outlooks(self, view: View, result: Probabilities) -> list[Outlook]:
        """Each candidate's look-ahead score (see the module docstring).

        Once the budget's time is spent, the candidates not yet looked at are
        left out (before the first: every candidate scored by its safety).
        """
        return self._outlooks(view, result, False)

    def _outlooks(self, view: View, result: Probabilities, beat: bool) -> list[Outlook]:
        """`outlooks`; ``beat``: only the best score matters (`decide`), so the candidates
        are looked at highest `most` first, one whose `most` is below a score found or whose
        outcomes fall short of it is left out, and a lone candidate comes back unvalued
        (scored by its `most`): the same best, for less."""
        cells = self.candidates(view, result)
        influence = self.fifties(view, result).influence() if self.influence else {}
        if influence:
            cells = cells + self.influenced(cells, result, influence)
        if self.budget.spent():
            return [Outlook(c, 1 - result.chance(c), 0.0, 1 - result.chance(c)) for c in cells]
        rules = self.rules(view)
        before = self.isolated(view, rules) if self.long_term else set()
        watch = RegionWatch(view, [rule.cells for rule in rules])
        unknown = UnknownCells(view.unknown(), distinct=True)  # once for every candidate
        looks: list[Outlook] = []
        top = -1.0  # the best score so far
        if beat:
            most = {cell: self.most(cell, 1 - result.chance(cell), influence) for cell in cells}
            cells = sorted(cells, key=lambda cell: -most[cell])
        if beat and len(cells) == 1:  # the only candidate: its score changes nothing
            return [Outlook(cells[0], 1 - result.chance(cells[0]), 0.0, most[cells[0]])]
        for cell in cells:
            if looks and self.budget.spent():
                break
            if beat and most[cell] < top:
                continue  # cannot beat the best so far
            safety = 1 - result.chance(cell)
            # In `decide`, the worth a candidate needs to beat the best so far.
            least = top / most[cell] if beat and top > 0 else None
            outcomes = self.outcomes(view, rules, cell, before, watch, unknown, least)
            if outcomes is None:
                continue  # its worth fell short of ``least``: it cannot beat the best
            looks.append(self._scored(cell, safety, outcomes, influence))
            top = max(top, looks[-1].score)
        return looks

    def _scored(
        self,
        cell: int,
        safety: float,
        outcomes: list[tuple[int, float, bool]],
        influence: dict[int, float],
    ) -> Outlook:
        """``cell``'s score (its safety ``safety``) from its `outcomes`."""
        total = sum(weight for weight, _, _ in outcomes)
        if total == 0:
            return Outlook(cell, safety, 0.0, safety)
        try:
            worth = sum(w * v for w, v, _ in outcomes) / total
        except OverflowError:  # weights past any float (a board of thousands of cells)
            worth = sum(w / total * v for w, v, _ in outcomes)
        progress = sum(w for w, _, moved in outcomes if moved) / total
        score = safety * worth * (1 + self.progress_weight * progress)
        if cell in influence and safety:
            score *= 1 + self.influence * influence[cell] / safety
        return Outlook(cell, safety, progress, score)

    def influenced(
        self, cells: list[int], result: Probabilities, influence: dict[int, float]
    ) -> list[int]:
        """The cells besides ``cells`` whose chance to settle a potential 50/50 (``influence``,
        at least 0.025) brings them near the best safety: candidates too."""
        floor = self.cutoff * best_safety(result)
        return [
            c
            for c, risk in sorted(influence.items())
            if c not in cells and risk >= 0.025 and 1 - result.chance(c) + risk >= floor
        ]

    def most(self, cell: int, safety: float, influence: dict[int, float]) -> float:
        """The highest score `outlooks` can give ``cell`` (its safety ``safety``): every
        outcome worth 1 (`worth` is at most 1), with progress; a little above, for the
        rounding of the score's floats."""
        most = safety * (1 + max(self.progress_weight, 0.0))
        if cell in influence and safety:
            most *= 1 + self.influence * influence[cell] / safety
        return most * (1 + 1e-9) if most >= 0 else float("inf")

    def outcomes(
        self,
        view: View,
        rules: list[Constraint],
        cell: int,
        before: set[frozenset[int]],
        watch: RegionWatch | None = None,
        unknown: Sequence[int] | UnknownCells | None = None,
        least: float | None = None,
    ) -> list[tuple[int, float, bool]] | None:
        """``(weight, worth, progress)`` of each number ``cell`` may show that a layout allows.

        ``rules`` are the view's constraints: each outcome's are the same
        without ``cell``, and one more, the number's, with no view rebuilt;
        every number comes from one count (`solve_outcomes`). ``watch``: the
        view's `RegionWatch`, which finds the regions an outcome walls off near
        ``cell`` (the same as `risk_after`'s, from the whole board). ``unknown``:
        ``view.unknown()``, if known (as `UnknownCells` when asked for many cells).
        ``least``: None once it is clear that the outcomes' mean worth is under it (the
        likeliest numbers are valued first, for that; the list is the same either way).
        """
        if watch is None:
            watch = RegionWatch(view, [rule.cells for rule in rules])
        opening = Opening.of(view, rules, cell)
        kept, around, known = opening.rules, opening.around, opening.known
        if unknown is None:
            unknown = view.unknown()
        count = self.opened_count(view)
        budget, cache = self.budget, self.cache
        # Every number's position from one count; one by one if that would be approximate.
        by_count = solve_outcomes(
            kept, around, unknown, count, budget=budget, cache=cache, opened=cell
        )
        rest = None if by_count is not None else [c for c in unknown if c != cell]
        walled: dict[frozenset[int], list[list[int]]] = {}

        def outcome(shown: int) -> tuple[int, float, bool] | None:
            try:
                if by_count is None:
                    assert rest is not None
                    solved = solve(opening.after(shown), rest, count, budget=budget, cache=cache)
                elif shown - known in by_count:
                    solved = by_count[shown - known]
                else:
                    return None  # no layout allows it
                moved = makes_progress(solved)
                risk = 1.0
                if self.long_term:
                    mines = solved.mines
                    if mines not in walled:  # most numbers prove the same mines (none)
                        regions = watch.created(cell, around, mines)
                        walled[mines] = [r for r in regions if frozenset(r) not in before]
                    new = walled[mines]
                    if new:
                        revealed = {**view.revealed, cell: shown}
                        after = View(view.topology, revealed, view.mines, view.mine_count)
                        risk = self.regions_risk(after.with_mines(solved.mines), new)
            except InconsistentView:
                return None  # no layout allows it (an approximate count may let it through)
            return solved.weight, self.worth(view, cell, shown, solved, risk), moved

        total = sum(solved.weight for solved in by_count.values()) if by_count else 0
        if least is None or not total:
            return [found for found in map(outcome, opening.numbers) if found is not None]
        assert by_count is not None
        valued: dict[int, tuple[int, float, bool]] = {}
        worth = share = 0.0  # the shares of the total weight valued, and of their worth
        unvalued = 1.0  # the share not valued yet: worth 1 at most, or left out
        for mines in sorted(by_count, key=lambda m: -by_count[m].weight):
            found = outcome(known + mines)
            weight = by_count[mines].weight / total
            unvalued -= weight
            if found is not None:
                valued[mines] = found
                share += weight
                worth += weight * found[1]
            if worth + unvalued < least * (share + unvalued):
                return None  # the mean worth is at most this, whatever the rest are worth
        return [valued[shown - known] for shown in opening.numbers if shown - known in valued]

    def worth(self, view: View, cell: int, shown: int, result: Probabilities, risk: float) -> float:
        """What ``cell`` showing ``shown`` in ``view`` is worth (``result``: the position then).

        1 with progress, else the next guess's safety; times ``risk``, the
        chance to clear the isolated regions the move walls off.
        """
        if not self.blend:
            return (1.0 if makes_progress(result) else best_safety(result)) * risk
        return blended_safety(result, self.blend) * risk

    def fifties(self, view: View, result: Probabilities) -> Fifties:
        """The potential 50/50s of ``view`` (``result``: its probabilities)."""
        count = MineCount.of(view, self.prior)
        return Fifties(view, self.rules(view), result, count, self.budget, self.cache)

    @staticmethod
    def isolated(view: View, rules: Sequence[Constraint]) -> set[frozenset[int]]:
        """The isolated regions of ``view``, whose constraints are ``rules``."""
        return {frozenset(r) for r in isolated_regions(view, [rule.cells for rule in rules])}

    def opened_count(self, view: View) -> MineCount:
        """The mine count of ``view`` with one more cell opened."""
        return MineCount.of(view, self.prior, opened=1)

    def risk_after(
        self,
        view: View,
        rules: Iterable[Constraint],
        result: Probabilities,
        before: set[frozenset[int]],
    ) -> float:
        """`created_risk` once ``result``'s mines are known (``rules``: ``view``'s constraints)."""
        linked = [rule.cells - result.mines for rule in rules]
        return self.created_risk(view.with_mines(result.mines), before, [c for c in linked if c])

    def created_risk(
        self,
        view: View,
        before: set[frozenset[int]],
        linked: Iterable[frozenset[int]] | None = None,
    ) -> float:
        """The chance to clear the isolated regions ``view`` has and ``before`` had not.

        A move that walls off a region (a 50/50 at the edge, say) costs that
        region's risk later, whatever else happens: the long-term risk.
        ``linked``: the cell sets of ``view``'s constraints, if known.
        """
        regions = isolated_regions(view, linked)
        return self.regions_risk(view, [r for r in regions if frozenset(r) not in before])

    def regions_risk(self, view: View, regions: Iterable[Sequence[int]]) -> float:
        """The chance to clear every one of ``view``'s isolated ``regions``."""
        chance = 1.0
        rules = None
        for region in regions:
            if rules is None:  # one move past the tracked view: its constraints, updated
                rules = self.rules.extended(view)
            found = solve_region(
                view, region, self.prior, budget=self.budget, cache=self.cache, rules=rules
            )
            if found is not None:
                chance *= found[1]
        return chance


def top(looks: Iterable[Outlook]) -> int:
    """The cell of the best outlook (ties: the lowest cell)."""
    return max(looks, key=lambda o: (o.score, -o.cell)).cell


def fifty_fifty(view: View, rules: Sequence[Constraint]) -> list[int] | None:
    """The cells of an unavoidable 50/50, if ``view`` has one (``rules``: its constraints).

    Numbers that need one more mine among two unknown cells link those cells;
    a connected set of links splits the chain's cells in two sides ``A`` and
    ``B``, and exactly one side holds mines. When the sides are the same size
    and every other cell next to the chain (revealed or not, not a known mine)
    has as many neighbours in ``A`` as in ``B``, swapping the sides maps every
    layout to one that shows the same everywhere off the chain: nothing opened
    elsewhere can tell the sides apart, each holds the mines with chance 1/2,
    and only a guess on the chain settles it. The smallest chain is two cells
    holding one mine whose other neighbours are the same.

    A pair with one mine and the same unknown neighbours is not enough: a
    number next to one of them and not the other can still tell them apart
    through its other cells, and guessing such a pair at once lost games
    (docs/research/search.md).
    """
    links: dict[int, list[int]] = {}
    for rule in rules:
        if rule.mines == 1 and len(rule.cells) == 2:
            a, b = sorted(rule.cells)
            links.setdefault(a, []).append(b)
            links.setdefault(b, []).append(a)
    neighbours = view.topology.neighbours
    seen: set[int] = set()
    for start in sorted(links):
        if start in seen:
            continue
        side = {start: True}
        stack, even = [start], True
        while stack:
            cell = stack.pop()
            for other in links[cell]:
                if other not in side:
                    side[other] = not side[cell]
                    stack.append(other)
                elif side[other] == side[cell]:
                    even = False  # an odd cycle: no layout fits, the engine says so
        seen.update(side)
        mines = sum(side.values())
        if not even or 2 * mines != len(side):
            continue
        touching = {o for c in side for o in neighbours(c) if o not in side and o not in view.mines}
        if all(
            sum(1 if side[n] else -1 for n in neighbours(o) if n in side) == 0 for o in touching
        ):
            return sorted(side)
    return None
