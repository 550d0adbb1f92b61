"""Herringbone parquet: 2:1 bricks in zigzag rows, alternately lying and standing."""

from __future__ import annotations

import math

from minesweeper.topology.base import GridTopology
from minesweeper.topology.geometry import Geometry, label_point, outline, polygon_geometry

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

    @classmethod
    def span_like(cls, rows: int, cols: int) -> tuple[int, int]:
        """As many bricks, on a floor as wide as it is long for a square board: its zigzag
        rows (``cols`` bricks, ``cols / 2`` squares down and across) and their offsets (2
        squares per row) balance when ``cols`` is about 4 times ``rows`` (9x9: 4 x 20)."""
        half = max(1, round(rows / 2))
        return half, max(1, round(rows * cols / half))

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
        """Bricks of two unit squares (`squares`), turned 45 degrees so that the zigzag
        rows run across: the floor fills a rectangle (about square for a preset's floor,
        `span_like`) instead of a diagonal band in a frame half empty."""
        half = math.sqrt(0.5)

        def turned(point: tuple[float, float]) -> tuple[float, float]:
            x, y = point
            return ((x + y) * half, (y - x) * half)

        pieces = [self.squares(cell) for cell in self.cells()]
        outlines = [[turned(corner) for corner in outline(squares)] for squares in pieces]
        return polygon_geometry(outlines, [turned(label_point(s)) for s in pieces], 0.5)
