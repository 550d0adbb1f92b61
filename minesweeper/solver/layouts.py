"""Uniform samples of the mine layouts that fit a position, drawn from the engine's counts.

The engine (`minesweeper.solver.probability`) counts a position's layouts per
component by a programme over its supercells, by mine count. A sample walks
those counts back with exact integer weights: first how many mines lie on the
frontier and among the free cells (with the count unknown, under the density
prior, as the engine weighs them), then how many in each component, then,
layer by layer backwards through each programme, how many in each supercell,
and finally which of a supercell's cells (each choice equally likely). Every
layout that fits is drawn with its exact probability; nothing is rejected or
counted by frequency. The counts are made once (`LayoutSampler`); each sample
then costs one walk.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from math import comb, factorial
from typing import Any

from minesweeper.errors import SolverError
from minesweeper.solver.constraints import InconsistentView, constraints
from minesweeper.solver.counting.parts import cached_part
from minesweeper.solver.counting.polynomials import convolve
from minesweeper.solver.counting.programme import Programme
from minesweeper.solver.counting.system import check
from minesweeper.solver.gauss import split_system
from minesweeper.solver.probability import (
    DEFAULT_BUDGET,
    UNIFORM,
    Budget,
    ConstraintLike,
    DensityPrior,
    PartCache,
)
from minesweeper.solver.view import View

#: A programme's moves into each state of a layer: ``key -> [(state, x, ways), ...]``.
_Into = dict[tuple[int, ...], list[tuple[tuple[int, ...], int, int]]]


class ApproximateCount(SolverError):
    """A position too large to count exactly within the budget: no exact sample exists."""


def _pick(rng: random.Random, weights: Sequence[int]) -> int:
    """An index drawn with probability ``weights[i] / sum(weights)`` (exact integers)."""
    total = sum(weights)
    if total <= 0:
        raise InconsistentView("no mine layout fits the position")
    ticket = rng.randrange(total)
    for index, weight in enumerate(weights):
        ticket -= weight
        if ticket < 0:
            return index
    raise AssertionError("unreachable")  # pragma: no cover


class _Walk:
    """One programme's counts, indexed for walking back from its last layer."""

    def __init__(self, programme: Programme) -> None:
        self.programme = programme
        self.into: list[_Into] = []
        for step in programme.moves:
            into: _Into = {}
            for state, x, ways, key in step:
                into.setdefault(key, []).append((state, x, ways))
            self.into.append(into)

    def draw(self, rng: random.Random, mines: int) -> list[int]:
        """The mines of a layout of this component with ``mines`` mines, drawn uniformly."""
        programme = self.programme
        found: list[int] = []
        key: tuple[int, ...] = ()
        for k in range(len(programme.order) - 1, -1, -1):
            layer = programme.layers[k]
            options = [
                (state, x, layer[state][mines - x] * ways)
                for state, x, ways in self.into[k].get(key, ())
                if mines - x in layer[state]
            ]
            key, x, _ = options[_pick(rng, [weight for _, _, weight in options])]
            mines -= x
            if x:
                cells = programme.supers[programme.order[k]][1]
                found += rng.sample(cells, x)
        return found


def _free_mines(view: View, prior: DensityPrior, fronts: int, free: int) -> list[list[int]]:
    """``found[s][f]``: the weight of a layout with ``s`` mines on the frontier (of
    ``fronts`` counts) and ``f`` among the ``free`` cells, each such layout alike."""
    left = view.mines_left
    if left is not None:
        return [[1 if f == left - s else 0 for f in range(free + 1)] for s in range(fronts)]
    # Beta(a, b): a layout with k mines of the board's n cells weighs
    # B(k + a, n - k + b), proportional to (k + a - 1)! (n - k + b - 1)!.
    n = view.topology.size
    known = len(view.mines)
    weight = [
        factorial(known + k + prior.a - 1) * factorial(n - known - k + prior.b - 1)
        for k in range(fronts + free)
    ]
    return [[weight[s + f] for f in range(free + 1)] for s in range(fronts)]


