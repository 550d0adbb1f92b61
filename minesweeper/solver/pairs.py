"""Potential 50/50s: pairs of unknown cells that no opening could ever tell apart.

Two neighbouring unknown cells ``a`` and ``b`` can be told apart only through a
cell next to one of them and not the other: its number, or opening it. When
every such cell (the *enablers*: ``N(a) ^ N(b)`` without ``a`` and ``b``) is a
mine and exactly one of the two is a mine, nothing can: the pair is a 50/50
that must be guessed some time. D. Hill's solver looks for these patterns on
square boards (2x1 pairs; its 2x2 boxes are left out here); the rule above is
the same idea on any graph of cells.

The *influence* of a cell is the chance that it lies in, or is an enabler of,
a pair that becomes a 50/50: opening it now settles a risk that would
otherwise be faced later, which a one-move look-ahead does not see. `best`
raises a candidate's score by it (his "50/50 influence").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from minesweeper.solver.constraints import Constraint, InconsistentView
from minesweeper.solver.probability import Probabilities, solve_weight
from minesweeper.solver.view import View
from minesweeper.topology.base import Topology


@dataclass(frozen=True)
class Pair:
    """Neighbouring unknown cells ``a < b`` whose enablers hold no revealed cell;
    ``missing``: the enablers not yet known to be mines."""

    a: int
    b: int
    missing: frozenset[int]


class PairIndex:
    """Every pair of neighbouring cells ``a < b`` of a topology with its enablers, and the
    pairs each cell is an enabler of: a position looks only at pairs with few enablers
    or with a known mine among them."""

    def __init__(self, topology: Topology) -> None:
        neighbours = topology.neighbours
        self.pairs: list[tuple[int, int, tuple[int, ...]]] = []
        self.walled: dict[int, list[int]] = {}
        for a in topology.cells():
            around_a = set(neighbours(a))
            for b in sorted(around_a):
                if b > a:
                    walls = tuple(sorted(around_a.symmetric_difference(neighbours(b)) - {a, b}))
                    for wall in walls:
                        self.walled.setdefault(wall, []).append(len(self.pairs))
                    self.pairs.append((a, b, walls))
        self._few: dict[int, list[int]] = {}

    def candidates(self, mines: Iterable[int], max_missing: int) -> list[int]:
        """The pairs (by index) that may have at most ``max_missing`` enablers besides
        ``mines``: those with that few enablers, and those walled by one of ``mines``."""
        few = self._few.get(max_missing)
        if few is None:
            few = [i for i, (_, _, walls) in enumerate(self.pairs) if len(walls) <= max_missing]
            self._few[max_missing] = few
        found = set(few)
        for mine in mines:
            found.update(self.walled.get(mine, ()))
        return sorted(found)


@lru_cache(maxsize=16)
def pair_index(topology: Topology) -> PairIndex:
    """The `PairIndex` of ``topology`` (built once per board shape)."""
    return PairIndex(topology)


def pairs(view: View, max_missing: int) -> list[Pair]:
    """Every `Pair` of ``view`` with at most ``max_missing`` enablers not known as mines."""
    revealed, mines = view.revealed, view.mines
    index = pair_index(view.topology)
    found = []
    for i in index.candidates(mines, max_missing):
        a, b, walls = index.pairs[i]
        if a in revealed or b in revealed or a in mines or b in mines:
            continue
        missing = []
        for c in walls:
            if c in revealed:
                break
            if c not in mines:
                missing.append(c)
                if len(missing) > max_missing:
                    break
        else:
            found.append(Pair(a, b, frozenset(missing)))
    return found


def rule(cells: Iterable[int], mines: int) -> Constraint:
    """A constraint of no revealed cell: exactly ``mines`` of ``cells`` are mines."""
    return Constraint(frozenset(cells), mines, -1)


class Fifties:
    """The potential 50/50s of one position, counted on its engine answer.

    ``rules`` are ``view``'s constraints and ``settings`` its other `solve`
    arguments; ``result``: its probabilities. Weights are counted here alike,
    so they compare with each other.
    """

    def __init__(
        self,
        view: View,
        rules: Sequence[Constraint],
        result: Probabilities,
        settings: dict[str, Any],
    ) -> None:
        self.view = view
        self.rules = list(rules)
        self.result = result
        self.settings = settings
        self._unknown = view.unknown()

    def weight(self, *extra: Constraint) -> int:
        """The weight of the position's layouts that also meet ``extra``."""
        try:
            return solve_weight(
                [*self.rules, *extra], self._unknown, self.view.mines_left, **self.settings
            )
        except InconsistentView:
            return 0

    def influence(self, max_missing: int = 3, least: float = 1e-3) -> dict[int, float]:
        """Each cell's chance to settle a potential 50/50 by being opened.

        A pair's risk is half the chance that it becomes a 50/50 (exactly one
        of the two a mine, every enabler a mine); it is credited to both cells
        and to the missing enablers; a cell's total is at most its chance to
        be a mine and its chance to be safe. The chance is counted exactly when
        a number touches one of its cells; a pair of unconstrained cells only,
        which share one probability p, takes ``2 p (1 - p) p^missing`` (the
        cells as if independent: a count would cost a solve per pair). Pairs
        whose chance so guessed is under ``least`` are left out.
        """
        total = 0
        chances = self.result.floats()  # once: the pairs ask for a cell many times
        chance = chances.__getitem__
        constrained = {c for r in self.rules for c in r.cells}
        credit: dict[int, float] = {}
        for pair in pairs(self.view, max_missing):
            p, q = chance(pair.a), chance(pair.b)
            guess = p * (1 - q) + q * (1 - p)
            for cell in pair.missing:
                guess *= chance(cell)
            if guess < least:
                continue
            cells = (pair.a, pair.b, *pair.missing)
            if any(c in constrained for c in cells):
                total = total or self.weight()
                fifty = self.weight(rule({pair.a, pair.b}, 1), *self._mines(pair))
                risk = fifty / total / 2
            else:
                risk = guess / 2
            if not risk:
                continue
            for cell in cells:
                credit[cell] = credit.get(cell, 0.0) + risk
        return {
            cell: min(risk, chance(cell), 1 - chance(cell))
            for cell, risk in credit.items()
            if cell in chances
        }

    @staticmethod
    def _mines(pair: Pair) -> list[Constraint]:
        return [rule(pair.missing, len(pair.missing))] if pair.missing else []
