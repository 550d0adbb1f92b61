"""`View`: what a player can see of a game, the solver's only input."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from minesweeper.topology.base import Topology


@dataclass(frozen=True)
class View:
    """A position as a player sees it.

    ``revealed`` maps each opened cell to the count it shows; ``mines`` holds
    cells known to be mines (deduced, or given as ``F`` in an analysed
    position); every other cell is unknown. ``mine_count`` is the total number
    of mines on the board when the rules tell it, else None.
    """

    topology: Topology
    revealed: Mapping[int, int]
    mines: frozenset[int] = field(default_factory=frozenset)
    mine_count: int | None = None

    def unknown(self) -> list[int]:
        """Cells neither revealed nor known mines, in id order."""
        revealed, mines = self.revealed, self.mines
        return [c for c in self.topology.cells() if c not in revealed and c not in mines]

    @property
    def mines_left(self) -> int | None:
        """Mines not yet known to be mines (None when the mine count is not told)."""
        return None if self.mine_count is None else self.mine_count - len(self.mines)

    def is_unknown(self, cell: int) -> bool:
        return cell not in self.revealed and cell not in self.mines

    def with_mines(self, mines: Iterable[int]) -> View:
        """The same view with more cells known to be mines."""
        return View(self.topology, self.revealed, self.mines | frozenset(mines), self.mine_count)
