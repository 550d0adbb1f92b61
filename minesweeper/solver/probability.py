"""Exact mine probabilities of a position, by counting every layout that fits it.

The frontier (unknown cells next to a revealed number) splits into independent
groups of constraints; in a large group, what deduction proves is settled
first (those cells leave the count). Cells with exactly the same constraints
merge into one supercell whose mine count ``x`` stands for ``C(size, x)``
layouts. Each component of supercells is counted by a dynamic programme along
an ordering of its supercells, whose state is the partial sums of the
constraints still open at that point and the mines placed so far: a long thin
frontier stays cheap however many layouts it has, and nothing is ever 2^n over
the frontier. A backward pass over the same states gives every supercell's
exact share. Components and the unconstrained cells combine with exact integer
weights over the total mine count. Past a `Budget` of time and memory,
constraints are dropped and the answer says it is approximate.

A group counted once serves every later position that has it (``cache``), and
`solve_outcomes` counts every number a cell about to be opened may show at once.

Mine count known: every layout of the unknown cells with the right number of
mines is equally likely. Mine count unknown: each cell of the board is a mine
with an unknown density ``p`` under a ``Beta(a, b)`` prior (`DensityPrior`;
``Beta(1, 1)``, uniform, by default), so a whole-board layout with ``k`` mines
has weight ``B(k + a, n - k + b)``: the density is learnt from every cell seen,
and summing over the unconstrained cells has a closed form. Every number stays
an exact integer; probabilities are `Fraction`.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from decimal import MAX_EMAX, MIN_EMIN, Context, Decimal, localcontext
from fractions import Fraction
from itertools import chain, repeat
from math import comb, log2, prod
from operator import add, itemgetter, mul
from time import process_time
from typing import Any, NamedTuple, Protocol, cast

from minesweeper.solver.compiled import checkpoint, load_compiled
from minesweeper.solver.constraints import InconsistentView, constraints
from minesweeper.solver.gauss import solve_system, split_system
from minesweeper.solver.unionfind import UnionFind
from minesweeper.solver.view import View

_kernel = load_compiled("_kernel")
#: Which engine counts components: ``"compiled"`` (the kernel) or ``"python"``.
ENGINE = "python" if _kernel is None else "compiled"

#: A cell: a view's cell id (the engine only hashes cells, so tests may label them otherwise).
Cell = int

#: A count: an exact int, or a `Decimal` when the count is approximate (see `_combine`).
Number = Any
#: What a programme's walk back gives a group of cells: ``(cells, mines, spread)``.
_Share = tuple[list[Cell], int, int]

#: Components with more cells than this have what deduction proves settled
#: first: those cells leave the count, and what is left often falls apart.
SETTLE_ABOVE = 64
#: Components of more supercells than this are ordered from several starts.
MANY_STARTS_ABOVE = 40
#: Once the time budget is spent, the rest is counted within this many partial counts.
SPENT_COUNTS = 20_000
#: Once the time budget is spent, a programme keeps at most this many constraints open.
SPENT_OPEN = 4
#: Memory a partial count takes, roughly (measured on large positions; for `Budget.megabytes`).
BYTES_PER_COUNT = 150


@dataclass(frozen=True)
class Budget:
    """How much work exact counting may take before the engine approximates.

    ``counts`` bounds the memory: the most partial counts (one per state of a
    component's programme and mine count, and per move between states) one
    programme keeps, about `BYTES_PER_COUNT` bytes each. ``deadline`` bounds
    the time of counting: a `time.process_time` value past which every
    programme is held to `SPENT_COUNTS` (one budget can serve several counts,
    such as a position and its look-ahead). Past either, constraints are
    dropped and the result says ``approximate``. ``due`` bounds the whole
    answer: past it, deduction stops where it is and the walk back from a
    count larger than `SPENT_COUNTS` to the probabilities spreads the
    component's expected mines evenly over the cells it has not reached (also
    ``approximate``). `Budget.within` sets both from a number of seconds.
    """

    counts: int = 6_000_000
    deadline: float | None = None
    due: float | None = None

    @classmethod
    def within(
        cls, seconds: float | None, megabytes: float | None = None, counting: float = 1.0
    ) -> Budget:
        """``seconds`` of CPU time from now for the answer (None: unbounded), the share
        ``counting`` of them for exact counting; about ``megabytes`` of memory."""
        now = process_time()
        deadline = None if seconds is None else now + seconds * counting
        due = None if seconds is None else now + seconds
        if megabytes is None:
            return cls(deadline=deadline, due=due)
        return cls(max(1, int(megabytes * 1e6 / BYTES_PER_COUNT)), deadline, due)

    def spent(self) -> bool:
        """Whether the counting deadline is past."""
        checkpoint()  # where a long count, compiled, takes a guard's stop (`compiled`)
        return self.deadline is not None and process_time() > self.deadline

    def late(self) -> bool:
        """Whether the whole answer is overdue."""
        checkpoint()
        return self.due is not None and process_time() > self.due

    def cap(self) -> int:
        """The most partial counts a programme may hold now (fewer once the deadline is past)."""
        return min(self.counts, SPENT_COUNTS) if self.spent() else self.counts


#: Enough for every position up to 30x30 met in play, and for ms-toollib's hard ones.
DEFAULT_BUDGET = Budget()


class ConstraintLike(Protocol):
    """Exactly ``mines`` of ``cells`` are mines (`Constraint` is one)."""

    @property
    def cells(self) -> Iterable[Cell]: ...

    @property
    def mines(self) -> int: ...


@dataclass(frozen=True)
class DensityPrior:
    """``Beta(a, b)`` prior on the mine density when the mine count is unknown.

    Positive integers keep the arithmetic exact; ``Beta(1, 1)`` (the default)
    is uniform: every density, hence every total mine count, equally likely
    before anything is seen.
    """

    a: int = 1
    b: int = 1

    def __post_init__(self) -> None:
        if self.a < 1 or self.b < 1:
            raise ValueError("the Beta prior needs positive integer parameters")


UNIFORM = DensityPrior()


class Probabilities:
    """The exact mine probability of every unknown cell of a position.

    ``layouts`` is the number of mine layouts of the unknown cells that fit the
    position (and the mine count when it is known). ``weight`` is their total
    weight under the prior (``layouts`` when the count is known, else a sum of
    Beta-function terms up to a constant factor): it compares only positions
    with the same unknown, constrained and known cells that differ in the
    numbers shown, such as the outcomes of opening one cell. ``approximate`` is True
    only when counting exactly needed more than the `Budget` and some constraints
    were left out: the probabilities are then those of the relaxed position,
    and ``safe`` and ``mines`` still hold (they are certain in a larger set of
    layouts), but inconsistency may go unnoticed.

    Built from ``groups``, each group's ``(numerator, denominator)`` (not
    necessarily in lowest terms), and ``blocks``, cells sharing one group; the
    map from cell to group and the certain cells are made when first asked for,
    since a look-ahead asks most positions only for their safest cell.
    """

    __slots__ = (
        "_blocks",
        "_cell_group",
        "_floats",
        "_groups",
        "_mines",
        "_safe",
        "_size",
        "approximate",
        "layouts",
        "weight",
    )

    def __init__(
        self,
        groups: list[tuple[int, int]],
        blocks: list[tuple[Sequence[Cell], int]],
        layouts: int,
        weight: int,
        approximate: bool,
        size: int | None = None,
    ) -> None:
        self._groups = groups  # (numerator, denominator) per group of equal cells
        self._blocks = blocks
        self._cell_group: dict[Cell, int] | None = None
        self._floats: dict[Cell, float] | None = None
        self._safe: frozenset[Cell] | None = None
        self._mines: frozenset[Cell] | None = None
        # ``size``: the blocks' cells, when the caller knows it (the outcomes of one count).
        self._size = sum(len(cells) for cells, _ in blocks) if size is None else size
        self.layouts = layouts
        self.weight = weight
        self.approximate = approximate

    @property
    def safe(self) -> frozenset[Cell]:
        """The cells that are safe in every layout."""
        if self._safe is None:
            self._certain()
        assert self._safe is not None
        return self._safe

    @property
    def mines(self) -> frozenset[Cell]:
        """The cells that are mines in every layout."""
        if self._mines is None:
            self._certain()
        assert self._mines is not None
        return self._mines

    def _certain(self) -> None:
        """`safe` and `mines`, in one pass (a look-ahead asks for both)."""
        groups = self._groups
        safe: list[Cell] = []
        mines: list[Cell] = []
        for cells, g in self._blocks:
            num, den = groups[g]
            if num == 0:
                safe += cells
            elif num == den:
                mines += cells
        self._safe, self._mines = frozenset(safe), frozenset(mines)

    @property
    def _cells(self) -> dict[Cell, int]:
        """Each cell's group (made once, when first needed)."""
        if self._cell_group is None:
            self._cell_group = {cell: g for cells, g in self._blocks for cell in cells}
        return self._cell_group

    def __getitem__(self, cell: Cell) -> Fraction:
        """The exact probability that ``cell`` is a mine."""
        num, den = self._groups[self._cells[cell]]
        return Fraction(num, den)

    def __contains__(self, cell: object) -> bool:
        return cell in self._cells

    def __iter__(self) -> Iterator[Cell]:
        return iter(self._cells)

    def __len__(self) -> int:
        return self._size

    def chance(self, cell: Cell) -> float:
        """The probability that ``cell`` is a mine, as a float (correctly rounded)."""
        num, den = self._groups[self._cells[cell]]
        return num / den

    def floats(self) -> dict[Cell, float]:
        """Every unknown cell's probability as a float (a new dict each time, made from one
        kept: a look-ahead asks twice, for its candidates and for the pairs)."""
        if self._floats is None:
            values = [num / den for num, den in self._groups]
            self._floats = {cell: values[g] for cell, g in self._cells.items()}
        return self._floats.copy()

    def lowest(self) -> float:
        """The lowest probability of any unknown cell, as a float (ValueError: no cell)."""
        groups = self._groups
        return min(groups[g][0] / groups[g][1] for cells, g in self._blocks if cells)

    def smallest(self, count: int) -> list[float]:
        """The ``count`` lowest probabilities of the cells, a value once per cell that has
        it, lowest first, as floats: ``heapq.nsmallest(count, self.floats().values())``
        without a float per cell."""
        groups = self._groups
        found: list[float] = []
        lowest: list[tuple[float, int]]  # (value, cells) of the lowest blocks, lowest first
        if count == 2:  # the blended safety's case, in one pass: the two lowest blocks
            first: tuple[float, int] | None = None
            second: tuple[float, int] | None = None
            for members, g in self._blocks:
                num, den = groups[g]
                value = num / den
                if first is None or value < first[0]:
                    first, second = (value, len(members)), first
                elif second is None or value < second[0]:
                    second = (value, len(members))
            lowest = [block for block in (first, second) if block is not None]
        else:
            values = ((groups[g][0] / groups[g][1], len(members)) for members, g in self._blocks)
            lowest = heapq.nsmallest(count, values, key=itemgetter(0))
        for value, cells in lowest:
            found += [value] * min(cells, count - len(found))
            if len(found) == count:
                break
        return found

    def safest(self) -> list[Cell]:
        """The unknown cells of lowest probability."""
        groups = self._groups
        best = min(range(len(groups)), key=lambda g: Fraction(*groups[g]), default=None)
        if best is None:
            return []
        low = Fraction(*groups[best])
        return [c for c, g in self._cells.items() if Fraction(*groups[g]) == low]


