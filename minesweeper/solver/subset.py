"""The subset prover: what a player proves with simple local rules, fed one cell at a time.

Three rules, applied until nothing new follows:

- a single number: no mine left to place around it means its unknown
  neighbours are safe; as many as its unknown neighbours means they are mines;
- two overlapping numbers A and B (``a``, ``b`` mines still to place among
  their unknown cells): when ``a - b`` equals the number of cells of A outside
  B, those cells are mines and B's cells outside A are safe (a number whose
  cells lie inside another's is the special case);
- the total mine count, when known: it is one more "number" over every unknown
  cell, paired with each number as above.

The prover keeps its state between calls, so replaying a whole game costs work
only where something changed. It reads only what a player sees: the numbers of
revealed cells (and the mine count), never a board. `SubsetProver` is the
reference; `subset_prover` gives its compiled twin (``_prover.pyx``) when it is built.
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable
from functools import lru_cache
from typing import Protocol

from minesweeper.solver.compiled import load_compiled
from minesweeper.solver.constraints import Deduction, InconsistentView
from minesweeper.solver.view import View
from minesweeper.topology.base import Topology


class SubsetProver:
    """Proves cells safe or mined from revealed numbers, incrementally.

    Feed it every revealed cell with `reveal`; `prove` returns what follows.
    ``mine_count`` is the board's total number of mines, or None when unknown.
    """

    name = "subset"

    def __init__(self, topology: Topology, mine_count: int | None = None) -> None:
        self.topology = topology
        self.mine_count = mine_count
        self.revealed: dict[int, int] = {}
        self.mines: set[int] = set()
        #: Proved safe, not revealed yet.
        self.safe: set[int] = set()
        # Per revealed cell with unknown neighbours left: those cells, and the mines still
        # to place among them (only the open numbers are kept, to loop over few).
        self._unknown: dict[int, set[int]] = {}
        self._need: dict[int, int] = {}
        self._dirty: set[int] = set()

    @classmethod
    def from_view(cls, view: View) -> SubsetProver:
        """A prover that has seen ``view``."""
        prover = cls(view.topology, view.mine_count)
        prover.see(view)
        return prover

    def follows(self, view: View) -> bool:
        """Whether ``view`` continues what the prover has seen: the same game, only more known."""
        return (
            view.topology is self.topology
            and view.mine_count == self.mine_count
            and self.revealed.items() <= view.revealed.items()
        )

    def see(self, view: View) -> None:
        """Take in what ``view`` adds: its known mines and revealed cells (see `follows`)."""
        for mine in view.mines - self.mines:
            self._mark_mine(mine)
        revealed = view.revealed
        for cell in revealed.keys() - self.revealed.keys():
            self.reveal(cell, revealed[cell])

    # -- observations ---------------------------------------------------------------------

    def reveal(self, cell: int, count: int) -> None:
        """A cell was revealed showing ``count``."""
        revealed, mines, safe = self.revealed, self.mines, self.safe
        if cell in revealed:
            return
        if cell in mines:
            raise InconsistentView(f"cell {cell} was proved a mine but shows {count}")
        safe.discard(cell)
        revealed[cell] = count
        unknown_of, dirty = self._unknown, self._dirty
        unknown = set()
        need = count
        for other in self.topology.neighbours(cell):
            if other in mines:
                need -= 1
            elif other not in revealed and other not in safe:
                unknown.add(other)
            cells = unknown_of.get(other)
            if cells is not None and cell in cells:
                # A cell proved safe before has left its numbers already: they keep
                # their settled state, and the new number is checked against them.
                cells.discard(cell)
                if cells:
                    dirty.add(other)
                else:  # only the open numbers are kept
                    del unknown_of[other]
        if unknown:
            unknown_of[cell] = unknown
            dirty.add(cell)
        self._need[cell] = need

    def unknown_count(self) -> int:
        """How many cells are neither revealed nor proved safe or mined."""
        return self.topology.size - len(self.revealed) - len(self.mines) - len(self.safe)

    def unknown(self) -> list[int]:
        """Cells neither revealed nor proved safe or mined."""
        revealed, mines, safe = self.revealed, self.mines, self.safe
        return [
            c
            for c in self.topology.cells()
            if c not in revealed and c not in mines and c not in safe
        ]

    def constraints(self) -> list[tuple[frozenset[int], int]]:
        """The numbers still open: ``(unknown cells around it, mines among them)``."""
        return [(frozenset(cells), self._need[c]) for c, cells in self._unknown.items() if cells]

    # -- deduction ------------------------------------------------------------------------

    def prove(self) -> Deduction:
        """Everything the rules prove now: all safe cells not yet revealed, and new mines.

        Raises `InconsistentView` when the numbers contradict each other.
        """
        mines_before = set(self.mines)
        while True:
            self._settle()
            if not self._global_rule():
                break
        return Deduction(frozenset(self.safe), frozenset(self.mines - mines_before))

    def learn(self, safe: Iterable[int] = (), mines: Iterable[int] = ()) -> None:
        """Take cells proved elsewhere (e.g. by a stronger prover) as known."""
        for cell in safe:
            self._mark_safe(cell)
        for cell in mines:
            self._mark_mine(cell)

    def _settle(self) -> None:
        """Apply the single-number and pair rules until nothing changes."""
        unknown_of, need_of, dirty = self._unknown, self._need, self._dirty
        neighbours = self.topology.neighbours
        while dirty:
            cell = dirty.pop()
            cells = unknown_of.get(cell)
            if not cells:
                continue
            need = need_of[cell]
            if not 0 <= need <= len(cells):
                raise InconsistentView(f"cell {cell} shows a number its neighbours cannot meet")
            if need == 0:
                self.learn(safe=list(cells))
                continue
            if need == len(cells):
                self.learn(mines=list(cells))
                continue
            partners = {other for c in cells for other in neighbours(c) if other in unknown_of}
            partners.discard(cell)
            for other in partners:
                if self._pair(cells, need, unknown_of[other], need_of[other]):
                    # The sets changed under the loop: look at this cell again later.
                    dirty.add(cell)
                    break

    def _pair(self, a_cells: set[int], a: int, b_cells: set[int], b: int) -> bool:
        """The overlap rule on two numbers, both ways round; True when it proved something."""
        a_only = a_cells - b_cells
        a_out = len(a_only)
        b_out = len(b_cells) - len(a_cells) + a_out  # B's cells outside A, counted
        if not (a_out or b_out):
            return False
        if a - b == a_out:
            self.learn(safe=list(b_cells - a_cells), mines=list(a_only))
            return True
        if b - a == b_out:
            self.learn(safe=list(a_only), mines=list(b_cells - a_cells))
            return True
        return False

    def _global_rule(self) -> bool:
        """The mine count as a number over every unknown cell; True when it proved something.

        Each open number's cells lie among the unknown cells, so the pair rule
        with the count reduces to two comparisons: the number needs every mine
        left (the other unknown cells are safe), or the cells outside it must
        all be mines.
        """
        if self.mine_count is None:
            return False
        total = self.unknown_count()
        if not total:
            return False
        left = self.mine_count - len(self.mines)
        if not 0 <= left <= total:
            raise InconsistentView("the mine count does not fit the position")
        if left == 0 or left == total:
            if left == 0:
                self.learn(safe=self.unknown())
            else:
                self.learn(mines=self.unknown())
            return True
        need_of = self._need
        gap = total - left  # safe cells among the unknown
        for cell, cells in self._unknown.items():
            if not cells:
                continue
            need = need_of[cell]
            if (need == left or len(cells) - need == gap) and len(cells) != total:
                outside = set(self.unknown()) - cells
                if need == left:
                    self.learn(safe=outside)
                else:
                    self.learn(mines=outside)
                return True
        return False

    def _mark_safe(self, cell: int) -> None:
        if cell in self.safe or cell in self.revealed:
            return
        if cell in self.mines:
            raise InconsistentView(f"cell {cell} proved both safe and a mine")
        self.safe.add(cell)
        self._forget(cell, mine=False)

    def _mark_mine(self, cell: int) -> None:
        if cell in self.mines:
            return
        if cell in self.safe or cell in self.revealed:
            raise InconsistentView(f"cell {cell} proved both safe and a mine")
        self.mines.add(cell)
        self._forget(cell, mine=True)

    def _forget(self, cell: int, mine: bool) -> None:
        """``cell`` is no longer unknown to the numbers around it."""
        unknown_of, need_of, dirty = self._unknown, self._need, self._dirty
        for other in self.topology.neighbours(cell):
            cells = unknown_of.get(other)
            if cells is not None and cell in cells:
                if mine:
                    need_of[other] -= 1
                cells.discard(cell)
                if cells:
                    dirty.add(other)
                else:
                    del unknown_of[other]


def prove(view: View) -> Deduction:
    """What the subset rules prove from ``view`` (safe cells, and mines beyond ``view.mines``)."""
    return SubsetProver.from_view(view).prove()


class Prover(Protocol):
    """What a strategy asks of a subset prover (`SubsetProver`, or its compiled twin)."""

    safe: set[int]
    mines: set[int]

    def follows(self, view: View) -> bool: ...

    def see(self, view: View) -> None: ...

    def prove(self) -> Deduction: ...


_compiled = load_compiled("_prover")  # None: SubsetProver proves alone


@lru_cache(maxsize=16)
def neighbour_table(topology: Topology) -> tuple[array[int], array[int]]:
    """Every cell's neighbours in one array: cell ``c``'s from ``starts[c]`` to
    ``starts[c + 1]``."""
    starts, cells = array("i", [0]), array("i")
    for cell in topology.cells():
        cells.extend(topology.neighbours(cell))
        starts.append(len(cells))
    return starts, cells


def subset_prover(topology: Topology, mine_count: int | None = None) -> Prover:
    """A new subset prover: the compiled one when it is built, else `SubsetProver` (the
    same proofs)."""
    if _compiled is None:
        return SubsetProver(topology, mine_count)
    prover: Prover = _compiled.Prover(topology, mine_count, neighbour_table(topology))
    return prover
