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
from typing import cast

from minesweeper.solver.compiled import load_compiled
from minesweeper.solver.constraints import Constraint, InconsistentView
from minesweeper.solver.counting.parts import cached_part
from minesweeper.solver.counting.polynomials import product, weigh_polys
from minesweeper.solver.counting.system import rules_of, split
from minesweeper.solver.probability import (
    Budget,
    MineCount,
    PartCache,
    Probabilities,
    solve_weight,
)
from minesweeper.solver.view import View
from minesweeper.topology.base import Topology

_kernel = load_compiled("_kernel")


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
        #: Each pair's cells and enablers (a revealed one rules the pair out), and its
        #: enablers as `_pairs` gives them when no mine is among them.
        self.blocks: list[frozenset[int]] = []
        self.enablers: list[frozenset[int]] = []
        self.walled: dict[int, list[int]] = {}
        for a in topology.cells():
            around_a = set(neighbours(a))
            for b in sorted(around_a):
                if b > a:
                    walls = tuple(sorted(around_a.symmetric_difference(neighbours(b)) - {a, b}))
                    for wall in walls:
                        self.walled.setdefault(wall, []).append(len(self.pairs))
                    self.pairs.append((a, b, walls))
                    self.blocks.append(frozenset((a, b, *walls)))
                    self.enablers.append(frozenset(list(walls)))
        self._few: dict[int, list[int]] = {}
        #: The same pairs in the kernel's arrays (`_pairs` by the kernel), if it is built.
        self.compiled = None
        if _kernel is not None and all(type(c) is int for c in topology.cells()):
            self.compiled = _kernel.PairTable(self.pairs, self.enablers)

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
    return [Pair(a, b, missing) for a, b, missing in _pairs(view, max_missing)]


def _pairs(view: View, max_missing: int) -> list[tuple[int, int, frozenset[int]]]:
    """`pairs` as plain tuples ``(a, b, missing)``, in the index's order (by the kernel when
    it is built and the cells are ints)."""
    opened, mines = view.revealed.keys(), view.mines
    index = pair_index(view.topology)
    if index.compiled is not None:
        found_compiled = index.compiled.live(opened, mines, max_missing)
        if found_compiled is not None:
            return cast(list[tuple[int, int, frozenset[int]]], found_compiled)
    table, blocks, enablers, walled = index.pairs, index.blocks, index.enablers, index.walled
    near_mines = {i for mine in mines for i in walled.get(mine, ())}  # pairs a mine walls
    found = []
    for i in index.candidates(mines, max_missing):
        if not opened.isdisjoint(blocks[i]):
            continue
        a, b, walls = table[i]
        if a in mines or b in mines:
            continue
        if i in near_mines:
            missing = frozenset([c for c in walls if c not in mines])
            if len(missing) <= max_missing:
                found.append((a, b, missing))
        else:  # no mine among the enablers: all of them (few enough, or not a candidate)
            found.append((a, b, enablers[i]))
    return found


def _risks(
    pairs: list[tuple[int, int, frozenset[int]]],
    chances: dict[int, float],
    constrained: set[int],
    least: float,
) -> list[float | None]:
    """Each pair's risk when no rule holds its cells: half its chance guessed as if the cells
    were independent (``p (1 - q) + q (1 - p)`` times each missing enabler's chance); 0.0
    when that guess is under ``least`` (whether counted or not); None: to be counted. By
    the kernel when it is built (the same floats)."""
    if _kernel is not None:
        return cast(list[float | None], _kernel.pair_risks(pairs, chances, constrained, least))
    found: list[float | None] = []
    for a, b, missing in pairs:
        p = chances[a]
        q = chances[b]
        guess = p * (1 - q) + q * (1 - p)
        for cell in missing:
            guess *= chances[cell]
        if guess < least:
            found.append(0.0)
        elif constrained.isdisjoint((a, b, *missing)):
            found.append(guess / 2)
        else:
            found.append(None)
    return found


def _credit(
    pairs: list[tuple[int, int, frozenset[int]]],
    risks: list[float | None],
    chances: dict[int, float],
) -> dict[int, float]:
    """Each cell's risks summed over the pairs it lies in or enables, in the pairs' order,
    at most its chance to be a mine and its chance to be safe (the cells first credited
    first). By the kernel when it is built and the cells are ints (the same floats)."""
    compiled = None if _kernel is None else _kernel.pair_credit(pairs, risks, chances)
    if compiled is not None:
        return cast(dict[int, float], compiled)
    credit: dict[int, float] = {}
    get = credit.get
    for (a, b, missing), risk in zip(pairs, risks, strict=True):
        if not risk:
            continue
        for cell in (a, b, *missing):
            credit[cell] = get(cell, 0.0) + risk
    found = {}
    for cell, risk in credit.items():
        mine = chances.get(cell)
        if mine is not None:  # min(risk, mine, 1 - mine), written out: the same float
            safe = 1 - mine
            low = mine if mine <= safe else safe
            found[cell] = risk if risk <= low else low
    return found


