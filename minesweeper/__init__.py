"""Minesweeper judge, solver and game on any topology of cells.

The core (topologies, `Board`, `Game`, the protocol) knows nothing of the
command line, the terminal UI or the solver.
"""

from minesweeper.board import Board
from minesweeper.errors import InputError, MinesweeperError, TopologyError
from minesweeper.game import Game, State
from minesweeper.topology import TOPOLOGIES, Topology, find_topology

__all__ = [
    "TOPOLOGIES",
    "Board",
    "Game",
    "InputError",
    "MinesweeperError",
    "State",
    "Topology",
    "TopologyError",
    "find_topology",
]
