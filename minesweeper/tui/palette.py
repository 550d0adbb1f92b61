"""How a cell looks: its glyph and colours, from what the session says it shows.

Numbers follow the classic palette (1 blue, 2 green, 3 red, 4 navy, 5 maroon,
6 teal, 7 black, 8 grey) on the light grey of an opened cell; closed cells are
a darker grey, in shades (two to four, as the drawing needs) so that neighbours do not
merge.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from rich.style import Style

from minesweeper.play.session import CellState
from minesweeper.protocol import COUNT_DIGITS

#: The classic colour of each number; larger counts (other topologies) go on in darker hues.
NUMBER_COLOURS = {
    1: "#0000ff",
    2: "#008000",
    3: "#ff0000",
    4: "#000080",
    5: "#800000",
    6: "#008080",
    7: "#000000",
    8: "#808080",
    9: "#800080",
    10: "#4b0082",
    11: "#8b4513",
    12: "#2f4f4f",
}
FLAG = "⚑"
QUESTION = "?"
MINE = "✱"
WRONG = "✗"

#: Closed cells: blue-greys, darker than any opened cell by far (their lightest is
#: #848d9b, the darkest opened #c1c1c1), so the opened area reads at a glance; shades
#: 0-3 tell neighbours apart (hexagons use three, the parquet's bricks up to four).
CLOSED_BG = ("#76808f", "#68717f", "#5a6371", "#848d9b")
CLOSED_FG = "#e4e8ee"
#: Opened cells: light neutral greys, close to each other (one region to the eye).
OPENED_BG = ("#d2d2d2", "#c9c9c9", "#c1c1c1", "#dadada")
EXPLODED_BG = "#ff2020"
#: Bright enough on the dark closed blue-greys, and on the light opened ones (a wrong flag).
FLAG_FG = "#ff3b30"
#: A ? mark: bright on a closed cell (dark under the cursor), unlike anything else closed.
MARK_FG = "#ffe14d"
CURSOR_BG = "#f2cf55"
HINT_SAFE_BG = "#49c449"
HINT_GUESS_BG = "#e8a33a"
BORDER = Style(color="#a0a6ae")
#: A graph's edges (braille dots): dimmer than the nodes, which stand out over them.
EDGE = Style(color="#5d636c")

#: The mark of a graph's node (its other marks are triangles' directions).
NODE = "node"
#: Up and down glyphs of triangles: (closed, opened).
TRIANGLE = {"up": ("▲", "△"), "down": ("▼", "▽")}


@dataclass(frozen=True)
class Look:
    """Everything that decides how one cell is painted."""

    state: CellState
    count: int | None = None
    shade: int = 0
    mark: str | None = None
    cursor: bool = False
    hint: bool | None = None  # None: no hint here; True: certain safe; False: best guess
    chance: float | None = None  # mine probability shown by the analysis overlay
    marked: bool = False  # a ? the player put on a closed cell


def number_text(count: int, width: int) -> str:
    """A count in ``width`` characters (one-character boards use 0-9a-z)."""
    return str(count) if width >= 2 or count < 10 else COUNT_DIGITS[count]


#: Marks of the overlay's proven cells, apart from any number.
PROVEN_SAFE = "✓"
PROVEN_MINE = "!"
PROVEN_SAFE_BG = "#1a9c3a"
PROVEN_MINE_BG = "#5a0010"
#: The overlay's colour scale for mine probabilities strictly between 0 and 1: blue
#: (unlikely) through pale yellow to red (likely); no step is the proven-safe green.
CHANCE_STOPS = ((0.0, (44, 123, 182)), (0.5, (255, 255, 191)), (1.0, (215, 25, 28)))


def chance_text(chance: float, width: int) -> str:
    """The overlay's text: a mark when proven, else the percentage where it fits with a
    space beside it (3 characters), else nothing: the colour says it.
    """
    if chance == 0:
        return PROVEN_SAFE
    if chance == 1:
        return PROVEN_MINE
    if width >= 3:
        return str(min(99, max(1, round(chance * 100))))
    return ""


def chance_colour(chance: float) -> str:
    """The overlay's background for ``chance``: proven cells apart, the rest on the scale."""
    if chance == 0:
        return PROVEN_SAFE_BG
    if chance == 1:
        return PROVEN_MINE_BG
    for (low, start), (high, end) in itertools.pairwise(CHANCE_STOPS):
        if chance <= high:
            t = (chance - low) / (high - low)
            red, green, blue = (round(a + (b - a) * t) for a, b in zip(start, end, strict=True))
            return f"#{red:02x}{green:02x}{blue:02x}"
    return PROVEN_MINE_BG


