"""The drawing of each topology on a character canvas (`minesweeper.tui.canvas`).

Shapes:

- ``square``: one label per cell, rows under rows, a checkerboard of shades.
- ``hex``: offset rows of labels, odd rows shifted, so each cell overlaps its
  two neighbours above and its two below; three shades tell neighbours apart.
- ``triangle``: labels side by side, each starting with ▲ or ▼; an up
  triangle stands on the down triangle below it.
- ``graph``: nodes on a lattice, edges as lines behind them (`minesweeper.tui.graph_layout`).
- tilings and anything else with a printed map: unit squares with
  box-drawn borders between different pieces, so a person sees which touch
  (compact: shaded like the parquet). Tilings are placed by their printed map.
- ``parquet``: the herringbone geometry (see `minesweeper.topology.parquet`) in
  unit squares one line high, each brick in a shade none of its neighbours has,
  so that a 9x9 floor fits 100x32.

`build_layout` picks the drawing. Drawing branches on the topology's name because
drawing is the UI's business; rules never do.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from minesweeper.topology.base import Topology
from minesweeper.tui.canvas import Canvas, Layout, Span
from minesweeper.tui.graph_layout import graph_layout

#: Square -> piece maps used by the bordered drawing: ``(row, col) -> cell``.
Raster = Mapping[tuple[int, int], int]


def square_layout(topology: Topology, wide: bool = True) -> Layout:
    """Cells in rows, ``3`` (wide) or ``2`` characters each, shaded as a checkerboard."""
    rows, cols = topology.shape
    width = 3 if wide else 2
    canvas = Canvas(cols * width, rows)
    shade = {}
    for row in range(rows):
        for col in range(cols):
            cell = topology.cell_at(row, col)
            canvas.put(Span(col * width, width, cell, label=True), row)
            shade[cell] = (row + col) % 2
    return canvas.layout(shade=shade)


def hex_layout(topology: Topology, wide: bool = True) -> Layout:
    """Offset rows, odd rows shifted right by half a cell, cells side by side (4 characters
    wide, or 2 compact): each overlaps half of each neighbour above and below. Three
    shades keep neighbours apart; an expert 16x30 board is 61 columns wide compact.
    """
    rows, cols = topology.shape
    width = 4 if wide else 2
    canvas = Canvas(cols * width + width // 2, rows)
    shade = {}
    for row in range(rows):
        for col in range(cols):
            cell = topology.cell_at(row, col)
            canvas.put(Span(width // 2 * (row % 2) + col * width, width, cell, label=True), row)
            # Axial q - r mod 3 colours the hexagons properly (odd-r offset rows).
            q = col - (row - (row % 2)) // 2
            shade[cell] = (q - row) % 3
    return canvas.layout(shade=shade)


def triangle_layout(topology: Topology, wide: bool = True) -> Layout:
    """Rows of alternating up and down triangles (``(r, c)`` points up when ``r + c`` is even)."""
    rows, cols = topology.shape
    width = 3 if wide else 2
    canvas = Canvas(cols * width, rows)
    marks, shade = {}, {}
    for row in range(rows):
        for col in range(cols):
            cell = topology.cell_at(row, col)
            canvas.put(Span(col * width, width, cell, label=True), row)
            up = (row + col) % 2 == 0
            marks[cell] = "up" if up else "down"
            shade[cell] = row % 2
    return canvas.layout(marks=marks, shade=shade)


def printed_raster(topology: Topology) -> dict[tuple[int, int], int]:
    """Each character of the printed map as a unit square of the cell it shows."""
    rows, cols = topology.shape
    return {(r, c): topology.cell_at(r, c) for r in range(rows) for c in range(cols)}


def parquet_raster(topology: Topology) -> dict[tuple[int, int], int]:
    """The herringbone floor in unit squares (`ParquetTopology.squares`)."""
    squares = topology.squares  # type: ignore[attr-defined]
    return {square: cell for cell in topology.cells() for square in squares(cell)}


#: Box-drawing characters by the arms they have: (up, down, left, right).
_BOX = {
    (1, 1, 0, 0): "│",
    (0, 0, 1, 1): "─",
    (0, 1, 0, 1): "┌",
    (0, 1, 1, 0): "┐",
    (1, 0, 0, 1): "└",
    (1, 0, 1, 0): "┘",
    (1, 1, 0, 1): "├",
    (1, 1, 1, 0): "┤",
    (0, 1, 1, 1): "┬",
    (1, 0, 1, 1): "┴",
    (1, 1, 1, 1): "┼",
    (1, 0, 0, 0): "╵",
    (0, 1, 0, 0): "╷",
    (0, 0, 1, 0): "╴",
    (0, 0, 0, 1): "╶",
}


def bordered_layout(raster: Raster, unit: int = 3) -> Layout:
    """Unit squares ``unit`` characters wide, borders drawn only between different pieces.

    Each piece's content goes in its square nearest the piece's centre; its
    other squares, and the border positions inside it, are its fill.
    """
    grid, rows, cols, pieces = _placed(raster)
    canvas = Canvas(cols * (unit + 1) + 1, rows * 2 + 1)
    at = grid.get
    labels = {cell: _central(squares) for cell, squares in pieces.items()}

    def fill(x: int, y: int, width: int, cell: int | None, border: str) -> None:
        if cell is None:
            canvas.put(Span(x, width, text=border), y)
        else:
            canvas.put(Span(x, width, cell), y)

    for r in range(rows + 1):
        for c in range(cols + 1):
            x, y = c * (unit + 1), r * 2
            a, b, d, e = at((r - 1, c - 1)), at((r - 1, c)), at((r, c - 1)), at((r, c))
            # The corner where four squares meet.
            arms = (int(a != b), int(d != e), int(a != d), int(b != e))
            if any(arms):
                fill(x, y, 1, None, _BOX[arms])
            elif e is not None:
                fill(x, y, 1, e, "")
            # The horizontal border above square (r, c).
            if c < cols:
                if b == e:
                    if e is not None:
                        fill(x + 1, y, unit, e, "")
                else:
                    fill(x + 1, y, unit, None, "─" * unit)
            if r < rows:
                # The vertical border left of square (r, c), and the square itself.
                if d == e:
                    if e is not None:
                        fill(x, y + 1, 1, e, "")
                else:
                    fill(x, y + 1, 1, None, "│")
                if e is not None:
                    if labels[e] == (r, c):
                        canvas.put(Span(x + 1, unit, e, label=True), y + 1)
                    else:
                        fill(x + 1, y + 1, unit, e, "")
    return canvas.layout(shade=_two_shades(pieces))


def _placed(
    raster: Raster,
) -> tuple[dict[tuple[int, int], int], int, int, dict[int, list[tuple[int, int]]]]:
    """``raster`` moved to start at row and column 0, its rows, its columns, and each
    piece's squares in order."""
    top = min(r for r, _ in raster)
    left = min(c for _, c in raster)
    grid = {(r - top, c - left): cell for (r, c), cell in raster.items()}
    pieces: dict[int, list[tuple[int, int]]] = {}
    for square, cell in sorted(grid.items()):
        pieces.setdefault(cell, []).append(square)
    rows = max(r for r, _ in grid) + 1
    cols = max(c for _, c in grid) + 1
    return grid, rows, cols, pieces


