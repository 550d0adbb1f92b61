"""Board shapes as graphs: cell ids, neighbour lists and the printed layout."""

from minesweeper.topology.base import GridTopology, Topology
from minesweeper.topology.registry import TOPOLOGIES, find_topology
from minesweeper.topology.square import SquareTopology

__all__ = ["TOPOLOGIES", "GridTopology", "SquareTopology", "Topology", "find_topology"]
