"""Exact mine probabilities of a position, by counting every layout that fits it: the
engine's front door.

>>> from minesweeper.solver.probability import MineCount, solve
>>> rules = [((0, 1), 1), ((1, 2), 1)]  # exactly one mine among cells 0 and 1, and 1 and 2
>>> from minesweeper.solver.constraints import Constraint
>>> found = solve([Constraint(frozenset(c), n, -1) for c, n in rules], range(4), MineCount(2))
>>> [str(found[cell]) for cell in range(4)], found.layouts
(['1/3', '2/3', '1/3', '1/3'], 3)

`solve` takes a position's rules ("exactly ``n`` of these cells") and its unknown cells,
and answers in named steps (`counting.combining.solve_rules`): the rules are checked,
split into groups that share no cell, each group counted (`counting.parts.Part`: what
deduction settles, then a dynamic programme per component of supercells,
`counting.programme.Programme`), and the counts combined with the unconstrained cells
under the mine count (`MineCount`: told, or a density prior) into `Probabilities`.
Every number stays an exact integer; probabilities are `Fraction`. Past a `Budget` of
time and memory, constraints are dropped and the answer says it is approximate.

`solve_outcomes` answers every number a cell about to be opened may show from one
count; `solve_weight` only the total weight of the layouts. A `PartCache` kept across
related positions serves a group counted before. The parts of the engine are in
`minesweeper.solver.counting` (its docstring lists them; docs/probability.md tells how
they count).
"""

from __future__ import annotations

from collections.abc import Iterable

from minesweeper.solver.constraints import constraints
from minesweeper.solver.counting.answer import Probabilities
from minesweeper.solver.counting.combining import count_outcomes, solve_rules, weigh_parts
from minesweeper.solver.counting.engine import ENGINE
from minesweeper.solver.counting.parts import PartCache, cached_part
from minesweeper.solver.counting.polynomials import UNIFORM, DensityPrior, MineCount
from minesweeper.solver.counting.system import (
    DEFAULT_BUDGET,
    Budget,
    Cell,
    ConstraintLike,
    UnknownCells,
    check,
    rules_of,
)
from minesweeper.solver.gauss import split_system
from minesweeper.solver.view import View

__all__ = [
    "DEFAULT_BUDGET",
    "ENGINE",
    "UNIFORM",
    "Budget",
    "Cell",
    "ConstraintLike",
    "DensityPrior",
    "MineCount",
    "PartCache",
    "Probabilities",
    "UnknownCells",
    "probabilities",
    "solve",
    "solve_outcomes",
    "solve_weight",
]


def probabilities(
    view: View,
    prior: DensityPrior = UNIFORM,
    budget: Budget = DEFAULT_BUDGET,
    cache: PartCache | None = None,
    rules: Iterable[ConstraintLike] | None = None,
) -> Probabilities:
    """The probabilities of ``view``'s unknown cells (its mine count: `MineCount.of`).

    ``budget`` and ``cache``: see `solve`. ``rules``: ``constraints(view)``
    when the caller has them.
    """
    return solve(
        constraints(view) if rules is None else rules,
        UnknownCells(view.unknown(), distinct=True),
        MineCount.of(view, prior),
        budget=budget,
        cache=cache,
    )


def solve(
    rules: Iterable[ConstraintLike],
    unknown: Iterable[Cell] | UnknownCells,
    count: MineCount | int | None = None,
    *,
    budget: Budget = DEFAULT_BUDGET,
    cache: PartCache | None = None,
) -> Probabilities:
    """Probabilities of the ``unknown`` cells under ``rules``, for any hashable cells.

    ``count``: what is known of the mines (`MineCount`), or just how many the unknown
    cells hold (None: not told, no cell of the board known). ``budget`` bounds the
    work: past it, the count is approximate (see `Budget`). ``cache``, a `PartCache`
    (or a dict) a caller keeps across related positions (the moves of a game, the
    outcomes of a look-ahead), lets a group of constraints counted before be reused.
    Raises `InconsistentView` when no layout fits (unless the count was approximate:
    see `Probabilities`).
    """
    cells = unknown if isinstance(unknown, UnknownCells) else UnknownCells(unknown)
    return solve_rules(cells, rules_of(rules), MineCount.given(count), budget, cache)


def solve_weight(
    rules: Iterable[ConstraintLike],
    unknown: Iterable[Cell],
    count: MineCount | int | None = None,
    *,
    budget: Budget = DEFAULT_BUDGET,
    cache: PartCache | None = None,
) -> int:
    """``solve(...).weight`` without the probabilities: only the product of the parts'
    polynomials and the free cells' weights, none of the walks back that give each cell
    its share (a caller comparing the weights of positions needs no more). Raises
    `InconsistentView` as `solve` does."""
    cells = list(dict.fromkeys(unknown))
    system = rules_of(rules)
    check(cells, system)
    parts = [cached_part(group, budget, cache) for group in split_system(system)]
    constrained = {cell for members, _ in system for cell in members}
    return weigh_parts(cells, constrained, parts, MineCount.given(count), budget)


def solve_outcomes(
    rules: Iterable[ConstraintLike],
    around: Iterable[Cell],
    unknown: Iterable[Cell] | UnknownCells,
    count: MineCount | int | None = None,
    *,
    budget: Budget = DEFAULT_BUDGET,
    cache: PartCache | None = None,
    opened: Cell | None = None,
) -> dict[int, Probabilities] | None:
    """`solve` with one more rule, "exactly n of ``around``", for every n a layout allows.

    The outcomes of opening a cell whose unknown neighbours are ``around``:
    one count of the group of rules ``around`` joins, tracking its mines
    there, serves every n (the groups it does not touch come from
    ``cache``). Each answer is what `solve` gives for that n; an n no layout
    allows is left out. None when the count would be approximate (then solve
    each n on its own). ``opened``: a cell of ``unknown`` to leave out (the one opened).
    ``unknown`` as `UnknownCells`: made once for many calls on one position.
    """
    cells = unknown if isinstance(unknown, UnknownCells) else UnknownCells(unknown)
    near = frozenset(around)
    return count_outcomes(
        rules_of(rules), near, cells, MineCount.given(count), budget, cache, opened
    )
