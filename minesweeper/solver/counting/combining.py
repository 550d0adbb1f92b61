"""A position's `Probabilities` from its counted parts: the components' mine-count
polynomials and the unconstrained cells combine with exact integer weights over the
total mine count (`polynomials.total_weights`); a walk back through each programme gives
every supercell its share of the mines.

Exact integers, unless a part is approximate: then the counts are combined in `ROUNDED`
decimal arithmetic, since exact integers thousands of digits long would cost minutes on
a wide board for no accuracy.

The outcomes of opening a cell (`count_outcomes`): for every number ``n`` of mines among
its unknown neighbours that a layout allows, what `solve_rules` answers with the rule
"exactly ``n`` of them" added, all from one count. The group of rules the neighbours join
is counted once with one more rule that never closes (`parts.Part`'s ``tracked`` cells),
so the programme's last states are the mines around the cell; each outcome is the
layouts ending in its state, combined with the untouched groups (`combine_outcomes`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, MutableMapping, Sequence
from decimal import MAX_EMAX, MIN_EMIN, Context, Decimal, localcontext
from typing import Any, cast

from minesweeper.solver.constraints import InconsistentView
from minesweeper.solver.counting.answer import Probabilities
from minesweeper.solver.counting.parts import (
    Ending,
    Outcome,
    Part,
    PartCache,
    cached_part,
)
from minesweeper.solver.counting.polynomials import (
    MineCount,
    Number,
    based_weights,
    correlate,
    correlated,
    correlations,
    layouts_with,
    shifted,
    shifted_products,
    weigh_polys,
)
from minesweeper.solver.counting.programme import Programme, Share
from minesweeper.solver.counting.system import (
    Budget,
    Cell,
    Rule,
    UnknownCells,
    check_within,
    split,
)

#: The decimal arithmetic of an approximate answer (see `combine`): 40 significant digits.
ROUNDED = Context(prec=40, Emax=MAX_EMAX, Emin=MIN_EMIN)
#: Significant digits kept where a component's outside weights matter (see `integral`).
INTEGRAL_DIGITS = 20

#: Groups of cells that share one probability ``(numerator, denominator)``, and the cells
#: of each: what `Probabilities` is made of.
Groups = list[tuple[int, int]]
Blocks = list[tuple[Sequence[Cell], int]]


def solve_rules(
    unknown: UnknownCells,
    rules: list[Rule],
    count: MineCount,
    budget: Budget,
    cache: MutableMapping[frozenset[Rule], Part] | None,
) -> Probabilities:
    """`solve` of the rules ``rules``: checked, split into groups, each counted (or taken
    from ``cache``), combined."""
    check_within(unknown.members, None, rules)
    parts = [cached_part(system, budget, cache) for system in split(rules)]
    constrained = {cell for members, _ in rules for cell in members}
    return combine(unknown.cells, constrained, parts, count, budget)


def combine(
    cells: list[Cell],
    constrained: set[Cell],
    parts: Sequence[Part | Outcome],
    count: MineCount,
    budget: Budget,
) -> Probabilities:
    """The position's probabilities from its counted parts (``cells``: its unknown cells,
    each once; ``constrained``: the parts' cells)."""
    loose = [cell for part in parts for cell in part.loose]
    if loose:  # relaxed of every constraint, they weigh as free cells, at no cost
        constrained = constrained.difference(loose)
    late = budget.late_check()
    if not any(part.approximate for part in parts):
        return combined(cells, constrained, parts, count, late, None)
    with localcontext(ROUNDED):
        return combined(cells, constrained, parts, count, late, ROUNDED.create_decimal)


def weigh_parts(
    cells: list[Cell],
    constrained: set[Cell],
    parts: Sequence[Part],
    count: MineCount,
    budget: Budget,
) -> int:
    """`solve_weight`'s answer from the counted parts of its groups (``cells``: the unknown
    cells, each once; ``constrained``: those the groups hold), so that a caller weighing
    variants of one position counts only the groups that differ."""
    if any(part.approximate or part.loose for part in parts):  # rounded: as `solve` does
        return combine(cells, constrained, parts, count, budget).weight
    polys = [poly for part in parts for poly in part.polys]
    free = len(cells) - len(constrained)  # every constrained cell is unknown (`check`)
    return weigh_polys(polys, free, len(constrained), count)


