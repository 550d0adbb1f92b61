"""Test helpers for the solver: small positions on several topologies, and a brute-force oracle.

The oracle enumerates every assignment of the frontier cells that agrees with
every revealed number (the mine count is not known, so cells away from the
frontier are free and never determined).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hypothesis import strategies as st

from minesweeper.board import Board
from minesweeper.game import Game
from minesweeper.solver.view import View
from minesweeper.topology import TOPOLOGIES, GridTopology, SquareTopology, Topology


class HexTestTopology(GridTopology):
    """Hexagons in offset rows (odd rows shifted right): 6 neighbours, 2 of them "edge" ones."""

    name = "hex-test"

    def offsets(self, row: int, col: int) -> tuple[tuple[int, int], ...]:
        shift = row % 2
        return (
            (0, -1),
            (0, 1),
            (-1, shift - 1),
            (-1, shift),
            (1, shift - 1),
            (1, shift),
        )

    def edge_offsets(self, row: int, col: int) -> tuple[tuple[int, int], ...]:
        return ((0, -1), (0, 1))


class GraphTestTopology(Topology):
    """An arbitrary graph printed on one row; the first half of each neighbour list are "edges"."""

    name = "graph-test"
    move_arity = 1

    def __init__(self, size: int, edges: Sequence[tuple[int, int]]) -> None:
        self._size = size
        self._neighbours: list[list[int]] = [[] for _ in range(size)]
        for a, b in edges:
            if a != b and b not in self._neighbours[a]:
                self._neighbours[a].append(b)
                self._neighbours[b].append(a)

    @property
    def size(self) -> int:
        return self._size

    @property
    def shape(self) -> tuple[int, int]:
        return 1, self._size

    def neighbours(self, cell: int) -> list[int]:
        return self._neighbours[cell]

    def edge_neighbours(self, cell: int) -> list[int]:
        around = self._neighbours[cell]
        return around[: (len(around) + 1) // 2]

    def cell_at(self, row: int, col: int) -> int:
        return col


def grid_classes() -> list[type[GridTopology]]:
    """Registered topologies that build from (rows, cols), plus the test hexagons."""
    found: list[type[GridTopology]] = [HexTestTopology]
    for _, cls in sorted(TOPOLOGIES.items()):
        try:
            cls(3, 3)  # type: ignore[call-arg]
        except Exception:  # a topology needing other arguments is not a grid one
            continue
        found.append(cls)  # type: ignore[arg-type]
    return found


#: Builds a topology from rows, columns and a random generator.
Maker = Callable[[int, int, random.Random], Topology]


def topology_kinds() -> dict[str, Maker]:
    """Every shape the solver tests run on, by name.

    The registered topologies built from (rows, cols), or else by their
    ``random(rows, cols, rng)`` class method (random tilings and graphs), the
    test hexagons, and ``graph-test`` (any graph, drawn by `topologies`).
    """
    kinds: dict[str, Maker] = {
        cls.name: (lambda rows, cols, rng, cls=cls: cls(rows, cols)) for cls in grid_classes()
    }
    for name, cls in sorted(TOPOLOGIES.items()):
        if name not in kinds and hasattr(cls, "random"):
            kinds[name] = lambda rows, cols, rng, cls=cls: cls.random(rows, cols, rng)
    kinds[GraphTestTopology.name] = lambda rows, cols, rng: SquareTopology(rows, cols)
    return kinds


@st.composite
def topologies(draw: st.DrawFn, max_side: int = 5, kind: str | None = None) -> Topology:
    """A small board of ``kind`` (any of `topology_kinds` when None)."""
    kinds = topology_kinds()
    if kind is None:
        kind = draw(st.sampled_from(sorted(kinds)))
    if kind == GraphTestTopology.name:
        size = draw(st.integers(1, 14))
        pairs = st.tuples(st.integers(0, size - 1), st.integers(0, size - 1))
        return GraphTestTopology(size, draw(st.lists(pairs, max_size=3 * size)))
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    rng = random.Random(draw(st.integers(0, 2**32)))
    try:
        return kinds[kind](rows, cols, rng)
    except Exception:  # some shapes forbid some sizes; fall back to squares of that size
        return SquareTopology(rows, cols)


@dataclass(frozen=True)
class Position:
    """A view, and the board it was played on (so the layout is one consistent answer)."""

    view: View
    board: Board


@st.composite
def positions(draw: st.DrawFn, max_side: int = 5, kind: str | None = None) -> Position:
    """A real position: random mines, a few safe clicks (flooding zeros), some mines known."""
    topology = draw(topologies(max_side, kind))
    size = topology.size
    density = draw(st.sampled_from([0.1, 0.2, 0.3, 0.45]))
    flags = draw(st.lists(st.floats(0, 1), min_size=size, max_size=size))
    mines = {cell for cell, f in enumerate(flags) if f < density}
    board = Board(topology, mines)
    game = Game(board)
    for cell in draw(st.lists(st.integers(0, size - 1), max_size=8)):
        if cell not in mines and not game.over:
            game.visit(cell)
    revealed = {cell: board.count(cell) for cell in range(size) if game.revealed[cell]}
    known = draw(st.sets(st.sampled_from(sorted(mines)))) if mines else set()
    return Position(View(topology, revealed, frozenset(known)), board)


@st.composite
def arbitrary_views(draw: st.DrawFn, max_side: int = 4) -> View:
    """A view with any counts on any revealed cells: often inconsistent."""
    topology = draw(topologies(max_side))
    size = topology.size
    cells = draw(st.sets(st.integers(0, size - 1)))
    revealed = {
        cell: draw(st.integers(0, len(topology.neighbours(cell)))) for cell in sorted(cells)
    }
    rest = [cell for cell in range(size) if cell not in cells]
    known = draw(st.sets(st.sampled_from(rest))) if rest else set()
    return View(topology, revealed, frozenset(known))


def frontier_cells(view: View) -> list[int]:
    """Unknown cells next to a revealed cell."""
    return sorted(
        {o for c in view.revealed for o in view.topology.neighbours(c) if view.is_unknown(o)}
    )


def layouts(view: View) -> list[dict[int, int]]:
    """Every 0/1 assignment of the frontier cells that agrees with every revealed number."""
    topology = view.topology
    cells = frontier_cells(view)
    numbers = list(view.revealed)
    # for each number: its count minus known mines, and its frontier neighbours
    need = {
        n: view.revealed[n] - sum(o in view.mines for o in topology.neighbours(n)) for n in numbers
    }
    around = {n: [o for o in topology.neighbours(n) if view.is_unknown(o)] for n in numbers}
    watchers: dict[int, list[int]] = {c: [] for c in cells}
    for n in numbers:
        for o in around[n]:
            watchers[o].append(n)
    if any(need[n] < 0 or need[n] > len(around[n]) for n in numbers):
        return []
    found: list[dict[int, int]] = []
    value: dict[int, int] = {}

    def fits(number: int) -> bool:
        assigned = [value[o] for o in around[number] if o in value]
        mines = sum(assigned)
        free = len(around[number]) - len(assigned)
        return mines <= need[number] <= mines + free

    def walk(index: int) -> None:
        if index == len(cells):
            found.append(dict(value))
            return
        cell = cells[index]
        for v in (0, 1):
            value[cell] = v
            if all(fits(n) for n in watchers[cell]):
                walk(index + 1)
            del value[cell]

    walk(0)
    return found


def determined(view: View) -> tuple[set[int], set[int]] | None:
    """Frontier cells safe in every layout and mines in every layout; None if no layout fits."""
    found = layouts(view)
    if not found:
        return None
    cells = frontier_cells(view)
    safe = {c for c in cells if all(layout[c] == 0 for layout in found)}
    mines = {c for c in cells if all(layout[c] == 1 for layout in found)}
    return safe, mines
