"""The ``rollout`` strategy: `best`, except that at its early guesses it plays the game on
in its head from each of its top candidates, over sampled layouts, and opens the one
that most often goes on to win.

`best` scores a guess one move ahead; the games only D. Hill's solver won part at the
first guesses, where the candidates' scores are nearly equal and what decides is
what follows later. So, while a game has made fewer than `Rollout.early` guesses:

1. `best`'s look-ahead scores its candidates; those within `Rollout.spread` of the
   top score, at most `Rollout.width` of them, are searched (one alone: no search).
2. The layouts that fit the position are split by which of those cells are safe
   (`strata`): the chance of each kind is exact (the engine's counts), and the
   budget (`Rollout.think`, in layouts) is shared among the kinds by their chance.
3. Each layout, drawn uniformly within its kind (`LayoutSampler`), is played on to
   the end from every searched cell that is safe in it, by `Rollout.policy`
   (`best`): the same board for each choice, so that their difference has little
   noise (common random numbers). A game played on counts not won or lost but the
   chance to survive its later guesses (`value_on`): each guess the policy makes
   counts by its exact safety, and the layout is drawn again given the position
   and that cell safe, so the game always goes on to the end. That is unbiased
   (each redraw is from the exact conditional) and spreads far less than 0 or 1.
4. Each cell's chance to win is its exact safety times its estimated chance to win
   once it is safe (`Playout`); the highest is opened if it beats `best`'s own
   choice by `Rollout.margin` standard errors of their difference.

The draws are seeded by the position alone, and nothing depends on the clock, so a
rerun plays the same moves on any machine. It plays only on *sampled* layouts: the
real board is never read. A proved mine is never opened (only `best`'s
candidates, all possibly safe, are searched).
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations, repeat
from statistics import NormalDist

from minesweeper.solver.best import Best, EngineStrategy, Outlook, top
from minesweeper.solver.constraints import InconsistentView
from minesweeper.solver.layouts import ApproximateCount, LayoutSampler
from minesweeper.solver.player import wins_on
from minesweeper.solver.probability import (
    DEFAULT_BUDGET,
    UNIFORM,
    Budget,
    DensityPrior,
    PartCache,
    Probabilities,
)
from minesweeper.solver.settings import Setting, Value
from minesweeper.solver.strategy import Decision, Strategy
from minesweeper.solver.think import UNITS
from minesweeper.solver.view import View

#: The normal quantile of a two-sided 95% interval.
Z95 = NormalDist().inv_cdf(0.975)


def position_seed(view: View, salt: str = "") -> int:
    """A seed that is a function of the position alone (and ``salt``): the same position
    draws the same layouts in any game, process or run."""
    text = repr(
        (
            salt,
            view.topology.size,
            sorted(view.revealed.items()),
            sorted(view.mines),
            view.mine_count,
        )
    )
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big")


@dataclass(frozen=True)
class Stratum:
    """The layouts of a position in which exactly the cells ``safe`` (of those compared)
    are safe: their exact ``chance``, and a sampler of them."""

    safe: frozenset[int]
    chance: float
    sampler: LayoutSampler = field(compare=False, repr=False)


def strata(view: View, cells: Sequence[int], prior: DensityPrior = UNIFORM) -> list[Stratum]:
    """The kinds of layout of ``view`` by which of ``cells`` are safe, each that can
    happen with its exact chance (the ones where all of ``cells`` are mines, worth
    nothing to any choice, left out)."""
    whole = LayoutSampler(view, prior).total
    found = []
    for size in range(len(cells), 0, -1):
        for safe in combinations(cells, size):
            mines = [cell for cell in cells if cell not in safe]
            try:
                sampler = LayoutSampler(view, prior, safe=safe, mines=mines)
            except InconsistentView:
                continue  # no layout has exactly these safe
            found.append(Stratum(frozenset(safe), sampler.total / whole, sampler))
    return found


def shares(chances: Sequence[float], total: int) -> list[int]:
    """``total`` split by ``chances`` (largest remainders; ties to the first): whole
    numbers summing to ``total`` (none when every chance is 0)."""
    weight = sum(chances)
    if not weight:
        return [0] * len(chances)
    exact = [total * c / weight for c in chances]
    found = [math.floor(e) for e in exact]
    order = sorted(range(len(exact)), key=lambda i: (found[i] - exact[i], i))
    for i in order[: total - sum(found)]:
        found[i] += 1
    return found


class _Guessed(Exception):
    """A game played on has come to a guess (raised to take it over)."""

    def __init__(self, view: View, cell: int) -> None:
        super().__init__(cell)
        self.view, self.cell = view, cell


def _stop(view: View, decision: Decision, move: int) -> None:
    raise _Guessed(view, decision.to_open[0])


def value_on(
    mines: frozenset[int],
    view: View,
    cell: int,
    policy: Strategy,
    rng: random.Random,
    prior: DensityPrior = UNIFORM,
    cache: PartCache | None = None,
) -> float:
    """One unbiased estimate of the chance that ``policy`` wins from ``view`` by opening
    ``cell`` (safe in the layout ``mines``): the layout is played on until the policy
    guesses; the guess counts by its exact safety, and the game goes on with a layout
    drawn given the position and that cell safe, to the end. So the estimate is the
    product of the later guesses' safeties (0 only if the game is lost otherwise,
    by the move limit), which spreads far less than a game's 0 or 1."""
    value = 1.0
    while True:
        try:
            return value * wins_on(mines, view, cell, policy, _stop)
        except _Guessed as guessed:
            view, cell = guessed.view, guessed.cell
        try:
            given = LayoutSampler(view, prior, safe=[cell], cache=cache)
            value *= given.total / LayoutSampler(view, prior, cache=cache).total
        except InconsistentView:
            return 0.0  # the guess is a proved mine: a sound policy never makes it
        except ApproximateCount:  # no exact redraw: this layout is played to its end
            return value * wins_on(mines, view, cell, policy)
        mines = given.sample(rng)


