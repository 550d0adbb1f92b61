"""Registry of topologies by name, in the manner of python-chess's ``VARIANTS``."""

from __future__ import annotations

from minesweeper.errors import TopologyError
from minesweeper.limits import quote
from minesweeper.topology.base import Topology
from minesweeper.topology.graph import GraphTopology
from minesweeper.topology.hex import HexTopology
from minesweeper.topology.parquet import ParquetTopology
from minesweeper.topology.square import SquareTopology
from minesweeper.topology.tiling import DominoTopology, TetrominoTopology, TrominoTopology
from minesweeper.topology.triangle import TriangleTopology

#: Every topology class, by its ``--topology`` name.
TOPOLOGIES: dict[str, type[Topology]] = {
    cls.name: cls
    for cls in (
        SquareTopology,
        HexTopology,
        TriangleTopology,
        ParquetTopology,
        DominoTopology,
        TrominoTopology,
        TetrominoTopology,
        GraphTopology,
    )
}


def find_topology(name: str) -> type[Topology]:
    """The topology class called ``name``; raises `TopologyError` listing the known names."""
    try:
        return TOPOLOGIES[name.lower()]
    except KeyError:
        known = ", ".join(sorted(TOPOLOGIES))
        raise TopologyError(f"unknown topology {quote(name)} (known: {known})") from None
