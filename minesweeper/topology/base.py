"""The `Topology` abstraction: cells are graph nodes with neighbour lists.

Every rule, the protocol loop and the solver work only through this interface,
so a new shape of board plugs in by subclassing it.
"""

from __future__ import annotations

import functools
import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

from minesweeper.errors import TopologyError
from minesweeper.topology.geometry import Geometry, pieces_geometry


class Topology(ABC):
    """A finite undirected graph of cells with a printed layout.

    Cells are the integers ``0 .. size - 1``. The printed map is a grid of
    ``shape = (rows, cols)`` characters; ``cell_at(r, c)`` names the cell a
    character shows (several characters may show one cell, as in tilings).
    A move names a cell by ``move_arity`` integers (see ``cell_from_move``).
    """

    #: Registry name, used by ``--topology``.
    name: ClassVar[str]
    #: How many integers a protocol move has (``r c`` for grids, ``id`` for graphs).
    move_arity: ClassVar[int] = 2
    #: The text format of its boards (see `minesweeper.protocol`): ``"grid"`` (mine rows),
    #: ``"tiling"`` (mine rows, then piece ids) or ``"graph"`` (node and edge list).
    text_format: ClassVar[str] = "grid"
    #: The share of a preset's mine density (by preset name) that makes a board of this
    #: shape as hard as the square preset it is named after; presets not named keep it.
    preset_density: ClassVar[dict[str, float]] = {}

    @classmethod
    def random(cls, rows: int, cols: int, rng: random.Random) -> Topology:
        """A board of this shape spanning ``rows x cols``, drawn with ``rng`` where it varies.

        Grids ignore ``rng``; tilings lay random pieces; graphs scatter nodes.
        Raises `TopologyError` when no such board exists.
        """
        raise TopologyError(f"{cls.name} boards cannot be generated")

    @classmethod
    def span_like(cls, rows: int, cols: int) -> tuple[int, int]:
        """The span of a board of this shape like a ``rows x cols`` board of squares: about
        as many cells, drawn in about its proportions (presets of other shapes start here;
        the span may still need fitting to one this shape covers)."""
        return rows, cols

    @classmethod
    def cell_count(cls, rows: int, cols: int) -> int:
        """The cells of a board of this shape spanning ``rows x cols``; `TopologyError` when
        there is none. By default one is drawn: shapes whose count is known say it cheaper."""
        return cls.random(rows, cols, random.Random(0)).size

    @property
    @abstractmethod
    def size(self) -> int:
        """Number of cells."""

    @property
    @abstractmethod
    def shape(self) -> tuple[int, int]:
        """Rows and columns of the printed map."""

    @abstractmethod
    def neighbours(self, cell: int) -> Sequence[int]:
        """Cells adjacent to ``cell`` (sharing an edge or a corner), never ``cell`` itself."""

    def edge_neighbours(self, cell: int) -> Sequence[int]:
        """Neighbours sharing a whole edge with ``cell``; by default all of them."""
        return self.neighbours(cell)

    @abstractmethod
    def cell_at(self, row: int, col: int) -> int:
        """The cell shown at printed position ``(row, col)``."""

    def cells(self) -> range:
        """All cell ids."""
        return range(self.size)

    def edges(self) -> list[tuple[int, int]]:
        """Every adjacent pair ``(u, v)`` with ``u < v``, sorted."""
        return [(u, v) for u in self.cells() for v in sorted(self.neighbours(u)) if u < v]

    def cell_from_move(self, values: Sequence[int]) -> int:
        """The cell a protocol move names; raises `TopologyError` when it is off the board."""
        rows, cols = self.shape
        row, col = values
        if not (0 <= row < rows and 0 <= col < cols):
            raise TopologyError(f"({row}, {col}) is outside the {rows}x{cols} board")
        return self.cell_at(row, col)

    def position(self, cell: int) -> tuple[int, int]:
        """A printed position showing ``cell`` (its first in row-major order)."""
        rows, cols = self.shape
        for row in range(rows):
            for col in range(cols):
                if self.cell_at(row, col) == cell:
                    return row, col
        raise TopologyError(f"cell {cell} is not on the board")

    def printed_positions(self, cell: int) -> Sequence[int]:
        """Flat indices ``r * cols + c`` of every printed position showing ``cell``."""
        inverse: list[list[int]] | None = self.__dict__.get("_printed")
        if inverse is None:
            rows, cols = self.shape
            inverse = [[] for _ in range(self.size)]
            for index in range(rows * cols):
                inverse[self.cell_at(*divmod(index, cols))].append(index)
            self.__dict__["_printed"] = inverse
        return inverse[cell]

    def move_of(self, cell: int) -> tuple[int, ...]:
        """The protocol move that names ``cell``; the inverse of ``cell_from_move``."""
        return self.position(cell)

    def geometry(self) -> Geometry:
        """Each cell's shape in the plane (see `minesweeper.topology.geometry`).

        By default each printed character is a unit square of the cell it shows, so a
        cell is the piece its characters make; shapes that are not drawn that way
        (hexagons, triangles, graphs...) override this.
        """
        cols = self.shape[1]
        return pieces_geometry(
            [
                [divmod(index, cols) for index in self.printed_positions(cell)]
                for cell in self.cells()
            ]
        )

    def __repr__(self) -> str:
        rows, cols = self.shape
        return f"<{type(self).__name__} {rows}x{cols}, {self.size} cells>"


