"""Which drawing each topology gets (the drawings: `minesweeper.tui.layout` and, for graphs,
`minesweeper.tui.graph_layout`, which builds on it)."""

from __future__ import annotations

from collections.abc import Callable

from minesweeper.topology.base import Topology
from minesweeper.tui.graph_layout import graph_layout
from minesweeper.tui.layout import (
    Layout,
    bordered_layout,
    hex_layout,
    parquet_raster,
    printed_raster,
    shaded_layout,
    square_layout,
    triangle_layout,
)

Builder = Callable[[Topology, bool], Layout]

#: Special drawings by topology name; others get `bordered_layout` of their printed map.
BUILDERS: dict[str, Builder] = {
    "square": square_layout,
    "hex": hex_layout,
    "triangle": triangle_layout,
    "parquet": lambda topology, wide: shaded_layout(parquet_raster(topology), 2 if wide else 1),
    "graph": graph_layout,
}


def build_layout(topology: Topology, wide: bool = True) -> Layout:
    """The drawing of ``topology``; ``wide`` gives roomier cells when the screen allows."""
    builder = BUILDERS.get(topology.name)
    if builder is not None:
        return builder(topology, wide)
    return bordered_layout(printed_raster(topology), 3 if wide else 1)
