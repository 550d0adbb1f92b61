"""The ``search`` strategy: `best`'s play with a look-ahead two guesses deep.

Certain moves, the exact endgame, isolated regions and unavoidable 50/50s are
played as `best` plays them. When it must guess elsewhere:

1. Candidates are `best`'s: the near-safest frontier cells and the
   unconstrained cells most likely to open an area.
2. Each is scored one move ahead, as `best` scores it: for every number it
   could show, the exact weight of that outcome (one engine count serves every
   number, `solve_outcomes`; never sampled); the outcome is worth 1 when it
   leaves a certain safe cell, else the safety of the best next guess, times
   the chance to clear any isolated region it walls off. Score:
   ``safety * E[worth]``.
3. Depth 2: in each outcome without progress, the best next guess is itself
   scored one move ahead (its safety times its own expected worth) instead of
   by its safety alone, so the score becomes the chance to survive this guess
   and the next two, or to make progress sooner. A deeper score is never above
   the one-move score, so candidates are deepened best first and the rest
   pruned once none can beat the best deepened score; within a candidate the
   outcomes are deepened largest first and the candidate dropped once its
   bound falls to the best score. Replies are the `replies` safest of the
   root's candidates and the guessed cell's neighbours, pruned by their
   safety. Positions met twice (two guesses in either order) are counted once.
4. ``zero_weight`` multiplies a score by ``1 + zero_weight * P(zero)``, the
   chance that the guess shows a zero and opens an area (0 by default: see
   the figures in docs/research/search.md).

``follow``, measured and left off by default (figures in docs/research/search.md),
values an outcome whose only certain move is one safe cell by opening it (its
numbers weighted exactly) instead of at 1, so that every line of the
deepening looks three moves ahead.

Dead cells (whose number is already certain) get no rule of their own: their
only outcome is worth the safety of the next guess, which a live cell of the
same safety usually beats by the chance its number makes progress.

``think`` (a setting in ``positions``: `Search.think`) bounds
the work of steps 2 and 3 per guess: the positions the look-ahead solves (one
engine count each), the one-move scores' included, which are always complete.
When it runs out before a depth is complete, the last complete depth decides
(at depth 1, the move `best`'s plain look-ahead makes). Nothing depends on the
clock, so a rerun plays the same moves on any machine. Works with the mine
count known or unknown and on every topology; a proved mine is never opened.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial

from minesweeper.solver.best import Best, Outlook, best_safety, makes_progress, top
from minesweeper.solver.constraints import Constraint, InconsistentView, Opening
from minesweeper.solver.probability import (
    DEFAULT_BUDGET,
    UNIFORM,
    Budget,
    DensityPrior,
    Probabilities,
    solve,
    solve_outcomes,
)
from minesweeper.solver.settings import Setting, Value
from minesweeper.solver.think import UNITS
from minesweeper.solver.view import View


class _OutOfWork(Exception):
    """The deepening's budget of positions is spent."""


@dataclass(frozen=True)
class Position:
    """A position of the look-ahead: its view, constraints and probabilities.

    ``opened`` names the guesses (cell, number shown) made since the root, so
    that one position reached in two orders is counted once; ``guessed`` is
    the last of them.
    """

    view: View
    rules: Sequence[Constraint]
    unknown: Sequence[int]
    result: Probabilities
    opened: frozenset[tuple[int, int]] = frozenset()
    guessed: int = -1  # the last cell opened, if any


@dataclass(frozen=True)
class Reply:
    """One number a guess may show: its weight, whether it makes progress, the position."""

    weight: int
    progress: bool
    risk: float  # the chance to clear the isolated regions it walls off
    position: Position


