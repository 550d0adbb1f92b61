"""`Part`: one group of rules that share cells, counted: the cells deduction settles in
it, and a `programme.Programme` per component of the rest. A part depends on its rules
alone, so one counted serves every position that has the same group (`cached_part`,
`PartCache`: the counts a caller keeps across related positions, the moves of one game
or the outcomes of a look-ahead, and the outcomes of opening a cell no rule touches).
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping, Sequence
from typing import Any

from minesweeper.solver.counting import engine
from minesweeper.solver.counting import programme as placement  # its MANY_STARTS_ABOVE
from minesweeper.solver.counting.answer import Probabilities
from minesweeper.solver.counting.programme import CountedRule, Programme, Share, Super, TooLarge
from minesweeper.solver.counting.system import BYTES_PER_COUNT, Budget, Cell, Rule, settle
from minesweeper.solver.unionfind import UnionFind

#: Components with more cells than this have what deduction proves settled
#: first: those cells leave the count, and what is left often falls apart.
SETTLE_ABOVE = 64


def unsettled(tracked: frozenset[Cell], settled: dict[Cell, int]) -> frozenset[Cell]:
    """The tracked cells a count places (in the order its supercell of them takes)."""
    return tracked - settled.keys()


class Part:
    """One connected group of constraints, counted.

    Large groups, and any untracked group that could not be counted exactly,
    first have what deduction proves settled (``settled``: 1 for a mine, 0 for
    a safe cell); the rest splits into components of supercells, each counted
    by a `Programme`. Depends on the constraints alone, so a part can serve
    every position that has the same group. ``tracked``: cells whose number of
    mines is followed rather than required, one answer per number (`outcome`).
    ``loose``: cells an approximate count relaxed of every constraint.
    """

    def __init__(
        self, system: list[Rule], budget: Budget, tracked: frozenset[Cell] | None = None
    ) -> None:
        settled: dict[Cell, int] = {}
        cells = frozenset().union(*(members for members, _ in system))
        large = len(cells | tracked if tracked else cells) > SETTLE_ABOVE
        if large:
            system, settled = settle(system, budget.late_check())
        if tracked is not None:
            # Count the tracked cells' mines instead of requiring a number of them.
            self.offset = sum(settled.get(cell, 0) for cell in tracked)
            tracked = unsettled(tracked, settled)
        counted: list[tuple[frozenset[Cell], int | None]] = [*system]
        if tracked:
            counted.append((tracked, None))  # its mines are counted, not required
        self._count(counted, settled, budget, len(counted) - 1 if tracked else None)
        if self.approximate and not large and tracked is None:
            # What deduction proves stays certain, however rough the count.
            system, settled = settle(system, budget.late_check())
            if settled:
                self._count(system, settled, budget)

    def _count(
        self,
        system: Sequence[CountedRule],
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
        pieces = components(supers) if settled else [range(len(supers))]
        self.programmes: list[Programme] = []
        self.loose: list[Cell] = []  # cells relaxed of every constraint: free cells now
        for piece in pieces:
            counted, loose = programmes([supers[i] for i in piece], system, budget, tracked)
            self.programmes += counted
            self.loose += loose
        self.approximate = bool(self.loose) or any(p.dropped for p in self.programmes)
        # Settled mines count as one more component with a single layout.
        mines = sum(settled.values())
        self.settled_polys = [[0] * mines + [1]] if mines else []
        self.polys = self.settled_polys + [programme.poly for programme in self.programmes]

    def _count_compiled(self, system: Sequence[CountedRule], budget: Budget) -> bool:
        """`_count` of a group that stays whole, in one kernel call (`_kernel.part`: the
        same supercells, order and count), if the kernel takes it."""
        kernel = engine.kernel
        if kernel is None:
            return False
        cap = budget.cap()
        needs = [len(members) if mines is None else mines for members, mines in system]
        tracked = -1 if self.tracked is None else self.tracked
        found = kernel.part(
            [members for members, _ in system],
            needs,
            tracked,
            cap,
            cap * BYTES_PER_COUNT,
            placement.MANY_STARTS_ABOVE,  # read here, so that a test may set it
        )
        if found is None:
            return False
        supers, placed, tracking, counted = found
        counted_by = (placed, tracking, counted)
        programme = Programme(supers, system, budget, self.tracked, counted=counted_by)
        self.programmes = [programme]
        self.loose = []
        self.approximate = False
        self.settled_polys = []
        self.polys = [programme.poly]
        return True

    def outcome(self, mines: int) -> Part | Outcome | None:
        """A tracked part as if ``mines`` of its tracked cells were mines (None: no layout fits)."""
        end = mines - self.offset
        if self.tracked is None:
            return self if end == 0 else None
        if not any(p.ends((end,)) for p in self.programmes if p.tracking):
            return None
        return Outcome(self, (end,))


class Outcome:
    """A tracked `Part` restricted to the layouts whose tracked sum ends in ``end``."""

    def __init__(self, part: Part, end: tuple[int, ...]) -> None:
        self.settled = part.settled
        self.loose = part.loose
        self.approximate = False
        self.programmes = [Ending(p, end) if p.tracking else p for p in part.programmes]
        self.settled_polys = part.settled_polys
        self.polys = self.settled_polys + [programme.poly for programme in self.programmes]


class Ending:
    """A tracking `Programme`'s layouts that end in state ``end``."""

    def __init__(self, programme: Programme, end: tuple[int, ...]) -> None:
        self.programme = programme
        self.end = end
        self.poly = programme.poly_at(end)

    def shares(
        self, rest: list[int], late: Callable[[], bool] | None = None
    ) -> tuple[list[Share], bool]:
        """`Programme.shares` of these layouts."""
        return self.programme.shares(rest, late, self.end)