class LayoutSampler:
    """Draws mine layouts of ``view``, each that fits equally likely (count known), or
    weighted by the density prior (count unknown), exactly as the engine counts them.

    ``safe`` and ``mines``: cells to take as known safe or mines besides (say, a
    cell about to be opened): the layouts are those that fit with them.
    Raises `InconsistentView` when no layout fits, `ApproximateCount` when the
    position cannot be counted exactly within ``budget``.
    """

    def __init__(
        self,
        view: View,
        prior: DensityPrior = UNIFORM,
        *,
        safe: Iterable[int] = (),
        mines: Iterable[int] = (),
        budget: Budget = DEFAULT_BUDGET,
        cache: PartCache | None = None,
        rules: Iterable[ConstraintLike] | None = None,
    ) -> None:
        cells = view.unknown()
        given: list[tuple[frozenset[Any], int]] = [
            (frozenset(rule.cells), rule.mines) for rule in rules or constraints(view)
        ]
        given += [(frozenset({cell}), 0) for cell in safe]
        given += [(frozenset({cell}), 1) for cell in mines]
        check(list(cells), given)
        self.known = frozenset(view.mines)
        parts = [cached_part(system, budget, cache) for system in split_system(given)]
        if any(part.approximate for part in parts):
            raise ApproximateCount("the position is too large to count exactly")
        # One entry per polynomial of the engine: the settled mines of a part, or a programme.
        self._settled: list[int] = []
        self._polys: list[list[int]] = []
        self._walks: list[_Walk | None] = []
        for part in parts:
            settled = [cell for cell, mine in part.settled.items() if mine]
            self._settled += settled
            self._polys += part.settled_polys
            self._walks += [None] * len(part.settled_polys)
            for programme in part.programmes:
                self._polys.append(programme.poly)
                self._walks.append(_Walk(programme))
        constrained = {cell for members, _ in given for cell in members}
        self._free = [cell for cell in cells if cell not in constrained]
        self._prefix = [[1]]
        for poly in self._polys:
            self._prefix.append(convolve(self._prefix[-1], poly))
        front = self._prefix[-1]
        free = len(self._free)
        self._free_mines = _free_mines(view, prior, len(front), free)
        self._front = [
            n * sum(comb(free, f) * w for f, w in enumerate(ways)) if n else 0
            for n, ways in zip(front, self._free_mines, strict=True)
        ]
        if not any(self._front):
            raise InconsistentView("no mine layout fits the position")
        self._cached: dict[tuple[int, int], list[int]] = {}

    @property
    def total(self) -> int:
        """The weight of all the layouts it draws from (their number, with the count
        known): two samplers of one view compare as the chances of what they take."""
        return sum(self._front)

    def sample(self, rng: random.Random) -> frozenset[int]:
        """One layout: every mine of the board (the view's known mines among them)."""
        front = _pick(rng, self._front)
        count = _pick(rng, self._weights(-1, front))
        mines = [*self.known, *self._settled, *rng.sample(self._free, count)]
        for index in range(len(self._polys) - 1, -1, -1):
            here = _pick(rng, self._weights(index, front))
            front -= here
            walk = self._walks[index]
            if walk is not None:
                mines += walk.draw(rng, here)
        return frozenset(mines)

    def _weights(self, index: int, front: int) -> list[int]:
        """The weights of the mines in polynomial ``index`` (-1: among the free cells),
        given ``front`` mines in it and those before it (kept: samples draw them again)."""
        found = self._cached.get((index, front))
        if found is None:
            if index < 0:
                free = len(self._free)
                found = [comb(free, f) * w for f, w in enumerate(self._free_mines[front])]
            else:
                before = self._prefix[index]
                found = [
                    n * before[front - m] if 0 <= front - m < len(before) else 0
                    for m, n in enumerate(self._polys[index])
                ]
            self._cached[index, front] = found
        return found
