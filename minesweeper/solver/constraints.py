"""Constraints a view imposes: "exactly k mines among these unknown cells"."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from minesweeper.errors import SolverError
from minesweeper.solver.view import View
from minesweeper.topology.base import Topology


class InconsistentView(SolverError):
    """No mine layout agrees with what the view shows."""


@dataclass(frozen=True)
class Constraint:
    """Exactly ``mines`` of ``cells`` (unknown cells) are mines; ``source`` is the revealed cell."""

    cells: frozenset[int]
    mines: int
    source: int


def constraints(view: View) -> list[Constraint]:
    """One constraint per revealed cell that still touches unknown cells.

    Raises `InconsistentView` when a number is already over- or under-filled.
    """
    return [rule for rule in map(_constraint_maker(view), view.revealed.items()) if rule]


def _constraint_maker(view: View) -> Callable[[tuple[int, int]], Constraint | None]:
    """A function from a revealed ``(cell, count)`` to its constraint (None: no unknown cell)."""
    neighbours = view.topology.neighbours
    revealed, mines = view.revealed, view.mines

    def make(item: tuple[int, int]) -> Constraint | None:
        cell, count = item
        unknown = []
        known = 0
        for other in neighbours(cell):
            if other in revealed:  # the usual case first
                continue
            if other in mines:
                known += 1
            else:
                unknown.append(other)
        needed = count - known
        if not 0 <= needed <= len(unknown):
            raise InconsistentView(
                f"cell {view.topology.position(cell)} shows {count} but "
                f"{known} known mine(s) and {len(unknown)} unknown cell(s) surround it"
            )
        return Constraint(frozenset(unknown), needed, cell) if unknown else None

    return make


class ConstraintTracker:
    """`constraints` of a growing view, recomputed only around the cells that changed.

    A game's views only gain revealed cells and known mines; each call rebuilds
    the constraints of the revealed cells next to what is new and keeps the
    others. Any other view (another board, fewer cells, a count changed) is
    read from scratch. The answer is always what `constraints` gives.
    """

    def __init__(self) -> None:
        self._topology: Topology | None = None
        self._revealed: dict[int, int] = {}
        self._mines: frozenset[int] = frozenset()
        self._rules: dict[int, Constraint] = {}
        self._answer: list[Constraint] = []

    def __call__(self, view: View) -> list[Constraint]:
        """The constraints of ``view``, as `constraints` gives them."""
        revealed, mines = view.revealed, view.mines
        if not self._extends(view):
            self._topology = view.topology
            self._revealed, self._mines, self._rules = {}, frozenset(), {}
            changed: Iterable[int] = list(revealed)
        elif len(revealed) == len(self._revealed) and len(mines) == len(self._mines):
            return self._answer
        else:
            changed = self._around(view)
        rules = self._rules
        try:
            _rebuild(rules, view, changed)
        except InconsistentView:
            self._topology = None  # half updated: the next view is read afresh
            raise
        self._revealed = dict(revealed)
        self._mines = mines
        self._answer = list(filter(None, map(rules.get, revealed)))
        return self._answer

    def extended(self, view: View) -> list[Constraint]:
        """The constraints of ``view``, as `constraints` gives them, without keeping ``view``.

        For a position one move ahead (a number shown, mines proved), read from
        the last view's; the next call still starts from that last view.
        """
        if not self._extends(view):
            return constraints(view)
        rules = dict(self._rules)
        _rebuild(rules, view, self._around(view))
        return list(filter(None, map(rules.get, view.revealed)))

    def _extends(self, view: View) -> bool:
        """Whether ``view`` is the last view with only more revealed cells and mines."""
        revealed, seen = view.revealed, self._revealed
        return (
            view.topology is self._topology
            and len(revealed) >= len(seen)
            and self._mines <= view.mines
            and seen.items() <= revealed.items()
        )

    def _around(self, view: View) -> set[int]:
        """The revealed cells whose constraints change from the last view to ``view``."""
        revealed, seen = view.revealed, self._revealed
        neighbours = view.topology.neighbours
        opened = revealed.keys() - seen.keys()
        around = set(opened)
        for cell in [*opened, *(view.mines - self._mines)]:
            around.update(neighbours(cell))
        return around & revealed.keys()


def _rebuild(rules: dict[int, Constraint], view: View, cells: Iterable[int]) -> None:
    """Recompute in ``rules`` the constraints of the revealed ``cells`` of ``view``."""
    make = _constraint_maker(view)
    revealed = view.revealed
    neighbours = view.topology.neighbours
    opened = revealed.__contains__
    for cell in cells:
        count = revealed[cell]
        if not count and all(map(opened, neighbours(cell))):
            rules.pop(cell, None)  # inside an opening: no constraint (the usual case)
            continue
        rule = make((cell, count))
        if rule is None:
            rules.pop(cell, None)
        else:
            rules[cell] = rule


@dataclass(frozen=True)
class Opening:
    """The constraints once ``cell`` is opened, before its number is known.

    ``rules`` are the earlier ones without ``cell``; the number ``shown`` adds
    `rule` over ``around``, the unknown cells next to ``cell``.
    """

    cell: int
    rules: list[Constraint]
    around: frozenset[int]
    known: int  # mines already known next to ``cell``

    @classmethod
    def of(cls, view: View, rules: Sequence[Constraint], cell: int) -> Opening:
        """Opening ``cell`` of ``view``, whose constraints are ``rules``."""
        neighbours = view.topology.neighbours(cell)
        kept = []
        for r in rules:
            if cell not in r.cells:
                kept.append(r)
            elif len(r.cells) > 1:  # a rule of ``cell`` alone goes
                kept.append(Constraint(r.cells - {cell}, r.mines, r.source))
        around = frozenset(o for o in neighbours if view.is_unknown(o))
        known = sum(1 for o in neighbours if o in view.mines)
        return cls(cell, kept, around, known)

    @property
    def numbers(self) -> range:
        """The numbers ``cell`` could show: its known mines plus 0 .. its unknown neighbours."""
        return range(self.known, self.known + len(self.around) + 1)

    def rule(self, shown: int) -> Constraint:
        """The constraint the number ``shown`` adds (meaningful only when ``around``)."""
        return Constraint(self.around, shown - self.known, self.cell)

    def after(self, shown: int) -> list[Constraint]:
        """Every constraint once ``cell`` shows ``shown``."""
        return [*self.rules, self.rule(shown)] if self.around else list(self.rules)


def frontier(view: View) -> set[int]:
    """Unknown cells next to at least one revealed cell."""
    neighbours = view.topology.neighbours
    return {other for cell in view.revealed for other in neighbours(cell) if view.is_unknown(other)}


@dataclass(frozen=True)
class Deduction:
    """What the numbers prove: cells safe (not yet revealed) and cells that are mines; the
    answer of every prover (`gauss`, `subset`, `prover`)."""

    safe: frozenset[int] = field(default_factory=frozenset)
    mines: frozenset[int] = field(default_factory=frozenset)

    def __bool__(self) -> bool:
        return bool(self.safe or self.mines)
