"""Strategy ``gauss-powermean``: exact deduction first, else a power-mean guess.

Certain moves come from `minesweeper.solver.gauss`: every safe cell found is
opened at once and every mine found is remembered and reported. When nothing
is certain, each revealed number with ``n`` unknown neighbours still needing
``m`` mines sends ``(m / n) ** k`` to each of them, ``k = k_edge`` for
neighbours sharing an edge with it and ``k_corner`` for the others. A cell that
receives nothing gets the density estimate ``d`` as ``d ** ((k_edge +
k_corner) / 2)``. A cell's score is the power mean of order ``t`` of what it
received, and the cell with the lowest score is opened (ties: lowest cell id).
While fewer than ``endgame`` of the cells are unknown, the choice may swap to
the runner-up when it scores worse by at most ``swap_margin`` (exact ties stay
with the lowest id), with probability ``exp(-difference / temperature)`` drawn
from ``random.Random(seed)``. The strategy remembers the mines it proved during
a game; it takes a revealed cell closing again as the start of a new game.

The density estimate: when the rules tell the mine count, the mines not yet
found spread over the unknown cells. Otherwise it is ``prior_density`` (0.06)
until ``enough`` of the cells (a fifth) are revealed or known mines; from then
on it is the share of mines among those cells.

The defaults were tuned on intermediate games, every setting on the same boards
(docs/solver.md).
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from minesweeper.errors import SolverError
from minesweeper.solver.constraints import Deduction
from minesweeper.solver.gauss import SystemKey, deduce
from minesweeper.solver.settings import Setting, Value
from minesweeper.solver.strategy import Decision, Strategy
from minesweeper.solver.view import View


def power_mean(values: Sequence[float], order: float) -> float:
    """The power mean of order ``order`` (geometric mean at 0) of positive-or-zero values."""
    values = sorted(values)  # a fixed summation order makes equal inputs give equal scores
    if order == 0:
        if values[0] <= 0:
            return 0.0
        return math.exp(math.fsum(math.log(v) for v in values) / len(values))
    if order < 0 and values[0] <= 0:
        return 0.0
    return float((math.fsum(v**order for v in values) / len(values)) ** (1 / order))


class GaussPowerMean(Strategy):
    """Gauss-Jordan deduction, then the lowest power-mean score (see the module docstring)."""

    name = "gauss-powermean"

    k_edge = Setting(1.0, "exponent of m / n sent to neighbours sharing an edge with the number")
    k_corner = Setting(0.5, "exponent of m / n sent to neighbours sharing only a corner")
    t = Setting(1.0, "order of the power mean combining what a cell received")
    prior_density = Setting(0.06, "density assumed before enough of the board is seen", 0, 1)
    enough = Setting(
        0.2, "share of cells revealed or known mines from which the observed density is used", 0, 1
    )
    endgame = Setting(
        0.05, "share of unknown cells under which the annealing-style swap is allowed", 0, 1
    )
    swap_margin = Setting(0.02, "largest score difference a swap may accept", 0)
    temperature = Setting(
        0.01, "temperature of the swap: probability exp(-difference / temperature)", 0
    )

    def __init__(self, seed: int = 0, **settings: Value) -> None:
        super().__init__(seed, **settings)
        self.rng = random.Random(seed)
        self._mines: set[int] = set()
        self._cache: dict[SystemKey, Deduction] = {}
        self._seen: frozenset[int] = frozenset()

    def decide(self, view: View) -> Decision:
        if not self._seen <= view.revealed.keys():  # a cell closed again: a new game
            self._mines.clear()
            self._cache.clear()
        self._seen = frozenset(view.revealed)
        self._mines -= view.revealed.keys()
        if not self._mines <= view.mines:
            view = view.with_mines(self._mines)
        found = deduce(view, self._cache)
        self._mines |= found.mines | view.mines
        mines = frozenset(self._mines)
        if found.safe:
            return Decision(tuple(sorted(found.safe)), mines)
        # deduce() already fed its mines back, so the guess sees them too
        return Decision((self._guess(view.with_mines(found.mines)),), mines, guess=True)

    def scores(self, view: View) -> dict[int, float]:
        """Every unknown cell's score: the lower, the safer it looks."""
        topology = view.topology
        mines = view.mines
        received: dict[int, list[float]] = {}
        for cell, count in view.revealed.items():
            around = topology.neighbours(cell)
            unknown = [o for o in around if o not in view.revealed and o not in mines]
            if not unknown:
                continue
            ratio = (count - sum(o in mines for o in around)) / len(unknown)
            edge = set(topology.edge_neighbours(cell))
            for other in unknown:
                k = self.k_edge if other in edge else self.k_corner
                received.setdefault(other, []).append(ratio**k)
        lone = self.density(view) ** ((self.k_edge + self.k_corner) / 2)
        return {
            cell: power_mean(received[cell], self.t) if cell in received else lone
            for cell in view.unknown()
        }

    def density(self, view: View) -> float:
        """The estimated share of mines among cells nobody's number speaks for."""
        size = view.topology.size
        known = len(view.mines)
        if view.mine_count is not None:
            unknown = size - len(view.revealed) - known
            return min(1.0, max(0.0, (view.mine_count - known) / unknown)) if unknown else 0.0
        seen = len(view.revealed) + known
        if seen >= self.enough * size and seen:
            return known / seen
        return self.prior_density

    def _guess(self, view: View) -> int:
        scores = self.scores(view)
        if not scores:
            raise SolverError("every unknown cell is a proved mine: nothing is left to open")
        ranked = sorted(scores, key=lambda cell: (scores[cell], cell))
        best = ranked[0]
        if len(ranked) > 1 and len(ranked) < self.endgame * view.topology.size:
            runner_up = ranked[1]
            difference = scores[runner_up] - scores[best]
            if (
                0 < difference <= self.swap_margin
                and self.temperature > 0
                and self.rng.random() < math.exp(-difference / self.temperature)
            ):
                return runner_up
        return best
