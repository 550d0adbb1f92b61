"""Seeded random boards on any topology, and the standard presets.

A board is drawn uniformly among the layouts that the first-click rule allows:
the mines are a ``rng.sample`` of the cells the rule leaves free.
"""

from __future__ import annotations

import enum
import random
from dataclasses import dataclass

from minesweeper.board import Board
from minesweeper.errors import MinesweeperError
from minesweeper.topology.base import Topology


class FirstClick(enum.Enum):
    """What the first click is guaranteed.

    ``ANY``: nothing; ``SAFE``: it is not a mine; ``OPENING``: neither it nor
    any neighbour is a mine; ``ZERO``: placed as ``OPENING``, named for what
    the player sees (the first cell shows 0 and opens an area).
    """

    ANY = "none"
    SAFE = "safe"
    OPENING = "opening"
    ZERO = "zero"


@dataclass(frozen=True)
class Preset:
    """A named board size and mine count, with the conventional first click ``start``."""

    name: str
    rows: int
    cols: int
    mines: int
    start: tuple[int, int]

    @property
    def density(self) -> float:
        return self.mines / (self.rows * self.cols)

    def mines_for(self, cells: int) -> int:
        """The mine count of this density on ``cells`` cells: at least 1, leaving one safe."""
        return max(1, min(cells - 1, round(self.density * cells)))


def _acm_preset(density: float) -> Preset:
    return Preset(f"acm-{round(density * 100)}", 30, 30, round(900 * density), (15, 15))


#: The classic difficulty levels (starts are those of the reference solver, David Hill's),
#: then the ACM assignment's 30x30 boards at densities 0.10, 0.15 and 0.20.
PRESETS: dict[str, Preset] = {
    preset.name: preset
    for preset in (
        Preset("beginner", 9, 9, 10, (2, 2)),
        Preset("intermediate", 16, 16, 40, (2, 2)),
        Preset("expert", 16, 30, 99, (3, 3)),
        *map(_acm_preset, (0.10, 0.15, 0.20)),
    )
}


class Rules(enum.Enum):
    """How a game starts and what the player is told.

    ``modern``: the first click, at the preset's start, is an opening; the
    mine count is told. ``classic``: the first click, at (0, 0), is only safe;
    the count is told. ``acm``: the first click, at the preset's start, is a
    zero; the count is not told (the ACM protocol).
    """

    MODERN = "modern"
    CLASSIC = "classic"
    ACM = "acm"

    @property
    def placement(self) -> FirstClick:
        return {
            Rules.MODERN: FirstClick.OPENING,
            Rules.CLASSIC: FirstClick.SAFE,
            Rules.ACM: FirstClick.ZERO,
        }[self]

    @property
    def tells_mine_count(self) -> bool:
        return self is not Rules.ACM

    def start(self, preset: Preset) -> tuple[int, int]:
        """The first click on ``preset`` under these rules."""
        return (0, 0) if self is Rules.CLASSIC else preset.start


def fitting_size(kind: type[Topology], rows: int, cols: int) -> tuple[int, int]:
    """``rows x cols``, or the nearest size that ``kind`` can cover (tilings need an area
    their pieces divide): fewest rows and columns changed, then the smaller board.
    """
    around = sorted(
        (
            (r, c)
            for r in range(max(1, rows - 2), rows + 3)
            for c in range(max(1, cols - 2), cols + 3)
        ),
        key=lambda size: (abs(size[0] - rows) + abs(size[1] - cols), size[0] * size[1], size),
    )
    for size in around:
        try:
            kind.random(*size, random.Random(0))
        except MinesweeperError:
            continue
        return size
    return rows, cols  # nothing near fits: let the caller report the original size


def excluded_cells(topology: Topology, first: int | None, rule: FirstClick) -> set[int]:
    """The cells ``rule`` keeps free of mines when the first click is ``first``."""
    if rule is FirstClick.ANY:
        return set()
    if first is None:
        raise MinesweeperError(f"the first-click rule {rule.value!r} needs a first cell")
    if not 0 <= first < topology.size:
        raise MinesweeperError(f"the first cell {first} is not on the board")
    if rule is FirstClick.SAFE:
        return {first}
    return {first, *topology.neighbours(first)}


def random_board(
    topology: Topology,
    mines: int,
    rng: random.Random,
    first: int | None = None,
    rule: FirstClick | str = FirstClick.ANY,
) -> Board:
    """A board with ``mines`` mines, uniform among the layouts ``rule`` allows for ``first``.

    Raises `MinesweeperError` when the mines do not fit: too many for the cells
    the rule leaves free, or so many that no safe cell would remain.
    """
    rule = FirstClick(rule)
    if mines < 0:
        raise MinesweeperError(f"the mine count must not be negative, got {mines}")
    if mines >= topology.size:
        raise MinesweeperError(
            f"{mines} mine(s) leave no safe cell on a board of {topology.size} cells"
        )
    excluded = excluded_cells(topology, first, rule)
    free = [cell for cell in topology.cells() if cell not in excluded]
    if mines > len(free):
        raise MinesweeperError(
            f"{mines} mine(s) do not fit: the first-click rule {rule.value!r} "
            f"leaves only {len(free)} cell(s) free"
        )
    return Board(topology, rng.sample(free, mines))


def middle_cell(topology: Topology) -> int:
    """The cell in the middle of the printed map."""
    rows, cols = topology.shape
    return topology.cell_at(rows // 2, cols // 2)


def start_cell(topology: Topology, start: tuple[int, int], cols: int) -> int:
    """The cell at printed position ``start`` of a board generated ``rows x cols``.

    A position outside the printed map (a graph prints one line of nodes) is
    read as the row-major index ``r * cols + c`` into that map.
    """
    rows_printed, cols_printed = topology.shape
    row, col = start
    if 0 <= row < rows_printed and 0 <= col < cols_printed:
        return topology.cell_at(row, col)
    index = row * cols + col
    if row >= 0 and 0 <= col < cols and index < rows_printed * cols_printed:
        return topology.cell_at(*divmod(index, cols_printed))
    raise MinesweeperError(
        f"the first click {start} is outside the {rows_printed}x{cols_printed} board"
    )
