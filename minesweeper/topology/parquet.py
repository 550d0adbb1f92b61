"""Herringbone parquet: 2:1 bricks in zigzag rows, alternately lying and standing."""

from __future__ import annotations

from minesweeper.topology.base import GridTopology
from minesweeper.topology.geometry import Geometry, pieces_geometry

# Each printed row is one zigzag run of bricks: even columns lie flat, odd
# columns stand. Exactly three bricks meet at every corner, so whatever
# touches a brick shares an edge with it: six neighbours, like hexagons,
# but the rows link differently and the board's rim is ragged.
_SAME_ROW = ((0, -2), (0, -1), (0, 1), (0, 2))
_LYING = ((-1, -1), (-1, 1), *_SAME_ROW)
_STANDING = (*_SAME_ROW, (1, -1), (1, 1))


class ParquetTopology(GridTopology):
    """``rows x cols`` bricks of a herringbone floor (a parquet of 2:1 rectangles).

    Row ``r`` is one zigzag run down and to the right: ``(r, c)`` lies flat for
    even ``c`` and stands for odd ``c``; row ``r + 1`` runs beside it, two
    squares lower and two to the left. Drawn in unit squares, 2 rows x 6::

                +-------+
                |0,0    |
                +---+---+---+
                |0,1|0,2    |
        +-------+   +---+---+---+
        |1,0    |   |0,3|0,4    |
        +---+---+---+   +---+---+
        |1,1|1,2    |   |0,5|
        |   +---+---+---+   |
        |   |1,3|1,4    |   |
        +---+   +---+---+---+
            |   |1,5|
            +---+   |
                |   |
                +---+

    Neighbours of ``(r, c)``: ``(r, c±1)``, ``(r, c±2)``, and ``(r-1, c±1)``
    when ``c`` is even (lying) or ``(r+1, c±1)`` when ``c`` is odd (standing).
    All six share an edge: three bricks meet at every corner.
    """

    name = "parquet"

    def offsets(self, row: int, col: int) -> tuple[tuple[int, int], ...]:
        return _STANDING if col % 2 else _LYING

    def squares(self, cell: int) -> tuple[tuple[int, int], tuple[int, int]]:
        """The two unit squares ``(y, x)`` of brick ``cell`` on the floor drawn above.

        The lying brick ``(r, 2k)`` covers ``(y, x)`` and ``(y, x + 1)`` with
        ``y = k + 2r``, ``x = k - 2r + 2(rows - 1)``; the standing brick ``(r, 2k + 1)``
        covers ``(y + 1, x)`` and ``(y + 2, x)``. Each row runs two squares lower and
        two to the left of the one before.
        """
        row, col = divmod(cell, self.cols)
        k = col // 2
        y, x = k + 2 * row, k - 2 * row + 2 * (self.rows - 1)
        if col % 2 == 0:
            return (y, x), (y, x + 1)
        return (y + 1, x), (y + 2, x)

    def geometry(self) -> Geometry:
        """Bricks of two unit squares (`squares`)."""
        return pieces_geometry([self.squares(cell) for cell in self.cells()])
