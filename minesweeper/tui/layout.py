"""Where each cell of a board is drawn: a canvas of terminal characters split into spans.

A `Layout` places every cell of a topology on a ``width x height`` grid of
characters. Each line is a list of `Span`: a run of characters that belongs to
one cell (its *label*, where the cell's content is written, or a *fill*, the
rest of a larger piece), or a static run (borders, background). The board
widget paints spans; clicks map back to cells with `Layout.cell_at`.

Shapes:

- ``square``: one label per cell, rows under rows, a checkerboard of shades.
- ``hex``: offset rows of labels, odd rows shifted, so each cell overlaps its
  two neighbours above and its two below; three shades tell neighbours apart.
- ``triangle``: labels side by side, each starting with ▲ or ▼; an up
  triangle stands on the down triangle below it.
- ``graph``: nodes on a lattice, edges as lines behind them (`minesweeper.tui.graph_layout`).
- tilings and anything else with a printed map: unit squares with
  box-drawn borders between different pieces, so a person sees which touch.
  Tilings are placed by their printed map.
- ``parquet``: the herringbone geometry (see `minesweeper.topology.parquet`) in
  unit squares one line high, each brick in a shade none of its neighbours has,
  so that a 9x9 floor fits 100x32.

Drawing branches on the topology's name because drawing is the UI's business;
rules never do.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from minesweeper.topology.base import Topology

#: Square -> piece maps used by the bordered drawing: ``(row, col) -> cell``.
Raster = Mapping[tuple[int, int], int]


@dataclass(frozen=True)
class Span:
    """``width`` characters from column ``x`` of a line.

    ``cell`` is the cell drawn there (None for borders and background, then
    ``text`` is what is written); ``label`` marks the span showing the cell's
    content (one per cell), the others being the cell's fill.
    """

    x: int
    width: int
    cell: int | None = None
    text: str = ""
    label: bool = False


class Layout:
    """A drawing plan: the spans of every line, and lookups from positions to cells.

    ``marks`` gives a cell's shape marker where the content needs one
    (``"up"``/``"down"`` for triangles); ``shade`` alternates 0/1 so that
    neighbouring cells of the same state do not merge.
    """

    def __init__(
        self,
        width: int,
        height: int,
        lines: list[list[Span]],
        marks: Mapping[int, str] | None = None,
        shade: Mapping[int, int] | None = None,
    ) -> None:
        self.width = width
        self.height = height
        self.lines = lines
        self.marks = dict(marks or {})
        self.shade = dict(shade or {})
        self._hits: list[list[int | None]] = [[None] * width for _ in range(height)]
        self._labels: dict[int, tuple[int, int, int]] = {}
        for y, spans in enumerate(lines):
            row = self._hits[y]
            for span in spans:
                if span.cell is None:
                    continue
                row[span.x : span.x + span.width] = [span.cell] * span.width
                if span.label:
                    self._labels[span.cell] = (span.x, y, span.width)

    def cell_at(self, x: int, y: int) -> int | None:
        """The cell drawn at character ``(x, y)``, or None (border, background, outside)."""
        if 0 <= y < self.height and 0 <= x < self.width:
            return self._hits[y][x]
        return None

    def label(self, cell: int) -> tuple[int, int, int]:
        """Where ``cell``'s content is written: ``(x, y, width)``."""
        return self._labels[cell]

    def anchor(self, cell: int) -> tuple[int, int]:
        """The middle of ``cell``'s label: where a click on the cell lands."""
        x, y, width = self._labels[cell]
        return x + (width - 1) // 2, y

    def step(self, cell: int, dx: int, dy: int) -> int:
        """The next cell from ``cell`` in direction ``(dx, dy)`` on the screen (or ``cell``).

        Walks straight from the cell's anchor; going up or down past the edge of a
        ragged board, the nearest cell on the next line that has one is taken.
        """
        x, y = self.anchor(cell)
        sx, sy = x + dx, y + dy
        while 0 <= sx < self.width and 0 <= sy < self.height:
            found = self.cell_at(sx, sy)
            if found is not None and found != cell:
                return found
            sx, sy = sx + dx, sy + dy
        if dy == 0:
            return cell
        line = y + dy
        while 0 <= line < self.height:
            near = [
                (abs(ox - x), other)
                for ox, other in enumerate(self._hits[line])
                if other is not None and other != cell
            ]
            if near:
                return min(near)[1]
            line += dy
        return cell


class Canvas:
    """Collects spans on a ``width x height`` grid, then fills the gaps with spaces."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.height = height
        self.spans: list[list[Span]] = [[] for _ in range(height)]

    def put(self, span: Span, y: int) -> None:
        self.spans[y].append(span)

    def layout(self, cls: type[Layout] = Layout, **extra: object) -> Layout:
        lines = []
        for spans in self.spans:
            spans.sort(key=lambda span: span.x)
            line, x = [], 0
            for span in spans:
                if span.x > x:
                    line.append(Span(x, span.x - x, text=" " * (span.x - x)))
                line.append(span)
                x = span.x + span.width
            if x < self.width:
                line.append(Span(x, self.width - x, text=" " * (self.width - x)))
            lines.append(_merge_static(line))
        return cls(self.width, self.height, lines, **extra)  # type: ignore[arg-type]


def _merge_static(line: list[Span]) -> list[Span]:
    """Join neighbouring static spans, keeping runs of blanks apart from runs of borders."""
    merged: list[Span] = []
    for span in line:
        if span.cell is None:
            for x, text in _runs(span.x, span.text):
                last = merged[-1] if merged else None
                if (
                    last is not None
                    and last.cell is None
                    and (last.text.strip() == "") == (text.strip() == "")
                ):
                    merged[-1] = Span(last.x, last.width + len(text), text=last.text + text)
                else:
                    merged.append(Span(x, len(text), text=text))
        else:
            merged.append(span)
    return merged


def _runs(x: int, text: str) -> list[tuple[int, str]]:
    """``text`` cut into runs of blanks and runs of other characters, with their columns."""
    runs: list[tuple[int, str]] = []
    for char in text:
        if runs and (runs[-1][1][-1] == " ") == (char == " "):
            runs[-1] = (runs[-1][0], runs[-1][1] + char)
        else:
            runs.append((x, char))
        x += 1
    return runs


# -- the shapes ---------------------------------------------------------------------------


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
