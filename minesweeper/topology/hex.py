"""Hexagons, pointy-top, odd rows shifted right by half a cell ("odd-r")."""

from __future__ import annotations

from minesweeper.topology.base import GridTopology
from minesweeper.topology.geometry import Geometry, hexagon, hexagon_centre, polygon_geometry

# Hexagons meet only edge to edge, so all six neighbours share an edge.
_EVEN_ROW = ((-1, -1), (-1, 0), (0, -1), (0, 1), (1, -1), (1, 0))
_ODD_ROW = ((-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0), (1, 1))


class HexTopology(GridTopology):
    r"""``rows x cols`` pointy-top hexagons; odd rows sit half a cell to the right.

    ::

         / \ / \ / \
        |0,0|0,1|0,2|          (r, c) touches (r, c-1) and (r, c+1);
         \ / \ / \ / \         on an even row also (r-1, c-1), (r-1, c),
          |1,0|1,1|1,2|        (r+1, c-1), (r+1, c);
         / \ / \ / \ /         on an odd row (r-1, c), (r-1, c+1),
        |2,0|2,1|2,2|          (r+1, c), (r+1, c+1).
         \ / \ / \ /

    Every neighbour shares an edge; an inner hexagon has 6.
    """

    name = "hex"

    def offsets(self, row: int, col: int) -> tuple[tuple[int, int], ...]:
        return _ODD_ROW if row % 2 else _EVEN_ROW

    def geometry(self) -> Geometry:
        """Hexagons one unit wide, as drawn above (`minesweeper.topology.geometry.hexagon`)."""
        cells = [divmod(cell, self.cols) for cell in self.cells()]
        return polygon_geometry(
            [hexagon(r, c) for r, c in cells], [hexagon_centre(r, c) for r, c in cells], 0.5
        )
