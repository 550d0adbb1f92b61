"""The drawing of an arbitrary graph: nodes on a lattice of labels, edges as braille lines.

Each node gets a label (3 characters, or 1 on a compact drawing) on a lattice
whose columns are one blank apart and whose rows are one line apart, so that
edges have room to show between them. Nodes go where the graph's own
coordinates put them (`GraphTopology.coordinates`: random graphs sit on their
grid; a board file may give ``x y`` per node); a graph without coordinates is
laid out once by networkx's force-directed ``spring_layout`` (seeded, so the
same graph is always drawn alike). Edges are straight lines drawn in braille
dots (2x4 dots per character) between the middles of their nodes' labels, and
the labels are painted over them, so lines run behind the nodes.

The cursor moves to the nearest node in the arrow's direction
(`GraphLayout.step`), since nodes do not stand in rows and columns.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from minesweeper.topology.base import Topology
from minesweeper.topology.geometry import spring_points
from minesweeper.tui.canvas import Canvas, Layout, Span
from minesweeper.tui.palette import NODE

#: Lattice slots per node when the layout is scaled freely (room for the lines).
ROOM = 2.0
#: Width / height of a free layout's lattice, in slots: about the shape of a terminal.
SCREEN_ASPECT = 1.6
#: Braille dot bits by (column, row) within a character of 2x4 dots.
_DOTS = ((0x01, 0x02, 0x04, 0x40), (0x08, 0x10, 0x20, 0x80))


class GraphLayout(Layout):
    """A `Layout` whose cursor steps to the nearest cell in a direction, not along a line."""

    def step(self, cell: int, dx: int, dy: int) -> int:
        """The nearest cell whose anchor lies within 60 degrees of ``(dx, dy)`` (or ``cell``).

        Distances count a line as two columns, as a character is about twice as
        tall as it is wide; cells off the direction's axis count as farther.
        """
        x0, y0 = self.anchor(cell)
        best: tuple[float, int] | None = None
        for other in self._labels:
            if other == cell:
                continue
            x, y = self.anchor(other)
            vx, vy = x - x0, (y - y0) * 2
            along = vx * dx + vy * dy
            distance = math.hypot(vx, vy)
            if along <= 0 or along < distance * 0.5:  # outside the 60-degree cone
                continue
            across = distance * distance - along * along
            score = along + 2 * math.sqrt(max(0.0, across))
            if best is None or (score, other) < best:
                best = (score, other)
        return cell if best is None else best[1]


def graph_layout(topology: Topology, wide: bool = True) -> GraphLayout:
    """Nodes of ``topology`` on a lattice of labels, its edges as braille lines behind them."""
    label, pitch = (3, 4) if wide else (1, 2)
    slots = lattice_slots(topology)
    cols = max(c for c, _ in slots.values()) + 1
    rows = max(r for _, r in slots.values()) + 1
    width, height = cols * pitch - (pitch - label), rows * 2 - 1
    middles = {
        node: ((c * pitch + label / 2) * 2, (r * 2 + 0.5) * 4) for node, (c, r) in slots.items()
    }
    dots = [[0] * width for _ in range(height)]
    for u, v in topology.edges():
        _line(dots, middles[u], middles[v])
    board = Canvas(width, height)
    covered: set[tuple[int, int]] = set()
    for node, (c, r) in slots.items():
        board.put(Span(c * pitch, label, node, label=True), r * 2)
        covered.update((c * pitch + i, r * 2) for i in range(label))
    for y, line in enumerate(dots):
        for x, bits in enumerate(line):
            if bits and (x, y) not in covered:
                board.put(Span(x, 1, text=chr(0x2800 + bits)), y)
    marks = dict.fromkeys(slots, NODE)
    return board.layout(cls=GraphLayout, marks=marks)  # type: ignore[return-value]


def lattice_slots(topology: Topology) -> dict[int, tuple[int, int]]:
    """Each node's lattice slot ``(column, row)``, every slot used at most once."""
    points = getattr(topology, "coordinates", None)
    if points is None:
        points = spring_points(topology.size, topology.edges())
        aspect = SCREEN_ASPECT
    else:
        grid = _as_grid(points)
        if grid is not None:
            return grid
        aspect = None
    return _snap(points, aspect)


def _as_grid(points: Sequence[tuple[float, float]]) -> dict[int, tuple[int, int]] | None:
    """Integer points, all different, on a not too sparse grid: used as they are."""
    if not all(x.is_integer() and y.is_integer() for x, y in points):
        return None
    left = min(int(x) for x, _ in points)
    top = min(int(y) for _, y in points)
    slots = {node: (int(x) - left, int(y) - top) for node, (x, y) in enumerate(points)}
    cols = max(c for c, _ in slots.values()) + 1
    rows = max(r for _, r in slots.values()) + 1
    if len(set(slots.values())) != len(points) or cols * rows > 4 * len(points):
        return None
    return slots


def _snap(
    points: Sequence[tuple[float, float]], aspect: float | None
) -> dict[int, tuple[int, int]]:
    """Scale ``points`` onto a lattice of about ``ROOM`` slots per node; each to its nearest
    free slot. ``aspect`` (columns / rows) defaults to the points' own, within reason.
    """
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    spread_x = (max(xs) - min(xs)) or 1.0
    spread_y = (max(ys) - min(ys)) or 1.0
    if aspect is None:
        aspect = min(3.0, max(1 / 3, spread_x / spread_y))
    wanted = max(1.0, ROOM * len(points))
    cols = max(1, math.ceil(math.sqrt(wanted * aspect)))
    rows = max(1, math.ceil(wanted / cols))
    taken: set[tuple[int, int]] = set()
    slots: dict[int, tuple[int, int]] = {}
    for node, (x, y) in enumerate(points):
        fx = (x - min(xs)) / spread_x * (cols - 1)
        fy = (y - min(ys)) / spread_y * (rows - 1)
        slot = _nearest_free(fx, fy, cols, rows, taken)
        taken.add(slot)
        slots[node] = slot
    return slots


def _nearest_free(
    fx: float, fy: float, cols: int, rows: int, taken: set[tuple[int, int]]
) -> tuple[int, int]:
    """The free slot nearest ``(fx, fy)``, searched in growing squares around it."""
    cx, cy = round(fx), round(fy)
    for radius in range(max(cols, rows) + 1):
        ring = [
            (c, r)
            for c in range(cx - radius, cx + radius + 1)
            for r in range(cy - radius, cy + radius + 1)
            if max(abs(c - cx), abs(r - cy)) == radius
            and 0 <= c < cols
            and 0 <= r < rows
            and (c, r) not in taken
        ]
        if ring:
            return min(ring, key=lambda s: ((s[0] - fx) ** 2 + (s[1] - fy) ** 2, s))
    raise ValueError("no free slot left")  # cannot happen: there are more slots than nodes


def _line(dots: list[list[int]], start: tuple[float, float], end: tuple[float, float]) -> None:
    """Set the braille dots along the segment from ``start`` to ``end`` (in dot units)."""
    (x0, y0), (x1, y1) = start, end
    steps = max(1, math.ceil(max(abs(x1 - x0), abs(y1 - y0))))
    height, width = len(dots), len(dots[0])
    for i in range(steps + 1):
        t = i / steps
        x, y = int(x0 + (x1 - x0) * t), int(y0 + (y1 - y0) * t)
        cx, cy = x // 2, y // 4
        if 0 <= cy < height and 0 <= cx < width:
            dots[cy][cx] |= _DOTS[x % 2][y % 4]