def cached_part(
    system: list[Rule],
    budget: Budget,
    cache: MutableMapping[frozenset[Rule], Part] | None,
    marker: Rule | None = None,
) -> Part:
    """The counted part of ``system`` from ``cache``, else counted (and kept if exact).
    ``marker``, one of ``system``'s rules, ``(cells, -1)``: those cells' mines are tracked
    (`Part`'s ``tracked``), not required (no rule needs -1 mines: the key tells them apart)."""
    key = frozenset(system)
    part = cache.get(key) if cache is not None else None
    if part is None:
        if marker is None:
            part = Part(system, budget)
        else:
            part = Part([rule for rule in system if rule is not marker], budget, marker[0])
        if cache is not None and not part.approximate:
            cache[key] = part
    return part


def components(supers: list[Super]) -> list[list[int]]:
    """Supercell indices grouped by shared constraints."""
    sets: UnionFind[int] = UnionFind()
    owner: dict[int, int] = {}
    for i, (sig, _) in enumerate(supers):
        for rule in sig:
            sets.union(i, owner.setdefault(rule, i))
    return sets.groups(range(len(supers)))


def programmes(
    supers: list[Super],
    rules: Sequence[CountedRule],
    budget: Budget,
    tracked: int | None = None,
) -> tuple[list[Programme], list[Cell]]:
    """The programmes that count one component: one, or one per piece it falls into,
    and the cells relaxed of every constraint (free cells now: see `combining.combine`).

    A component too wide to count has the constraints open at its widest
    point relaxed; what is left often falls apart, and the pieces are
    counted apart: one programme over them all would carry the mine counts of
    the pieces before along every later one (on a component of thousands of
    cells, seconds instead of milliseconds for the same relaxed count).
    """
    found: list[Programme] = []
    loose: list[Cell] = []
    pending: list[tuple[list[Super], frozenset[int]]] = [(supers, frozenset())]
    while pending:
        piece, dropped = pending.pop()
        if len(piece) == 1 and not piece[0][0]:
            loose += piece[0][1]
            continue
        try:
            found.append(Programme(piece, rules, budget, tracked, dropped))
        except TooLarge as error:
            dropped = dropped | error.rules
            # Supercells left with the same constraints merge (those left with none: one).
            merged: dict[tuple[int, ...], list[Cell]] = {}
            for sig, cells in piece:
                merged.setdefault(tuple(r for r in sig if r not in dropped), []).extend(cells)
            relaxed = list(merged.items())
            pieces = components(relaxed)
            pending += [([relaxed[i] for i in p], dropped) for p in reversed(pieces)]
    return found, loose


class LoneOutcomes:
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
        """Keep ``outcomes``, those of a cell whose neighbours are ``near`` (``free``: the
        position's free cells, as the answers' block of them)."""
        self.outcomes, self._free, self._near = outcomes, free, near

    def moved(self, free: Sequence[Cell], near: frozenset[Cell]) -> dict[int, Probabilities]:
        """The kept outcomes for another ``near`` (``free``: this position's free cells, as
        `solve_outcomes` has them): ``near``'s block is the supercell a count makes of it
        (its cells in the order a count gives them), and the free block holds ``free``,
        as `combining.combine_outcomes` builds it."""
        assert self.outcomes is not None
        if not self.outcomes:  # no layout allows opening it (a certain mine): nor this one
            return {}
        first = next(iter(self.outcomes.values()))
        near_cells = list(unsettled(near, {}))
        blocks: list[tuple[Sequence[Cell], int]] = []
        for members, group in first.blocks:
            if members is self._free:
                members = free
            elif members and members[0] in self._near:
                members = near_cells
            blocks.append((members, group))
        return {count: result.regrouped(blocks) for count, result in self.outcomes.items()}


class PartCache(dict[frozenset[Rule], Part]):
    """The counted groups a caller keeps across related positions (one game's), by
    system (`solve`'s ``cache``), and the outcomes of each position's lone cells
    (`LoneOutcomes`; a plain dict given as ``cache`` keeps only the groups)."""

    #: How many positions' lone outcomes are kept (they are emptied past this).
    LONE_KEPT = 64

    def __init__(self) -> None:
        super().__init__()
        self._lone: dict[tuple[Any, ...], LoneOutcomes] = {}

    def lone_outcomes(self, key: tuple[Any, ...]) -> LoneOutcomes:
        """The `LoneOutcomes` for ``key`` (the count's every input but ``near``'s cells),
        a new one the first time."""
        found = self._lone.get(key)
        if found is None:
            if len(self._lone) >= self.LONE_KEPT:
                self._lone.clear()
            found = self._lone[key] = LoneOutcomes()
        return found

    def clear(self) -> None:
        super().clear()
        self._lone.clear()
