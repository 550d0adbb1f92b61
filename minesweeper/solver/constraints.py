"""Constraints a view imposes: "exactly k mines among these unknown cells"."""

from __future__ import annotations

from dataclasses import dataclass

from minesweeper.errors import MinesweeperError
from minesweeper.solver.view import View


class InconsistentView(MinesweeperError):
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
    result = []
    neighbours = view.topology.neighbours
    revealed, mines = view.revealed, view.mines
    for cell, count in revealed.items():
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
        if unknown:
            result.append(Constraint(frozenset(unknown), needed, cell))
    return result


def frontier(view: View) -> set[int]:
    """Unknown cells next to at least one revealed cell."""
    neighbours = view.topology.neighbours
    return {other for cell in view.revealed for other in neighbours(cell) if view.is_unknown(other)}
