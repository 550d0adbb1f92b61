"""Mine-count polynomials (entry ``m``: the layouts, or their weight, with ``m`` mines),
their products and correlations, exact, by the kernel where the numbers fit in machine
words; and the weights the mine count gives them (`MineCount`).

Mine count known: every layout of the unknown cells with the right number of mines is
equally likely. Mine count unknown: each cell of the board is a mine with an unknown
density ``p`` under a ``Beta(a, b)`` prior (`DensityPrior`; ``Beta(1, 1)``, uniform, by
default), so a whole-board layout with ``k`` mines has weight ``B(k + a, n - k + b)``:
the density is learnt from every cell seen, and summing over the unconstrained cells has
a closed form. Every weight is an exact integer.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import repeat
from math import comb, prod
from operator import add, mul
from typing import Any

from minesweeper.solver.compiled import checkpoint
from minesweeper.solver.constraints import InconsistentView
from minesweeper.solver.counting import engine
from minesweeper.solver.view import View

#: A count: an exact int, or a `Decimal` when the count is approximate (see
#: `combining.combine`).
Number = Any


def convolve(a: Sequence[int], b: Sequence[int]) -> list[int]:
    """The product of two polynomials (coefficient lists), ``b`` added a slice at a time."""
    checkpoint()  # thousands of digits long on a wide board, in loops of hundreds
    width = len(b)
    out = [0] * (len(a) + width - 1)
    for i, x in enumerate(a):
        if x:
            out[i : i + width] = map(add, out[i : i + width], map(mul, b, repeat(x)))
    return out


def product(polys: Iterable[list[int]], mines: int | None) -> list[int]:
    """The product of exact mine-count polynomials, without the terms past ``mines``."""
    front: list[int] = [1]
    for poly in polys:
        front = convolve(front, poly)
        if mines is not None and mines >= 0:
            # Past ``mines`` every layout weighs 0: the terms up to it are exact alone.
            del front[mines + 1 :]
    return front


def correlate(g: Sequence[int], p: Sequence[int], n: int) -> list[int]:
    """``[sum(p[t] * g[u + t] for t) for u in range(n)]`` (``g`` long enough)."""
    checkpoint()  # hundreds of these, of long numbers, in one `combining.combine` on a wide board
    width = len(p)
    return [sum(map(mul, p, g[u : u + width])) for u in range(n)]


def correlated(g: Sequence[int], p: Sequence[int], n: int) -> list[int]:
    """`correlate`, by the kernel where the numbers fit (see `correlations`)."""
    return correlations(list(g), [list(p)], n)[0]


def correlations(g: list[int], polys: list[list[int]], n: int) -> list[list[int]]:
    """``[correlate(g, poly, n) for poly in polys]``, by the kernel where the numbers fit
    (``g`` non-negative ints, the polynomials' entries machine words)."""
    checkpoint()  # a few ms each in the kernel, hundreds in one `combining.combine` on a wide board
    kernel = engine.kernel
    found: list[list[int]] | None = None if kernel is None else kernel.correlate(g, polys, n)
    if found is None:
        return [correlate(g, poly, n) for poly in polys]
    return found


def shifted_products(
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
        prefix.append(convolve(prefix[-1], poly))
    return shifts, spreads, prefix


def shifted(values: list[Number], shift: int, zero: Number) -> list[Number]:
    """``values`` after ``shift`` entries ``zero``."""
    return [zero] * shift + values if shift else values


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


class MineCount:
    """What a count knows of the mines besides the rules (a value: compared, hashed, never
    changed).

    ``left``: how many mines the unknown cells hold, when the count is told; None when
    it is not: then ``prior`` weighs each layout, learnt from the cells of the board
    already known, ``known_mines`` mines and ``known_safe`` safe (revealed, or about to be).
    """

    # A plain class, not a dataclass: its methods are then compiled with the module
    # (`minesweeper.solver.compiled`), where a dataclass's made ones would run in the
    # interpreter, and a look-ahead makes one per position it counts.
    __slots__ = ("known_mines", "known_safe", "left", "prior")

    def __init__(
        self,
        left: int | None = None,
        prior: DensityPrior = UNIFORM,
        known_mines: int = 0,
        known_safe: int = 0,
    ) -> None:
        self.left = left
        self.prior = prior
        self.known_mines = known_mines
        self.known_safe = known_safe

    def _key(self) -> tuple[int | None, DensityPrior, int, int]:
        return (self.left, self.prior, self.known_mines, self.known_safe)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, MineCount) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        left, prior, mines, safe = self._key()
        return f"MineCount({left!r}, {prior!r}, known_mines={mines!r}, known_safe={safe!r})"

    @classmethod
    def of(cls, view: View, prior: DensityPrior = UNIFORM, opened: int = 0) -> MineCount:
        """``view``'s: its mines left, its known mines and revealed cells, and ``opened``
        cells more taken as safe (a cell about to be opened)."""
        return cls(view.mines_left, prior, len(view.mines), len(view.revealed) + opened)

    @classmethod
    def given(cls, count: MineCount | int | None) -> MineCount:
        """``count``, or the count of ``count`` mines left (None: not told, no cell known)."""
        return count if isinstance(count, MineCount) else cls(count)

    def no_layout(self) -> InconsistentView:
        """The error of a position no layout fits."""
        left = self.left
        what = "the position" if left is None else f"the position with {left} mine(s) left to find"
        return InconsistentView(f"no mine layout fits {what}")


def total_weights(
    count: MineCount, free: int, front: int, low: int, high: int, unit: Number = 1
) -> tuple[list[Number], list[Number], Number, Number]:
    """Weights of a frontier layout with ``s`` mines, summed over the ``free`` cells
    (``front``: the frontier's cells).

    Returns ``(weight, mine_weight, den, scale)``: lists indexed by ``s``
    (from 0 to ``high``; only ``low`` to ``high`` filled), all divided by the
    common factor ``scale`` to keep the integers short; ``mine_weight[s] / den``
    is the same sum restricted to layouts where one given free cell is a mine.
    The weights are multiples of ``unit`` (1, or a decimal 1 to compute in decimals).
    """
    mines = count.left
    if mines is not None:
        # C(free, mines - s) and C(free - 1, mines - s - 1) = C(free, r) * r / free, from
        # one binomial and exact steps along the row (a binomial per s costs far more).
        ways = binomials(free, mines - high, mines - low)
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
    prior = count.prior
    span = range(low, high + 1)
    up_start = count.known_mines + prior.a
    down_start = count.known_safe + prior.b
    up = rising_table(up_start + low, high - low + 1, unit)
    down = rising_table(down_start + front - high, high - low + 1, unit)
    scale = unit * rising(up_start, low) * rising(down_start, front - high)
    weight = [0] * low + [up[s - low] * down[high - s] for s in span]
    seen = count.known_mines + count.known_safe + front + prior.a + prior.b
    # A free cell is a mine with the posterior mean density (K + s + a) / seen.
    mine_weight = [0] * low + [weight[s] * (up_start + s) for s in span]
    return weight, mine_weight, seen, scale


def based_weights(
    count: MineCount, free: int, front: int, base: int, high: int, unit: Number = 1
) -> tuple[list[Number], list[Number], Number, Number]:
    """`total_weights` from ``base`` mines on (entry ``v``: ``base + v`` mines): no layout
    of a frontier whose every layout holds ``base`` mines or more has fewer."""
    weight, mine_weight, den, scale = total_weights(count, free, front, base, high, unit)
    if base:
        weight, mine_weight = weight[base:], mine_weight[base:]
    return weight, mine_weight, den, scale


def layouts_with(mines: int | None, free: int, front_mines: int) -> int:
    """The layouts of ``free`` cells that hold the mines ``front_mines`` leave of
    ``mines`` (every layout, ``2 ** free``, when the count is not told)."""
    if mines is None:
        return 1 << free
    rest = mines - front_mines
    return comb(free, rest) if 0 <= rest <= free else 0


def weigh_polys(polys: Iterable[list[int]], free: int, constrained: int, count: MineCount) -> int:
    """The exact weight of the layouts whose ``constrained`` cells' mine counts the product
    of ``polys`` gives, with ``free`` cells besides (see `combining.weigh_parts`)."""
    front = product(polys, count.left)
    low = next((s for s, n in enumerate(front) if n), len(front) - 1)
    weight, _, _, scale = total_weights(count, free, constrained, low, len(front) - 1)
    total = sum(n * weight[s] for s, n in enumerate(front) if n)
    if total == 0:
        raise count.no_layout()
    return int(total * scale)


def binomials(n: int, low: int, high: int) -> list[int]:
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


def rising(start: int, count: int) -> int:
    """``start^(count)``: the rising factorial ``start (start + 1) ... (start + count - 1)``.

    A product tree, not `rising_table`'s last entry: on a wide board that table is
    thousands of integers thousands of digits long, tens of MB at once.
    """
    if count <= 16:
        return prod(range(start, start + count))
    half = count // 2
    return rising(start, half) * rising(start + half, count - half)


def rising_table(start: int, count: int, unit: Number = 1) -> list[Number]:
    """``[start^(0), start^(1), ...]``: rising factorials (times ``unit``)."""
    table = [unit]
    for i in range(count - 1):
        table.append(table[-1] * (start + i))
    return table
