"""`Probabilities`: the engine's answer for a position, every unknown cell's exact mine
probability."""

from __future__ import annotations

import heapq
from collections.abc import Iterator, Sequence
from fractions import Fraction
from operator import itemgetter

from minesweeper.solver.counting.system import Cell


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
    def blocks(self) -> list[tuple[Sequence[Cell], int]]:
        """The cells by group: ``(cells, group)``, the cells of one group together."""
        return self._blocks

    def regrouped(self, blocks: list[tuple[Sequence[Cell], int]]) -> Probabilities:
        """The same groups' probabilities for other cells: ``blocks`` as `blocks` has them
        (the answers of another cell whose count is the same, see `parts.LoneOutcomes`)."""
        return Probabilities(self._groups, blocks, self.layouts, self.weight, self.approximate)

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