def rule(cells: Iterable[int], mines: int) -> Constraint:
    """A constraint of no revealed cell: exactly ``mines`` of ``cells`` are mines."""
    return Constraint(frozenset(cells), mines, -1)


class Fifties:
    """The potential 50/50s of one position, counted on its engine answer.

    ``rules`` are ``view``'s constraints, ``count`` its mine count, ``budget`` and
    ``cache`` as `solve` takes them; ``result``: its probabilities. Weights are counted
    here alike, so they compare with each other.
    """

    def __init__(
        self,
        view: View,
        rules: Sequence[Constraint],
        result: Probabilities,
        count: MineCount,
        budget: Budget,
        cache: PartCache | None = None,
    ) -> None:
        self.view = view
        self.rules = list(rules)
        self.result = result
        self.count = count
        self.budget = budget
        self.cache = cache
        self._groups: _Groups | None = None

    def weight(self, *extra: Constraint) -> int:
        """The weight of the position's layouts that also meet ``extra``.

        Only the groups of rules that ``extra`` touches are counted again; the
        others' counts are the position's own. The weight is an exact integer,
        however it is split, so it is `solve_weight`'s. Where a count would be
        approximate (its value then depends on the split), `solve_weight` it is.
        """
        try:
            groups = self._groups
            if groups is None:
                groups = self._groups = _Groups(self.rules, self.view, self)
            found = groups.weight(extra) if groups.exact else None
            if found is not None:
                return found
            return solve_weight(
                [*self.rules, *extra],
                groups.cells,
                self.count,
                budget=self.budget,
                cache=self.cache,
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
        chances = self.result.floats()  # once: the pairs ask for a cell many times
        constrained: set[int] = set().union(*[r.cells for r in self.rules])
        found = _pairs(self.view, max_missing)
        risks = _risks(found, chances, constrained, least)
        total = 0
        for i, risk in enumerate(risks):
            if risk is None:  # a number touches the pair: counted exactly
                a, b, missing = found[i]
                total = total or self._total()
                risks[i] = self.weight(rule({a, b}, 1), *self._mines(missing)) / total / 2
        return _credit(found, risks, chances)

    def _total(self) -> int:
        """`weight` with no extra rule: the answer's own weight, when it is exact and proves no
        mine the view does not know (then it is this position's: `solve_weight` gives
        `solve`'s weight), else counted."""
        result = self.result
        if not result.approximate and not result.mines:
            return result.weight
        return self.weight()

    @staticmethod
    def _mines(missing: frozenset[int]) -> list[Constraint]:
        return [rule(missing, len(missing))] if missing else []


class _Groups:
    """A position's rules split into groups that share no cell, each counted once, for
    `Fifties.weight`. ``exact``: no count is approximate (else they are not used)."""

    def __init__(self, rules: Sequence[Constraint], view: View, fifties: Fifties) -> None:
        self.cells = view.unknown()  # each once
        self.count = fifties.count
        self.mines = fifties.count.left
        self.budget = fifties.budget
        self.cache = fifties.cache
        self.groups = split(rules_of(rules))
        self.parts = [cached_part(group, self.budget, self.cache) for group in self.groups]
        self.owner = {
            cell: i for i, group in enumerate(self.groups) for cells, _ in group for cell in cells
        }
        self.exact = all(map(view.is_unknown, self.owner)) and not any(
            part.approximate or part.loose for part in self.parts
        )
        # The product of the polynomials of the groups a set of them leaves out.
        self._rest: dict[frozenset[int], list[int]] = {}

    def weight(self, extra: Sequence[Constraint]) -> int | None:
        """The weight with the rules ``extra`` too (their cells unknown), or None where a
        count would be approximate."""
        added = [(frozenset(rule.cells), rule.mines) for rule in extra]
        owner = self.owner
        for cells, need in added:
            if not 0 <= need <= len(cells):
                raise InconsistentView(
                    f"a constraint needs {need} mine(s) among {len(cells)} cells"
                )
        touched = frozenset(owner[cell] for cells, _ in added for cell in cells if cell in owner)
        system = [rule for i in sorted(touched) for rule in self.groups[i]] + added
        polys = [self._rest_of(touched)]
        for group in split(system):
            part = cached_part(group, self.budget, self.cache)
            if part.approximate or part.loose:
                return None
            polys += part.polys
        constrained = len(owner.keys() | {cell for cells, _ in added for cell in cells})
        return weigh_polys(polys, len(self.cells) - constrained, constrained, self.count)

    def _rest_of(self, touched: frozenset[int]) -> list[int]:
        rest = self._rest.get(touched)
        if rest is None:
            polys = (p for i, part in enumerate(self.parts) if i not in touched for p in part.polys)
            rest = self._rest[touched] = product(polys, self.mines)
        return rest
