"""`Board`: a topology with mines laid on it, and each cell's count."""

from __future__ import annotations

from collections.abc import Iterable

from minesweeper.errors import RulesError
from minesweeper.topology.base import Topology


class Board:
    """An immutable mine layout on a topology.

    ``count(cell)`` is the number of mines adjacent to ``cell``.
    """

    __slots__ = ("counts", "mines", "topology")

    def __init__(self, topology: Topology, mines: Iterable[int]) -> None:
        self.topology = topology
        self.mines = frozenset(mines)
        size = topology.size
        if any(not 0 <= cell < size for cell in self.mines):
            raise RulesError("a mine lies outside the board")
        counts = [0] * size
        # Only the mines' neighbourhoods are touched: cheap on big sparse boards.
        for mine in self.mines:
            for cell in topology.neighbours(mine):
                counts[cell] += 1
        #: ``counts[cell]``: mines adjacent to ``cell`` (read-only by convention).
        self.counts: list[int] = counts

    @property
    def size(self) -> int:
        return self.topology.size

    @property
    def mine_count(self) -> int:
        return len(self.mines)

    @property
    def safe_count(self) -> int:
        return self.topology.size - len(self.mines)

    def is_mine(self, cell: int) -> bool:
        return cell in self.mines

    def count(self, cell: int) -> int:
        """Mines adjacent to ``cell``."""
        return self.counts[cell]

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Board)
            and other.topology == self.topology
            and other.mines == self.mines
        )

    def __hash__(self) -> int:
        return hash((self.topology, self.mines))

    def __repr__(self) -> str:
        return f"<Board {self.topology!r}, {len(self.mines)} mines>"
