"""Every topology's adjacency: symmetric, irreflexive, and as its drawing says.

The hex, triangle, parquet and square rules are checked against geometry:
the shapes are laid out in coordinates and two cells are adjacent exactly when
their outlines share a point (an edge when they share two).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minesweeper.errors import TopologyError
from minesweeper.topology import (
    TOPOLOGIES,
    DominoTopology,
    GraphTopology,
    HexTopology,
    ParquetTopology,
    SquareTopology,
    TetrominoTopology,
    TriangleTopology,
    TrominoTopology,
    find_topology,
    random_tiling,
)
from minesweeper.topology.graph import GraphError
from minesweeper.topology.tiling import TilingError, polyominoes

NAMES = sorted(TOPOLOGIES)


@settings(max_examples=60, deadline=None)
@given(
    name=st.sampled_from(NAMES),
    rows=st.integers(1, 7),
    cols=st.integers(1, 8),
    seed=st.integers(0, 2**16),
)
def test_adjacency_is_symmetric_and_irreflexive(name, rows, cols, seed):
    cls = TOPOLOGIES[name]
    try:
        topology = cls.random(rows, cols, random.Random(seed))
    except TopologyError:
        assert cls.text_format == "tiling" and rows * cols % cls.piece_size
        return
    for cell in topology.cells():
        near = topology.neighbours(cell)
        edge = topology.edge_neighbours(cell)
        assert cell not in near
        assert len(set(near)) == len(near)
        assert set(edge) <= set(near)
        for other in near:
            assert cell in topology.neighbours(other)
        for other in edge:
            assert cell in topology.edge_neighbours(other)
    # Every printed position shows a cell, and each cell's move names it.
    rows_, cols_ = topology.shape
    shown = {topology.cell_at(r, c) for r in range(rows_) for c in range(cols_)}
    assert shown == set(topology.cells())
    for cell in topology.cells():
        assert topology.cell_from_move(topology.move_of(cell)) == cell


def test_registry_finds_every_name_and_lists_them_when_unknown():
    for name in NAMES:
        assert find_topology(name).name == name
        assert find_topology(name.upper()) is TOPOLOGIES[name]
    with pytest.raises(TopologyError, match=r"unknown topology 'cube'.*hex.*tetromino"):
        find_topology("cube")


# --- geometry -------------------------------------------------------------


def _adjacency_from_outlines(outlines):
    """Neighbours (a shared point) and edge neighbours (two shared points) of each cell."""
    near, edge = {}, {}
    for cell, points in outlines.items():
        near[cell] = {o for o, p in outlines.items() if o != cell and points & p}
        edge[cell] = {o for o, p in outlines.items() if o != cell and len(points & p) >= 2}
    return near, edge


def _square_points(squares):
    return {(y + a, x + b) for y, x in squares for a in (0, 1) for b in (0, 1)}


def _triangle_corners(r, c):
    # x is doubled so every corner is an integer point.
    if (r + c) % 2 == 0:  # up: apex on top
        return {(r, c + 1), (r + 1, c), (r + 1, c + 2)}
    return {(r, c), (r, c + 2), (r + 1, c + 1)}


def _herringbone_squares(r, c):
    t = c // 2
    squares = [(t, t), (t, t + 1)] if c % 2 == 0 else [(t + 1, t), (t + 2, t)]
    return [(y + 2 * r, x - 2 * r) for y, x in squares]


def _check_against_geometry(topology, near, edge):
    rows, cols = topology.shape
    for r in range(rows):
        for c in range(cols):
            cell = topology.cell_at(r, c)
            assert {topology.position(o) for o in topology.neighbours(cell)} == near[(r, c)]
            assert {topology.position(o) for o in topology.edge_neighbours(cell)} == edge[(r, c)]


@pytest.mark.parametrize("rows, cols", [(5, 7), (6, 6)])
def test_square_matches_geometry(rows, cols):
    outlines = {(r, c): _square_points([(r, c)]) for r in range(rows) for c in range(cols)}
    _check_against_geometry(SquareTopology(rows, cols), *_adjacency_from_outlines(outlines))


@pytest.mark.parametrize("rows, cols", [(5, 7), (6, 6)])
def test_triangle_matches_geometry(rows, cols):
    outlines = {(r, c): _triangle_corners(r, c) for r in range(rows) for c in range(cols)}
    _check_against_geometry(TriangleTopology(rows, cols), *_adjacency_from_outlines(outlines))


@pytest.mark.parametrize("rows, cols", [(4, 8), (5, 9)])
def test_parquet_matches_a_herringbone_floor(rows, cols):
    floor = {(r, c): _herringbone_squares(r, c) for r in range(rows) for c in range(cols)}
    covered = [square for squares in floor.values() for square in squares]
    assert len(covered) == len(set(covered)), "the bricks overlap"
    outlines = {cell: _square_points(squares) for cell, squares in floor.items()}
    near, _ = _adjacency_from_outlines(outlines)
    # A shared unit edge, not just two shared points (two bricks may share a corner pair).
    edge = {
        cell: {
            other
            for other, theirs in floor.items()
            if other != cell
            and any(abs(y - v) + abs(x - u) == 1 for y, x in mine for v, u in theirs)
        }
        for cell, mine in floor.items()
    }
    _check_against_geometry(ParquetTopology(rows, cols), near, edge)


@pytest.mark.parametrize("rows, cols", [(5, 7), (6, 6)])
def test_hex_matches_geometry(rows, cols):
    # Odd-r centres at doubled x: neighbours are 2 apart on a row, 1 apart across rows.
    def centre(r, c):
        return r, 2 * c + r % 2

    hexagon = HexTopology(rows, cols)
    for r in range(rows):
        for c in range(cols):
            y, x = centre(r, c)
            expected = {
                (r2, c2)
                for r2 in range(rows)
                for c2 in range(cols)
                if (abs(centre(r2, c2)[0] - y), abs(centre(r2, c2)[1] - x)) in {(0, 2), (1, 1)}
            }
            cell = hexagon.cell_at(r, c)
            assert {hexagon.position(o) for o in hexagon.neighbours(cell)} == expected
            assert set(hexagon.edge_neighbours(cell)) == set(hexagon.neighbours(cell))


# --- the rules as the issue states them ------------------------------------


def _offsets(topology, r, c, edge=False):
    cell = topology.cell_at(r, c)
    found = topology.edge_neighbours(cell) if edge else topology.neighbours(cell)
    return sorted((rr - r, cc - c) for rr, cc in map(topology.position, found))


def test_hex_rule_literally():
    hexagon = HexTopology(6, 6)
    assert _offsets(hexagon, 2, 2) == sorted([(0, -1), (0, 1), (-1, -1), (-1, 0), (1, -1), (1, 0)])
    assert _offsets(hexagon, 3, 2) == sorted([(0, -1), (0, 1), (-1, 0), (-1, 1), (1, 0), (1, 1)])
    assert len(hexagon.neighbours(hexagon.cell_at(0, 0))) == 2  # (0, 1), (1, 0)


def test_triangle_rule_literally():
    triangle = TriangleTopology(6, 8)
    up = [(0, -1), (0, 1), (0, -2), (0, 2), (-1, -1), (-1, 0), (-1, 1)]
    up += [(1, d) for d in range(-2, 3)]
    assert _offsets(triangle, 2, 4) == sorted(up)  # 2 + 4 even: up
    assert _offsets(triangle, 2, 3) == sorted((-dr, dc) for dr, dc in up)  # down mirrors
    assert _offsets(triangle, 2, 4, edge=True) == [(0, -1), (0, 1), (1, 0)]
    assert _offsets(triangle, 2, 3, edge=True) == [(-1, 0), (0, -1), (0, 1)]


def test_parquet_rule_literally():
    parquet = ParquetTopology(5, 8)
    row = [(0, -2), (0, -1), (0, 1), (0, 2)]
    assert _offsets(parquet, 2, 4) == sorted([*row, (-1, -1), (-1, 1)])  # lying brick
    assert _offsets(parquet, 2, 3) == sorted([*row, (1, -1), (1, 1)])  # standing brick
    assert _offsets(parquet, 2, 3, edge=True) == _offsets(parquet, 2, 3)


@pytest.mark.parametrize(
    "cls, inner",
    [(SquareTopology, 8), (HexTopology, 6), (TriangleTopology, 12), (ParquetTopology, 6)],
)
def test_inner_degree(cls, inner):
    topology = cls(9, 10)
    degrees = {len(topology.neighbours(topology.cell_at(r, c))) for r in (3, 4) for c in (4, 5)}
    assert degrees == {inner}
    assert max(len(topology.neighbours(cell)) for cell in topology.cells()) == inner


# --- tilings ----------------------------------------------------------------


def test_tetromino_blocks_touch_diagonally_at_a_corner():
    # Four 2x2 blocks: the diagonal pairs share only the centre point.
    tiling = TetrominoTopology([[0, 0, 1, 1], [0, 0, 1, 1], [2, 2, 3, 3], [2, 2, 3, 3]])
    assert [tiling.neighbours(cell) for cell in tiling.cells()] == [
        (1, 2, 3),
        (0, 2, 3),
        (0, 1, 3),
        (0, 1, 2),
    ]
    assert [tiling.edge_neighbours(cell) for cell in tiling.cells()] == [
        (1, 2),
        (0, 3),
        (0, 3),
        (1, 2),
    ]


def test_domino_example_by_hand():
    #   a a b c        a touches b, d, e      d touches a, e
    #   d e b c        b touches a, c, e, f   e touches a, b, d, f
    #   d e f f        c touches b, f         f touches b, c, e
    tiling = DominoTopology([[7, 7, 3, 9], [1, 5, 3, 9], [1, 5, 4, 4]])
    a, b, c, d, e, f = range(6)  # renumbered by first square in reading order
    assert tiling.pieces == ((a, a, b, c), (d, e, b, c), (d, e, f, f))
    assert [set(tiling.neighbours(x)) for x in range(6)] == [
        {b, d, e},
        {a, c, e, f},
        {b, f},
        {a, e},
        {a, b, d, f},
        {b, c, e},
    ]
    assert tiling.squares(b) == ((0, 2), (1, 2))
    assert tiling.cell_from_move((1, 2)) == b
    assert tiling.move_of(f) == (2, 2)


def test_tromino_bars_touch_across_a_corner():
    #   a a a b b b      a and d meet only at the point where (0,2) and (1,3) touch,
    #   c c c d d d      b and c likewise: neighbours, but not across an edge.
    tiling = TrominoTopology([[0, 0, 0, 1, 1, 1], [2, 2, 2, 3, 3, 3]])
    a, b, c, d = range(4)
    assert [set(tiling.neighbours(x)) for x in range(4)] == [
        {b, c, d},
        {a, c, d},
        {a, b, d},
        {a, b, c},
    ]
    assert [set(tiling.edge_neighbours(x)) for x in range(4)] == [{b, c}, {a, d}, {a, d}, {b, c}]


@pytest.mark.parametrize(
    "pieces, row, message",
    [
        ([[0, 0, 0], [1, 1, 2]], 0, "piece 0 has more than 2 squares"),
        ([[0, 0, 1], [2, 2, 3]], 0, "piece 1 has only 1 square"),
        ([[0, 1, 0], [2, 1, 2]], 0, "the squares of piece 0 are not connected"),
        ([[0, 0], [1, 2], [2, 1]], 2, "the squares of piece 1 are not connected"),
        ([[0, 0], [1]], 1, "row 2 has 1 piece ids, expected 2"),
    ],
)
def test_bad_domino_grids_name_the_row(pieces, row, message):
    with pytest.raises(TilingError, match=message) as caught:
        DominoTopology(pieces)
    assert caught.value.row == row


def test_polyomino_counts():
    # Fixed polyominoes: 1, 2, 6, 19 (the free ones are 1, 1, 2, 5).
    assert [len(polyominoes(size)) for size in (1, 2, 3, 4)] == [1, 2, 6, 19]


@pytest.mark.parametrize(
    "piece_size, cls", [(2, DominoTopology), (3, TrominoTopology), (4, TetrominoTopology)]
)
@pytest.mark.parametrize("rows, cols", [(1, 12), (2, 6), (6, 6), (9, 8), (16, 30)])
def test_random_tilings_are_valid_and_reproducible(piece_size, cls, rows, cols):
    grid = random_tiling(rows, cols, piece_size, random.Random(5))
    tiling = cls(grid)  # validates every piece
    assert tiling.size == rows * cols // piece_size
    assert [list(row) for row in tiling.pieces] == grid  # already canonical
    assert random_tiling(rows, cols, piece_size, random.Random(5)) == grid
    assert cls.random(rows, cols, random.Random(5)) == tiling


def test_random_tilings_vary_with_the_seed():
    seen = {str(random_tiling(6, 6, 3, random.Random(seed))) for seed in range(10)}
    assert len(seen) > 5


@pytest.mark.parametrize(
    "name, rows, cols", [("domino", 3, 5), ("tromino", 4, 5), ("tetromino", 3, 6)]
)
def test_untileable_area_is_refused_clearly(name, rows, cols):
    area = rows * cols
    with pytest.raises(TopologyError, match=rf"cannot be tiled by {name}es: its {area} squares"):
        TOPOLOGIES[name].random(rows, cols, random.Random(0))


# --- graphs -------------------------------------------------------------------


@pytest.mark.parametrize(
    "size, edges, index, message",
    [
        (3, [(0, 1), (1, 3)], 1, "edge 1-3 names node 3, not in 0..2"),
        (3, [(0, -1)], 0, "names node -1"),
        (3, [(0, 1), (2, 2)], 1, "edge 2-2 is a self-loop"),
        (3, [(0, 1), (1, 2), (1, 0)], 2, "edge 1-0 is listed twice"),
        (0, [], None, "at least 1 node"),
    ],
)
def test_bad_graphs_name_the_edge(size, edges, index, message):
    with pytest.raises(GraphError, match=message) as caught:
        GraphTopology(size, edges)
    assert caught.value.edge == index


@pytest.mark.parametrize("name", NAMES)
def test_any_topology_exports_to_an_equal_graph(name):
    topology = TOPOLOGIES[name].random(4, 6, random.Random(3))
    graph = GraphTopology.from_topology(topology)
    assert graph.size == topology.size
    for cell in topology.cells():
        assert graph.neighbours(cell) == tuple(sorted(topology.neighbours(cell)))
    assert GraphTopology.from_topology(graph) == graph
    assert graph.edges() == topology.edges()


def test_graph_moves_and_layout():
    graph = GraphTopology(4, [(0, 1), (1, 2)])
    assert graph.shape == (1, 4)
    assert graph.move_arity == 1
    assert graph.cell_from_move((3,)) == 3
    assert graph.move_of(2) == (2,)
    assert graph.neighbours(3) == ()
    with pytest.raises(TopologyError, match=r"node 4 is not in 0\.\.3"):
        graph.cell_from_move((4,))


def test_random_graph_is_the_grid_with_one_diagonal_per_square():
    rows, cols = 7, 9
    graph = GraphTopology.random(rows, cols, random.Random(1))
    edges = set(graph.edges())
    for row in range(rows):
        for col in range(cols):
            node = row * cols + col
            if col + 1 < cols:
                assert (node, node + 1) in edges
            if row + 1 < rows:
                assert (node, node + cols) in edges
            if row + 1 < rows and col + 1 < cols:
                falling = (node, node + cols + 1) in edges
                rising = (node + 1, node + cols) in edges
                assert falling != rising
    assert len(edges) == rows * (cols - 1) + (rows - 1) * cols + (rows - 1) * (cols - 1)
    inner = [
        len(graph.neighbours(r * cols + c)) for r in range(1, rows - 1) for c in range(1, cols - 1)
    ]
    assert set(inner) <= {4, 5, 6, 7, 8}
    assert GraphTopology.random(rows, cols, random.Random(1)) == graph
    assert GraphTopology.random(rows, cols, random.Random(2)) != graph
