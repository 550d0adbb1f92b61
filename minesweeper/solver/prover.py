"""Provers by name: ``subset`` (local rules) and ``exact`` (every layout considered).

A prover is fed the revealed cells one at a time (``reveal(cell, count)``) and
answers ``prove()`` with the cells that are certain; see `SubsetProver`.
"""

from __future__ import annotations

from minesweeper.errors import UsageError
from minesweeper.solver.constraints import Constraint, Deduction
from minesweeper.solver.probability import MineCount, solve
from minesweeper.solver.subset import SubsetProver


class ExactProver(SubsetProver):
    """A cell is proved when it is safe (or a mine) in every layout that fits what is seen.

    The subset rules run first, being cheap; when they are stuck the exact
    probability engine decides, with the mine count when known. Both are sound.
    It stops as soon as some cell is proved safe, since a game needs only
    progress: a proof with safe cells may leave out cells the engine would also
    prove; a proof without one is complete (no cell is certainly safe, and every
    certain mine is in it).
    """

    name = "exact"

    def prove(self) -> Deduction:
        mines_before = set(self.mines)
        while True:
            if super().prove().safe:
                break
            unknown = self.unknown()
            if not unknown:
                break
            rules = [Constraint(cells, need, -1) for cells, need in self.constraints()]
            left = None if self.mine_count is None else self.mine_count - len(self.mines)
            known_safe = len(self.revealed) + len(self.safe)
            result = solve(
                rules, unknown, MineCount(left, known_mines=len(self.mines), known_safe=known_safe)
            )
            if not result.safe and not result.mines:
                break
            self.learn(safe=result.safe, mines=result.mines)
        return Deduction(frozenset(self.safe), frozenset(self.mines - mines_before))


#: Every prover class by its ``--prover`` name.
PROVERS: dict[str, type[SubsetProver]] = {cls.name: cls for cls in (SubsetProver, ExactProver)}


def find_prover(name: str) -> type[SubsetProver]:
    """The prover class called ``name``."""
    try:
        return PROVERS[name.lower()]
    except KeyError:
        known = ", ".join(PROVERS)
        raise UsageError(f"unknown prover {name!r} (known: {known})") from None
