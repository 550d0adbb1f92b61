"""Strategy ``worlds``: the baseline of another team's report, the floor to clear.

1. Single-number rules, repeated until nothing changes: a number whose unknown
   neighbours are exactly the mines it still needs makes them mines; a number
   with all its mines found makes its other neighbours safe.
2. "Two worlds", then "three worlds": for every number leaving exactly 2 (then
   3) ways to place its remaining mines, assume each way in a copy, propagate
   the single-number rules, drop the ways that contradict, and open the cells
   safe in every surviving way.
3. Otherwise guess: early in the game (until this strategy has made its first
   guess) the centre of the printed map, if unknown; after that the first
   unknown cell from the top-left, in row-major printed order.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import combinations
from math import comb

from minesweeper.errors import SolverError
from minesweeper.solver.constraints import InconsistentView
from minesweeper.solver.strategy import Decision, Strategy
from minesweeper.solver.view import View

#: Values of decided cells that are not revealed: 1 for a mine, 0 for safe.
_Values = dict[int, int]


class _Contradiction(Exception):
    pass


def _propagate(view: View, values: _Values, todo: Iterable[int]) -> _Values:
    """``values`` extended by the single-number rules, checking the numbers in ``todo`` first.

    Raises `_Contradiction` when a number cannot be satisfied.
    """
    neighbours = view.topology.neighbours
    revealed = view.revealed
    queue = [cell for cell in todo if cell in revealed]
    queued = set(queue)
    while queue:
        cell = queue.pop()
        queued.discard(cell)
        unknown = []
        mines = 0
        for other in neighbours(cell):
            if other in revealed:
                continue
            value = values.get(other)
            if value is None:
                unknown.append(other)
            else:
                mines += value
        needed = revealed[cell] - mines
        if not 0 <= needed <= len(unknown):
            raise _Contradiction
        if not unknown or 0 < needed < len(unknown):
            continue
        value = 1 if needed else 0
        for other in unknown:
            values[other] = value
            for number in neighbours(other):
                if number in revealed and number not in queued:
                    queued.add(number)
                    queue.append(number)
    return values


class Worlds(Strategy):
    """Single-number rules, two and three worlds, then a top-left guess."""

    name = "worlds"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self._mines: set[int] = set()
        self._guessed = False
        self._seen: frozenset[int] = frozenset()

    def decide(self, view: View) -> Decision:
        if not self._seen <= view.revealed.keys():  # a cell closed again: a new game
            self._mines.clear()
            self._guessed = False
        self._seen = frozenset(view.revealed)
        known = (self._mines | view.mines) - view.revealed.keys()
        numbers = [
            cell
            for cell in view.revealed
            if any(view.is_unknown(o) for o in view.topology.neighbours(cell))
        ]
        try:
            values = _propagate(view, dict.fromkeys(known, 1), numbers)
        except _Contradiction:
            raise InconsistentView("the revealed numbers contradict each other") from None
        self._mines = {cell for cell, value in values.items() if value}
        safe = sorted(cell for cell, value in values.items() if not value)
        if not safe:
            safe = self._worlds(view, values, numbers, 2) or self._worlds(view, values, numbers, 3)
        if safe:
            return Decision(tuple(safe), frozenset(self._mines))
        return Decision((self._guess(view, values),), frozenset(self._mines), guess=True)

    def _worlds(self, view: View, values: _Values, numbers: list[int], ways: int) -> list[int]:
        """Cells safe in every surviving way of each number that leaves exactly ``ways`` ways."""
        neighbours = view.topology.neighbours
        safe: set[int] = set()
        for cell in numbers:
            around = neighbours(cell)
            unknown = [o for o in around if o not in view.revealed and o not in values]
            needed = view.revealed[cell] - sum(values.get(o, 0) for o in around)
            if comb(len(unknown), needed) != ways:
                continue
            common: set[int] | None = None
            for chosen in combinations(unknown, needed):
                world = dict(values)
                for other in unknown:
                    world[other] = 1 if other in chosen else 0
                try:
                    world = _propagate(view, world, {n for o in unknown for n in neighbours(o)})
                except _Contradiction:
                    continue
                zeros = {o for o, value in world.items() if not value}
                common = zeros if common is None else common & zeros
            if common is None:
                raise InconsistentView("the revealed numbers contradict each other")
            safe |= common
        return sorted(safe - {o for o, value in values.items() if not value})

    def _guess(self, view: View, values: _Values) -> int:
        topology = view.topology
        rows, cols = topology.shape
        centre = topology.cell_at(rows // 2, cols // 2)
        guessed, self._guessed = self._guessed, True
        if not guessed and view.is_unknown(centre) and centre not in values:
            return centre
        for row in range(rows):
            for col in range(cols):
                cell = topology.cell_at(row, col)
                if view.is_unknown(cell) and cell not in values:
                    return cell
        raise SolverError("every unknown cell is a proved mine: nothing is left to open")
