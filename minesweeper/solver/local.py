"""What each revealed number says on its own: the approximate answer that always fits.

When exact counting cannot fit a position in the time or memory given (a
board of a million cells), `local_estimate` still answers in one pass over
the revealed numbers, in time and memory proportional to the board: a number
``n`` with ``k`` known mines and ``u`` unknown cells around it gives those
cells the density ``(n - k) / u``; each cell takes the mean over its numbers,
and cells next to no number share what is left of the mine count (else the
mean density of the numbers). A number whose density is 0 or 1 proves its
cells safe or mines, so ``safe`` and ``mines`` are certain, if not all there is.
"""

from __future__ import annotations

from collections.abc import Iterator

from minesweeper.solver.constraints import InconsistentView
from minesweeper.solver.view import View


class LocalEstimate:
    """Approximate mine chances of every unknown cell of a view (see the module docstring).

    It answers as `Probabilities` does where an answer is shown (``chance``,
    ``safe``, ``mines``, membership, iteration), with ``layouts`` None (not counted)
    and ``approximate`` True.
    """

    approximate = True
    layouts = None

    def __init__(self, view: View) -> None:
        topology = view.topology
        revealed, known = view.revealed, view.mines
        total: dict[int, float] = {}
        seen: dict[int, int] = {}
        safe: set[int] = set()
        mines: set[int] = set()
        densities = 0.0
        numbers = 0
        for cell, count in revealed.items():
            around = [o for o in topology.neighbours(cell) if o not in revealed]
            unknown = [o for o in around if o not in known]
            need = count - (len(around) - len(unknown))
            if not 0 <= need <= len(unknown):
                raise InconsistentView("the revealed numbers contradict each other")
            if not unknown:
                continue
            density = need / len(unknown)
            densities += density
            numbers += 1
            if need == 0:
                safe.update(unknown)
            elif need == len(unknown):
                mines.update(unknown)
            for other in unknown:
                total[other] = total.get(other, 0.0) + density
                seen[other] = seen.get(other, 0) + 1
        chances = {cell: total[cell] / seen[cell] for cell in total}
        chances.update(dict.fromkeys(safe, 0.0))
        chances.update(dict.fromkeys(mines - safe, 1.0))
        free = [cell for cell in view.unknown() if cell not in chances]
        if view.mines_left is not None:
            left = view.mines_left - sum(chances.values())
            rest = min(1.0, max(0.0, left / len(free))) if free else 0.0
        else:
            rest = densities / numbers if numbers else 0.5
        chances.update(dict.fromkeys(free, rest))
        self._chances = chances
        self.safe = frozenset(safe)
        self.mines = frozenset(mines - safe)

    def chance(self, cell: int) -> float:
        return self._chances[cell]

    def __contains__(self, cell: object) -> bool:
        return cell in self._chances

    def __iter__(self) -> Iterator[int]:
        return iter(self._chances)

    def safest(self) -> int | None:
        """A certain safe cell if there is one, else a cell of the lowest chance."""
        if self.safe:
            return min(self.safe)
        return min(self._chances, key=lambda cell: (self._chances[cell], cell), default=None)