@dataclass(frozen=True)
class Played:
    """The games of one kind of layout (`Stratum`): for each layout drawn, the estimate
    (`value_on`) of the chance to win from each of its safe cells."""

    safe: frozenset[int]
    chance: float
    games: tuple[dict[int, float], ...]


@dataclass(frozen=True)
class Playout:
    """The compared cells played on over sampled layouts, kind by kind: each cell's
    chance to win the game if opened now (`win`), and the differences between them.

    A cell's chance is its exact safety times its chance to win once safe, the
    latter the mean over the kinds in which it is safe, each weighted by its exact
    chance; kinds that drew no layout are left out and the others' weights
    renormalised (all kinds drawn: unbiased).
    """

    cells: tuple[int, ...]
    kinds: tuple[Played, ...]

    def safety(self, cell: int) -> float:
        """The exact chance that ``cell`` is safe (the kinds where it is)."""
        return sum(kind.chance for kind in self.kinds if cell in kind.safe)

    @property
    def played(self) -> int:
        """Layouts played on (each from every compared cell safe in it)."""
        return sum(len(kind.games) for kind in self.kinds)

    def _coefficients(self, cell: int) -> dict[int, float]:
        """Per kind (by index), the weight of its mean win in `win`'s estimate."""
        drawn = {i: k.chance for i, k in enumerate(self.kinds) if k.games and cell in k.safe}
        weight = sum(drawn.values())
        safety = self.safety(cell)
        return {i: safety * chance / weight for i, chance in drawn.items()} if weight else {}

    def win(self, cell: int) -> float:
        """The estimated chance to win the game by opening ``cell`` now."""
        return sum(
            a * sum(game[cell] for game in self.kinds[i].games) / len(self.kinds[i].games)
            for i, a in self._coefficients(cell).items()
        )

    def error(self, cell: int, other: int | None = None) -> float:
        """The standard error of `win` of ``cell`` (less that of ``other``, if given):
        per kind, the sample variance of the layouts' terms over their number."""
        mine = self._coefficients(cell)
        theirs = self._coefficients(other) if other is not None else {}
        variance = 0.0
        for i in mine.keys() | theirs.keys():
            games = self.kinds[i].games
            a, b = mine.get(i, 0.0), theirs.get(i, 0.0)
            terms = [
                a * game.get(cell, 0.0) - b * (game.get(other, 0.0) if other is not None else 0.0)
                for game in games
            ]
            n = len(terms)
            mean = sum(terms) / n
            # One game: no spread to see; the most a value in [0, 1] may have.
            spread = sum((t - mean) ** 2 for t in terms) / (n - 1) if n > 1 else (a + b) ** 2 / 4
            variance += spread / n
        return math.sqrt(variance)

    def interval(self, cell: int) -> tuple[float, float]:
        """The 95% interval of `win` of ``cell``."""
        win, error = self.win(cell), self.error(cell)
        return win - Z95 * error, win + Z95 * error


