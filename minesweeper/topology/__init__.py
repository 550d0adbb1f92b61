"""Board shapes as graphs: cell ids, neighbour lists and the printed layout."""

from minesweeper.topology.base import GridTopology, Topology
from minesweeper.topology.graph import GraphTopology
from minesweeper.topology.hex import HexTopology
from minesweeper.topology.parquet import ParquetTopology
from minesweeper.topology.registry import TOPOLOGIES, find_topology
from minesweeper.topology.square import SquareTopology
from minesweeper.topology.tiling import (
    DominoTopology,
    TetrominoTopology,
    TilingTopology,
    TrominoTopology,
    random_tiling,
)
from minesweeper.topology.triangle import TriangleTopology

__all__ = [
    "TOPOLOGIES",
    "DominoTopology",
    "GraphTopology",
    "GridTopology",
    "HexTopology",
    "ParquetTopology",
    "SquareTopology",
    "TetrominoTopology",
    "TilingTopology",
    "Topology",
    "TriangleTopology",
    "TrominoTopology",
    "find_topology",
    "random_tiling",
]
