"""Every topology's geometry draws its rules: outlines touch exactly where cells are adjacent.

Two cells' polygons share a point exactly when the topology calls them neighbours,
and a stretch of edge exactly when it calls them edge neighbours; the polygons do
not overlap, each label point lies inside its own cell with room for the label,
and the whole drawing starts at 0, 0 within its width and height. Graphs are drawn
where their coordinates say, links for edges.
"""

from __future__ import annotations

import json
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minesweeper.errors import TopologyError
from minesweeper.topology import TOPOLOGIES, GraphTopology, SquareTopology
from minesweeper.topology.geometry import LINK_LENGTH, NODE_RADIUS, outline

EPS = 1e-5
SHAPED = sorted(name for name in TOPOLOGIES if name != "graph")


def _segments(polygon):
    return list(zip(polygon, polygon[1:] + polygon[:1], strict=True))


def _on_segment(point, segment):
    (ax, ay), (bx, by) = segment
    px, py = point
    cross = (bx - ax) * (py - ay) - (by - ay) * (px - ax)
    if abs(cross) > EPS:
        return False
    return (
        min(ax, bx) - EPS <= px <= max(ax, bx) + EPS
        and min(ay, by) - EPS <= py <= max(ay, by) + EPS
    )


def _shared_length(s, t):
    """The length two segments have in common (0 unless they lie on one line)."""
    (ax, ay), (bx, by) = s
    length = math.dist(*s)
    ux, uy = (bx - ax) / length, (by - ay) / length
    for point in t:
        px, py = point
        if abs(ux * (py - ay) - uy * (px - ax)) > EPS:
            return 0.0
    along = sorted(ux * (px - ax) + uy * (py - ay) for px, py in t)
    return max(0.0, min(length, along[1]) - max(0.0, along[0]))


def _touch(p, q):
    """Whether polygons ``p`` and ``q`` share a point, and a stretch of edge."""
    point = any(_on_segment(v, seg) for v in p for seg in _segments(q)) or any(
        _on_segment(v, seg) for v in q for seg in _segments(p)
    )
    edge = any(_shared_length(s, t) > EPS for s in _segments(p) for t in _segments(q))
    return point, edge


def _inside(point, polygon):
    """Whether ``point`` lies strictly inside ``polygon`` (ray casting)."""
    x, y = point
    inside = False
    for (ax, ay), (bx, by) in _segments(polygon):
        if (ay > y) != (by > y) and x < ax + (y - ay) * (bx - ax) / (by - ay):
            inside = not inside
    return inside


def _signed_area(polygon):
    return sum(ax * by - bx * ay for (ax, ay), (bx, by) in _segments(polygon)) / 2


def _distance_to_segment(point, segment):
    (ax, ay), (bx, by) = segment
    px, py = point
    t = ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)
    t = min(1.0, max(0.0, t))
    return math.dist(point, (ax + t * (bx - ax), ay + t * (by - ay)))


@settings(max_examples=40, deadline=None)
@given(
    name=st.sampled_from(SHAPED),
    rows=st.integers(1, 5),
    cols=st.integers(1, 6),
    seed=st.integers(0, 2**16),
)
def test_polygons_touch_exactly_where_cells_are_adjacent(name, rows, cols, seed):
    cls = TOPOLOGIES[name]
    try:
        topology = cls.random(rows, cols, random.Random(seed))
    except TopologyError:
        return  # an area no tiling covers
    geometry = topology.geometry()
    polygons = geometry.polygons
    assert polygons is not None and len(polygons) == topology.size
    assert geometry.links == ()
    for cell in topology.cells():
        near = {o for o in topology.cells() if o != cell and _touch(polygons[cell], polygons[o])[0]}
        edge = {o for o in topology.cells() if o != cell and _touch(polygons[cell], polygons[o])[1]}
        assert near == set(topology.neighbours(cell)), (cell, polygons[cell])
        assert edge == set(topology.edge_neighbours(cell)), (cell, polygons[cell])