def _darker(colour: str, by: float = 0.1) -> str:
    """``#rrggbb`` a little darker."""
    red, green, blue = (round(int(colour[i : i + 2], 16) * (1 - by)) for i in (1, 3, 5))
    return f"#{red:02x}{green:02x}{blue:02x}"


def _chance_ink(chance: float) -> str:
    """Dark text on the pale middle of the scale, white at its ends and on proven cells."""
    return "#000000" if 0.25 <= chance <= 0.8 else "#ffffff"


def content(look: Look, width: int) -> str:
    """The characters of the cell's content (without its shape marker)."""
    state = look.state
    if state is CellState.OPENED:
        return number_text(look.count, width) if look.count else ""
    if state is CellState.FLAGGED:
        return FLAG
    if state in (CellState.MINE, CellState.EXPLODED):
        return MINE
    if state is CellState.WRONG_FLAG:
        return WRONG
    if look.chance is not None:
        return chance_text(look.chance, width)
    if look.marked:
        return QUESTION
    return ""


def label(look: Look, width: int) -> tuple[str, Style]:
    """The label's text (exactly ``width`` characters) and style."""
    style = fill(look)
    if look.mark == NODE:  # a closed node is its colour alone: a ? is only ever a mark
        return content(look, width).center(width)[:width], style
    if look.mark is not None:
        closed = look.state in (CellState.CLOSED, CellState.FLAGGED)
        glyph = TRIANGLE[look.mark][0 if closed else 1]
        body = content(look, max(1, width - 1))[: max(1, width - 1)]
        text = (glyph + body).ljust(width)[:width]
        return text, style
    body = content(look, width)
    return body.center(width)[:width], style


def fill(look: Look) -> Style:
    """The style of the cell's fill (and of its label)."""
    state = look.state
    shade = look.shade % len(CLOSED_BG)
    bold = True
    if state is CellState.OPENED:
        colour = NUMBER_COLOURS.get(look.count or 0, "#000000")
        style = Style(color=colour, bgcolor=OPENED_BG[shade], bold=bold)
    elif state is CellState.CLOSED:
        if look.chance is None:
            ink = MARK_FG if look.marked else CLOSED_FG
            style = Style(color=ink, bgcolor=CLOSED_BG[shade], bold=bold)
        else:
            ink, bg = _chance_ink(look.chance), chance_colour(look.chance)
            if shade % 2 and 0 < look.chance < 1:  # equal odds side by side stay two cells
                bg = _darker(bg)
            style = Style(color=ink, bgcolor=bg, bold=bold)
    elif state is CellState.FLAGGED:
        style = Style(color=FLAG_FG, bgcolor=CLOSED_BG[shade], bold=bold)
    elif state is CellState.EXPLODED:
        style = Style(color="#000000", bgcolor=EXPLODED_BG, bold=bold)
    elif state is CellState.MINE:
        style = Style(color="#000000", bgcolor=OPENED_BG[shade], bold=bold)
    else:  # a wrong flag
        style = Style(color=FLAG_FG, bgcolor=OPENED_BG[shade], bold=bold)
    if look.cursor:  # the mine that went off stays red under the cursor
        cursor_bg = None if state is CellState.EXPLODED else CURSOR_BG
        dark = look.marked and state is CellState.CLOSED
        style += Style(color="#000000" if dark else None, bgcolor=cursor_bg, underline=True)
    if look.hint is not None:  # over the cursor: the hint moves the cursor onto its cell
        style += Style(bgcolor=HINT_SAFE_BG if look.hint else HINT_GUESS_BG)
    return style
