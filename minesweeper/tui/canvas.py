"""A board's drawing plan: a canvas of terminal characters split into spans.

A `Layout` places every cell of a topology on a ``width x height`` grid of
characters. Each line is a list of `Span`: a run of characters that belongs to
one cell (its *label*, where the cell's content is written, or a *fill*, the
rest of a larger piece), or a static run (borders, background). The board
widget paints spans; clicks map back to cells with `Layout.cell_at`. `Canvas`
collects spans and fills the gaps. The drawings of each topology are in
`minesweeper.tui.shapes`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


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
