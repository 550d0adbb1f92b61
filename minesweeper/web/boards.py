"""A board's topology rebuilt from the view the ladder gives of it, and its drawing.

The ladder's game JSON describes the topology as a player may see it (its kind, size,
printed layout of piece ids, neighbour lists, node coordinates); `topology_of` turns
that back into a `Topology`, refusing anything too large or inconsistent, so that
`Topology.geometry` can say where each cell is drawn.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel

from minesweeper.errors import MinesweeperError, UsageError
from minesweeper.limits import MAX_EDGES, MAX_SOLVED_CELLS, check_cells
from minesweeper.topology.base import Topology
from minesweeper.topology.graph import GraphTopology
from minesweeper.topology.registry import find_topology
from minesweeper.topology.tiling import TilingTopology

#: The largest board the page draws: the largest the ladder's practice games have.
MAX_DRAWN_CELLS = MAX_SOLVED_CELLS


class DrawingError(UsageError):
    """A topology view that makes no board the page can draw."""


class TopologyView(BaseModel):
    """A topology as the ladder's API shows it (``topology`` in a game's JSON)."""

    name: str
    rows: int
    cols: int
    size: int | None = None
    layout: list[list[int]] | None = None
    neighbours: list[list[int]] | None = None
    coordinates: list[tuple[float, float]] | None = None


def topology_of(view: TopologyView) -> Topology:
    """The topology ``view`` describes; `DrawingError` naming the first problem."""
    try:
        kind = find_topology(view.name)
        if kind.text_format == "grid":
            check_cells(view.rows * view.cols)
            _drawable(view.rows * view.cols)
            topology: Topology = kind(view.rows, view.cols)  # type: ignore[call-arg]
        elif kind.text_format == "tiling":
            if view.layout is None:
                raise DrawingError(f"a {view.name} board needs its layout of piece ids")
            squares = sum(len(row) for row in view.layout)
            check_cells(squares, "tiling")
            assert issubclass(kind, TilingTopology)
            _drawable(squares // kind.piece_size)  # before the pieces are made
            topology = kind(view.layout)
        else:
            topology = _graph(view)
    except DrawingError:
        raise
    except MinesweeperError as error:
        raise DrawingError(str(error)) from None
    _drawable(topology.size)
    return topology


def _drawable(cells: int) -> None:
    if cells > MAX_DRAWN_CELLS:
        raise DrawingError(f"the page draws boards of at most {MAX_DRAWN_CELLS:,} cells")


def _graph(view: TopologyView) -> GraphTopology:
    if view.size is None or view.neighbours is None:
        raise DrawingError("a graph needs its size and its neighbour lists")
    if len(view.neighbours) != view.size:
        raise DrawingError(f"{len(view.neighbours)} neighbour lists for {view.size} nodes")
    check_cells(view.size, "graph")
    _drawable(view.size)
    if sum(len(near) for near in view.neighbours) > 2 * MAX_EDGES:
        raise DrawingError(f"a graph has at most {MAX_EDGES:,} edges")
    edges = _edges(view.neighbours)
    coordinates = None if view.coordinates is None else [tuple(p) for p in view.coordinates]
    return GraphTopology(view.size, edges, coordinates)  # type: ignore[arg-type]


def _edges(neighbours: Sequence[Sequence[int]]) -> list[tuple[int, int]]:
    """Each edge once; `DrawingError` when the lists do not agree (u lists v, v not u)."""
    listed = {(u, v) for u, near in enumerate(neighbours) for v in near}
    for u, v in listed:
        if u == v:
            raise DrawingError(f"node {u} lists itself as a neighbour (a self-loop)")
        if (v, u) not in listed:
            raise DrawingError(f"node {u} lists {v} as a neighbour but {v} does not list {u}")
    return sorted((u, v) for u, v in listed if u < v)
