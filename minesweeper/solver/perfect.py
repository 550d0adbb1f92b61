"""Perfect play: each move's exact chance to win when every later move is chosen perfectly.

Every mine layout that fits the position is listed (`listing.list_layouts`) with its
exact integer weight (`endgame.layout_weights`: equal when the mine count is told, the
density prior's when not). A set of layouts still possible is a bit set; opening a cell
loses the layouts where it is a mine and splits the others by the number it shows. The
weight of the layouts a perfect player wins from a set depends on the set alone, so it is
memoised on it: two move orders that leave the same layouts are one node. A cell safe in
every layout left that tells something is opened at once (knowledge only grows, at no
risk), and a risky cell is not tried when the layouts where it is safe weigh no more than
what a better cell already wins. Everything is an integer; a chance is a `Fraction`.

The search is bounded (`Reach`: layouts, positions, CPU seconds); past a bound it raises
`OutOfReach`, saying how far it got. `endgame` plays the same tree in floats, within a
move's time budget, for `best`; this module is the yardstick it is measured against.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from minesweeper.errors import SolverError
from minesweeper.solver.constraints import Constraint, InconsistentView, constraints
from minesweeper.solver.counting import engine
from minesweeper.solver.endgame import layout_weights
from minesweeper.solver.listing import Listing, list_layouts
from minesweeper.solver.probability import UNIFORM, DensityPrior
from minesweeper.solver.view import View
from minesweeper.topology.base import Topology


class OutOfReach(SolverError):
    """The position is past the search's `Reach`; the message says which bound and how far."""