def play_on_layouts(
    view: View,
    cells: Sequence[int],
    policy: Strategy | Callable[[], Strategy],
    layouts: int,
    rng: random.Random,
    prior: DensityPrior = UNIFORM,
    cache: PartCache | None = None,
) -> Playout:
    """``cells`` played on by ``policy`` over ``layouts`` layouts of ``view``.

    The layouts are shared among the `strata` by their chance (`shares`); each is
    played from every cell of ``cells`` safe in it (the same board). ``policy`` is
    one strategy that plays every game (its counts serve them all: right for a
    strategy whose only state is such caches), or what makes a fresh one for each
    game. Raises `ApproximateCount` when the position cannot be counted exactly.
    """
    # One strategy: each game gets that very one.
    make = repeat(policy).__next__ if isinstance(policy, Strategy) else policy
    kinds = strata(view, cells, prior)
    found = []
    for kind, count in zip(kinds, shares([k.chance for k in kinds], layouts), strict=True):
        games = []
        for _ in range(count):
            mines = kind.sampler.sample(rng)
            seed = rng.getrandbits(64)  # the same redraws for every cell: common numbers
            games.append(
                {
                    cell: value_on(mines, view, cell, make(), random.Random(seed), prior, cache)
                    for cell in sorted(kind.safe)
                }
            )
        found.append(Played(kind.safe, kind.chance, tuple(games)))
    return Playout(tuple(cells), tuple(found))


class Rollout(Best):
    """`Best`, with its early close guesses chosen by playing on over sampled layouts."""

    name = "rollout"

    think = Setting(
        16,
        "layouts played on per searched guess (each from every candidate safe in it)",
        0,
        UNITS["layouts"][1],
        unit="layouts",
    )
    width = Setting(3, "most candidates searched", 1)
    spread = Setting(
        0.05,
        "candidates searched: those whose look-ahead score is within this share of the top",
        0,
        1,
    )
    early = Setting(2, "guesses of a game searched: the first ones (later, best's look-ahead)", 0)
    #: 0, the highest estimate: the estimates are unbiased, so that choice is right more
    #: often than not whenever the two differ.
    margin = Setting(
        0.0,
        "standard errors by which another cell's estimate must beat the look-ahead's choice"
        " for it to be taken instead",
    )
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
        self.guesses = 0  # guesses decided in this game so far
        self.searched = 0  # guesses searched by playing on
        self.layouts = 0  # layouts played on, over all searched guesses
        #: Plays the games on (its counts kept across them).
        self.policy: EngineStrategy = Best(seed, prior=prior, budget=budget)

    def decide(self, view: View) -> Decision:
        decision = super().decide(view)
        self.guesses += decision.guess
        return decision

    def look_ahead(self, view: View, result: Probabilities) -> int:
        """The cell of the best score (`outlooks`): at an early close guess, the searched
        cell most likely to win."""
        return top(self.outlooks(view, result))

    def outlooks(self, view: View, result: Probabilities) -> list[Outlook]:
        """`best`'s scores; at an early close guess, the searched cells' chances to win."""
        looks = super().outlooks(view, result)
        if self.guesses >= self.early or not self.think:
            return looks
        top = max(look.score for look in looks)
        close = sorted(
            (look for look in looks if look.score >= top * (1 - self.spread)),
            key=lambda look: (-look.score, look.cell),
        )[: self.width]
        if len(close) < 2:
            return looks
        rng = random.Random(position_seed(view, self.name))
        cells = [look.cell for look in close]
        try:
            playout = play_on_layouts(
                view, cells, self.policy, self.think, rng, self.prior, self.policy.cache
            )
        except ApproximateCount:
            return looks  # no exact layouts to draw: the look-ahead decides
        self.searched += 1
        self.layouts += playout.played
        return [self.choose(close, playout)]

    def choose(self, close: list[Outlook], playout: Playout) -> Outlook:
        """The cell of highest estimated chance to win, if it beats the look-ahead's
        choice (``close[0]``) by `margin` standard errors of their difference; else that
        choice. Its score is its estimated chance to win."""
        first = close[0].cell
        found = max(close, key=lambda look: (playout.win(look.cell), -look.cell))
        gain = playout.win(found.cell) - playout.win(first)
        if found.cell != first and gain <= self.margin * playout.error(found.cell, first):
            found = close[0]
        return replace(found, score=playout.win(found.cell))