#: Largest grid whose neighbour lists are memoised.
_MEMO_LIMIT = 1 << 16


@functools.cache
def _flat_offsets(
    offsets: tuple[tuple[int, int], ...], cols: int
) -> tuple[int, int, tuple[int, ...]]:
    """How far ``offsets`` reach in rows and columns, and their flat index deltas."""
    reach_r = max(abs(dr) for dr, _ in offsets)
    reach_c = max(abs(dc) for _, dc in offsets)
    return reach_r, reach_c, tuple(dr * cols + dc for dr, dc in offsets)


class GridTopology(Topology):
    """A rows x cols grid with one cell per printed character, cell id ``r * cols + c``.

    Subclasses give the neighbour offsets of a position; the rest is shared.
    """

    def __init__(self, rows: int, cols: int) -> None:
        if rows < 1 or cols < 1:
            raise TopologyError(f"a board needs at least 1 row and 1 column, got {rows}x{cols}")
        self.rows = rows
        self.cols = cols
        # Neighbour lists are memoised on boards a solver plays over and over; on huge
        # boards a million cached tuples cost more (memory, garbage-collector passes)
        # than recomputing the few visits need.
        self._table: list[tuple[int, ...] | None] | None = (
            [None] * (rows * cols) if rows * cols <= _MEMO_LIMIT else None
        )
        self._flat: dict[int, tuple[Any, ...]] = {}

    @classmethod
    def random(cls, rows: int, cols: int, rng: random.Random) -> GridTopology:
        return cls(rows, cols)

    @classmethod
    def cell_count(cls, rows: int, cols: int) -> int:
        if rows < 1 or cols < 1:
            raise TopologyError(f"a board needs at least 1 row and 1 column, got {rows}x{cols}")
        return rows * cols

    @property
    def size(self) -> int:
        return self.rows * self.cols

    @property
    def shape(self) -> tuple[int, int]:
        return self.rows, self.cols

    def cell_at(self, row: int, col: int) -> int:
        return row * self.cols + col

    def position(self, cell: int) -> tuple[int, int]:
        return divmod(cell, self.cols)

    def printed_positions(self, cell: int) -> tuple[int]:
        return (cell,)

    @abstractmethod
    def offsets(self, row: int, col: int) -> Sequence[tuple[int, int]]:
        """Neighbour offsets ``(dr, dc)`` of position ``(row, col)``."""

    def edge_offsets(self, row: int, col: int) -> Sequence[tuple[int, int]]:
        """Offsets of the neighbours that share an edge; all of them by default."""
        return self.offsets(row, col)

    def _resolve(self, cell: int, offsets: Sequence[tuple[int, int]]) -> tuple[int, ...]:
        cols = self.cols
        # Keyed by identity: subclasses return the same constant tuples, and hashing
        # them on every call would dominate a million-cell flood fill.
        entry = self._flat.get(id(offsets))
        if entry is None or entry[0] is not offsets:
            entry = self._flat[id(offsets)] = (offsets, *_flat_offsets(tuple(offsets), cols))
        _, reach_r, reach_c, deltas = entry
        row, col = divmod(cell, cols)
        if reach_r <= row < self.rows - reach_r and reach_c <= col < cols - reach_c:
            # Far from the border every offset lands on the board: plain index arithmetic.
            return tuple([cell + delta for delta in deltas])
        rows = self.rows
        return tuple(
            (row + dr) * cols + col + dc
            for dr, dc in offsets
            if 0 <= row + dr < rows and 0 <= col + dc < cols
        )

    def neighbours(self, cell: int) -> tuple[int, ...]:
        table = self._table
        if table is not None:
            found = table[cell]
            if found is not None:
                return found
        found = self._resolve(cell, self.offsets(*divmod(cell, self.cols)))
        if table is not None:
            table[cell] = found
        return found

    def edge_neighbours(self, cell: int) -> tuple[int, ...]:
        row, col = divmod(cell, self.cols)
        return self._resolve(cell, self.edge_offsets(row, col))

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.shape == self.shape

    def __hash__(self) -> int:
        return hash((type(self), self.rows, self.cols))
