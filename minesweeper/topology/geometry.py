"""Where each cell lies in the plane: the shapes a drawing of the board is made of.

Every topology gives its `Geometry` (`Topology.geometry`): each cell's outline
as a polygon (squares, hexagons, triangles, the pieces of a tiling, the bricks
of the parquet) or, for an arbitrary graph, each node's point and the links to
draw between them as straight lines. Units are about one cell across (a
square's side is 1); ``y`` grows downwards, as on a screen. Nothing here draws:
the web page and any other face scale and paint it.

Graphs without coordinates are laid out by networkx's force-directed
``spring_layout``, seeded, so the same graph is always drawn alike; from
`SPRING_NODES` nodes on, networkx needs scipy (not a dependency) for it and its
cost grows with the square of the nodes, so larger graphs are set out on a grid
in id order instead.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from minesweeper.errors import TopologyError

Point = tuple[float, float]
#: Decimal places kept in coordinates: enough for any screen, and exact equality of corners.
PLACES = 6
#: A graph's links are drawn this long (their median), in units.
LINK_LENGTH = 1.4
#: A graph node's radius, in units.
NODE_RADIUS = 0.42
#: The largest graph without coordinates given a spring layout: networkx lays out larger
#: ones with scipy's sparse matrices.
SPRING_NODES = 499
#: Nodes whose nearest neighbours are found in one numpy step (bounds its memory to ~20 MB
#: for the largest graphs).
_NEAREST_CHUNK = 256
_SQRT3 = math.sqrt(3.0)


@dataclass(frozen=True)
class Geometry:
    """A board in the plane.

    ``centres[cell]`` is where the cell's content goes, inside it, with room for
    a circle of radius ``inner`` around it. ``polygons[cell]`` is its outline
    (corners in order, clockwise on screen), or None for a graph, whose cells
    are discs of radius ``inner`` and whose ``links`` are drawn as straight
    lines between centres. Everything lies within ``0 <= x <= width``,
    ``0 <= y <= height``.
    """

    width: float
    height: float
    centres: tuple[Point, ...]
    inner: float
    polygons: tuple[tuple[Point, ...], ...] | None = None
    links: tuple[tuple[int, int], ...] = ()

    def as_json(self) -> dict[str, object]:
        """A JSON object: ``width``, ``height``, ``inner``, ``centres``, ``polygons`` (or
        null) and ``links``; points are ``[x, y]`` pairs."""
        return {
            "width": self.width,
            "height": self.height,
            "inner": self.inner,
            "centres": [list(point) for point in self.centres],
            "polygons": (
                None
                if self.polygons is None
                else [[list(point) for point in polygon] for polygon in self.polygons]
            ),
            "links": [list(link) for link in self.links],
        }


def _round(point: Point) -> Point:
    # 0.0 rather than -0.0, so equal corners print alike.
    return (round(point[0], PLACES) + 0.0, round(point[1], PLACES) + 0.0)


def polygon_geometry(
    polygons: Sequence[Sequence[Point]], centres: Sequence[Point], inner: float
) -> Geometry:
    """A `Geometry` of cells with these outlines and label points, moved to start at 0, 0."""
    xs = [x for polygon in polygons for x, _ in polygon]
    ys = [y for polygon in polygons for _, y in polygon]
    left, top = min(xs), min(ys)

    def moved(point: Point) -> Point:
        return _round((point[0] - left, point[1] - top))

    return Geometry(
        width=round(max(xs) - left, PLACES),
        height=round(max(ys) - top, PLACES),
        centres=tuple(moved(point) for point in centres),
        inner=inner,
        polygons=tuple(tuple(moved(point) for point in polygon) for polygon in polygons),
    )


# -- regular grids --------------------------------------------------------------------------


def square(row: int, col: int) -> tuple[Point, ...]:
    """The unit square at ``(row, col)``, clockwise on screen from its top left corner."""
    return ((col, row), (col + 1, row), (col + 1, row + 1), (col, row + 1))


def hexagon(row: int, col: int) -> tuple[Point, ...]:
    """The pointy-top hexagon of width 1 at ``(row, col)``, odd rows shifted half a cell right.

    Its centre is at ``(col + 0.5 + 0.5 * (row % 2), 0.5 + row * 1.5 * R)`` with ``R``
    the corner radius ``1 / sqrt(3)``; corners run clockwise from the top.
    """
    radius = 1 / _SQRT3
    cx, cy = hexagon_centre(row, col)
    return tuple(
        (cx + radius * math.cos(angle), cy + radius * math.sin(angle))
        for angle in (math.radians(-90 + 60 * k) for k in range(6))
    )


def hexagon_centre(row: int, col: int) -> Point:
    return (col + 0.5 + 0.5 * (row % 2), 1 / _SQRT3 + row * 1.5 / _SQRT3)


def triangle(row: int, col: int) -> tuple[Point, ...]:
    """The triangle of side 1 at ``(row, col)``: pointing up when ``row + col`` is even.

    It spans ``x`` from ``col / 2`` to ``col / 2 + 1``; rows are ``sqrt(3) / 2`` high.
    """
    height = _SQRT3 / 2
    left, top, bottom = col / 2, row * height, (row + 1) * height
    if (row + col) % 2 == 0:
        return ((left + 0.5, top), (left + 1, bottom), (left, bottom))
    return ((left, top), (left + 1, top), (left + 0.5, bottom))


def triangle_centre(row: int, col: int) -> Point:
    """The centre of the triangle's inscribed circle (its centroid)."""
    corners = triangle(row, col)
    return (sum(x for x, _ in corners) / 3, sum(y for _, y in corners) / 3)


#: Radius of the circle inscribed in a triangle of side 1.
TRIANGLE_INNER = _SQRT3 / 6