def combined(
    cells: list[Cell],
    constrained: set[Cell],
    parts: Sequence[Part | Outcome],
    count: MineCount,
    late: Callable[[], bool] | None,
    lift: Callable[[int], Decimal] | None,
) -> Probabilities:
    """`combine` in exact integers (``lift`` None) or in numbers made by ``lift``; ``late``
    says when the walks back must stop (see `Programme.shares`)."""
    free = [c for c in cells if c not in constrained]
    polys: list[list[Number]] = [poly for part in parts for poly in part.polys]
    if lift:
        polys = [list(map(lift, poly)) for poly in polys]
    if not all(any(poly) for poly in polys):
        raise count.no_layout()
    shifts, spreads, prefix = shifted_products(polys)
    base = sum(shifts)
    front = prefix[-1]  # ``front[v]``: the whole frontier's layouts with ``base + v`` mines
    weight, mine_weight, free_den, scale = based_weights(
        count, len(free), len(constrained), base, base + len(front) - 1, lift(1) if lift else 1
    )
    total = sum(n * weight[v] for v, n in enumerate(front) if n)
    if total == 0:
        raise count.no_layout()
    if count.left is not None and lift is None:
        layouts = total  # each weight is then the free cells' layouts (`total_weights`)
    else:
        layouts = int(
            sum(n * layouts_with(count.left, len(free), base + v) for v, n in enumerate(front) if n)
        )
    # after[i][u]: the weight of the polynomials from the i-th on and of the free
    # cells, given u mines before the i-th. A component's ``rest`` (everything
    # else as one weight) is then one pass over its prefix, never a product of
    # the others' polynomials, which on a wide board costs the square of its length.
    join = correlate if lift else correlated  # exact counts: in the kernel's limbs
    after = [weight]
    for i in range(len(polys) - 1, -1, -1):
        after.append(join(after[-1], spreads[i], len(prefix[i])))
    after.reverse()
    outside = (after, prefix, shifts, polys)
    groups, blocks, cut = _shares(parts, outside, int(total), late, lift)
    if free:
        share = int(sum(n * mine_weight[v] for v, n in enumerate(front) if n))
        blocks.append((free, len(groups)))
        groups.append((share, int(total) * free_den))
    return Probabilities(groups, blocks, layouts, int(total * scale), bool(lift) or cut)


def _shares(
    parts: Sequence[Part | Outcome],
    outside: tuple[list[list[Number]], list[list[Number]], list[int], list[list[Number]]],
    whole: int,
    late: Callable[[], bool] | None,
    lift: Callable[[int], Decimal] | None,
) -> tuple[Groups, Blocks, bool]:
    """Every part's groups of cells and their probabilities, whose denominator is the
    ``whole`` weight: the settled cells', then each programme's supercells' by its walk
    back under the weight of everything outside it (``outside``: `combined`'s ``after``,
    ``prefix``, ``shifts`` and ``polys``); and whether a walk back was cut short."""
    after, prefix, shifts, polys = outside
    join = correlate if lift else correlated
    zero: Number = lift(0) if lift else 0
    groups: Groups = []
    blocks: Blocks = []
    index = 0
    cut = False
    for part in parts:
        settled_groups(part, groups, blocks)
        index += len(part.settled_polys)
        for programme in part.programmes:
            # Its own shift first: no layout of it has fewer mines, so their weight is 0.
            shift = shifts[index]
            rest = join(after[index + 1], prefix[index], len(programme.poly) - shift)
            rest = shifted(rest, shift, zero)
            up = down = 1
            if lift:  # the programme's counts are integers: so must its outside weights be
                rest, power = integral(rest, polys[index])
                up, down = (10**power, 1) if power >= 0 else (1, 10**-power)
            index += 1
            shares, complete = programme.shares(rest, late)
            cut = cut or not complete
            for members, share, spread in shares:
                blocks.append((members, len(groups)))
                groups.append((share * up, len(members) * whole * down * spread))
    return groups, blocks, cut


