"""Polyomino tilings: the rectangle cut into pieces of k unit squares, one cell per piece."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import ClassVar

from minesweeper.errors import TopologyError
from minesweeper.topology.base import Topology

_EDGE_STEPS = ((-1, 0), (0, -1), (0, 1), (1, 0))
_POINT_STEPS = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0))
#: Search steps allowed for a whole board with no rectangle tiling to start from.
_STEP_BUDGET = 200_000
#: Search steps allowed to re-tile one window before it is left as it was.
_WINDOW_BUDGET = 2_000
#: Windows re-tiled per piece of the board (the mix of piece shapes settles by 2).
_MIXING = 2


class TilingError(TopologyError):
    """A piece grid that is not a tiling; ``row`` is the 0-based printed row at fault."""

    def __init__(self, message: str, row: int | None = None) -> None:
        super().__init__(message)
        self.row = row


class TilingTopology(Topology):
    """A ``rows x cols`` rectangle tiled by pieces of ``piece_size`` unit squares.

    Each piece is one cell. Two pieces are adjacent when any of their squares
    share a point, and share an edge when any of their squares do. The printed
    map has one character per unit square, showing its piece. Cells are
    numbered in the order their first square appears in row-major reading,
    whatever ids the piece grid used.
    """

    text_format = "tiling"
    #: Unit squares per piece.
    piece_size: ClassVar[int]
    #: What one piece is called, and many, for messages.
    piece_name: ClassVar[str]
    piece_plural: ClassVar[str]

    def __init__(self, pieces: Sequence[Sequence[int]]) -> None:
        rows = len(pieces)
        cols = len(pieces[0]) if rows else 0
        if rows < 1 or cols < 1:
            raise TilingError(f"a board needs at least 1 row and 1 column, got {rows}x{cols}")
        for row, line in enumerate(pieces):
            if len(line) != cols:
                raise TilingError(f"row {row + 1} has {len(line)} piece ids, expected {cols}", row)
        self.rows, self.cols = rows, cols
        # Renumber ids by first appearance, so equal tilings get equal cell ids.
        canonical: dict[int, int] = {}
        squares: list[list[tuple[int, int]]] = []
        grid = []
        for row, line in enumerate(pieces):
            out = []
            for col, given in enumerate(line):
                cell = canonical.setdefault(given, len(canonical))
                if cell == len(squares):
                    squares.append([])
                squares[cell].append((row, col))
                out.append(cell)
            grid.append(tuple(out))
        self.pieces: tuple[tuple[int, ...], ...] = tuple(grid)
        given_id = {cell: given for given, cell in canonical.items()}
        for cell, found in enumerate(squares):
            self._check_piece(given_id[cell], found)
        self._squares = tuple(tuple(found) for found in squares)
        self._neighbours = self._adjacency(_POINT_STEPS)
        self._edge_neighbours = self._adjacency(_EDGE_STEPS)

    def _check_piece(self, given: int, squares: list[tuple[int, int]]) -> None:
        size, name = self.piece_size, self.piece_name
        if len(squares) > size:
            raise TilingError(
                f"piece {given} has more than {size} squares (a {name} has {size})",
                squares[size][0],
            )
        if len(squares) < size:
            raise TilingError(
                f"piece {given} has only {len(squares)} square(s) (a {name} has {size})",
                squares[-1][0],
            )
        # Connected through shared edges, found by a search from its first square.
        members = set(squares)
        reached = {squares[0]}
        todo = [squares[0]]
        while todo:
            row, col = todo.pop()
            for dr, dc in _EDGE_STEPS:
                step = (row + dr, col + dc)
                if step in members and step not in reached:
                    reached.add(step)
                    todo.append(step)
        if len(reached) != size:
            stray = next(square for square in squares if square not in reached)
            raise TilingError(f"the squares of piece {given} are not connected", stray[0])

    def _adjacency(self, steps: Sequence[tuple[int, int]]) -> tuple[tuple[int, ...], ...]:
        rows, cols, grid = self.rows, self.cols, self.pieces
        found: list[set[int]] = [set() for _ in self._squares]
        for row in range(rows):
            for col in range(cols):
                cell = grid[row][col]
                for dr, dc in steps:
                    r, c = row + dr, col + dc
                    if 0 <= r < rows and 0 <= c < cols and grid[r][c] != cell:
                        found[cell].add(grid[r][c])
        return tuple(tuple(sorted(cells)) for cells in found)

    #: Pieces touch fewer others than squares do (6.1-6.4 on average at expert, squares
    #: 7.4), so each number tells less: at the square's density `best` wins 6 points less
    #: at intermediate and 19-26 less at expert. These shares even it (docs/play.md).
    preset_density: ClassVar[dict[str, float]] = {"intermediate": 0.9, "expert": 0.89}

    @classmethod
    def random(cls, rows: int, cols: int, rng: random.Random) -> TilingTopology:
        return cls(random_tiling(rows, cols, cls.piece_size, rng, cls.piece_plural))

    @classmethod
    def span_like(cls, rows: int, cols: int) -> tuple[int, int]:
        """Each side longer by the square root of the piece's size: as many pieces as the
        squares' board has cells (a beginner's 81), in its proportions."""
        scale = math.sqrt(cls.piece_size)
        return max(1, round(rows * scale)), max(1, round(cols * scale))

    @classmethod
    def cell_count(cls, rows: int, cols: int) -> int:
        # Whenever the area divides, a tiling by rectangles exists (a side divides for
        # sizes 2 and 3; for 4, a side does or both are even): `random_tiling` finds it.
        _check_area(rows, cols, cls.piece_size, cls.piece_plural)
        return rows * cols // cls.piece_size

    @property
    def size(self) -> int:
        return len(self._squares)

    @property
    def shape(self) -> tuple[int, int]:
        return self.rows, self.cols

    def neighbours(self, cell: int) -> tuple[int, ...]:
        return self._neighbours[cell]

    def edge_neighbours(self, cell: int) -> tuple[int, ...]:
        return self._edge_neighbours[cell]

    def cell_at(self, row: int, col: int) -> int:
        return self.pieces[row][col]

    def squares(self, cell: int) -> tuple[tuple[int, int], ...]:
        """The unit squares of piece ``cell``, in row-major order."""
        return self._squares[cell]

    def position(self, cell: int) -> tuple[int, int]:
        return self._squares[cell][0]

    def printed_positions(self, cell: int) -> tuple[int, ...]:
        cols = self.cols
        return tuple(row * cols + col for row, col in self._squares[cell])

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.pieces == self.pieces

    def __hash__(self) -> int:
        return hash((type(self), self.pieces))


class DominoTopology(TilingTopology):
    """Pieces of 2 squares."""

    name = "domino"
    piece_size = 2
    piece_name = "domino"
    piece_plural = "dominoes"


class TrominoTopology(TilingTopology):
    """Pieces of 3 squares: straight or bent."""

    name = "tromino"
    piece_size = 3
    piece_name = "tromino"
    piece_plural = "trominoes"


class TetrominoTopology(TilingTopology):
    """Pieces of 4 squares: any of the five tetrominoes, turned or flipped."""

    name = "tetromino"
    piece_size = 4
    piece_name = "tetromino"
    piece_plural = "tetrominoes"


def polyominoes(size: int) -> list[tuple[tuple[int, int], ...]]:
    """Every fixed polyomino of ``size`` squares (turns and mirror images distinct).

    Each is a sorted tuple of ``(dr, dc)`` whose first square is ``(0, 0)``: the
    square that comes first in row-major reading.
    """
    shapes: set[tuple[tuple[int, int], ...]] = {((0, 0),)}
    for _ in range(size - 1):
        grown: set[tuple[tuple[int, int], ...]] = set()
        for shape in shapes:
            for row, col in shape:
                for dr, dc in _EDGE_STEPS:
                    square = (row + dr, col + dc)
                    if square not in shape:
                        grown.add(_normalise((*shape, square)))
        shapes = grown
    return sorted(shapes)


def _normalise(squares: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    ordered = sorted(squares)
    top, left = ordered[0]
    return tuple((row - top, col - left) for row, col in ordered)


def random_tiling(
    rows: int, cols: int, piece_size: int, rng: random.Random, pieces: str = "pieces"
) -> list[list[int]]:
    """A random tiling of the ``rows x cols`` rectangle by pieces of ``piece_size`` squares.

    Returns the piece-id grid, ids in row-major order of first appearance.
    Raises `TopologyError` when the area is not a multiple of ``piece_size``
    or no tiling was found. Seeded ``rng``, same tiling.
    """
    _check_area(rows, cols, piece_size, pieces)
    area = rows * cols
    tiler = _Tiler(rows, cols, piece_size, rng)
    # A tiling by rectangles when one fits; else a search over the whole board.
    blocks = [
        (height, piece_size // height)
        for height in range(1, piece_size + 1)
        if piece_size % height == 0 and rows % height == 0 and cols % (piece_size // height) == 0
    ]
    if blocks:
        tiler.lay_blocks(*rng.choice(blocks))
    elif not tiler.retile(range(area), budget=_STEP_BUDGET):
        raise TopologyError(f"found no tiling of a {rows}x{cols} board by {pieces}")
    # Then shuffle it: free the pieces inside a small window and lay new ones there.
    side = piece_size + 2
    for _ in range(_MIXING * area // piece_size):
        top = rng.randrange(1 - side, rows)
        left = rng.randrange(1 - side, cols)
        tiler.shuffle_window(top, left, side)
    # The search fills in reading order, which favours some shapes and places;
    # a random mirror image (and turn, on a square board) spreads that bias.
    grid = [[tiler.owner[row * cols + col] for col in range(cols)] for row in range(rows)]
    if rng.random() < 0.5:
        grid = [line[::-1] for line in grid]
    if rng.random() < 0.5:
        grid = grid[::-1]
    if rows == cols and rng.random() < 0.5:
        grid = [list(line) for line in zip(*grid, strict=True)]
    return _renumbered(grid)


def _check_area(rows: int, cols: int, piece_size: int, pieces: str) -> None:
    if rows < 1 or cols < 1:
        raise TopologyError(f"a board needs at least 1 row and 1 column, got {rows}x{cols}")
    area = rows * cols
    if area % piece_size:
        raise TopologyError(
            f"a {rows}x{cols} board cannot be tiled by {pieces}: "
            f"its {area} squares are not a multiple of {piece_size}"
        )


class _Tiler:
    """A tiling under construction: the piece owning each square, and each piece's squares."""

    def __init__(self, rows: int, cols: int, piece_size: int, rng: random.Random) -> None:
        self.rows, self.cols, self.piece_size, self.rng = rows, cols, piece_size, rng
        self.owner = [-1] * (rows * cols)
        self.steps = [_edge_steps(square, rows, cols) for square in range(rows * cols)]
        self.pieces: dict[int, list[int]] = {}
        self.next_id = 0
        # Each shape as (dr, dc, flat offset) triples; shapes taller or wider than the board go.
        self.shapes = [
            tuple((dr, dc, dr * cols + dc) for dr, dc in shape)
            for shape in polyominoes(piece_size)
            if all(dr < rows and -cols < dc < cols for dr, dc in shape)
        ]

    def add(self, squares: Sequence[int]) -> None:
        piece = self.next_id
        self.next_id += 1
        self.pieces[piece] = list(squares)
        for square in squares:
            self.owner[square] = piece

    def lay_blocks(self, height: int, width: int) -> None:
        cols = self.cols
        for top in range(0, self.rows, height):
            for left in range(0, cols, width):
                self.add(
                    [(top + dr) * cols + left + dc for dr in range(height) for dc in range(width)]
                )

    def shuffle_window(self, top: int, left: int, side: int) -> None:
        rows, cols, owner, pieces = self.rows, self.cols, self.owner, self.pieces
        inside = set()
        for row in range(max(top, 0), min(top + side, rows)):
            for col in range(max(left, 0), min(left + side, cols)):
                inside.add(row * cols + col)
        touched = {owner[square] for square in inside}
        freed = [piece for piece in touched if all(sq in inside for sq in pieces[piece])]
        if len(freed) < 2:
            return
        old = [pieces.pop(piece) for piece in freed]
        region = sorted(square for squares in old for square in squares)
        for square in region:
            owner[square] = -1
        if not self.retile(region, budget=_WINDOW_BUDGET):
            for squares in old:
                self.add(squares)

    def retile(self, region: Sequence[int], budget: int) -> bool:
        """Cover the empty squares ``region`` (sorted) with new pieces; False if out of budget."""
        cols, owner, shapes = self.cols, self.owner, self.shapes
        allowed = set(region)
        rows = self.rows
        placed: list[list[int]] = []
        # One shuffle per region, a random rotation of it per square: cheaper, as random.
        order = shapes[:]
        self.rng.shuffle(order)
        # Frames: (index of the anchor in region, shapes in trying order, next one to try).
        stack: list[tuple[int, list[tuple[tuple[int, int, int], ...]], list[int]]] = []
        index = 0
        steps = 0
        while True:
            while index < len(region) and owner[region[index]] != -1:
                index += 1
            if index == len(region):
                for squares in placed:
                    for square in squares:
                        owner[square] = -1
                    self.add(squares)
                return True
            turn = self.rng.randrange(len(order))
            stack.append((index, order[turn:] + order[:turn], [0]))
            while True:
                steps += 1
                if steps > budget or not stack:
                    for squares in placed:
                        for square in squares:
                            owner[square] = -1
                    return False
                start, options, cursor = stack[-1]
                if len(placed) == len(stack):
                    for square in placed.pop():
                        owner[square] = -1
                anchor = region[start]
                row0, col0 = divmod(anchor, cols)
                found = None
                while cursor[0] < len(options) and found is None:
                    shape = options[cursor[0]]
                    cursor[0] += 1
                    squares = []
                    for dr, dc, delta in shape:
                        square = anchor + delta
                        if (
                            row0 + dr >= rows
                            or not 0 <= col0 + dc < cols
                            or square not in allowed
                            or owner[square] != -1
                        ):
                            break
                        squares.append(square)
                    else:
                        for square in squares:
                            owner[square] = -2
                        if self._leaves_hole(squares, allowed):
                            for square in squares:
                                owner[square] = -1
                        else:
                            found = squares
                if found is not None:
                    placed.append(found)
                    index = start
                    break
                stack.pop()

    def _leaves_hole(self, placed: list[int], allowed: set[int]) -> bool:
        """Whether the piece just placed walls off an empty region no pieces can fill."""
        owner, steps, size = self.owner, self.steps, self.piece_size
        seen: set[int] = set()
        for square in placed:
            for start in steps[square]:
                if start in seen or start not in allowed or owner[start] != -1:
                    continue
                region = {start}
                todo = [start]
                while todo:
                    for step in steps[todo.pop()]:
                        if step not in region and step in allowed and owner[step] == -1:
                            region.add(step)
                            todo.append(step)
                if len(region) % size:
                    return True
                seen |= region
        return False


def _renumbered(grid: list[list[int]]) -> list[list[int]]:
    """``grid`` with piece ids renumbered in row-major order of first appearance."""
    canonical: dict[int, int] = {}
    return [[canonical.setdefault(piece, len(canonical)) for piece in line] for line in grid]


def _edge_steps(square: int, rows: int, cols: int) -> list[int]:
    row, col = divmod(square, cols)
    steps = []
    if row > 0:
        steps.append(square - cols)
    if row < rows - 1:
        steps.append(square + cols)
    if col > 0:
        steps.append(square - 1)
    if col < cols - 1:
        steps.append(square + 1)
    return steps
