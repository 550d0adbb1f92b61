"""Triangles in rows, alternately pointing up and down."""

from __future__ import annotations

from minesweeper.topology.base import GridTopology
from minesweeper.topology.geometry import (
    TRIANGLE_INNER,
    Geometry,
    polygon_geometry,
    triangle,
    triangle_centre,
)

# (r, c) points up when r + c is even. An up triangle's base lies on the row
# below: it shares that base with (r+1, c) and its two lower corners with
# (r+1, c-2 .. c+2); its apex touches (r-1, c-1 .. c+1). A down triangle is
# the mirror image. Sharing a corner counts, so an inner triangle has 12.
_UP = (
    (-1, -1), (-1, 0), (-1, 1),
    (0, -2), (0, -1), (0, 1), (0, 2),
    (1, -2), (1, -1), (1, 0), (1, 1), (1, 2),
)  # fmt: skip
_DOWN = tuple((-dr, dc) for dr, dc in _UP)
_UP_EDGES = ((0, -1), (0, 1), (1, 0))
_DOWN_EDGES = ((-1, 0), (0, -1), (0, 1))


class TriangleTopology(GridTopology):
    r"""``rows x cols`` triangles; ``(r, c)`` points up when ``r + c`` is even.

    ::

             ______  ______
           /\      /\      /\         up (r + c even):
          /  \ 0,1/  \ 0,3/  \          (r, c±1), (r, c±2),
         / 0,0\  / 0,2\  / 0,4\         (r-1, c-1 .. c+1), (r+1, c-2 .. c+2)
        /______\/______\/______\      down: the mirror image,
        \      /\      /\      /        (r, c±1), (r, c±2),
         \ 1,0/  \ 1,2/  \ 1,4/         (r+1, c-1 .. c+1), (r-1, c-2 .. c+2)
          \  / 1,1\  / 1,3\  /        across an edge: (r, c±1), and
           \/______\/______\/           (r+1, c) up or (r-1, c) down

    Each row alternates up and down; a row meets the next edge to edge.
    An inner triangle has 12 neighbours, 3 of them across an edge.
    """

    name = "triangle"

    def offsets(self, row: int, col: int) -> tuple[tuple[int, int], ...]:
        return _DOWN if (row + col) % 2 else _UP

    def edge_offsets(self, row: int, col: int) -> tuple[tuple[int, int], ...]:
        return _DOWN_EDGES if (row + col) % 2 else _UP_EDGES

    def geometry(self) -> Geometry:
        """Triangles of side 1, as drawn above (`minesweeper.topology.geometry.triangle`)."""
        cells = [divmod(cell, self.cols) for cell in self.cells()]
        return polygon_geometry(
            [triangle(r, c) for r, c in cells],
            [triangle_centre(r, c) for r, c in cells],
            TRIANGLE_INNER,
        )
