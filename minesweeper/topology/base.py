"""The `Topology` abstraction: cells are graph nodes with neighbour lists.

Every rule, the protocol loop and the solver work only through this interface,
so a new shape of board plugs in by subclassing it.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import ClassVar

from minesweeper.errors import TopologyError


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

    def move_of(self, cell: int) -> tuple[int, ...]:
        """The protocol move that names ``cell``; the inverse of ``cell_from_move``."""
        return self.position(cell)

    def __repr__(self) -> str:
        rows, cols = self.shape
        return f"<{type(self).__name__} {rows}x{cols}, {self.size} cells>"


class GridTopology(Topology):
    """A rows x cols grid with one cell per printed character, cell id ``r * cols + c``.

    Subclasses give the neighbour offsets of a position; the rest is shared.
    """

    def __init__(self, rows: int, cols: int) -> None:
        if rows < 1 or cols < 1:
            raise TopologyError(f"a board needs at least 1 row and 1 column, got {rows}x{cols}")
        self.rows = rows
        self.cols = cols
        self._cache: dict[int, tuple[int, ...]] = {}

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

    @abstractmethod
    def offsets(self, row: int, col: int) -> Sequence[tuple[int, int]]:
        """Neighbour offsets ``(dr, dc)`` of position ``(row, col)``."""

    def edge_offsets(self, row: int, col: int) -> Sequence[tuple[int, int]]:
        """Offsets of the neighbours that share an edge; all of them by default."""
        return self.offsets(row, col)

    def _resolve(self, cell: int, offsets: Sequence[tuple[int, int]]) -> tuple[int, ...]:
        row, col = divmod(cell, self.cols)
        rows, cols = self.rows, self.cols
        return tuple(
            (row + dr) * cols + col + dc
            for dr, dc in offsets
            if 0 <= row + dr < rows and 0 <= col + dc < cols
        )

    def neighbours(self, cell: int) -> tuple[int, ...]:
        found = self._cache.get(cell)
        if found is None:
            row, col = divmod(cell, self.cols)
            found = self._cache[cell] = self._resolve(cell, self.offsets(row, col))
        return found

    def edge_neighbours(self, cell: int) -> tuple[int, ...]:
        row, col = divmod(cell, self.cols)
        return self._resolve(cell, self.edge_offsets(row, col))

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.shape == self.shape  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash((type(self), self.rows, self.cols))