@dataclass(frozen=True)
class Reach:
    """How far a perfect-play search may go: layouts listed, positions valued, CPU seconds,
    and the bytes its memo of positions may hold (each position is a set of layouts)."""

    layouts: int = 250_000
    positions: int = 5_000_000
    seconds: float = 10.0
    memory: int = 1 << 30

    def positions_for(self, layouts: int) -> int:
        """The positions to value at most, ``layouts`` listed: `positions`, or fewer when
        their sets would pass `memory` (a set of ``layouts`` bits, and about 100 bytes)."""
        return min(self.positions, self.memory // (layouts // 8 + 100))


@dataclass(frozen=True)
class MoveValue:
    """Opening ``cell``: the weight of the layouts won by playing perfectly after it, of
    ``total`` (the weight of every layout that fits)."""

    cell: int
    won: int
    total: int

    @property
    def chance(self) -> Fraction:
        return Fraction(self.won, self.total)


@dataclass(frozen=True)
class PerfectPlay:
    """A position's perfect play: every move's value (best first, then by cell), the number
    of layouts weighed and of positions valued."""

    moves: tuple[MoveValue, ...]
    layouts: int
    positions: int

    @property
    def chance(self) -> Fraction:
        """The chance to win from the position, playing perfectly."""
        return self.moves[0].chance if self.moves else Fraction(1)

    @property
    def best(self) -> list[int]:
        """The moves of the highest chance."""
        return [move.cell for move in self.moves if move.won == self.moves[0].won]

    def of(self, cell: int) -> MoveValue:
        """The value of opening ``cell``."""
        return next(move for move in self.moves if move.cell == cell)


def perfect_play(view: View, prior: DensityPrior = UNIFORM, reach: Reach = Reach()) -> PerfectPlay:
    """Every unknown cell's perfect-play chance to win in ``view`` (cells that are mines in
    every layout are not moves). Raises `OutOfReach` past ``reach``, `InconsistentView`
    when no layout fits."""
    deadline = time.process_time() + reach.seconds  # listing the layouts counts too
    cells = view.unknown()
    found = _listed(cells, constraints(view), view.mines_left, reach)
    weights = layout_weights(view, found.sizes(), prior)
    search = _Exact(view, cells, found, weights, reach, deadline)
    moves = [cell for cell in cells if search.mine_masks[cell] != search.everything]
    won, positions = search.wins(moves)
    total = search.weight(search.everything)
    values = [MoveValue(cell, w, total) for cell, w in zip(moves, won, strict=True)]
    values.sort(key=lambda move: (-move.won, move.cell))
    return PerfectPlay(tuple(values), len(found), positions)


def first_click(
    topology: Topology, mines: int, cell: int, opening: bool, reach: Reach = Reach()
) -> MoveValue:
    """The perfect-play value of an empty board of ``mines`` mines first clicked at
    ``cell``, every layout alike: the mines laid anywhere but on it (the classic rules), or
    (``opening``, the modern rules) but on it and around it."""
    kept = {cell, *topology.neighbours(cell)} if opening else {cell}
    deadline = time.process_time() + reach.seconds
    view = View(topology, {}, mine_count=mines)
    cells = view.unknown()
    free = [c for c in cells if c not in kept]
    found = _listed(free, [], mines, reach)
    search = _Exact(view, cells, found, [1] * len(found), reach, deadline)
    (won,), _ = search.wins([cell])
    return MoveValue(cell, won, len(found))


def _listed(
    cells: Sequence[int], rules: Sequence[Constraint], left: int | None, reach: Reach
) -> Listing:
    found = list_layouts(cells, rules, left, reach.layouts)
    if found is None:
        raise OutOfReach(f"more than {reach.layouts:,} layouts fit ({len(cells)} unknown cells)")
    if not len(found):
        raise InconsistentView("no mine layout fits the position")
    return found


class _Exact:
    """The game tree over sets of layouts (bit sets), valued in integer weights won."""

    def __init__(
        self,
        view: View,
        cells: Sequence[int],
        found: Listing,
        weights: Sequence[int],
        reach: Reach,
        deadline: float,
    ) -> None:
        self.cells = list(cells)
        self.mine_masks, self.shows = found.tables(view, cells)
        self.weights = weights
        self.uniform = len(set(weights)) <= 1
        self.everything = (1 << len(found)) - 1
        self.layouts = len(found)
        self.reach = reach
        self.positions = reach.positions_for(len(found))
        self.memo: dict[int, int] = {}
        self.deadline = deadline  # CPU seconds (`time.process_time`)

    def wins(self, moves: Sequence[int]) -> tuple[list[int], int]:
        """The weight won by opening each of ``moves`` first, and the positions valued: in
        the compiled kernel when the layouts weigh alike (`engine.kernel`), else here."""
        kernel = engine.kernel
        if kernel is not None and self.uniform:
            cells = self.cells
            found = kernel.wins(
                cells,
                [self.mine_masks[cell] for cell in cells],
                [list(self.shows[cell].values()) for cell in cells],
                self.layouts,
                list(moves),
                self.reach.positions,
                max(0.0, self.deadline - time.process_time()),
                self.reach.memory,  # its keys hold a set's non-zero words only
            )
            if found is None:
                raise self._past(compiled=True)
            counts, positions = found
            unit = self.weights[0] if self.weights else 1
            return [count * unit for count in counts], positions
        alive = self.everything
        return [sum(map(self.won, self.split(alive, cell))) for cell in moves], len(self.memo)

    def weight(self, part: int) -> int:
        if self.uniform:
            return part.bit_count() * (self.weights[0] if self.weights else 1)
        weights, total = self.weights, 0
        while part:
            low = part & -part
            total += weights[low.bit_length() - 1]
            part ^= low
        return total

    def split(self, alive: int, cell: int) -> list[int]:
        """The layouts of ``alive`` where ``cell`` is safe, by the number it shows."""
        return [alive & shown for shown in self.shows[cell].values() if alive & shown]

    def won(self, alive: int) -> int:
        """The weight of the layouts of ``alive`` a perfect player wins."""
        if not alive & (alive - 1):
            return self.weight(alive)
        known = self.memo.get(alive)
        if known is not None:
            return known
        self._count()
        risky: list[tuple[int, int]] = []
        result = -1
        for cell in self.cells:
            mine = alive & self.mine_masks[cell]
            if mine == alive:
                continue
            if mine:
                risky.append((self.weight(alive & ~mine), cell))
            elif len(self.split(alive, cell)) > 1:
                result = sum(map(self.won, self.split(alive, cell)))  # free and informative
                break
        if result < 0:
            result = 0
            risky.sort(key=lambda safe_cell: (-safe_cell[0], safe_cell[1]))
            for safe, cell in risky:
                if safe <= result:
                    break  # cannot win more than where it is safe
                result = max(result, sum(map(self.won, self.split(alive, cell))))
        self.memo[alive] = result
        return result

    def _count(self) -> None:
        if len(self.memo) >= self.positions or (
            len(self.memo) % 1024 == 0 and time.process_time() > self.deadline
        ):
            raise self._past()

    def _past(self, compiled: bool = False) -> OutOfReach:
        """Why the search stopped: too long, or too many positions (or bytes of them)."""
        where = f"{self.layouts:,} layouts, {len(self.cells)} unknown cells"
        if time.process_time() > self.deadline:
            return OutOfReach(f"not done in {self.reach.seconds:g} s of CPU ({where})")
        if compiled:
            megabytes = self.reach.memory / 1e6
            return OutOfReach(
                f"more than {self.reach.positions:,} positions or {megabytes:,.0f} MB of "
                f"them to value ({where})"
            )
        if self.positions < self.reach.positions:
            megabytes = self.reach.memory / 1e6
            return OutOfReach(
                f"more than {self.positions:,} positions to value, {megabytes:,.0f} MB of "
                f"them ({where})"
            )
        return OutOfReach(f"more than {self.positions:,} positions to value ({where})")