def probabilities(
    view: View,
    prior: DensityPrior = UNIFORM,
    budget: Budget = DEFAULT_BUDGET,
    cache: PartCache | None = None,
    rules: Iterable[ConstraintLike] | None = None,
) -> Probabilities:
    """The probabilities of ``view``'s unknown cells (the count from ``view.mine_count``).

    ``budget`` and ``cache``: see `solve`. ``rules``: ``constraints(view)``
    when the caller has them.
    """
    return solve(
        constraints(view) if rules is None else rules,
        UnknownCells(view.unknown(), distinct=True),
        view.mines_left,
        prior=prior,
        known_mines=len(view.mines),
        known_safe=len(view.revealed),
        budget=budget,
        cache=cache,
    )


def solve(
    rules: Iterable[ConstraintLike],
    unknown: Iterable[Cell] | UnknownCells,
    mines: int | None = None,
    *,
    prior: DensityPrior = UNIFORM,
    known_mines: int = 0,
    known_safe: int = 0,
    budget: Budget = DEFAULT_BUDGET,
    cache: PartCache | None = None,
) -> Probabilities:
    """Probabilities of the ``unknown`` cells under ``rules``, for any hashable cells.

    ``mines`` is the number of mines among the unknown cells, or None when not
    known; then ``prior`` weighs each layout, and ``known_mines`` and
    ``known_safe`` (cells of the board already known to be mines / safe)
    inform the density. ``budget`` bounds the work: past it, the count is
    approximate (see `Budget`). ``cache``, a dict a caller keeps across related
    positions (the moves of a game, the outcomes of a look-ahead), lets a
    group of constraints counted before be reused. Raises `InconsistentView`
    when no layout fits (unless the count was approximate: see `Probabilities`).
    """
    if not isinstance(unknown, UnknownCells):
        unknown = UnknownCells(unknown)
    pairs = [(frozenset(rule.cells), rule.mines) for rule in rules]
    return _solve(unknown, pairs, mines, prior, known_mines, known_safe, budget, cache)


def solve_weight(
    rules: Iterable[ConstraintLike],
    unknown: Iterable[Cell],
    mines: int | None = None,
    *,
    prior: DensityPrior = UNIFORM,
    known_mines: int = 0,
    known_safe: int = 0,
    budget: Budget = DEFAULT_BUDGET,
    cache: PartCache | None = None,
) -> int:
    """``solve(...).weight`` without the probabilities: only the product of the parts'
    polynomials and the free cells' weights, none of the walks back that give each cell
    its share (a caller comparing the weights of positions needs no more). Raises
    `InconsistentView` as `solve` does."""
    cells = list(dict.fromkeys(unknown))
    pairs = [(frozenset(rule.cells), rule.mines) for rule in rules]
    _check(cells, pairs)
    parts = [_cached_part(system, budget, cache) for system in split_system(pairs)]
    constrained = {cell for members, _ in pairs for cell in members}
    return weigh_parts(cells, constrained, parts, mines, prior, known_mines, known_safe, budget)


def weigh_parts(
    cells: list[Cell],
    constrained: set[Cell],
    parts: Sequence[_Part],
    mines: int | None,
    prior: DensityPrior,
    known_mines: int,
    known_safe: int,
    budget: Budget,
) -> int:
    """`solve_weight`'s answer from the counted parts of its groups (``cells``: the unknown
    cells, each once; ``constrained``: those the groups hold), so that a caller weighing
    variants of one position counts only the groups that differ."""
    if any(part.approximate or part.loose for part in parts):  # rounded: as `solve` does
        return _combine(
            cells, constrained, parts, mines, prior, known_mines, known_safe, budget
        ).weight
    polys = [poly for part in parts for poly in part.polys]
    free = len(cells) - len(constrained)  # every constrained cell is unknown (`_check`)
    return weigh_polys(polys, free, len(constrained), mines, prior, known_mines, known_safe)


def poly_product(polys: Iterable[list[int]], mines: int | None) -> list[int]:
    """The product of exact mine-count polynomials, without the terms past ``mines``."""
    front: list[int] = [1]
    for poly in polys:
        front = _convolve(front, poly)
        if mines is not None and mines >= 0:
            # Past ``mines`` every layout weighs 0: the terms up to it are exact alone.
            del front[mines + 1 :]
    return front


def weigh_polys(
    polys: Iterable[list[int]],
    free: int,
    constrained: int,
    mines: int | None,
    prior: DensityPrior,
    known_mines: int,
    known_safe: int,
) -> int:
    """The exact weight of the layouts whose ``constrained`` cells' mine counts the product
    of ``polys`` gives, with ``free`` cells besides (see `weigh_parts`)."""
    front = poly_product(polys, mines)
    low = next((s for s, n in enumerate(front) if n), len(front) - 1)
    weight, _, _, scale = _total_weights(
        mines, prior, free, constrained, known_mines, known_safe, low, len(front) - 1
    )
    total = sum(n * weight[s] for s, n in enumerate(front) if n)
    if total == 0:
        what = (
            "the position" if mines is None else f"the position with {mines} mine(s) left to find"
        )
        raise InconsistentView(f"no mine layout fits {what}")
    return int(total * scale)


class UnknownCells:
    """A position's unknown cells, each once, in order, with their set: made once for the
    `solve_outcomes` of every cell a look-ahead opens in one position, which then need
    not go over every cell each (``cells``: the list; ``members``: the set)."""

    __slots__ = ("cells", "members")

    def __init__(self, cells: Iterable[Cell], distinct: bool = False) -> None:
        """``distinct``: ``cells`` is a list that holds each cell once (`View.unknown`)."""
        self.cells = cast(list[Cell], cells) if distinct else list(dict.fromkeys(cells))
        self.members = frozenset(self.cells)

    def __iter__(self) -> Iterator[Cell]:
        return iter(self.cells)

    def __len__(self) -> int:
        return len(self.cells)


class _FreeCells(Sequence[Cell]):
    """The unknown cells but ``opened`` that no rule holds (``held``), in their order,
    listed only when first read: the answers of a look-ahead are mostly asked for their
    weight and their lowest chances, which need only how many free cells there are."""

    __slots__ = ("_cells", "_held", "_listed", "_opened", "_size")

    def __init__(
        self, unknown: UnknownCells, held: set[Cell], opened: Cell | None, size: int
    ) -> None:
        self._cells = unknown.cells
        self._held = held
        self._opened = opened
        self._size = size
        self._listed: list[Cell] | None = None

    def _list(self) -> list[Cell]:
        if self._listed is None:
            held, opened = self._held, self._opened
            self._listed = [c for c in self._cells if c not in held and c != opened]
        return self._listed

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[Cell]:
        return iter(self._list())

    def __getitem__(self, index: Any) -> Any:
        return self._list()[index]