def settled_groups(part: Part | Outcome, groups: Groups, blocks: Blocks) -> None:
    """Add the groups of ``part``'s settled cells (probability 0 or 1) to ``groups``."""
    for value in sorted(set(part.settled.values())):
        blocks.append(([cell for cell, mine in part.settled.items() if mine == value], len(groups)))
        groups.append((value, 1))


def integral(rest: Sequence[Number], poly: Sequence[Number]) -> tuple[list[int], int]:
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


#: A programme's shares count by count: ``(cells, shares, weights, complete)``, the
#: probability of the cells ``cells[i]`` being ``shares[c][i] / (weights[c][i] * total_c)``.
Column = tuple[list[list[Cell]], list[list[int]], list[list[int]], bool]


class FreeCells(Sequence[Cell]):
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


def count_outcomes(
    rules: list[Rule],
    near: frozenset[Cell],
    unknown: UnknownCells,
    count: MineCount,
    budget: Budget,
    cache: PartCache | dict[Any, Any] | None,
    opened: Cell | None,
) -> dict[int, Probabilities] | None:
    """`solve_outcomes` of the rules ``rules`` (see there)."""
    present = unknown.members
    if opened not in present:
        opened = None
    size = len(unknown.cells) - (opened is not None)  # the unknown cells but ``opened``
    try:
        check_within(present, opened, [*rules, (near, 0)])
        if not near:
            rest = UnknownCells([c for c in unknown.cells if c != opened], distinct=True)
            return {0: solve_rules(rest, rules, count, budget, cache)}
        constrained = {cell for members, _ in rules for cell in members}
        lone = None
        if isinstance(cache, PartCache) and budget.timeless() and constrained.isdisjoint(near):
            # No rule touches ``near``: see `LoneOutcomes`.
            lone = cache.lone_outcomes((frozenset(rules), len(near), size, count, budget))
            if lone.outcomes is not None:
                held = constrained | near
                return lone.moved(FreeCells(unknown, held, opened, size - len(held)), near)
        tracked, others = _tracked_parts(rules, near, budget, cache)
    except InconsistentView:
        return {}  # no layout fits, whatever the count
    if tracked.approximate or any(part.approximate for part in others):
        return None
    constrained |= near
    free = FreeCells(unknown, constrained, opened, size - len(constrained))
    by_count = {}
    for mines in range(len(near) + 1):
        part = tracked.outcome(mines)
        if part is not None:
            by_count[mines] = part
    found = combine_outcomes(free, constrained, others, by_count, count, budget)
    if lone is not None:
        lone.keep(found, free, near)
    return found


def _tracked_parts(
    rules: list[Rule],
    near: frozenset[Cell],
    budget: Budget,
    cache: PartCache | dict[Any, Any] | None,
) -> tuple[Part, list[Part]]:
    """The part of the group ``near`` joins, its mines tracked, and the other groups'."""
    marker = (near, -1)
    groups = split([*rules, marker])
    joined = next(group for group in groups if any(rule is marker for rule in group))
    tracked = cached_part(joined, budget, cache, marker)
    others = [cached_part(group, budget, cache) for group in groups if group is not joined]
    return tracked, others


#: The weights of `combine_outcomes` with the tracked polynomial ``T`` left open
#: (`_open_weights`): ``(whole, rest, layouts, free, den, scale)``. ``whole``: the weight
#: outside ``T`` given its mines; ``rest[i][t + m]``: the weight outside polynomial ``i``
#: given ``t`` mines in ``T`` and ``m`` in it; ``layouts`` and ``free``: the layouts and
#: the free cells' mine weight, given ``T``'s mines; ``den`` and ``scale``: as
#: `polynomials.total_weights` gives them. (A plain tuple: a named one's maker runs in the
#: interpreter, once per count.)
_Open = tuple[list[int], list[list[int]], list[int], list[int], int, int]


def _polynomials(
    others: list[Part], outcomes: dict[int, Part | Outcome]
) -> tuple[list[list[int]], list[list[int]]]:
    """The polynomials every outcome has (``others``' and the tracked part's but its
    tracking programme's), and each outcome's polynomial ``T`` of that programme ([1]
    when no programme tracks the cells: they were all settled)."""
    first = next(iter(outcomes.values()))
    varies = [p for p in first.programmes if isinstance(p, Ending)]
    fixed = [poly for part in others for poly in part.polys]
    fixed += first.settled_polys + [p.poly for p in first.programmes if p not in varies]
    t_polys = []
    for part in outcomes.values():
        ends = [p for p in part.programmes if isinstance(p, Ending)]
        t_polys.append(ends[0].poly if ends else [1])
    return fixed, t_polys


