"""The classic square grid: 8 neighbours, diagonals included."""

from __future__ import annotations

from minesweeper.topology.base import GridTopology
from minesweeper.topology.geometry import Geometry, polygon_geometry, square

_ALL = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))
_EDGE = ((-1, 0), (0, -1), (0, 1), (1, 0))


class SquareTopology(GridTopology):
    """``rows x cols`` squares; a cell touches the 8 around it.

    ::

        +---+---+---+
        | a | b | c |      the neighbours of x are a..h;
        +---+---+---+      b, d, e, g share an edge with it,
        | d | x | e |      a, c, f, h only a corner.
        +---+---+---+
        | f | g | h |
        +---+---+---+
    """

    name = "square"

    def offsets(self, row: int, col: int) -> tuple[tuple[int, int], ...]:
        return _ALL

    def edge_offsets(self, row: int, col: int) -> tuple[tuple[int, int], ...]:
        return _EDGE

    def geometry(self) -> Geometry:
        """Unit squares, ``(row, col)`` spanning ``x`` from ``col`` and ``y`` from ``row``."""
        cells = [divmod(cell, self.cols) for cell in self.cells()]
        return polygon_geometry(
            [square(r, c) for r, c in cells], [(c + 0.5, r + 0.5) for r, c in cells], 0.5
        )