def solve_outcomes(
    rules: Iterable[ConstraintLike],
    around: Iterable[Cell],
    unknown: Iterable[Cell] | UnknownCells,
    mines: int | None = None,
    *,
    prior: DensityPrior = UNIFORM,
    known_mines: int = 0,
    known_safe: int = 0,
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
    if not isinstance(unknown, UnknownCells):
        unknown = UnknownCells(unknown)
    present = unknown.members
    if opened not in present:
        opened = None
    size = len(unknown.cells) - (opened is not None)  # the unknown cells but ``opened``
    pairs = [(frozenset(rule.cells), rule.mines) for rule in rules]
    near = frozenset(around)
    try:
        _check_within(present, opened, [*pairs, (near, 0)])
        if not near:
            rest = UnknownCells([c for c in unknown.cells if c != opened], distinct=True)
            return {0: _solve(rest, pairs, mines, prior, known_mines, known_safe, budget, cache)}
        constrained = {cell for members, _ in pairs for cell in members}
        lone = None
        timeless = budget.deadline is None and budget.due is None
        if isinstance(cache, PartCache) and timeless and constrained.isdisjoint(near):
            # No rule touches ``near``: see `_LoneOutcomes`.
            key = (frozenset(pairs), len(near), size, mines, prior, known_mines, known_safe)
            lone = cache.lone_outcomes((*key, budget))
            if lone.outcomes is not None:
                held = constrained | near
                free = _FreeCells(unknown, held, opened, size - len(held))
                return lone.moved(free, near)
        marker = (near, -1)
        groups = _split([*pairs, marker])
        joined = next(group for group in groups if any(rule is marker for rule in group))
        tracked = _cached_part(joined, budget, cache, marker)
        others = [_cached_part(group, budget, cache) for group in groups if group is not joined]
    except InconsistentView:
        return {}  # no layout fits, whatever the count
    if tracked.approximate or any(part.approximate for part in others):
        return None
    constrained |= near
    free = _FreeCells(unknown, constrained, opened, size - len(constrained))
    outcomes = {}
    for count in range(len(near) + 1):
        part = tracked.outcome(count)
        if part is not None:
            outcomes[count] = part
    settings = (mines, prior, known_mines, known_safe, budget)
    found = _combine_outcomes(free, constrained, others, outcomes, *settings)
    if lone is not None:
        lone.keep(found, free, near)
    return found


def _check_within(
    present: frozenset[Cell], opened: Cell | None, rules: list[tuple[frozenset[Cell], int]]
) -> None:
    """`_check` of ``rules`` over the cells ``present`` but ``opened``."""
    for members, need in rules:
        if not members <= present or opened in members:
            raise ValueError("a constraint names a cell that is not unknown")
        if not 0 <= need <= len(members):
            raise InconsistentView(f"a constraint needs {need} mine(s) among {len(members)} cells")


def _unsettled(tracked: frozenset[Cell], settled: dict[Cell, int]) -> frozenset[Cell]:
    """The tracked cells a count places (in the order its supercell of them takes)."""
    return tracked - settled.keys()


class _LoneOutcomes:
    """The outcomes of opening a cell whose unknown neighbours ``near`` no rule touches,
    kept to serve another such cell of the same position with as many neighbours.

    Such a cell's count is that of the position's groups and one more, "``n`` of
    ``near``" alone, whatever cells ``near`` holds: the numbers of every outcome are
    the same, and only which cells are ``near`` and which are free changes (the
    candidates of an early position are often free cells alike, such as corners).
    """

    def __init__(self) -> None:
        self.outcomes: dict[int, Probabilities] | None = None
        self._near: frozenset[Cell] = frozenset()
        self._free: Sequence[Cell] = ()

    def keep(
        self, outcomes: dict[int, Probabilities], free: Sequence[Cell], near: frozenset[Cell]
    ) -> None:
        self.outcomes, self._free, self._near = outcomes, free, near

    def moved(self, free: Sequence[Cell], near: frozenset[Cell]) -> dict[int, Probabilities]:
        """The kept outcomes for another ``near`` (``free``: this position's free cells, as
        `solve_outcomes` has them): ``near``'s block is the supercell a count makes of it
        (its cells in the order a count gives them), and the free block holds ``free``,
        as `_combine_outcomes` builds it."""
        assert self.outcomes is not None
        if not self.outcomes:  # no layout allows opening it (a certain mine): nor this one
            return {}
        first = next(iter(self.outcomes.values()))
        near_cells = list(_unsettled(near, {}))
        blocks: list[tuple[Sequence[Cell], int]] = []
        for members, group in first._blocks:
            if members is self._free:
                members = free
            elif members and members[0] in self._near:
                members = near_cells
            blocks.append((members, group))
        return {
            count: Probabilities(
                result._groups, blocks, result.layouts, result.weight, result.approximate
            )
            for count, result in self.outcomes.items()
        }


def _combine_outcomes(
    free: Sequence[Cell],
    constrained: set[Cell],
    others: list[_Part],
    outcomes: dict[int, _Part | _Outcome],
    mines: int | None,
    prior: DensityPrior,
    known: int,
    safe: int,
    budget: Budget,
) -> dict[int, Probabilities]:
    """`_combine` of ``[*others, part]`` for each part of ``outcomes`` (exact counts), by
    count; a count no layout fits is left out. ``free``: the unknown cells outside
    ``constrained``, in order (as one block of every answer: read only if asked for).

    Only the tracked programme's polynomial ``T`` changes from one count to the next, so
    the weight outside each fixed polynomial is computed once with ``T`` left open
    (``open_rest[i][t + m]``: ``t`` mines in ``T``, ``m`` in polynomial ``i``); each count
    then costs a short correlation per component instead of the products of them all.
    The integers are those of `_combine` (the density prior's weights up to one factor
    per count, which every probability and ``weight`` cancel), so the answers are equal.
    """
    if not outcomes:
        return {}
    first = next(iter(outcomes.values()))
    varies = [p for p in first.programmes if isinstance(p, _Ending)]
    fixed = [poly for part in others for poly in part.polys]
    fixed += first.settled_polys + [p.poly for p in first.programmes if p not in varies]
    open_polys = {}
    for count, part in outcomes.items():
        ends = [p for p in part.programmes if isinstance(p, _Ending)]
        open_polys[count] = ends[0].poly if ends else [1]
    extra = max(map(len, open_polys.values())) - 1
    if not all(any(poly) for poly in fixed):
        return {}  # no count fits
    shifts, spreads, prefix = _shifted_products(fixed)
    base = sum(shifts)
    high = base + len(prefix[-1]) - 1 + extra
    # From ``base`` on, as in `_combined`: below it no layout has that few mines.
    weight, mine_weight, free_den, scale = _total_weights(
        mines, prior, len(free), len(constrained), known, safe, base, high
    )
    if base:
        weight, mine_weight = weight[base:], mine_weight[base:]
    after = [weight]
    for i in range(len(fixed) - 1, -1, -1):
        after += _correlations(after[-1], [spreads[i]], len(prefix[i]) + extra)
    after.reverse()
    # open_rest[i][j] for j under polynomial i's shift is never read with a layout of it.
    open_rest = [
        _shifted(_correlations(after[i + 1], [prefix[i]], len(spreads[i]) + extra)[0], shift, 0)
        for i, shift in enumerate(shifts)
    ]
    # Totals with T open: the weight, layouts and free mines of G (the fixed product).
    whole_open = after[0]
    if mines is None:
        # Not ``1 << len(free)``: compiled (`minesweeper.solver.compiled`), that shifts in 64 bits.
        every = _layouts_with(None, len(free), 0)
        (layouts_open,) = _correlations([every] * len(weight), [prefix[-1]], extra + 1)
    else:  # each weight is then the free cells' layouts (`_total_weights`)
        layouts_open = whole_open
    (free_open,) = _correlations(mine_weight, [prefix[-1]], extra + 1)
    late = budget.late if budget.due is not None else None
    # The counts some layout fits, with their total weights.
    t_polys = list(open_polys.values())
    totals = [found for (found,) in _correlations(whole_open, t_polys, 1)]
    live = [
        (count, part, t_poly, total)
        for (count, part), t_poly, total in zip(outcomes.items(), t_polys, totals, strict=True)
        if total
    ]
    t_polys = [t_poly for _, _, t_poly, _ in live]
    if mines is None:
        layouts_of = [found for (found,) in _correlations(layouts_open, t_polys, 1)]
    else:
        layouts_of = [total for _, _, _, total in live]
    free_shares = [found for (found,) in _correlations(free_open, t_polys, 1)] if free else []
    parts = [*others, first]
    columns = _columns(
        parts, [part for _, part, _, _ in live], t_polys, whole_open, open_rest, late
    )
    cut = not all(complete for _, _, _, complete in columns)
    # Every count has the same blocks of cells in the same order (`_combine`'s): only the
    # shares change. ``template``: each block's group, or the column its groups come from.
    blocks: list[tuple[Sequence[Cell], int]] = []
    template: list[tuple[int, int] | int] = []
    column = 0
    for one in parts:
        for value in sorted(set(one.settled.values())):
            blocks.append(
                ([cell for cell, mine in one.settled.items() if mine == value], len(blocks))
            )
            template.append((value, 1))
        for _ in one.programmes:
            blocks += [(cells, len(blocks) + i) for i, cells in enumerate(columns[column][0])]
            template.append(column)
            column += 1
    if free:
        blocks.append((free, len(blocks)))
    # A supercell's denominator is its weight times the count's total: a few weights serve all.
    sizes = sorted({w for _, _, weights, _ in columns for row in weights for w in row})
    found_by_count = {}
    size = None
    for at, (count, _, _, total) in enumerate(live):
        groups: list[tuple[int, int]] = []
        dens = {w: w * total for w in sizes}.__getitem__
        for segment in template:
            if isinstance(segment, int):
                _, shares, weights, _ = columns[segment]
                groups += zip(shares[at], map(dens, weights[at]), strict=True)
            else:
                groups.append(segment)
        if free:
            groups.append((free_shares[at], total * free_den))
        result = Probabilities(groups, blocks, layouts_of[at], int(total * scale), cut, size)
        found_by_count[count] = result
        size = len(result)
    return found_by_count


#: A programme's shares count by count: ``(cells, shares, weights, complete)``, the
#: probability of the cells ``cells[i]`` being ``shares[c][i] / (weights[c][i] * total_c)``.
_Column = tuple[list[list[Cell]], list[list[int]], list[list[int]], bool]


def _columns(
    parts: list[_Part | _Outcome],
    outcomes: list[_Part | _Outcome],
    t_polys: list[list[int]],
    whole_open: list[int],
    open_rest: list[list[int]],
    late: Callable[[], bool] | None,
) -> list[_Column]:
    """Each programme's shares in each of ``outcomes`` (`_combine_outcomes`' names; every
    outcome has the programmes of ``parts`` in the same order, bar the tracked one's end):
    in a kernel pass per programme where it can."""
    columns: list[_Column] = []
    index = 0
    for one in parts:
        index += len(one.settled_polys)
        for j, programme in enumerate(one.programmes):
            found: list[list[int]] | None
            pending: list[tuple[list[_Share], bool]] = []
            if isinstance(programme, _Ending):
                endings = [cast(_Ending, part.programmes[j]) for part in outcomes]
                most = max((len(ending.poly) for ending in endings), default=0)
                owner = programme.programme
                found = owner.shares_each([ending.end for ending in endings], whole_open[:most])
                if found is None:
                    pending = [
                        ending.shares(whole_open[: len(ending.poly)], late) for ending in endings
                    ]
            else:
                owner = programme
                outside = open_rest[index]
                index += 1
                found = programme.shares_correlated(outside, t_polys)
                if found is None:
                    length = len(programme.poly)
                    pending = [
                        programme.shares(_correlate(outside, t_poly, length), late)
                        for t_poly in t_polys
                    ]
            if found is not None:
                columns.append((owner.last_first, found, [owner.sizes] * len(found), True))
                continue
            by_count = [shares for shares, _ in pending]
            columns.append(
                (
                    [cells for cells, _, _ in by_count[0]] if by_count else [],
                    [[share for _, share, _ in shares] for shares in by_count],
                    [[len(cells) * spread for cells, _, spread in shares] for shares in by_count],
                    all(complete for _, complete in pending),
                )
            )
    return columns


def _correlated(g: Sequence[int], p: Sequence[int], n: int) -> list[int]:
    """`_correlate`, by the kernel where the numbers fit (see `_correlations`)."""
    return _correlations(list(g), [list(p)], n)[0]


def _correlations(g: list[int], polys: list[list[int]], n: int) -> list[list[int]]:
    """``[_correlate(g, poly, n) for poly in polys]``, by the kernel where the numbers fit
    (``g`` non-negative ints, the polynomials' entries machine words)."""
    checkpoint()  # a few ms each in the kernel, hundreds in one `_combined` on a wide board
    found: list[list[int]] | None = None if _kernel is None else _kernel.correlate(g, polys, n)
    if found is None:
        return [_correlate(g, poly, n) for poly in polys]
    return found


class _Step(NamedTuple):
    """The plan of one placement of a `_Programme`: the supercell's ``size``; where the
    open constraints' sums go (``carried``: the indices kept, all of them when
    ``kept_all``; ``hit_at``: those the supercell adds to; ``fresh``: constraints it
    opens, each starting at its mines); ``bounds`` ``(index, need, room left)`` and
    ``low``/``high`` on its mines; ``opened``: whether any constraint is open after it."""

    size: int
    carried: list[int]
    kept_all: bool
    bounds: list[tuple[int, int, int]]
    low: int
    high: int
    hit_at: list[int]
    fresh: int
    opened: bool


class _TooLarge(Exception):
    def __init__(self, rules: set[int]) -> None:
        self.rules = rules


class _Part:
    """One connected group of constraints, counted.

    Large groups, and any untracked group that could not be counted exactly,
    first have what deduction proves settled (``settled``: 1 for a mine, 0 for
    a safe cell); the rest splits into components of supercells, each counted
    by a `_Programme`. Depends on the constraints alone, so a part can serve
    every position that has the same group. ``tracked``: cells whose number of
    mines is followed rather than required, one answer per number (`outcome`).
    ``loose``: cells an approximate count relaxed of every constraint.
    """

    def __init__(
        self,
        system: list[tuple[frozenset[Cell], int]],
        budget: Budget,
        tracked: frozenset[Cell] | None = None,
    ) -> None:
        settled: dict[Cell, int] = {}
        cells = frozenset().union(*(members for members, _ in system))
        large = len(cells | tracked if tracked else cells) > SETTLE_ABOVE
        if large:
            system, settled = _settle(system, budget)
        if tracked is not None:
            # Count the tracked cells' mines instead of requiring a number of them.
            self.offset = sum(settled.get(cell, 0) for cell in tracked)
            tracked = _unsettled(tracked, settled)
        counted: list[tuple[frozenset[Cell], int | None]] = [*system]
        if tracked:
            counted.append((tracked, None))  # its mines are counted, not required
        self._count(counted, settled, budget, len(counted) - 1 if tracked else None)
        if self.approximate and not large and tracked is None:
            # What deduction proves stays certain, however rough the count.
            system, settled = _settle(system, budget)
            if settled:
                self._count(system, settled, budget)

    def _count(
        self,
        system: Sequence[tuple[frozenset[Cell], int | None]],
        settled: dict[Cell, int],
        budget: Budget,
        tracked: int | None = None,
    ) -> None:
        self.settled = settled
        self.tracked = tracked
        if not settled and self._count_compiled(system, budget):
            return
        signature: dict[Cell, list[int]] = {}
        for index, (members, _) in enumerate(system):
            for cell in members:
                signature.setdefault(cell, []).append(index)
        # Supercells: cells with exactly the same constraints.
        by_signature: dict[tuple[int, ...], list[Cell]] = {}
        for cell, sig in signature.items():
            by_signature.setdefault(tuple(sig), []).append(cell)
        supers = list(by_signature.items())
        # A group as split is connected; only settling can break it apart.
        components = _components(supers) if settled else [range(len(supers))]
        self.programmes = []
        self.loose: list[Cell] = []  # cells relaxed of every constraint: free cells now
        for component in components:
            programmes, loose = _programmes([supers[i] for i in component], system, budget, tracked)
            self.programmes += programmes
            self.loose += loose
        self.approximate = bool(self.loose) or any(p.dropped for p in self.programmes)
        # Settled mines count as one more component with a single layout.
        mines = sum(settled.values())
        self.settled_polys = [[0] * mines + [1]] if mines else []
        self.polys = self.settled_polys + [programme.poly for programme in self.programmes]

    def _count_compiled(
        self, system: Sequence[tuple[frozenset[Cell], int | None]], budget: Budget
    ) -> bool:
        """`_count` of a group that stays whole, in one kernel call (`_kernel.part`: the
        same supercells, order and count), if the kernel takes it."""
        if _kernel is None:
            return False
        cap = budget.cap()
        needs = [len(members) if mines is None else mines for members, mines in system]
        tracked = -1 if self.tracked is None else self.tracked
        found = _kernel.part(
            [members for members, _ in system],
            needs,
            tracked,
            cap,
            cap * BYTES_PER_COUNT,
            MANY_STARTS_ABOVE,
        )
        if found is None:
            return False
        supers, order, tracking, counted = found
        programme = _Programme(
            supers, system, budget, self.tracked, counted=(order, tracking, counted)
        )
        self.programmes = [programme]
        self.loose = []
        self.approximate = False
        self.settled_polys = []
        self.polys = [programme.poly]
        return True

    def outcome(self, mines: int) -> _Part | _Outcome | None:
        """A tracked part as if ``mines`` of its tracked cells were mines (None: no layout fits)."""
        end = mines - self.offset
        if self.tracked is None:
            return self if end == 0 else None
        if not any(p.ends((end,)) for p in self.programmes if p.tracking):
            return None
        return _Outcome(self, (end,))


class _Outcome:
    """A tracked `_Part` restricted to the layouts whose tracked sum ends in ``end``."""

    def __init__(self, part: _Part, end: tuple[int, ...]) -> None:
        self.settled = part.settled
        self.loose = part.loose
        self.approximate = False
        self.programmes = [_Ending(p, end) if p.tracking else p for p in part.programmes]
        self.settled_polys = part.settled_polys
        self.polys = self.settled_polys + [programme.poly for programme in self.programmes]


class _Ending:
    """A tracking `_Programme`'s layouts that end in state ``end``."""

    def __init__(self, programme: _Programme, end: tuple[int, ...]) -> None:
        self.programme = programme
        self.end = end
        self.poly = programme.poly_at(end)

    def shares(
        self, rest: list[int], late: Callable[[], bool] | None = None
    ) -> tuple[list[tuple[list[Cell], int, int]], bool]:
        return self.programme.shares(rest, late, self.end)


#: Counted groups of constraints by their constraints (see `solve`'s ``cache``).
class PartCache(dict[frozenset[tuple[frozenset[Cell], int]], _Part]):
    """The counted groups a caller keeps across related positions (one game's), by
    system (`solve`'s ``cache``), and the outcomes of each position's lone cells
    (`_LoneOutcomes`; a plain dict given as ``cache`` keeps only the groups)."""

    #: How many positions' lone outcomes are kept (they are emptied past this).
    LONE_KEPT = 64

    def __init__(self) -> None:
        super().__init__()
        self._lone: dict[tuple[Any, ...], _LoneOutcomes] = {}

    def lone_outcomes(self, key: tuple[Any, ...]) -> _LoneOutcomes:
        """The `_LoneOutcomes` for ``key`` (the count's every input but ``near``'s cells),
        a new one the first time."""
        found = self._lone.get(key)
        if found is None:
            if len(self._lone) >= self.LONE_KEPT:
                self._lone.clear()
            found = self._lone[key] = _LoneOutcomes()
        return found

    def clear(self) -> None:
        super().clear()
        self._lone.clear()


def _settle(
    system: list[tuple[frozenset[Cell], int]], budget: Budget
) -> tuple[list[tuple[frozenset[Cell], int]], dict[Cell, int]]:
    """What deduction decides in ``system`` (before the budget is due), and the constraints
    left on the other cells."""
    found = solve_system(system, budget.late if budget.due is not None else None)
    if not found:
        return system, {}
    settled = dict.fromkeys(found.safe, 0) | dict.fromkeys(found.mines, 1)
    left: list[tuple[frozenset[Cell], int]] = []
    for members, need in system:
        rest = members - found.safe - found.mines
        need -= len(members & found.mines)
        if not 0 <= need <= len(rest):
            raise InconsistentView("the revealed numbers contradict each other")
        if rest:
            left.append((rest, need))
    return left, settled


def _solve(
    unknown: UnknownCells,
    rules: list[tuple[frozenset[Cell], int]],
    mines: int | None,
    prior: DensityPrior,
    known_mines: int,
    known_safe: int,
    budget: Budget,
    cache: PartCache | None,
) -> Probabilities:
    _check_within(unknown.members, None, rules)
    parts = [_cached_part(system, budget, cache) for system in _split(rules)]
    constrained = {cell for members, _ in rules for cell in members}
    return _combine(
        unknown.cells, constrained, parts, mines, prior, known_mines, known_safe, budget
    )


def _split(system: list[tuple[frozenset[Cell], int]]) -> list[list[tuple[frozenset[Cell], int]]]:
    """`split_system` (the same groups in the same order), by the kernel when it is built
    and the cells are ints."""
    labels = None if _kernel is None else _kernel.split([members for members, _ in system])
    if labels is None:
        return split_system(system)
    groups: list[list[tuple[frozenset[Cell], int]]] = [
        [] for _ in range(max(labels, default=-1) + 1)
    ]
    for rule, label in zip(system, labels, strict=True):
        groups[label].append(rule)
    return groups


def _check(cells: list[Cell], rules: list[tuple[frozenset[Cell], int]]) -> None:
    _check_within(frozenset(cells), None, rules)


def _cached_part(
    system: list[tuple[frozenset[Cell], int]],
    budget: Budget,
    cache: PartCache | None,
    marker: tuple[frozenset[Cell], int] | None = None,
) -> _Part:
    """The counted part of ``system`` from ``cache``, else counted (and kept if exact).
    ``marker``, one of ``system``'s rules, ``(cells, -1)``: those cells' mines are tracked
    (`_Part`'s ``tracked``), not required (no rule needs -1 mines: the key tells them apart)."""
    key = frozenset(system)
    part = cache.get(key) if cache is not None else None
    if part is None:
        if marker is None:
            part = _Part(system, budget)
        else:
            part = _Part([rule for rule in system if rule is not marker], budget, marker[0])
        if cache is not None and not part.approximate:
            cache[key] = part
    return part


def _combine(
    cells: list[Cell],
    constrained: set[Cell],
    parts: Sequence[_Part | _Outcome],
    mines: int | None,
    prior: DensityPrior,
    known_mines: int,
    known_safe: int,
    budget: Budget,
) -> Probabilities:
    """The position's probabilities from its counted parts (``constrained``: their cells).

    Exact integers, unless a part is approximate: then the counts are combined
    in `ROUNDED` decimal arithmetic, since exact integers thousands of digits
    long would cost minutes on a wide board for no accuracy.
    """
    loose = [cell for part in parts for cell in part.loose]
    if loose:  # relaxed of every constraint, they weigh as free cells, at no cost
        constrained = constrained.difference(loose)
    late = budget.late if budget.due is not None else None
    settings = (mines, prior, known_mines, known_safe, late)
    if not any(part.approximate for part in parts):
        return _combined(cells, constrained, parts, *settings, None)
    with localcontext(ROUNDED):
        return _combined(cells, constrained, parts, *settings, ROUNDED.create_decimal)


def _combined(
    cells: list[Cell],
    constrained: set[Cell],
    parts: Sequence[_Part | _Outcome],
    mines: int | None,
    prior: DensityPrior,
    known_mines: int,
    known_safe: int,
    late: Callable[[], bool] | None,
    lift: Callable[[int], Decimal] | None,
) -> Probabilities:
    """`_combine` in exact integers (``lift`` None) or in numbers made by ``lift``; ``late``
    says when the walks back must stop (see `_Programme.shares`)."""
    free = [c for c in cells if c not in constrained]

    polys: list[list[Number]] = [poly for part in parts for poly in part.polys]
    if lift:
        polys = [list(map(lift, poly)) for poly in polys]
    if not all(any(poly) for poly in polys):
        raise _no_layout(mines)
    shifts, spreads, prefix = _shifted_products(polys)
    base = sum(shifts)
    front = prefix[-1]  # ``front[v]``: the whole frontier's layouts with ``base + v`` mines
    weight, mine_weight, free_den, scale = _total_weights(
        mines,
        prior,
        len(free),
        len(constrained),
        known_mines,
        known_safe,
        base,
        base + len(front) - 1,
        lift(1) if lift else 1,
    )
    if base:
        weight, mine_weight = weight[base:], mine_weight[base:]
    total = sum(n * weight[v] for v, n in enumerate(front) if n)
    if total == 0:
        raise _no_layout(mines)
    if mines is not None and lift is None:
        layouts = total  # each weight is then the free cells' layouts (`_total_weights`)
    else:
        layouts = int(
            sum(n * _layouts_with(mines, len(free), base + v) for v, n in enumerate(front) if n)
        )
    whole = int(total)

    groups: list[tuple[int, int]] = []
    blocks: list[tuple[Sequence[Cell], int]] = []
    # after[i][u]: the weight of the polynomials from the i-th on and of the free
    # cells, given u mines before the i-th. A component's ``rest`` (everything
    # else as one weight) is then one pass over its prefix, never a product of
    # the others' polynomials, which on a wide board costs the square of its length.
    correlate = _correlate if lift else _correlated  # exact counts: in the kernel's limbs
    after = [weight]
    for i in range(len(polys) - 1, -1, -1):
        after.append(correlate(after[-1], spreads[i], len(prefix[i])))
    after.reverse()
    index = 0
    cut = False
    zero: Number = lift(0) if lift else 0
    for part in parts:
        _settled_groups(part, groups, blocks)
        index += len(part.settled_polys)
        for programme in part.programmes:
            # Its own shift first: no layout of it has fewer mines, so their weight is 0.
            shift = shifts[index]
            rest = correlate(after[index + 1], prefix[index], len(programme.poly) - shift)
            rest = _shifted(rest, shift, zero)
            up = down = 1
            if lift:  # the programme's counts are integers: so must its outside weights be
                rest, power = _integral(rest, polys[index])
                up, down = (10**power, 1) if power >= 0 else (1, 10**-power)
            index += 1
            shares, complete = programme.shares(rest, late)
            cut = cut or not complete
            for members, share, spread in shares:
                blocks.append((members, len(groups)))
                groups.append((share * up, len(members) * whole * down * spread))
    if free:
        share = int(sum(n * mine_weight[v] for v, n in enumerate(front) if n))
        blocks.append((free, len(groups)))
        groups.append((share, whole * free_den))
    return Probabilities(groups, blocks, layouts, int(total * scale), bool(lift) or cut)


def _shifted_products(
    polys: Sequence[list[Number]],
) -> tuple[list[int], list[list[Number]], list[list[Number]]]:
    """``(shifts, spreads, prefix)`` of polynomials with a non-zero entry each.

    A polynomial's leading zeros are mines every layout of it has (all of them, for
    settled cells): its shift, kept apart (their sum is one offset of the total), so
    that products and correlations run over the spread of mine counts, not from 0 (on a
    wide board thousands of entries shorter). ``spreads[i]``: polynomial i without its
    zeros; ``prefix[i]``: the product of the spreads before the i-th.
    """
    shifts = [next(s for s, n in enumerate(poly) if n) for poly in polys]
    # No copy where there is nothing to cut: the look-ahead combines thousands of counts.
    spreads = [poly[shift:] if shift else poly for poly, shift in zip(polys, shifts, strict=True)]
    prefix: list[list[Number]] = [[1]]
    for poly in spreads:
        prefix.append(_convolve(prefix[-1], poly))
    return shifts, spreads, prefix


def _shifted(values: list[Number], shift: int, zero: Number) -> list[Number]:
    """``values`` after ``shift`` entries ``zero``."""
    return [zero] * shift + values if shift else values


def _no_layout(mines: int | None) -> InconsistentView:
    what = "the position" if mines is None else f"the position with {mines} mine(s) left to find"
    return InconsistentView(f"no mine layout fits {what}")


def _settled_groups(
    part: _Part | _Outcome, groups: list[tuple[int, int]], blocks: list[tuple[Sequence[Cell], int]]
) -> None:
    """Add the groups of ``part``'s settled cells (probability 0 or 1) to ``groups``."""
    for value in sorted(set(part.settled.values())):
        blocks.append(([cell for cell, mine in part.settled.items() if mine == value], len(groups)))
        groups.append((value, 1))


def _layouts_with(mines: int | None, free: int, front_mines: int) -> int:
    if mines is None:
        return 1 << free
    rest = mines - front_mines
    return comb(free, rest) if 0 <= rest <= free else 0


def _total_weights(
    mines: int | None,
    prior: DensityPrior,
    free: int,
    front: int,
    known_mines: int,
    known_safe: int,
    low: int,
    high: int,
    unit: Number = 1,
) -> tuple[list[Number], list[Number], Number, Number]:
    """Weights of a frontier layout with ``s`` mines, summed over the free cells.

    Returns ``(weight, mine_weight, den, scale)``: lists indexed by ``s``
    (from 0 to ``high``; only ``low`` to ``high`` filled), all divided by the
    common factor ``scale`` to keep the integers short; ``mine_weight[s] / den``
    is the same sum restricted to layouts where one given free cell is a mine.
    The weights are multiples of ``unit`` (1, or a decimal 1 to compute in decimals).
    """
    span = range(low, high + 1)
    if mines is not None:
        # C(free, mines - s) and C(free - 1, mines - s - 1) = C(free, r) * r / free, from
        # one binomial and exact steps along the row (a binomial per s costs far more).
        ways = _binomials(free, mines - high, mines - low)
        exact = type(unit) is int and unit == 1  # then no product by ``unit``
        weight = [0] * low + (ways[::-1] if exact else [unit * w for w in reversed(ways)])
        if free:
            rs = range(mines - high, mines - low + 1)
            mines_of = [w * r // free for w, r in zip(ways, rs, strict=True)]
            mine_weight = [0] * low + (mines_of if exact else [unit * w for w in mines_of])[::-1]
        else:
            mine_weight = [0] * (high + 1)
        return weight, mine_weight, 1, 1

    # Beta(a, b): a board layout with k mines of n cells weighs B(k + a, n - k + b).
    # Summing over the free cells leaves B(K + s + a, S + front - s + b), K and S
    # the known mines and safe cells; divided by a constant, two rising factorials,
    # whose parts common to every s from low to high make ``scale``.
    up_start = known_mines + prior.a
    down_start = known_safe + prior.b
    up = _rising_table(up_start + low, high - low + 1, unit)
    down = _rising_table(down_start + front - high, high - low + 1, unit)
    scale = unit * _rising(up_start, low) * _rising(down_start, front - high)
    weight = [0] * low + [up[s - low] * down[high - s] for s in span]
    seen = known_mines + known_safe + front + prior.a + prior.b
    # A free cell is a mine with the posterior mean density (K + s + a) / seen.
    mine_weight = [0] * low + [weight[s] * (up_start + s) for s in span]
    return weight, mine_weight, seen, scale


def _binomials(n: int, low: int, high: int) -> list[int]:
    """``[comb(n, r) for r in range(low, high + 1)]`` (0 outside 0..n): one binomial, then
    exact steps ``C(n, r) = C(n, r - 1) * (n - r + 1) / r``."""
    found = []
    way = None
    for r in range(low, high + 1):
        if not 0 <= r <= n:
            found.append(0)
            continue
        way = comb(n, r) if way is None else way * (n - r + 1) // r
        found.append(way)
    return found


def _rising(start: int, count: int) -> int:
    """``start^(count)``: the rising factorial ``start (start + 1) ... (start + count - 1)``.

    A product tree, not `_rising_table`'s last entry: on a wide board that table is
    thousands of integers thousands of digits long, tens of MB at once.
    """
    if count <= 16:
        return prod(range(start, start + count))
    half = count // 2
    return _rising(start, half) * _rising(start + half, count - half)


def _rising_table(start: int, count: int, unit: Number = 1) -> list[Number]:
    """``[start^(0), start^(1), ...]``: rising factorials (times ``unit``)."""
    table = [unit]
    for i in range(count - 1):
        table.append(table[-1] * (start + i))
    return table


#: The decimal arithmetic of an approximate answer (see `_combine`): 40 significant digits.
ROUNDED = Context(prec=40, Emax=MAX_EMAX, Emin=MIN_EMIN)
#: Significant digits kept where a component's outside weights matter (see `_integral`).
INTEGRAL_DIGITS = 20


def _integral(rest: Sequence[Number], poly: Sequence[Number]) -> tuple[list[int], int]:
    """``rest`` as integers times ``10**power``: `INTEGRAL_DIGITS` digits wherever it matters.

    Entry ``m`` matters when ``rest[m] * poly[m]`` (its part of the total) is
    within ``10**-INTEGRAL_DIGITS`` of the largest part; the others become 0.
    """
    parts = [w * n for w, n in zip(rest, poly, strict=True)]
    floor = max(parts).adjusted() - INTEGRAL_DIGITS
    kept = [
        w if part and part.adjusted() > floor else Decimal(0)
        for w, part in zip(rest, parts, strict=True)
    ]
    power = min(w.adjusted() for w in kept if w) - INTEGRAL_DIGITS
    return [int(w.scaleb(-power)) if w else 0 for w in kept], power


def _correlate(g: Sequence[int], p: Sequence[int], n: int) -> list[int]:
    """``[sum(p[t] * g[u + t] for t) for u in range(n)]`` (``g`` long enough)."""
    checkpoint()  # hundreds of these, of long numbers, in one `_combined` on a wide board
    width = len(p)
    return [sum(map(mul, p, g[u : u + width])) for u in range(n)]


def _convolve(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """The product of two polynomials (coefficient lists), ``b`` added a slice at a time."""
    checkpoint()  # thousands of digits long on a wide board, in loops of hundreds
    width = len(b)
    out = [0] * (len(a) + width - 1)
    for i, x in enumerate(a):
        if x:
            out[i : i + width] = map(add, out[i : i + width], map(mul, b, repeat(x)))
    return out


def _components(supers: list[tuple[tuple[int, ...], list[Cell]]]) -> list[list[int]]:
    """Supercell indices grouped by shared constraints."""
    sets: UnionFind[int] = UnionFind()
    owner: dict[int, int] = {}
    for i, (sig, _) in enumerate(supers):
        for rule in sig:
            sets.union(i, owner.setdefault(rule, i))
    return sets.groups(range(len(supers)))


def _programmes(
    supers: list[tuple[tuple[int, ...], list[Cell]]],
    rules: Sequence[tuple[frozenset[Cell], int | None]],
    budget: Budget,
    tracked: int | None = None,
) -> tuple[list[_Programme], list[Cell]]:
    """The programmes that count one component: one, or one per piece it falls into,
    and the cells relaxed of every constraint (free cells now: see `_combine`).

    A component too wide to count has the constraints open at its widest
    point relaxed; what is left often falls apart, and the pieces are
    counted apart: one programme over them all would carry the mine counts of
    the pieces before along every later one (on a component of thousands of
    cells, seconds instead of milliseconds for the same relaxed count).
    """
    found: list[_Programme] = []
    loose: list[Cell] = []
    pending: list[tuple[list[tuple[tuple[int, ...], list[Cell]]], frozenset[int]]] = [
        (supers, frozenset())
    ]
    while pending:
        piece, dropped = pending.pop()
        if len(piece) == 1 and not piece[0][0]:
            loose += piece[0][1]
            continue
        try:
            found.append(_Programme(piece, rules, budget, tracked, dropped))
        except _TooLarge as error:
            dropped = dropped | error.rules
            # Supercells left with the same constraints merge (those left with none: one).
            merged: dict[tuple[int, ...], list[Cell]] = {}
            for sig, cells in piece:
                merged.setdefault(tuple(r for r in sig if r not in dropped), []).extend(cells)
            relaxed = list(merged.items())
            pieces = _components(relaxed)
            pending += [([relaxed[i] for i in p], dropped) for p in reversed(pieces)]
    return found, loose


class _Programme:
    """The counting programme of one component.

    Supercells are placed one at a time in an order that keeps few constraints
    open at once. A state after ``k`` placements is the tuple of partial sums
    of the open constraints; its value maps the mines placed so far to the
    number of partial layouts reaching it. ``dropped``: the constraints the
    component was relaxed of (none are in ``supers`` any more). Raises
    `_TooLarge` past the budget (see `_programmes`).
    """

    def __init__(
        self,
        supers: list[tuple[tuple[int, ...], list[Cell]]],
        rules: Sequence[tuple[frozenset[Cell], int | None]],
        budget: Budget,
        tracked: int | None = None,
        dropped: frozenset[int] = frozenset(),
        counted: tuple[list[int], bool, Any] | None = None,
    ) -> None:
        self.dropped = dropped
        self.tracked = tracked
        if counted is None:
            self._build(supers, rules, budget)
        else:  # ordered and counted by the kernel (`_Part._count_compiled`)
            self._start(supers, rules, counted[0])
            self.tracking = counted[1]
            self._counted_by(counted[2])

    def _build(
        self,
        supers: list[tuple[tuple[int, ...], list[Cell]]],
        rules: Sequence[tuple[frozenset[Cell], int | None]],
        budget: Budget,
    ) -> None:
        order = _best_order(supers, rules)
        self._start(supers, rules, order)
        cap = budget.cap()
        sigs = [supers[i][0] for i in order]
        tracked = self.tracked
        counted = None
        if _kernel is not None and sum(len(supers[i][1]) for i in order) <= _kernel.MAX_CELLS:
            # The kernel plans (`_plan` in C++) and counts; the plan in Python only if
            # it leaves the count to this engine.
            self.tracking = tracked is not None and any(tracked in sig for sig in sigs)
            sizes = [len(supers[i][1]) for i in order]
            needs = [_need(rule) for rule in rules]
            plan = _kernel.plan(sigs, sizes, needs, -1 if tracked is None else tracked)
            counted = _kernel.count(plan, cap, cap * BYTES_PER_COUNT)
        if counted is not None:
            self._counted_by(counted)
        else:
            self._plan(rules)
            self._count(budget)
            self.poly = self.poly_at(())  # layouts of this component by mine count

    def _start(
        self,
        supers: list[tuple[tuple[int, ...], list[Cell]]],
        rules: Sequence[tuple[frozenset[Cell], int | None]],
        order: list[int],
    ) -> None:
        self.supers = supers
        self.order = order
        self._counted = None
        self._layers: list[dict[tuple[int, ...], dict[int, int]]] | None = None
        self._steps: list[_Step] | None = None  # the plan in Python (`_plan`), if made
        self._last_first: list[list[Cell]] | None = None  # the supercells' cells, last first
        self._sizes: list[int] | None = None
        self._rules = rules

    def _counted_by(self, counted: Any) -> None:
        """Take the kernel's count (a `_kernel.Counted`)."""
        self._counted = counted
        self.held = counted.held
        self._ends = {end: i for i, end in enumerate(counted.ends())}
        self.poly = self.poly_at(())  # layouts of this component by mine count

    def _plan(self, rules: Sequence[tuple[frozenset[Cell], int | None]]) -> None:
        """Each placement's `_Step`, and the constraints open after it (``_open``)."""
        sigs = [self.supers[i][0] for i in self.order]
        sizes = [len(self.supers[i][1]) for i in self.order]
        first: dict[int, int] = {}
        last: dict[int, int] = {}
        room: dict[int, int] = {}  # cells of each rule not placed yet
        for k, sig in enumerate(sigs):
            for rule in sig:
                first.setdefault(rule, k)
                last[rule] = k
                room[rule] = room.get(rule, 0) + sizes[k]
        tracked = self.tracked
        self.tracking = tracked in last
        if tracked is not None and self.tracking:
            last[tracked] = len(sigs)  # never closes: the last states tell its sum
        self._first, self._last = first, last
        self._steps = []
        self._open: list[list[int]] = []
        open_rules: list[int] = []
        for k, sig in enumerate(sigs):
            size = sizes[k]
            # A state holds the partial sums of the open rules. A rule this
            # supercell misses keeps its sum (it was checked when it last
            # grew); one it meets bounds its mines x by what the rule still
            # needs and the room left after it (none when it closes here).
            carried = []  # where each rule that stays open was in the state
            now_open = []
            for j, rule in enumerate(open_rules):
                if last[rule] > k:
                    carried.append(j)
                    now_open.append(rule)
            low0, high0 = 0, size
            bounds = []
            opening = []
            for rule in sig:
                room[rule] -= size
                if rule == tracked:
                    if first[rule] == k:
                        opening.append(rule)
                    continue
                need, left = _need(rules[rule]), room[rule]
                if first[rule] == k:
                    if need < high0:
                        high0 = need
                    if need - left > low0:
                        low0 = need - left
                    if left:
                        opening.append(rule)
                else:
                    bounds.append((open_rules.index(rule), need, left))
            hit_at = [j for j, rule in enumerate(now_open) if rule in sig]
            fresh = len(opening)
            now_open += opening
            kept_all = len(carried) == len(open_rules)  # then a state's sums stay in place
            self._steps.append(
                _Step(size, carried, kept_all, bounds, low0, high0, hit_at, fresh, bool(now_open))
            )
            self._open.append(now_open)
            open_rules = now_open

    def _count(self, budget: Budget) -> None:
        """Run the plan over every state in Python: the reference engine (`_kernel` is its
        compiled twin)."""
        ways_by_size: dict[int, list[int]] = {}
        layers: list[dict[tuple[int, ...], dict[int, int]]] = [{(): {0: 1}}]
        held = 0  # partial counts and moves kept so far: the memory in use
        moves: list[list[tuple[tuple[int, ...], int, int, tuple[int, ...]]]] = []
        assert self._steps is not None  # planned (`_plan`)
        for k, (size, carried, kept_all, bounds, low0, high0, hit_at, fresh, opened) in enumerate(
            self._steps
        ):
            zeros = (0,) * fresh
            ways_of = ways_by_size.get(size)
            if ways_of is None:
                ways_of = ways_by_size[size] = [comb(size, x) for x in range(size + 1)]
            cap = budget.cap()
            step: list[tuple[tuple[int, ...], int, int, tuple[int, ...]]] = []
            layer: dict[tuple[int, ...], dict[int, int]] = {}
            added = 0  # at most this many counts and moves added by this layer
            for i, (state, poly) in enumerate(layers[-1].items()):
                if not i & 63:  # a layer can take seconds: a guard's stop lands here (`compiled`)
                    checkpoint()
                low, high = low0, high0
                for src, need, left in bounds:
                    need -= state[src]
                    if need < high:
                        high = need
                    if need - left > low:
                        low = need - left
                if low > high:
                    continue
                sums = state if kept_all else tuple([state[j] for j in carried])
                for x in range(low, high + 1):
                    if x:
                        new = list(sums)
                        for j in hit_at:
                            new[j] += x
                        key = tuple(new) + (x,) * fresh if fresh else tuple(new)
                    else:
                        key = sums + zeros if fresh else sums
                    ways = ways_of[x]
                    target = layer.get(key)
                    if target is None:
                        if not x:
                            layer[key] = poly.copy()  # ways_of[0] == 1
                        elif ways == 1:
                            layer[key] = {m + x: count for m, count in poly.items()}
                        else:
                            layer[key] = {m + x: count * ways for m, count in poly.items()}
                    else:
                        for m, count in poly.items():
                            m += x
                            target[m] = target.get(m, 0) + count * ways
                    step.append((state, x, ways, key))
                    added += len(poly) + 1
                if held + added > cap and opened:
                    raise self._too_large(k, budget)
            held += len(step) + sum(map(len, layer.values()))
            if held > cap and opened:
                raise self._too_large(k, budget)
            layers.append(layer)
            moves.append(step)
        self._layers = layers
        self.held = held
        self._moves = moves

    def _too_large(self, k: int, budget: Budget) -> _TooLarge:
        return _TooLarge(_to_drop(self._open[k], self._first, self._last, budget.spent()))

    @property
    def layers(self) -> list[dict[tuple[int, ...], dict[int, int]]]:
        """Each layer's states and their partial counts by mines (counted in Python when
        the kernel counted the programme: for the layout sampler's walks)."""
        if self._layers is None:
            if self._steps is None:
                self._plan(self._rules)
            self._count(Budget(counts=1 << 62))  # counted once already: it fits
        assert self._layers is not None
        return self._layers

    @property
    def moves(self) -> list[list[tuple[tuple[int, ...], int, int, tuple[int, ...]]]]:
        """Each placement's moves ``(state, x, ways, key)``: ``x`` mines, from ``state``."""
        self.layers  # noqa: B018 (counts them if the kernel did)
        return self._moves

    def ends(self, end: tuple[int, ...]) -> bool:
        """Whether some layout ends in state ``end`` (see `poly_at`)."""
        if self._counted is not None:
            return end in self._ends
        return end in self.layers[-1]

    def poly_at(self, end: tuple[int, ...]) -> list[int]:
        """Layouts by mine count that end in state ``end``: ``()``, or the tracked rule's sum."""
        if self._counted is not None:
            index = self._ends.get(end)
            return [0] if index is None else list(self._counted.poly(index))
        poly = [0] * (sum(len(cells) for _, cells in self.supers) + 1)
        for m, count in self.layers[-1].get(end, {}).items():
            poly[m] += count
        while len(poly) > 1 and poly[-1] == 0:
            poly.pop()
        return poly

    def shares(
        self, rest: list[int], late: Callable[[], bool] | None = None, end: tuple[int, ...] = ()
    ) -> tuple[list[tuple[list[Cell], int, int]], bool]:
        """Each supercell's cells and their summed weight of mines, and whether all is exact.

        ``rest[m]`` is the weight of everything outside this component given
        that it holds ``m`` mines; a supercell's share divided by ``spread``,
        its size and the total weight is the probability of each of its cells.
        ``end``: only the layouts that end in this state (see `poly_at`).
        Once ``late()``, the supercells not reached yet share the component's
        remaining expected mines evenly (``spread``: their number of cells),
        unless the programme is no larger than a hurried count (`SPENT_COUNTS`):
        walking that back costs as little as counting it did.
        """
        if self._counted is not None:  # one dot product per supercell (`_kernel`)
            index = self._ends.get(end)
            if index is None:
                return self._named([0] * len(self.order)), True
            found = self._counted.shares(index, rest)  # in limbs; None: not plain ints
            if found is None:
                found = [sum(map(mul, mines, rest)) for mines in self._counted.weights(index)]
            return self._named(found), True
        # back[state][m]: weight of completing ``state``, reached with m mines.
        back: dict[tuple[int, ...], dict[int, int]] = {end: {m: w for m, w in enumerate(rest) if w}}
        shares: list[tuple[list[Cell], int, int]] = []
        if self.held <= SPENT_COUNTS:
            late = None
        for k in range(len(self.order) - 1, -1, -1):
            if late is not None and late():
                return shares + self._spread(rest, end, k, shares), False
            layer = self.layers[k]
            new_back: dict[tuple[int, ...], dict[int, int]] = {}
            mines = 0
            for i, (state, x, ways, key) in enumerate(self.moves[k]):
                if not i & 63:
                    checkpoint()
                later = back.get(key)
                if not later:
                    continue
                target = new_back.get(state)
                if target is None:
                    target = new_back[state] = {}
                weight = 0
                for m, count in layer[state].items():
                    w = later.get(m + x)
                    if w:
                        w *= ways
                        target[m] = target.get(m, 0) + w
                        weight += count * w
                if x:
                    mines += x * weight
            back = new_back
            shares.append((self.supers[self.order[k]][1], mines, 1))
        return shares, True

    @property
    def last_first(self) -> list[list[Cell]]:
        """The supercells' cells, the last placed first (the order of `shares`)."""
        if self._last_first is None:
            self._last_first = [self.supers[i][1] for i in reversed(self.order)]
        return self._last_first

    @property
    def sizes(self) -> list[int]:
        """The sizes of `last_first`."""
        if self._sizes is None:
            self._sizes = [len(cells) for cells in self.last_first]
        return self._sizes

    def shares_each(self, ends: list[tuple[int, ...]], rest: list[int]) -> list[list[int]] | None:
        """For each end (one some layout reaches), the shares `shares` gives with ``rest``
        (spread 1, cells `last_first`), in one kernel pass; None when the kernel did not
        count this programme or ``rest`` is not plain ints (then ask `shares`)."""
        if self._counted is None:
            return None
        found = self._counted.shares_at([self._ends[end] for end in ends], rest)
        return None if found is None else [shares[::-1] for shares in found]

    def shares_correlated(
        self, outside: list[int], polys: list[list[int]]
    ) -> list[list[int]] | None:
        """For each poly, the shares `shares` gives with ``_correlate(outside, poly,
        len(self.poly))`` (spread 1, cells `last_first`), in one kernel pass, the
        correlations too; None as in `shares_each`, or when a ``poly`` holds numbers past
        machine words."""
        if self._counted is None:
            return None
        index = self._ends.get(())
        if index is None:  # no layout ends here: every share is 0
            return [[0] * len(self.order) for _ in polys]
        found = self._counted.shares_correlated(index, outside, polys)
        return None if found is None else [shares[::-1] for shares in found]

    def _named(self, found: list[int]) -> list[_Share]:
        """The kernel's shares (placement by placement) with their supercells' cells."""
        return [
            (cells, share, 1) for cells, share in zip(self.last_first, reversed(found), strict=True)
        ]

    def _spread(
        self, rest: list[int], end: tuple[int, ...], k: int, done: list[_Share]
    ) -> list[_Share]:
        """The shares of the supercells ``order[k::-1]``: the mines the others leave, evenly."""
        ends = self.layers[-1].get(end, {})
        mines = sum(m * count * rest[m] for m, count in ends.items() if m < len(rest))
        mines -= sum(share for _, share, _ in done)
        left = [self.supers[i][1] for i in self.order[k::-1]]
        spread = sum(map(len, left))
        return [(cells, len(cells) * mines, spread) for cells in left]


def _to_drop(
    now_open: list[int], first: dict[int, int], last: dict[int, int], hurry: bool
) -> set[int]:
    """The constraints to drop when a programme grows too large.

    Normally the half of those open now that stay open longest. In a hurry
    (the time is spent), every constraint open where more than `SPENT_OPEN`
    are open along the whole order: the next count is then quick.
    """
    if not hurry:
        spans = sorted(now_open, key=lambda r: last[r], reverse=True)
        return set(spans[: max(1, len(spans) // 2)])
    drop = set(now_open)
    spanning = [r for r in first if first[r] < last[r]]
    events = sorted([(first[r], 1, r) for r in spanning] + [(last[r], -1, r) for r in spanning])
    current: set[int] = set()
    for _, kind, rule in events:
        if kind == 1:
            current.add(rule)
            if len(current) > SPENT_OPEN:
                drop |= current
        else:
            current.discard(rule)
    return drop


def _best_order(
    supers: list[tuple[tuple[int, ...], list[Cell]]],
    rules: Sequence[tuple[frozenset[Cell], int | None]],
) -> list[int]:
    """The `_order` from the start that keeps the programme narrowest.

    A large component is ordered from several starts: the default one, the
    far end of that order (an end of a longest path), the far end of the
    order from there, and a few more spread over the component; the order
    whose widest point holds the fewest states (estimated from the needs of
    the rules open there) wins.
    """
    first = _order(supers)
    if len(supers) < MANY_STARTS_ABOVE:
        return first
    far = _order(supers, first[-1])
    orders = [first, far]
    for start in dict.fromkeys([far[-1], *far[:: max(1, len(far) // 6)]]):
        if start != far[0]:
            orders.append(_order(supers, start))
    if _kernel is not None:
        sigs = [sig for sig, _ in supers]
        needs = [_need(rule) for rule in rules]
        return min(orders, key=lambda order: _kernel.width(order, sigs, needs))
    return min(orders, key=lambda order: _width(order, supers, rules))


def _need(rule: tuple[frozenset[Cell], int | None]) -> int:
    """A rule's mines; for a tracked rule (None), the most it may hold."""
    return len(rule[0]) if rule[1] is None else rule[1]


def _width(
    order: list[int],
    supers: list[tuple[tuple[int, ...], list[Cell]]],
    rules: Sequence[tuple[frozenset[Cell], int | None]],
) -> float:
    """The log of the most states the programme could hold at one point along ``order``."""
    last: dict[int, int] = {}
    for k, i in enumerate(order):
        for rule in supers[i][0]:
            last[rule] = k
    opened: set[int] = set()
    now = widest = 0.0
    for k, i in enumerate(order):
        for rule in supers[i][0]:
            if rule not in opened:
                opened.add(rule)
                now += log2(_need(rules[rule]) + 2)
            if last[rule] == k:
                now -= log2(_need(rules[rule]) + 2)
        widest = max(widest, now)
    return widest


def _order(supers: list[tuple[tuple[int, ...], list[Cell]]], start: int | None = None) -> list[int]:
    """`_order_of`, by the kernel when it is built (`_kernel.order`, the same order)."""
    if _kernel is not None:
        found: list[int] = _kernel.order([sig for sig, _ in supers], -1 if start is None else start)
        return found
    return _order_of(supers, start)


def _order_of(
    supers: list[tuple[tuple[int, ...], list[Cell]]], start: int | None = None
) -> list[int]:
    """A placement order that keeps the set of open constraints small.

    Breadth-first over supercells that share a constraint, from ``start`` or a
    supercell with the fewest constraints: along a frontier, the constraints
    open at any point are those of one cross-section. (It kept fewer states
    than a greedy choice of the supercell opening the fewest constraints, at
    a fraction of the cost.)
    """
    users: dict[int, list[int]] = {}
    for i, (sig, _) in enumerate(supers):
        for rule in sig:
            users.setdefault(rule, []).append(i)
    placed = [False] * len(supers)
    if start is None:
        start = min(range(len(supers)), key=lambda i: len(supers[i][0]), default=0)
    order: list[int] = []
    for root in chain((start,), range(len(supers))):
        # More than one root only where dropped constraints split the component.
        if placed[root]:
            continue
        placed[root] = True
        k = len(order)
        order.append(root)
        while k < len(order):
            for rule in supers[order[k]][0]:
                for other in users.pop(rule, ()):
                    if not placed[other]:
                        placed[other] = True
                        order.append(other)
            k += 1
        if len(order) == len(supers):
            break
    return order