def _open_weights(
    fixed: list[list[int]], extra: int, count: MineCount, free: int, constrained: int
) -> _Open:
    """`_Open` for the polynomials ``fixed``, ``T`` at most ``extra`` mines."""
    shifts, spreads, prefix = shifted_products(fixed)
    base = sum(shifts)
    high = base + len(prefix[-1]) - 1 + extra
    # From ``base`` on, as in `combined`: below it no layout has that few mines.
    weight, mine_weight, free_den, scale = based_weights(count, free, constrained, base, high)
    after = [weight]
    for i in range(len(fixed) - 1, -1, -1):
        after += correlations(after[-1], [spreads[i]], len(prefix[i]) + extra)
    after.reverse()
    # open_rest[i][j] for j under polynomial i's shift is never read with a layout of it.
    open_rest = [
        shifted(correlations(after[i + 1], [prefix[i]], len(spreads[i]) + extra)[0], shift, 0)
        for i, shift in enumerate(shifts)
    ]
    # Totals with T open: the weight, layouts and free mines of G (the fixed product).
    whole_open = after[0]
    if count.left is None:
        # Not ``1 << free``: compiled (`minesweeper.solver.compiled`), that shifts in 64 bits.
        every = layouts_with(None, free, 0)
        (layouts_open,) = correlations([every] * len(weight), [prefix[-1]], extra + 1)
    else:  # each weight is then the free cells' layouts (`total_weights`)
        layouts_open = whole_open
    (free_open,) = correlations(mine_weight, [prefix[-1]], extra + 1)
    return whole_open, open_rest, layouts_open, free_open, free_den, scale


def combine_outcomes(
    free: Sequence[Cell],
    constrained: set[Cell],
    others: list[Part],
    outcomes: dict[int, Part | Outcome],
    count: MineCount,
    budget: Budget,
) -> dict[int, Probabilities]:
    """`combine` of ``[*others, part]`` for each part of ``outcomes`` (exact counts), by
    count; a count no layout fits is left out. ``free``: the unknown cells outside
    ``constrained``, in order (as one block of every answer: read only if asked for).

    Only the tracked programme's polynomial ``T`` changes from one count to the next, so
    the weight outside each fixed polynomial is computed once with ``T`` left open
    (`_Open`); each count then costs a short correlation per component instead of the
    products of them all. The integers are those of `combine` (the density prior's
    weights up to one factor per count, which every probability and ``weight`` cancel),
    so the answers are equal.
    """
    if not outcomes:
        return {}
    first = next(iter(outcomes.values()))
    fixed, t_polys = _polynomials(others, outcomes)
    extra = max(map(len, t_polys)) - 1
    if not all(any(poly) for poly in fixed):
        return {}  # no count fits
    weights = _open_weights(fixed, extra, count, len(free), len(constrained))
    whole_open, open_rest, layouts_open, free_open, _, _ = weights
    # The counts some layout fits, with their total weights.
    totals = [found for (found,) in correlations(whole_open, t_polys, 1)]
    live = [
        (mines, part, t_poly, total)
        for (mines, part), t_poly, total in zip(outcomes.items(), t_polys, totals, strict=True)
        if total
    ]
    t_polys = [t_poly for _, _, t_poly, _ in live]
    if count.left is None:
        layouts_of = [found for (found,) in correlations(layouts_open, t_polys, 1)]
    else:
        layouts_of = [total for _, _, _, total in live]
    free_shares = [found for (found,) in correlations(free_open, t_polys, 1)] if free else []
    parts = [*others, first]
    live_parts = [part for _, part, _, _ in live]
    late = budget.late_check()
    columns = _columns(parts, live_parts, t_polys, whole_open, open_rest, late)
    totals = [total for _, _, _, total in live]
    found = _answers(parts, columns, free, totals, layouts_of, free_shares, weights)
    return {mines: result for (mines, _, _, _), result in zip(live, found, strict=True)}


