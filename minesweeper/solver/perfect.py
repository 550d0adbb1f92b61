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

The moves are valued in three rounds, one tree and memo for all: the best move's value
first (each move asked only whether it beats the best so far), then the moves that may tie
it, then every other move exactly. The search is bounded (`Reach`: layouts, positions, CPU
seconds); past a bound it raises `OutOfReach`, saying how far it got, or, asked for a
`partial` answer once the first two rounds are done, returns the chance to win and the best
moves exactly and an upper bound for each move not valued yet. `endgame` plays the same
tree in floats, within a move's time budget, for `best`; this module is the yardstick it is
measured against.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
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
    ``total`` (the weight of every layout that fits). Not ``exact``: the search stopped
    before valuing it, and ``won`` is an upper bound, under the best move's."""

    cell: int
    won: int
    total: int
    exact: bool = True

    @property
    def chance(self) -> Fraction:
        """The chance to win by opening ``cell`` (not `exact`: at most this)."""
        return Fraction(self.won, self.total)


@dataclass(frozen=True)
class PerfectPlay:
    """A position's perfect play: every move's value (best first, then by cell), the number
    of layouts weighed and of positions valued. Not `complete` (a `partial` answer): some
    moves have only a bound; the chance to win and the best moves are exact all the same."""

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

    @property
    def complete(self) -> bool:
        """Whether every move is valued exactly."""
        return all(move.exact for move in self.moves)

    def of(self, cell: int) -> MoveValue:
        """The value of opening ``cell``."""
        return next(move for move in self.moves if move.cell == cell)


def perfect_play(
    view: View,
    prior: DensityPrior = UNIFORM,
    reach: Reach = Reach(),
    *,
    partial: bool = False,
    first: Sequence[int] = (),
) -> PerfectPlay:
    """Every unknown cell's perfect-play chance to win in ``view`` (cells that are mines in
    every layout are not moves). Raises `OutOfReach` past ``reach``, unless ``partial`` and
    the best moves are valued by then (then the moves not valued have a bound: see
    `PerfectPlay`); `InconsistentView` when no layout fits. ``first``: moves to value
    exactly before the others (once the best ones are)."""
    deadline = time.process_time() + reach.seconds  # listing the layouts counts too
    cells = view.unknown()
    found = _listed(cells, constraints(view), view.mines_left, reach)
    weights = layout_weights(view, found.sizes(), prior)
    search = _Exact(view, cells, found, weights, reach, deadline)
    moves = [cell for cell in cells if search.mine_masks[cell] != search.everything]
    won, exact, positions = search.values(moves, first, partial)
    total = search.weight(search.everything)
    values = [MoveValue(cell, won[cell], total, cell in exact) for cell in moves]
    values.sort(key=lambda move: (-move.won, not move.exact, move.cell))
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
    won, _, _ = search.values([cell])
    return MoveValue(cell, won[cell], len(found))


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

    def values(
        self, moves: Sequence[int], first: Sequence[int] = (), partial: bool = False
    ) -> tuple[dict[int, int], set[int], int]:
        """The weight won by opening each of ``moves`` (an upper bound for those not valued
        exactly), those valued exactly, and the positions valued. The best value first,
        each move asked only whether it beats the best so far (safest first: a move is not
        asked once where it is safe weighs no more); then whether the others tie it; then
        the rest exactly, ``first`` first. Past the reach, `OutOfReach`, unless ``partial``
        and the first two rounds are done."""
        won = {cell: self.weight(self.everything & ~self.mine_masks[cell]) for cell in moves}
        exact: set[int] = set()
        value, positions = self._valuer()
        best = -1
        for cell in sorted(moves, key=lambda c: (-won[c], c)):
            if won[cell] <= best:
                break  # (its bound: where it is safe)
            found = won[cell] = value(cell, best + 1)
            if found > best:
                best = found
                exact.add(cell)
        for cell in moves:
            if cell not in exact and won[cell] >= best:
                won[cell] = value(cell, best)  # at most best: a tie, or under
                if won[cell] >= best:
                    exact.add(cell)
        try:
            rest = sorted(set(moves) - exact, key=lambda c: (c not in first, -won[c], c))
            for cell in rest:
                won[cell] = value(cell, 0)
                exact.add(cell)
        except OutOfReach:
            if not partial:
                raise
        return won, exact, positions()

    def _valuer(self) -> tuple[Callable[[int, int], int], Callable[[], int]]:
        """``value(cell, need)``: the weight opening ``cell`` wins, if at least ``need``
        (else a bound under it; `OutOfReach` past the reach), and the positions valued so
        far: by the compiled kernel when the layouts weigh alike (`engine.kernel`), else
        here (always exact)."""
        kernel = engine.kernel
        if kernel is not None and self.uniform:
            cells = self.cells
            counted = kernel.Values(
                cells,
                [self.mine_masks[cell] for cell in cells],
                [list(self.shows[cell].values()) for cell in cells],
                self.layouts,
                self.reach.positions,
                max(0.0, self.deadline - time.process_time()),
                self.reach.memory,  # its keys hold a set's non-zero words only
            )
            unit = self.weights[0] if self.weights else 1

            def compiled(cell: int, need: int) -> int:
                found = counted.won(cell, -(-need // unit))  # layouts: need / unit, up
                if found is None:
                    raise self._past(compiled=True)
                return int(found) * unit

            return compiled, lambda: counted.positions

        def plain(cell: int, need: int) -> int:
            return sum(map(self.won, self.split(self.everything, cell)))

        return plain, lambda: len(self.memo)

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
            return OutOfReach(f"not done in {self.reach.seconds:.3g} s of CPU ({where})")
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
