"""Any undirected graph: cells are nodes, adjacency is the edges."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from minesweeper.errors import TopologyError
from minesweeper.topology.base import Topology
from minesweeper.topology.geometry import Geometry, graph_geometry, spring_points


class GraphError(TopologyError):
    """An edge list that is not a simple graph; ``edge`` is the 0-based index of the bad edge."""

    def __init__(self, message: str, edge: int | None = None) -> None:
        super().__init__(message)
        self.edge = edge


class GraphTopology(Topology):
    """``size`` nodes joined by undirected edges; no self-loops, no repeated edges.

    A move names a node by its id; the map is one line of ``size`` characters,
    node ``i`` at column ``i``. Every edge counts as shared, so
    ``edge_neighbours`` is ``neighbours``. ``coordinates``, when given, place
    node ``i`` at ``(x, y)`` for drawings (y grows downwards); they change
    nothing in the rules and take no part in equality.
    """

    name = "graph"
    move_arity = 1
    text_format = "graph"

    def __init__(
        self,
        size: int,
        edges: Iterable[tuple[int, int]],
        coordinates: Sequence[tuple[float, float]] | None = None,
    ) -> None:
        if size < 1:
            raise GraphError(f"a graph needs at least 1 node, got {size}")
        if coordinates is not None and len(coordinates) != size:
            raise GraphError(f"{len(coordinates)} coordinates for {size} nodes")
        self._size = size
        self.coordinates = (
            None if coordinates is None else tuple((float(x), float(y)) for x, y in coordinates)
        )
        adjacent: list[set[int]] = [set() for _ in range(size)]
        for index, (u, v) in enumerate(edges):
            for node in (u, v):
                if not 0 <= node < size:
                    raise GraphError(f"edge {u}-{v} names node {node}, not in 0..{size - 1}", index)
            if u == v:
                raise GraphError(f"edge {u}-{v} is a self-loop", index)
            if v in adjacent[u]:
                raise GraphError(f"edge {u}-{v} is listed twice", index)
            adjacent[u].add(v)
            adjacent[v].add(u)
        self._neighbours = tuple(tuple(sorted(nodes)) for nodes in adjacent)

    @classmethod
    def from_topology(cls, topology: Topology) -> GraphTopology:
        """The adjacency graph of any topology, with the same cell ids."""
        return cls(topology.size, topology.edges())

    @classmethod
    def cell_count(cls, rows: int, cols: int) -> int:
        if rows < 1 or cols < 1:
            raise TopologyError(f"a board needs at least 1 row and 1 column, got {rows}x{cols}")
        return rows * cols

    @classmethod
    def random(cls, rows: int, cols: int, rng: random.Random) -> GraphTopology:
        """A random planar graph of ``rows * cols`` nodes, laid out like a board.

        Node ``r * cols + c`` sits at grid point ``(r, c)`` (its coordinates), joined to the points
        beside, above and below it, and across each unit square by one of its two
        diagonals, chosen at random: a random triangulation of the grid, with
        4 to 8 neighbours (6 on average) away from the rim.
        """
        if rows < 1 or cols < 1:
            raise TopologyError(f"a board needs at least 1 row and 1 column, got {rows}x{cols}")
        edges = []
        for row in range(rows):
            for col in range(cols):
                node = row * cols + col
                if col + 1 < cols:
                    edges.append((node, node + 1))
                if row + 1 < rows:
                    edges.append((node, node + cols))
                if row + 1 < rows and col + 1 < cols:
                    if rng.random() < 0.5:
                        edges.append((node, node + cols + 1))  # the square's falling diagonal
                    else:
                        edges.append((node + 1, node + cols))  # its rising diagonal
        points = [(float(col), float(row)) for row in range(rows) for col in range(cols)]
        return cls(rows * cols, sorted(edges), points)

    @property
    def size(self) -> int:
        return self._size

    @property
    def shape(self) -> tuple[int, int]:
        return 1, self._size

    def neighbours(self, cell: int) -> tuple[int, ...]:
        return self._neighbours[cell]

    def cell_at(self, row: int, col: int) -> int:
        return col

    def cell_from_move(self, values: Sequence[int]) -> int:
        (node,) = values
        if not 0 <= node < self._size:
            raise TopologyError(f"node {node} is not in 0..{self._size - 1}")
        return node

    def position(self, cell: int) -> tuple[int, int]:
        return 0, cell

    def printed_positions(self, cell: int) -> tuple[int, ...]:
        return (cell,)

    def move_of(self, cell: int) -> tuple[int, ...]:
        return (cell,)

    def geometry(self) -> Geometry:
        """Nodes where ``coordinates`` put them (else a seeded spring layout), every edge
        a link drawn as a straight line."""
        points = self.coordinates
        if points is None:
            points = tuple(spring_points(self._size, self.edges()))
        return graph_geometry(points, self.edges())

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GraphTopology) and other._neighbours == self._neighbours

    def __hash__(self) -> int:
        return hash((GraphTopology, self._neighbours))

    def __repr__(self) -> str:
        return f"<GraphTopology {self._size} nodes, {len(self.edges())} edges>"
