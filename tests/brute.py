"""Test helpers for the solver: small positions on several topologies, and brute-force oracles.

`layouts` enumerates every assignment of the frontier cells that agrees with
every revealed number (the mine count is not known, so cells away from the
frontier are free and never determined); `full_layouts` every layout of a
position whose count is known, and `exact_win` plays a strategy on over all of them.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from hypothesis import strategies as st

from minesweeper.board import Board
from minesweeper.game import Game, State
from minesweeper.solver.player import play_out
from minesweeper.solver.probability import probabilities
from minesweeper.solver.strategy import Strategy
from minesweeper.solver.view import View
from minesweeper.topology import TOPOLOGIES, GridTopology, SquareTopology, Topology
from minesweeper.topology.graph import GraphTopology


def grid_classes() -> list[type[GridTopology]]:
    """Registered topologies that build from (rows, cols)."""
    found: list[type[GridTopology]] = []
    for _, cls in sorted(TOPOLOGIES.items()):
        try:
            cls(3, 3)  # type: ignore[call-arg]
        except Exception:  # a topology needing other arguments is not a grid one
            continue
        found.append(cls)  # type: ignore[arg-type]
    return found


#: Name of the arbitrary simple graphs `topologies` draws (not just the registry's random ones).
ANY_GRAPH = "any-graph"

#: Builds a topology from rows, columns and a random generator.
Maker = Callable[[int, int, random.Random], Topology]


def topology_kinds() -> dict[str, Maker]:
    """Every shape the solver tests run on, by name.

    The registered topologies built from (rows, cols), or else by their
    ``random(rows, cols, rng)`` class method (random tilings and graphs), and
    ``any-graph`` (any simple graph, drawn by `topologies`).
    """
    kinds: dict[str, Maker] = {
        cls.name: (lambda rows, cols, rng, cls=cls: cls(rows, cols)) for cls in grid_classes()
    }
    for name, cls in sorted(TOPOLOGIES.items()):
        if name not in kinds and hasattr(cls, "random"):
            kinds[name] = lambda rows, cols, rng, cls=cls: cls.random(rows, cols, rng)
    kinds[ANY_GRAPH] = lambda rows, cols, rng: SquareTopology(rows, cols)
    return kinds


@st.composite
def topologies(draw: st.DrawFn, max_side: int = 5, kind: str | None = None) -> Topology:
    """A small board of ``kind`` (any of `topology_kinds` when None)."""
    kinds = topology_kinds()
    if kind is None:
        kind = draw(st.sampled_from(sorted(kinds)))
    if kind == ANY_GRAPH:
        size = draw(st.integers(1, 14))
        pairs = st.tuples(st.integers(0, size - 1), st.integers(0, size - 1))
        edges = {(min(pair), max(pair)) for pair in draw(st.lists(pairs, max_size=3 * size))}
        return GraphTopology(size, sorted((u, v) for u, v in edges if u != v))
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


def square(rows: list[str], mine_count: int | None = None) -> View:
    """A view from text: digits revealed, ``F`` known mines, anything else unknown."""
    topology = SquareTopology(len(rows), len(rows[0]))
    revealed = {}
    mines = set()
    for r, line in enumerate(rows):
        for c, char in enumerate(line):
            if char.isdigit():
                revealed[topology.cell_at(r, c)] = int(char)
            elif char == "F":
                mines.add(topology.cell_at(r, c))
    return View(topology, revealed, frozenset(mines), mine_count)


def small_positions(count: int, seed: int, side: int = 4) -> list[tuple[View, Board]]:
    """Positions of random small boards where a guess is due, with their boards."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        topology = SquareTopology(side, side + rng.randint(0, 1))
        mines = frozenset(rng.sample(range(topology.size), 3))
        board = Board(topology, mines)
        safe = [c for c in range(topology.size) if c not in mines]
        revealed = {c: board.count(c) for c in rng.sample(safe, rng.randint(1, 3))}
        view = View(topology, revealed, frozenset(), 3)
        result = probabilities(view)
        if not result.safe:
            found.append((view.with_mines(result.mines), board))
    return found


def full_layouts(view: View) -> list[frozenset[int]]:
    """Every layout of ``view`` (brute force; the mine count is known)."""
    unknown = view.unknown()
    neighbours = view.topology.neighbours
    assert view.mines_left is not None
    found = []
    for chosen in itertools.combinations(unknown, view.mines_left):
        mines = view.mines | frozenset(chosen)
        if all(sum(o in mines for o in neighbours(c)) == n for c, n in view.revealed.items()):
            found.append(mines)
    return found


def exact_win(view: View, cell: int, policy: Strategy) -> Fraction:
    """The chance to win by opening ``cell``, then playing ``policy``: every layout played."""
    layouts = full_layouts(view)
    won = 0
    for mines in layouts:
        if cell not in mines:
            game, _ = play_out(Board(view.topology, mines), view, cell, policy, True)
            won += game.state is State.WON
    return Fraction(won, len(layouts))