class Search(Best):
    """`Best` with a two-guess look-ahead, candidates pruned by bounds, within a budget of work."""

    name = "search"

    think = Setting(
        500,
        "positions the look-ahead solves per guess, the one-move scores' included (a"
        " complete depth 2 takes a median of 50-120 and at most a few hundred at expert)",
        0,
        UNITS["positions"][1],
        unit="positions",
    )
    depth = Setting(2, "look-ahead depth in guesses: 1 scores as best does, 2 and more deepen", 1)
    zero_weight = Setting(
        0.0, "w in a score's factor 1 + w * P(zero): the chance that the guess opens an area"
    )
    replies = Setting(4, "most replies deepened in each outcome", 0)
    follow = Setting(False, "follow progress in the deepening (off: an outcome with it is worth 1)")
    #: On, as this strategy was measured with it; `best` itself has it off since issue 23.
    regions = Best.regions.but(True)

    def __init__(
        self,
        seed: int = 0,
        *,
        prior: DensityPrior = UNIFORM,
        budget: Budget = DEFAULT_BUDGET,
        **settings: Value,
    ) -> None:
        super().__init__(seed, prior=prior, budget=budget, **settings)
        self._memo: dict[frozenset[tuple[int, int]], Position | None] = {}
        self._replies: dict[tuple[frozenset[tuple[int, int]], int], float] = {}
        self._solved = 0  # positions solved for this guess
        self._limit: int | None = None  # the most the deepening may bring it to
        self._candidates: list[int] = []

    def look_ahead(self, view: View, result: Probabilities) -> int:
        """The cell of the best deepened score (`outlooks`)."""
        return top(self.outlooks(view, result))

    def outlooks(self, view: View, result: Probabilities) -> list[Outlook]:
        """Each candidate's score; deepened best first while the budget lasts."""
        self._memo, self._solved, self._limit = {}, 0, None
        root = Position(view, self.rules(view), view.unknown(), result)
        before = self.isolated(view, root.rules) if self.long_term else None
        looks: list[tuple[Outlook, list[Reply]]] = []
        self._candidates = self.candidates(view, result)
        for cell in self._candidates:
            if looks and self.budget.spent():
                break  # the engine's own budget is out: the candidates seen must do
            outcomes = self.answers(root, cell, before)
            look = self.outlook(root, cell, outcomes, self.reply_safety)
            if self.progress_weight:  # `best`'s bonus, at the root only, as `best` gives it
                look = replace(look, score=look.score * (1 + self.progress_weight * look.progress))
            looks.append((look, outcomes))
        found = [look for look, _ in looks]
        self._limit = self.think
        self._replies = {}
        # Iterative deepening: each complete depth replaces the last; out of work keeps it.
        for depth in range(2, self.depth + 1):
            try:
                best = self.deepest(root, looks, depth)
            except _OutOfWork:
                break
            if best is not None:
                found = [best]
        return found

    def deepest(
        self, root: Position, looks: list[tuple[Outlook, list[Reply]]], depth: int
    ) -> Outlook | None:
        """The candidate of best ``depth``-guess score, candidates pruned by their bounds."""
        best: Outlook | None = None
        for look, outcomes in sorted(looks, key=lambda lo: (-lo[0].score, lo[0].cell)):
            if best is not None and look.score <= best.score:
                break  # a deeper score is never above the one-move score
            score = self.deepen(root, look, outcomes, best.score if best else 0.0, depth)
            if score is not None and (best is None or score > best.score):
                best = Outlook(look.cell, look.safety, look.progress, score)
        return best

    def deepen(
        self,
        position: Position,
        look: Outlook,
        outcomes: list[Reply],
        bar: float,
        depth: int = 2,
    ) -> float | None:
        """``look``'s ``depth``-guess score, or None once it cannot beat ``bar``.

        Replies are deepened largest first; the score's bound (deepened
        outcomes plus the others' one-move worth) only falls, so the cell is
        dropped as soon as the bound is at most ``bar``.
        """
        worths = self.worths(outcomes, self.reply_safety)
        bound = sum(worths)
        scale = look.score / bound if bound else 0.0
        for outcome, worth in sorted(zip(outcomes, worths, strict=True), key=lambda ow: -ow[1]):
            if outcome.progress:
                if not self.follow:
                    continue
                deeper = outcome.weight * outcome.risk * self.followed(outcome.position)
            else:
                deeper = outcome.weight * outcome.risk * self.reply(outcome.position, depth - 1)
            bound += deeper - worth
            if bound * scale <= bar:
                return None
        return bound * scale

    @staticmethod
    def worths(outcomes: list[Reply], value: Callable[[Position], float]) -> list[float]:
        """Each outcome's weighted worth, ``value(position)`` when it makes no progress."""
        return [o.weight * o.risk * (1.0 if o.progress else value(o.position)) for o in outcomes]

    def answers(
        self, position: Position, cell: int, before: set[frozenset[int]] | None
    ) -> list[Reply]:
        """Every number ``cell`` may show in ``position`` that some layout allows."""
        opening = Opening.of(position.view, position.rules, cell)
        unknown = [c for c in position.unknown if c != cell]
        counted = self.counted(position, opening, unknown)
        found = []
        for shown in opening.numbers:
            after = self.after(position, opening, shown, counted, unknown)
            if after is None:
                continue
            solved = after.result
            risk = 1.0
            if before is not None:
                risk = self.risk_after(after.view, after.rules, solved, before)
            found.append(Reply(solved.weight, makes_progress(solved), risk, after))
        return found

    def outlook(
        self,
        position: Position,
        cell: int,
        outcomes: list[Reply],
        value: Callable[[Position], float],
    ) -> Outlook:
        """``cell``'s score, ``value(position)`` being an outcome's worth without progress."""
        safety = 1 - position.result.chance(cell)
        total = sum(o.weight for o in outcomes)
        if total == 0:
            return Outlook(cell, safety, 0.0, safety)
        worth = sum(self.worths(outcomes, value))
        progress = sum(o.weight for o in outcomes if o.progress) / total
        score = safety * worth / total
        if self.zero_weight:
            score *= 1 + self.zero_weight * self.zero_chance(position.view, cell, outcomes, total)
        return Outlook(cell, safety, progress, score)

    @staticmethod
    def zero_chance(view: View, cell: int, outcomes: list[Reply], total: int) -> float:
        """The chance that ``cell``, if safe, shows no mine around it (an opening)."""
        known = sum(1 for o in view.topology.neighbours(cell) if o in view.mines)
        return sum(o.weight for o in outcomes if o.position.view.revealed[cell] == known) / total

    @staticmethod
    def reply_safety(position: Position) -> float:
        """The safety of the best guess in ``position`` (the one-move worth)."""
        return best_safety(position.result)

    @property
    def solved(self) -> int:
        """The positions solved for the last guess's look-ahead (its work)."""
        return self._solved

    def reply(self, position: Position, depth: int = 1) -> float:
        """The best ``depth``-guess score of a guess in ``position`` (at most its best safety).

        Replies: the root's candidates and the guessed cell's neighbours, the
        `replies` safest of them. Depth 1 is the one-move score; deeper, each
        reply's outcomes without progress are worth the best reply one guess
        shallower. Values are kept per position and depth.
        """
        key = (position.opened, depth)
        if key in self._replies:
            return self._replies[key]
        value: Callable[[Position], float] = (
            partial(self.reply, depth=depth - 1) if depth > 1 else self.reply_safety
        )
        result = position.result
        around = position.view.topology.neighbours(position.guessed)
        cells = {c for c in (*self._candidates, *around) if c in result and c not in result.mines}
        best = 0.0
        for cell in sorted(cells, key=lambda c: (result.chance(c), c))[: self.replies]:
            if 1 - result.chance(cell) <= best:
                break  # its score cannot beat the best: it is at most its safety
            outcomes = self.answers(position, cell, None)
            best = max(best, self.outlook(position, cell, outcomes, value).score)
        found = self._replies[key] = best or self.reply_safety(position)
        return found

    def followed(self, position: Position) -> float:
        """The worth of an outcome with progress, its certain move made (`follow`).

        1 with two or more certain safe cells (opening one leaves the others);
        with exactly one, that cell's one-move score (its safety is 1): the
        chance that its number makes more progress, else the next guess's safety.
        """
        result = position.result
        if len(result.safe) != 1:
            return 1.0
        (cell,) = result.safe
        outcomes = self.answers(position, cell, None)
        return self.outlook(position, cell, outcomes, self.reply_safety).score

    def counted(
        self, position: Position, opening: Opening, unknown: list[int]
    ) -> dict[int, Probabilities] | None:
        """Every number's position after ``opening`` from one count (`solve_outcomes`, keyed
        by the mines among its unknown neighbours), when some number's is not known yet;
        None when all are, or when that count would be approximate. ``unknown``: the
        position's unknown cells but the opened one."""
        if all(position.opened | {(opening.cell, n)} in self._memo for n in opening.numbers):
            return None
        count = self.opened_count(position.view)
        return solve_outcomes(
            opening.rules, opening.around, unknown, count, budget=self.budget, cache=self.cache
        )

    def after(
        self,
        position: Position,
        opening: Opening,
        shown: int,
        counted: dict[int, Probabilities] | None = None,
        unknown: list[int] | None = None,
    ) -> Position | None:
        """``position`` once ``opening``'s cell shows ``shown``; None when no layout allows it.

        ``counted``: every number's position from one count (`counted`), if at hand;
        either way the position counts one against the budget, and is the same.
        ``unknown``: the position's unknown cells but the opened one, if at hand.
        """
        cell = opening.cell
        opened = position.opened | {(cell, shown)}
        if opened in self._memo:
            return self._memo[opened]
        if self._limit is not None and self._solved >= self._limit:
            raise _OutOfWork
        self._solved += 1
        view = position.view
        rules = opening.after(shown)
        if unknown is None:
            unknown = [c for c in position.unknown if c != cell]
        found: Position | None = None
        try:
            if counted is None:
                count = self.opened_count(view)
                solved = solve(rules, unknown, count, budget=self.budget, cache=self.cache)
            else:
                solved = counted[shown - opening.known]
        except (InconsistentView, KeyError):
            pass  # no layout allows it
        else:
            after = View(view.topology, {**view.revealed, cell: shown}, view.mines, view.mine_count)
            found = Position(after, rules, unknown, solved, opened, cell)
        self._memo[opened] = found
        return found