@settings(max_examples=40, deadline=None)
@given(
    name=st.sampled_from(SHAPED),
    rows=st.integers(1, 6),
    cols=st.integers(1, 7),
    seed=st.integers(0, 2**16),
)
def test_polygons_tile_the_drawing_and_hold_their_labels(name, rows, cols, seed):
    cls = TOPOLOGIES[name]
    try:
        topology = cls.random(rows, cols, random.Random(seed))
    except TopologyError:
        return
    geometry = topology.geometry()
    polygons = geometry.polygons
    xs = [x for polygon in polygons for x, _ in polygon]
    ys = [y for polygon in polygons for _, y in polygon]
    assert min(xs) == 0 and min(ys) == 0
    assert max(xs) == pytest.approx(geometry.width) and max(ys) == pytest.approx(geometry.height)
    for cell, (polygon, centre) in enumerate(zip(polygons, geometry.centres, strict=True)):
        assert _signed_area(polygon) > 0, "clockwise on screen (y down)"
        # The label's circle fits inside its own cell, so no other cell's polygon holds it.
        assert _inside(centre, polygon)
        assert min(_distance_to_segment(centre, s) for s in _segments(polygon)) >= (
            geometry.inner - EPS
        )
        assert not any(_inside(centre, other) for o, other in enumerate(polygons) if o != cell)
    if cls.text_format == "tiling" or name in ("square", "parquet"):
        # Pieces of unit squares: the areas add up to the squares, so nothing overlaps.
        squares = rows * cols * (2 if name == "parquet" else 1)
        assert sum(_signed_area(p) for p in polygons) == pytest.approx(squares)


def test_square_cells_are_unit_squares_in_reading_order():
    geometry = SquareTopology(2, 3).geometry()
    assert (geometry.width, geometry.height) == (3, 2)
    assert geometry.polygons[4] == ((1, 1), (2, 1), (2, 2), (1, 2))
    assert geometry.centres[4] == (1.5, 1.5)


def test_graph_nodes_sit_at_their_coordinates_scaled_with_links_for_edges():
    graph = GraphTopology(3, [(0, 1), (1, 2)], [(0, 0), (2, 0), (2, 1)])
    geometry = graph.geometry()
    assert geometry.polygons is None
    assert geometry.links == ((0, 1), (1, 2))
    # Median link 1.5 drawn LINK_LENGTH long; the drawing starts a node's radius in.
    scale = LINK_LENGTH / 1.5
    r = NODE_RADIUS
    flat = [v for point in geometry.centres for v in point]
    assert flat == pytest.approx([r, r, r + 2 * scale, r, r + 2 * scale, r + scale])
    assert geometry.width == pytest.approx(2 * r + 2 * scale)
    assert geometry.height == pytest.approx(2 * r + scale)
    assert geometry.inner == NODE_RADIUS


def test_random_graphs_keep_their_nodes_apart():
    graph = GraphTopology.random(6, 7, random.Random(3))
    centres = graph.geometry().centres
    closest = min(math.dist(p, q) for i, p in enumerate(centres) for q in centres[i + 1 :])
    assert closest >= 2 * NODE_RADIUS


def test_graphs_without_coordinates_are_laid_out_alike_every_time():
    edges = [(0, 1), (1, 2), (2, 3), (3, 0), (0, 2), (4, 0)]
    first = GraphTopology(5, edges).geometry()
    assert first == GraphTopology(5, edges).geometry()
    assert len(set(first.centres)) == 5
    assert all(0 <= x <= first.width and 0 <= y <= first.height for x, y in first.centres)


def test_a_lone_node_is_drawn_too():
    geometry = GraphTopology(1, []).geometry()
    assert geometry.links == ()
    assert geometry.centres == ((NODE_RADIUS, NODE_RADIUS),)


def test_outline_drops_straight_corners_and_refuses_what_is_not_one_piece():
    # An L tromino: 6 corners, clockwise from the top left.
    assert outline([(0, 0), (1, 0), (1, 1)]) == ((0, 0), (1, 0), (1, 1), (2, 1), (2, 2), (0, 2))
    with pytest.raises(TopologyError, match="corner"):
        outline([(0, 0), (1, 1)])
    ring = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)]
    with pytest.raises(TopologyError, match="holes"):
        outline(ring)


@pytest.mark.parametrize("name", sorted(TOPOLOGIES))
def test_geometry_json_names_every_cell(name):
    topology = TOPOLOGIES[name].random(4, 6, random.Random(0))
    document = json.loads(json.dumps(topology.geometry().as_json()))
    assert len(document["centres"]) == topology.size
    if name == "graph":
        assert document["polygons"] is None
        assert sorted(map(tuple, document["links"])) == topology.edges()
    else:
        assert len(document["polygons"]) == topology.size
        assert document["links"] == []