def _central(squares: list[tuple[int, int]]) -> tuple[int, int]:
    """The square nearest the centre of ``squares`` (the first such)."""
    mr = sum(r for r, _ in squares) / len(squares)
    mc = sum(c for _, c in squares) / len(squares)
    return min(squares, key=lambda s: (s[0] - mr) ** 2 + (s[1] - mc) ** 2)


def _two_shades(pieces: Mapping[int, list[tuple[int, int]]]) -> dict[int, int]:
    """Alternate shades by the piece's first square, like a checkerboard."""
    return {cell: (squares[0][0] + squares[0][1]) % 2 for cell, squares in pieces.items()}


def shaded_layout(raster: Raster, unit: int = 2) -> Layout:
    """Unit squares ``unit`` characters wide and one line high, no borders: each piece in a
    shade that no piece beside it has (a greedy colouring), its content in its central square.

    Half the height of `bordered_layout`, for floors whose pieces run diagonally.
    """
    grid, rows, cols, pieces = _placed(raster)
    labels = {cell: _central(squares) for cell, squares in pieces.items()}
    touching: dict[int, set[int]] = {cell: set() for cell in pieces}
    for (r, c), cell in grid.items():
        for other in (grid.get((r + 1, c)), grid.get((r, c + 1))):
            if other is not None and other != cell:
                touching[cell].add(other)
                touching[other].add(cell)
    shade: dict[int, int] = {}
    for cell in sorted(pieces, key=lambda piece: pieces[piece][0]):
        used = {shade[other] for other in touching[cell] if other in shade}
        shade[cell] = min(set(range(len(used) + 1)) - used)
    canvas = Canvas(cols * unit, rows)
    for (r, c), cell in grid.items():
        canvas.put(Span(c * unit, unit, cell, label=labels[cell] == (r, c)), r)
    return canvas.layout(shade=shade)


Builder = Callable[[Topology, bool], Layout]

#: Special drawings by topology name; others get `bordered_layout` of their printed map.
BUILDERS: dict[str, Builder] = {
    "square": square_layout,
    "hex": hex_layout,
    "triangle": triangle_layout,
    "parquet": lambda topology, wide: shaded_layout(parquet_raster(topology), 2 if wide else 1),
    "graph": graph_layout,
}


def build_layout(topology: Topology, wide: bool = True) -> Layout:
    """The drawing of ``topology``; ``wide`` gives roomier cells when the screen allows.

    Pieces of a printed map are outlined when roomy; compact, they are shaded like the
    parquet's bricks, one line per square: half the height, so a beginner's 81
    tetrominoes (18x18 squares) fit 80x24.
    """
    builder = BUILDERS.get(topology.name)
    if builder is not None:
        return builder(topology, wide)
    if wide:
        return bordered_layout(printed_raster(topology), 3)
    return shaded_layout(printed_raster(topology), 2)
