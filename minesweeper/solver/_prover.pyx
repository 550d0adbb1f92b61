# distutils: language = c++
# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The subset prover compiled: `minesweeper.solver.subset.SubsetProver`'s rules over arrays.

Each cell has a state (unknown, revealed, mine, proved safe); a revealed number's
cells still to settle are its unknown neighbours, so only their count and the mines
it still needs are kept, and the overlap rule compares two numbers through marks
on a neighbour table. The rules are those of `SubsetProver`, which stays the
reference (tests/solver/test_subset.py holds the two equal); numbers are looked at
in another order, and the proof, a closure, is the same.
"""

from libcpp.vector cimport vector

from minesweeper.solver.constraints import Deduction, InconsistentView

cdef enum:
    UNKNOWN = 0
    REVEALED = 1
    MINE = 2
    SAFE = 3


cdef class Prover:
    """`SubsetProver`'s interface and proofs. ``table``: `neighbour_table` of ``topology``."""

    name = "subset"
    cdef readonly object topology
    cdef readonly object mine_count
    cdef readonly set safe
    cdef readonly set mines
    cdef int size
    cdef int unknown_left
    cdef int tick
    cdef vector[int] start
    cdef vector[int] around
    cdef vector[int] state
    cdef vector[int] shown
    cdef vector[int] need
    cdef vector[int] open_count
    cdef vector[int] mark
    cdef vector[char] queued
    cdef vector[int] dirty
    cdef vector[int] opened
    # What `follows` found in the view it last said yes to, for `see` of that view: its
    # revealed cells not revealed here yet, with their numbers (one pass over the view).
    cdef object followed
    cdef vector[int] fresh_cells
    cdef vector[int] fresh_counts

    def __init__(self, topology, mine_count=None, table=None):
        cdef const int[:] starts
        cdef const int[:] cells
        cdef int i
        self.topology = topology
        self.mine_count = mine_count
        self.safe = set()
        self.mines = set()
        starts, cells = table
        self.size = len(starts) - 1
        self.start.resize(self.size + 1)
        for i in range(self.size + 1):
            self.start[i] = starts[i]
        self.around.resize(len(cells))
        for i in range(len(cells)):
            self.around[i] = cells[i]
        self.state.assign(self.size, UNKNOWN)
        self.shown.assign(self.size, 0)
        self.need.assign(self.size, 0)
        self.open_count.assign(self.size, 0)
        self.mark.assign(self.size, 0)
        self.queued.assign(self.size, 0)
        self.unknown_left = self.size
        self.tick = 0

    # -- what it has seen ---------------------------------------------------------------

    @property
    def revealed(self) -> dict:
        """Every revealed cell with its number."""
        return {cell: self.shown[cell] for cell in self.opened}

    def follows(self, view) -> bool:
        """Whether ``view`` continues what the prover has seen: the same game, only more known.

        One pass over the view's revealed cells: every cell revealed here is there with its
        number (the view's cells are distinct, so counting them suffices), and the others
        are kept for `see` of this view."""
        cdef int cell, matched = 0
        self.followed = None
        if view.topology is not self.topology or view.mine_count != self.mine_count:
            return False
        self.fresh_cells.clear()
        self.fresh_counts.clear()
        for cell, count in view.revealed.items():
            if 0 <= cell < self.size and self.state[cell] == REVEALED:
                if count != self.shown[cell]:
                    return False
                matched += 1
            else:
                self.fresh_cells.push_back(cell)
                self.fresh_counts.push_back(count)
        if matched != <int>self.opened.size():
            return False
        self.followed = view
        return True

    def see(self, view) -> None:
        """Take in what ``view`` adds: its known mines and revealed cells (see `follows`)."""
        cdef int cell, i
        for cell in view.mines:
            self._check(cell)
            if self.state[cell] != MINE:
                self._mark_mine(cell)
        if view is self.followed:  # its new cells are known: the same cells in the same order
            self.followed = None
            for i in range(self.fresh_cells.size()):
                cell = self.fresh_cells[i]
                self._check(cell)
                if self.state[cell] != REVEALED:
                    self._reveal(cell, self.fresh_counts[i])
            return
        for cell, count in view.revealed.items():
            self._check(cell)
            if self.state[cell] != REVEALED:
                self._reveal(cell, count)

    def reveal(self, int cell, int count) -> None:
        """A cell was revealed showing ``count``."""
        self._reveal(cell, count)

    cdef int _check(self, int cell) except -1:
        if not 0 <= cell < self.size:
            raise ValueError(f"cell {cell} is not on the board")
        return 0

    cdef int _reveal(self, int cell, int count) except -1:
        cdef int i, other, was, need = count, unknown = 0
        self._check(cell)
        was = self.state[cell]
        if was == REVEALED:
            return 0
        if was == MINE:
            raise InconsistentView(f"cell {cell} was proved a mine but shows {count}")
        if was == SAFE:
            self.safe.discard(cell)
        else:
            self.unknown_left -= 1
        self.state[cell] = REVEALED
        self.shown[cell] = count
        self.opened.push_back(cell)
        for i in range(self.start[cell], self.start[cell + 1]):
            other = self.around[i]
            if self.state[other] == MINE:
                need -= 1
            elif self.state[other] == UNKNOWN:
                unknown += 1
            elif self.state[other] == REVEALED and was == UNKNOWN:
                # It was one of that number's cells: no longer.
                self.open_count[other] -= 1
                if self.open_count[other]:
                    self._queue(other)
        self.open_count[cell] = unknown
        self.need[cell] = need
        if unknown:
            self._queue(cell)
        return 0

    cdef inline void _queue(self, int cell):
        if not self.queued[cell]:
            self.queued[cell] = 1
            self.dirty.push_back(cell)

    def unknown_count(self) -> int:
        """How many cells are neither revealed nor proved safe or mined."""
        return self.unknown_left

    def unknown(self) -> list:
        """Cells neither revealed nor proved safe or mined."""
        cdef int c
        return [c for c in range(self.size) if self.state[c] == UNKNOWN]

    def constraints(self) -> list:
        """The numbers still open: ``(unknown cells around it, mines among them)``."""
        cdef int cell
        return [
            (frozenset(self._open_cells(cell)), self.need[cell])
            for cell in self.opened
            if self.open_count[cell]
        ]

    cdef void _fill_open(self, int cell, vector[int]& out):
        cdef int i, c
        out.clear()
        for i in range(self.start[cell], self.start[cell + 1]):
            c = self.around[i]
            if self.state[c] == UNKNOWN:
                out.push_back(c)

    cdef list _open_cells(self, int cell):
        cdef int i
        return [
            self.around[i]
            for i in range(self.start[cell], self.start[cell + 1])
            if self.state[self.around[i]] == UNKNOWN
        ]

    # -- deduction ----------------------------------------------------------------------

    def prove(self):
        """Everything the rules prove now: all safe cells not yet revealed, and new mines.

        Raises `InconsistentView` when the numbers contradict each other.
        """
        mines_before = set(self.mines)
        while True:
            self._settle()
            if not self._global_rule():
                break
        return Deduction(frozenset(self.safe), frozenset(self.mines - mines_before))

    def learn(self, safe=(), mines=()) -> None:
        """Take cells proved elsewhere (e.g. by a stronger prover) as known."""
        cdef int cell
        for cell in safe:
            self._mark_safe(cell)
        for cell in mines:
            self._mark_mine(cell)

    cdef int _learn(self, vector[int]& safe, vector[int]& mines) except -1:
        cdef int cell
        for cell in safe:
            self._mark_safe(cell)
        for cell in mines:
            self._mark_mine(cell)
        return 0

    cdef int _settle(self) except -1:
        """Apply the single-number and pair rules until nothing changes."""
        cdef int cell, count, need, i, j, c, other
        cdef vector[int] cells, partners, none
        while not self.dirty.empty():
            cell = self.dirty.back()
            self.dirty.pop_back()
            self.queued[cell] = 0
            count = self.open_count[cell]
            if not count:
                continue
            need = self.need[cell]
            if not 0 <= need <= count:
                raise InconsistentView(f"cell {cell} shows a number its neighbours cannot meet")
            if need == 0 or need == count:
                self._fill_open(cell, cells)
                if need == 0:
                    self._learn(cells, none)
                else:
                    self._learn(none, cells)
                continue
            self.tick += 1
            partners.clear()
            self.mark[cell] = self.tick
            for i in range(self.start[cell], self.start[cell + 1]):
                c = self.around[i]
                if self.state[c] != UNKNOWN:
                    continue
                for j in range(self.start[c], self.start[c + 1]):
                    other = self.around[j]
                    if (
                        self.state[other] == REVEALED
                        and self.open_count[other]
                        and self.mark[other] != self.tick
                    ):
                        self.mark[other] = self.tick
                        partners.push_back(other)
            for other in partners:
                if self._pair(cell, other):
                    self._queue(cell)  # its cells changed: look at it again later
                    break
        return 0

    cdef int _only(self, int a, int b, vector[int]& out):
        """``a``'s unknown cells that are not ``b``'s, into ``out``; how many."""
        cdef int i, c
        self.tick += 1
        for i in range(self.start[b], self.start[b + 1]):
            self.mark[self.around[i]] = self.tick
        out.clear()
        for i in range(self.start[a], self.start[a + 1]):
            c = self.around[i]
            if self.state[c] == UNKNOWN and self.mark[c] != self.tick:
                out.push_back(c)
        return out.size()

    cdef bint _pair(self, int a_cell, int b_cell) except -1:
        """The overlap rule on two numbers, both ways round; True when it proved something."""
        cdef vector[int] a_only, b_only
        cdef int a = self.need[a_cell], b = self.need[b_cell]
        cdef int a_out = self._only(a_cell, b_cell, a_only)
        cdef int b_out = self.open_count[b_cell] - self.open_count[a_cell] + a_out
        if not (a_out or b_out):
            return False
        if a - b == a_out:
            self._only(b_cell, a_cell, b_only)
            self._learn(b_only, a_only)
            return True
        if b - a == b_out:
            self._only(b_cell, a_cell, b_only)
            self._learn(a_only, b_only)
            return True
        return False

    cdef bint _global_rule(self) except -1:
        """The mine count as a number over every unknown cell; True when it proved something."""
        cdef int total = self.unknown_left, left, gap, cell, count, need, i, c
        cdef vector[int] outside, none
        if self.mine_count is None or not total:
            return False
        left = self.mine_count - len(self.mines)
        if not 0 <= left <= total:
            raise InconsistentView("the mine count does not fit the position")
        if left == 0 or left == total:
            for c in range(self.size):
                if self.state[c] == UNKNOWN:
                    outside.push_back(c)
            if left == 0:
                self._learn(outside, none)
            else:
                self._learn(none, outside)
            return True
        gap = total - left  # safe cells among the unknown
        for cell in self.opened:
            count = self.open_count[cell]
            if not count:
                continue
            need = self.need[cell]
            if (need == left or count - need == gap) and count != total:
                self.tick += 1
                for i in range(self.start[cell], self.start[cell + 1]):
                    self.mark[self.around[i]] = self.tick
                for c in range(self.size):
                    if self.state[c] == UNKNOWN and self.mark[c] != self.tick:
                        outside.push_back(c)
                if need == left:
                    self._learn(outside, none)
                else:
                    self._learn(none, outside)
                return True
        return False

    cdef int _mark_safe(self, int cell) except -1:
        cdef int was
        self._check(cell)
        was = self.state[cell]
        if was == SAFE or was == REVEALED:
            return 0
        if was == MINE:
            raise InconsistentView(f"cell {cell} proved both safe and a mine")
        self.state[cell] = SAFE
        self.safe.add(cell)
        self._forget(cell, False)
        return 0

    cdef int _mark_mine(self, int cell) except -1:
        cdef int was
        self._check(cell)
        was = self.state[cell]
        if was == MINE:
            return 0
        if was == SAFE or was == REVEALED:
            raise InconsistentView(f"cell {cell} proved both safe and a mine")
        self.state[cell] = MINE
        self.mines.add(cell)
        self._forget(cell, True)
        return 0

    cdef void _forget(self, int cell, bint mine):
        """``cell`` (unknown until now) is no longer unknown to the numbers around it."""
        cdef int i, other
        self.unknown_left -= 1
        for i in range(self.start[cell], self.start[cell + 1]):
            other = self.around[i]
            if self.state[other] == REVEALED and self.open_count[other]:
                if mine:
                    self.need[other] -= 1
                self.open_count[other] -= 1
                if self.open_count[other]:
                    self._queue(other)