# -- pieces made of unit squares --------------------------------------------------------------


def outline(squares: Iterable[tuple[int, int]]) -> tuple[Point, ...]:
    """The outline of a piece made of unit squares ``(row, col)``, clockwise on screen.

    Corners where the outline goes straight on are left out. Raises `TopologyError`
    when the squares do not make one piece without holes.
    """
    # Each square's sides, clockwise; a side two squares of the piece share cancels out.
    directed: set[tuple[tuple[int, int], tuple[int, int]]] = set()
    for row, col in squares:
        corners = ((col, row), (col + 1, row), (col + 1, row + 1), (col, row + 1))
        for side in zip(corners, corners[1:] + corners[:1], strict=True):
            if side[::-1] in directed:
                directed.remove(side[::-1])
            else:
                directed.add(side)
    sides = dict(directed)
    if len(sides) != len(directed):
        raise TopologyError(f"the squares {sorted(squares)} touch at a corner only")
    if not sides:
        raise TopologyError("a piece needs at least one square")
    first = min(sides)
    ring = [first]
    point = sides[first]
    while point != first:
        ring.append(point)
        point = sides[point]
    if len(ring) != len(sides):
        raise TopologyError(f"the squares {sorted(squares)} are not one piece without holes")
    turns = [
        here
        for before, here, after in zip(
            ring[-1:] + ring[:-1], ring, ring[1:] + ring[:1], strict=True
        )
        if (here[0] - before[0]) * (after[1] - here[1])
        != (here[1] - before[1]) * (after[0] - here[0])
    ]
    return tuple((float(x), float(y)) for x, y in turns)


def label_point(squares: Sequence[tuple[int, int]]) -> Point:
    """Where a piece's content goes: the middle of a square of the piece, or of two
    side-by-side squares, nearest the piece's centroid (a circle of radius 0.5 fits)."""
    mr = sum(r for r, _ in squares) / len(squares) + 0.5
    mc = sum(c for _, c in squares) / len(squares) + 0.5
    members = set(squares)
    candidates = [(c + 0.5, r + 0.5) for r, c in squares]
    candidates += [(c + 1.0, r + 0.5) for r, c in squares if (r, c + 1) in members]
    candidates += [(c + 0.5, r + 1.0) for r, c in squares if (r + 1, c) in members]
    return min(candidates, key=lambda p: ((p[0] - mc) ** 2 + (p[1] - mr) ** 2, p[1], p[0]))


def pieces_geometry(pieces: Sequence[Sequence[tuple[int, int]]]) -> Geometry:
    """A `Geometry` of cells that are pieces of unit squares: ``pieces[cell]`` its squares."""
    return polygon_geometry(
        [outline(squares) for squares in pieces], [label_point(s) for s in pieces], 0.5
    )


# -- graphs -----------------------------------------------------------------------------------


def spring_points(size: int, edges: Iterable[tuple[int, int]]) -> list[Point]:
    """A force-directed layout of a graph (networkx, seeded: the same graph, the same picture);
    a graph of more than `SPRING_NODES` nodes gets `grid_points`."""
    if size > SPRING_NODES:
        return grid_points(size)
    import networkx  # only graphs without coordinates need it

    graph = networkx.Graph()
    graph.add_nodes_from(range(size))
    graph.add_edges_from(edges)
    placed = networkx.spring_layout(graph, seed=0)
    return [(float(placed[node][0]), float(placed[node][1])) for node in range(size)]


def grid_points(size: int) -> list[Point]:
    """``size`` nodes in rows of a near-square grid, in id order."""
    width = max(1, math.isqrt(size - 1) + 1) if size else 1
    return [(float(node % width), float(node // width)) for node in range(size)]


def nearest_distances(points: Sequence[Point]) -> list[float]:
    """Each point's distance to the nearest other point (1.0 for a lone point).

    The nearest is found for a chunk of points at a time by one matrix product
    (``|p - q|^2 = |p|^2 + |q|^2 - 2 p.q``), and its distance measured again exactly.
    """
    import numpy

    if len(points) < 2:
        return [1.0] * len(points)
    array = numpy.asarray(points, dtype=float)
    norms = (array**2).sum(axis=1)
    found: list[int] = []
    for start in range(0, len(array), _NEAREST_CHUNK):
        chunk = array[start : start + _NEAREST_CHUNK]
        squared = norms[start : start + len(chunk), None] + norms[None, :] - 2 * chunk @ array.T
        squared[numpy.arange(len(chunk)), numpy.arange(start, start + len(chunk))] = numpy.inf
        found.extend(int(index) for index in squared.argmin(axis=1))
    return [math.dist(points[i], points[j]) for i, j in enumerate(found)]


def graph_geometry(points: Sequence[Point], links: Sequence[tuple[int, int]]) -> Geometry:
    """Nodes at ``points`` joined by straight ``links``, scaled so that the median link is
    `LINK_LENGTH` long (or the median distance to the nearest node, with no links)."""
    if links:
        lengths = [math.dist(points[u], points[v]) for u, v in links]
    else:
        lengths = nearest_distances(points)
    typical = statistics.median(lengths) or 1.0
    scale = LINK_LENGTH / typical
    left = min(x for x, _ in points) * scale - NODE_RADIUS
    top = min(y for _, y in points) * scale - NODE_RADIUS
    centres = tuple(_round((x * scale - left, y * scale - top)) for x, y in points)
    return Geometry(
        width=round(max(x for x, _ in centres) + NODE_RADIUS, PLACES),
        height=round(max(y for _, y in centres) + NODE_RADIUS, PLACES),
        centres=centres,
        inner=NODE_RADIUS,
        links=tuple(links),
    )
