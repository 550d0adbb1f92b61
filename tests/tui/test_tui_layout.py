"""The drawings: each cell drawn once and clickable; cells touch on screen as in play."""

from __future__ import annotations

import itertools
import random

import pytest

from minesweeper.topology import find_topology
from minesweeper.tui.shapes import (
    build_layout,
    hex_layout,
    parquet_raster,
    printed_raster,
    triangle_layout,
)

SHAPES = [
    ("square", 5, 7),
    ("hex", 6, 5),
    ("triangle", 4, 7),
    ("parquet", 4, 6),
    ("domino", 4, 6),
    ("tromino", 6, 6),
    ("tetromino", 6, 6),
]


def make(name: str, rows: int, cols: int):
    return find_topology(name).random(rows, cols, random.Random(5))


@pytest.mark.parametrize(("name", "rows", "cols"), SHAPES)
@pytest.mark.parametrize("wide", [True, False])
def test_every_cell_has_one_label_that_a_click_finds(name, rows, cols, wide) -> None:
    topology = make(name, rows, cols)
    plan = build_layout(topology, wide)
    labels = [span.cell for line in plan.lines for span in line if span.label]
    assert sorted(labels) == list(topology.cells())
    for cell in topology.cells():
        assert plan.cell_at(*plan.anchor(cell)) == cell
    for line in plan.lines:  # the spans tile each line exactly
        assert sum(span.width for span in line) == plan.width
        assert all(a.x + a.width == b.x for a, b in itertools.pairwise(line))


def touching(raster: dict[tuple[int, int], int], steps) -> dict[int, set[int]]:
    found: dict[int, set[int]] = {cell: set() for cell in raster.values()}
    for (r, c), cell in raster.items():
        for dr, dc in steps:
            other = raster.get((r + dr, c + dc))
            if other is not None and other != cell:
                found[cell].add(other)
    return found


POINT = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]
EDGE = [(-1, 0), (1, 0), (0, -1), (0, 1)]


@pytest.mark.parametrize("rows", [1, 2, 3, 5])
@pytest.mark.parametrize("cols", [1, 2, 5, 8])
def test_parquet_bricks_touch_exactly_their_neighbours(rows, cols) -> None:
    topology = find_topology("parquet")(rows, cols)
    raster = parquet_raster(topology)
    assert sorted(set(raster.values())) == list(topology.cells())
    assert len(raster) == 2 * topology.size  # bricks never overlap
    points, edges = touching(raster, POINT), touching(raster, EDGE)
    for cell in topology.cells():
        assert points[cell] == set(topology.neighbours(cell))
        assert edges[cell] == set(topology.edge_neighbours(cell))


@pytest.mark.parametrize("name", ["domino", "tromino", "tetromino"])
def test_tiling_pieces_touch_exactly_their_neighbours(name) -> None:
    topology = make(name, 6, 6)
    raster = printed_raster(topology)
    points = touching(raster, POINT)
    for cell in topology.cells():
        assert points[cell] == set(topology.neighbours(cell))


@pytest.mark.parametrize("wide", [True, False])
def test_hex_cells_overlap_the_rows_around_them_where_they_touch(wide) -> None:
    topology = find_topology("hex")(5, 6)
    plan = hex_layout(topology, wide)

    def columns(cell: int) -> set[int]:  # the cell's label
        x, _, width = plan.label(cell)
        return set(range(x, x + width))

    for a in topology.cells():
        for b in topology.cells():
            ra, rb = topology.position(a)[0], topology.position(b)[0]
            if abs(ra - rb) == 1:
                assert bool(columns(a) & columns(b)) == (b in topology.neighbours(a))


def test_triangles_alternate_and_stand_on_their_base_neighbour() -> None:
    topology = find_topology("triangle")(4, 6)
    plan = triangle_layout(topology)
    for row in range(4):
        for col in range(6):
            cell = topology.cell_at(row, col)
            up = plan.marks[cell] == "up"
            assert up == ((row + col) % 2 == 0)
            x, y = plan.anchor(cell)
            below = plan.cell_at(x, y + 1)
            if up and row + 1 < 4:
                assert below in topology.edge_neighbours(cell)


def test_cursor_steps_follow_the_screen() -> None:
    topology = find_topology("square")(3, 3)
    plan = build_layout(topology)
    centre = topology.cell_at(1, 1)
    assert plan.step(centre, 1, 0) == topology.cell_at(1, 2)
    assert plan.step(centre, 0, -1) == topology.cell_at(0, 1)
    assert plan.step(topology.cell_at(0, 0), -1, 0) == topology.cell_at(0, 0)
    brick = find_topology("parquet")(3, 4)
    plan = build_layout(brick)
    for cell in brick.cells():  # moving never gets lost on the ragged herringbone
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            assert 0 <= plan.step(cell, dx, dy) < brick.size


@pytest.mark.parametrize("wide", [True, False])
def test_hex_neighbours_never_share_a_shade(wide) -> None:
    topology = find_topology("hex")(16, 30)
    plan = hex_layout(topology, wide)
    for cell in topology.cells():
        for other in topology.neighbours(cell):
            assert plan.shade[cell] != plan.shade[other]
    if not wide:
        assert plan.width <= 78  # an expert hex board fits 80 columns


@pytest.mark.parametrize("wide", [True, False])
def test_parquet_bricks_that_touch_never_share_a_shade(wide) -> None:
    topology = find_topology("parquet")(9, 9)
    plan = build_layout(topology, wide)
    for cell in topology.cells():
        for other in topology.edge_neighbours(cell):
            assert plan.shade[cell] != plan.shade[other]
    assert plan.height <= 29 and plan.width <= 98  # a beginner floor fits 100x32