def _answers(
    parts: list[Part | Outcome],
    columns: list[Column],
    free: Sequence[Cell],
    totals: list[int],
    layouts: list[int],
    free_shares: list[int],
    weights: _Open,
) -> list[Probabilities]:
    """The answer for each count `combine_outcomes` keeps (its total weight ``totals[i]``,
    ``layouts[i]`` layouts, the free cells' share ``free_shares[i]``)."""
    free_den, scale = weights[4:]
    cut = not all(complete for _, _, _, complete in columns)
    blocks, template = _blocks(parts, columns, free)
    # A supercell's denominator is its weight times the count's total: a few weights serve all.
    sizes = sorted({w for _, _, by_count, _ in columns for row in by_count for w in row})
    found = []
    size = None
    for at, total in enumerate(totals):
        groups: Groups = []
        dens = {w: w * total for w in sizes}.__getitem__
        for segment in template:
            if isinstance(segment, int):
                _, shares, weights_at, _ = columns[segment]
                groups += zip(shares[at], map(dens, weights_at[at]), strict=True)
            else:
                groups.append(segment)
        if free:
            groups.append((free_shares[at], total * free_den))
        result = Probabilities(groups, blocks, layouts[at], int(total * scale), cut, size)
        found.append(result)
        size = len(result)
    return found


def _blocks(
    parts: list[Part | Outcome], columns: list[Column], free: Sequence[Cell]
) -> tuple[Blocks, list[tuple[int, int] | int]]:
    """The blocks of cells of every outcome's answer (each has the same blocks in the same
    order, `combine`'s: only the shares change), and ``template``: each block's group, or
    the column its groups come from."""
    blocks: Blocks = []
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
    return blocks, template


def _columns(
    parts: list[Part | Outcome],
    outcomes: list[Part | Outcome],
    t_polys: list[list[int]],
    whole_open: list[int],
    open_rest: list[list[int]],
    late: Callable[[], bool] | None,
) -> list[Column]:
    """Each programme's shares in each of ``outcomes`` (`combine_outcomes`' names; every
    outcome has the programmes of ``parts`` in the same order, bar the tracked one's end):
    in a kernel pass per programme where it can."""
    columns: list[Column] = []
    index = 0
    for one in parts:
        index += len(one.settled_polys)
        for j, programme in enumerate(one.programmes):
            if isinstance(programme, Ending):
                endings = [cast(Ending, part.programmes[j]) for part in outcomes]
                columns.append(_ending_column(programme.programme, endings, whole_open, late))
            else:
                outside = open_rest[index]
                index += 1
                columns.append(_fixed_column(programme, outside, t_polys, late))
    return columns


def _ending_column(
    owner: Programme,
    endings: list[Ending],
    whole_open: list[int],
    late: Callable[[], bool] | None,
) -> Column:
    """The tracked programme's `Column`: its shares at each outcome's end."""
    most = max((len(ending.poly) for ending in endings), default=0)
    found = owner.shares_each([ending.end for ending in endings], whole_open[:most])
    if found is not None:
        return (owner.last_first, found, [owner.sizes] * len(found), True)
    pending = [ending.shares(whole_open[: len(ending.poly)], late) for ending in endings]
    return _column_of(pending)


def _fixed_column(
    programme: Programme,
    outside: list[int],
    t_polys: list[list[int]],
    late: Callable[[], bool] | None,
) -> Column:
    """A fixed programme's `Column`: its shares under each outcome's outside weights."""
    found = programme.shares_correlated(outside, t_polys)
    if found is not None:
        return (programme.last_first, found, [programme.sizes] * len(found), True)
    length = len(programme.poly)
    pending = [programme.shares(correlate(outside, t_poly, length), late) for t_poly in t_polys]
    return _column_of(pending)


def _column_of(pending: list[tuple[list[Share], bool]]) -> Column:
    """The `Column` of shares walked back one outcome at a time."""
    by_count = [shares for shares, _ in pending]
    return (
        [cells for cells, _, _ in by_count[0]] if by_count else [],
        [[share for _, share, _ in shares] for shares in by_count],
        [[len(cells) * spread for cells, _, spread in shares] for shares in by_count],
        all(complete for _, complete in pending),
    )
