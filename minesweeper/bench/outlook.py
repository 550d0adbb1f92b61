"""What a position was still worth: the chance to win the game on from it.

Exact where the endgame search covers the position (few enough layouts): the
chance with perfect play from there. Otherwise estimated: layouts are drawn
uniformly from those that fit what the player saw (`LayoutSampler`: exact
weights, no rejection; the mine count told counts), and on each the strategy
(the project's best by default) plays the game to its end from its own first
move in the position; the share it wins, with a 95% Wilson interval. The
draws are seeded: the same position, seed and number of layouts give the same
figure on every machine.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from minesweeper.board import Board
from minesweeper.client import play_on
from minesweeper.intervals import wilson_interval
from minesweeper.solver.endgame import solve_endgame
from minesweeper.solver.layouts import ApproximateCount, LayoutSampler
from minesweeper.solver.registry import StrategySpec
from minesweeper.solver.view import View

#: The strategy a position is judged by: the project's strongest that does not think.
BEST = StrategySpec("best")


@dataclass(frozen=True)
class Outlook:
    """The chance to win from a position: ``exact`` (perfect play) when known, else
    ``won`` of ``played`` layouts by ``strategy``; ``played`` 0 and no exact chance
    when the position could not be sampled exactly. ``stopped``: the time budget
    ended the sample early (``played`` says how far it went)."""

    strategy: str
    exact: float | None = None
    won: int = 0
    played: int = 0
    stopped: bool = False

    @property
    def chance(self) -> float | None:
        if self.exact is not None:
            return self.exact
        return self.won / self.played if self.played else None

    @property
    def interval(self) -> tuple[float, float]:
        if self.exact is not None:
            return self.exact, self.exact
        return wilson_interval(self.won, self.played)

    def describe(self) -> str:
        """E.g. ``the best strategy wins 33.5% of 200 layouts that fit (95%: 27.3-40.3%)``."""
        if self.exact is not None:
            return f"perfect play wins {self.exact:.1%} (exact: every layout searched)"
        if not self.played:
            why = "the time budget was spent" if self.stopped else "too many layouts to sample"
            return f"the chance to win was not estimated ({why})"
        low, high = self.interval
        cut = ", the time budget stopping it" if self.stopped else ""
        layouts = "1 layout that fits" if self.played == 1 else f"{self.played} layouts that fit"
        return (
            f"the {self.strategy} strategy wins {self.won / self.played:.1%} of "
            f"{layouts} (95%: {low:.1%}-{high:.1%}{cut})"
        )


def outlook(
    view: View,
    layouts: int,
    seed: int = 0,
    spec: StrategySpec = BEST,
    tick: Callable[[], object] | None = None,
    search: bool = True,
    stop: Callable[[], bool] | None = None,
) -> Outlook:
    """The chance to win from ``view`` (a position with a cell left to open); ``tick`` is
    called after each layout played (a progress display). ``search`` False estimates
    even where the endgame search would give the exact chance. ``stop`` (a time
    budget) is asked before each layout: once it says so, the sample ends there."""
    if stop is not None and stop():
        return Outlook(spec.name, stopped=True)  # the budget is spent: not even a search
    exact = solve_endgame(view) if search else None
    if exact is not None:
        return Outlook(spec.name, exact=exact[1])
    try:
        sampler = LayoutSampler(view)
    except ApproximateCount:
        return Outlook(spec.name)
    rng = random.Random(seed)
    first = spec.build(seed).decide(view).to_open[0]
    tell = view.mine_count is not None
    won = played = 0
    while played < layouts:
        if stop is not None and stop():
            return Outlook(spec.name, won=won, played=played, stopped=True)
        board = Board(view.topology, sampler.sample(rng))
        won += play_on(board, view, first, spec.build(rng.getrandbits(63)), tell).won
        played += 1
        if tick is not None:
            tick()
    return Outlook(spec.name, won=won, played=played)
