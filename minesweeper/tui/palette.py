"""How a cell looks: its glyph and colours, from what the session says it shows.

Numbers follow the classic palette (1 blue, 2 green, 3 red, 4 navy, 5 maroon,
6 teal, 7 black, 8 grey) on the light grey of an opened cell; closed cells are
a darker grey, in two shades so that neighbours do not merge.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.style import Style

from minesweeper.protocol import COUNT_DIGITS
from minesweeper.session import CellState

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
MINE = "✱"
WRONG = "✗"

CLOSED_BG = ("#8a909a", "#7b818b")
CLOSED_FG = "#e4e8ee"
OPENED_BG = ("#c6c6c6", "#bababa")
EXPLODED_BG = "#ff2020"
FLAG_FG = "#c00000"
CURSOR_BG = "#f2cf55"
HINT_SAFE_BG = "#49c449"
HINT_GUESS_BG = "#e8a33a"
BORDER = Style(color="#a0a6ae")

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


def number_text(count: int, width: int) -> str:
    """A count in ``width`` characters (one-character boards use 0-9a-z)."""
    return str(count) if width >= 2 or count < 10 else COUNT_DIGITS[count]


def chance_text(chance: float, width: int) -> str:
    """A mine probability as a percentage (one character: tenths), exact at 0 and 1."""
    if width >= 3:
        if chance in (0.0, 1.0):
            return str(int(chance * 100))
        return str(min(99, max(1, round(chance * 100))))
    if width == 2:
        if chance in (0.0, 1.0):
            return "0" if chance == 0 else "**"
        return str(min(99, max(1, round(chance * 100))))
    if chance in (0.0, 1.0):
        return "0" if chance == 0 else "*"
    return str(min(9, max(1, int(chance * 10))))


def _chance_colour(chance: float) -> str:
    """Green for safe through amber to red for a mine."""
    red = int(60 + 160 * chance)
    green = int(170 - 120 * chance)
    return f"#{red:02x}{green:02x}40"


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
    return ""


def label(look: Look, width: int) -> tuple[str, Style]:
    """The label's text (exactly ``width`` characters) and style."""
    style = fill(look)
    if look.mark == NODE:  # a graph's node has no shape: a closed one says so with ?
        body = content(look, width) or ("?" if look.state is CellState.CLOSED else "")
        return body.center(width)[:width], style
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
    shade = look.shade % 2
    bold = True
    if state is CellState.OPENED:
        colour = NUMBER_COLOURS.get(look.count or 0, "#000000")
        style = Style(color=colour, bgcolor=OPENED_BG[shade], bold=bold)
    elif state is CellState.CLOSED:
        bg = CLOSED_BG[shade] if look.chance is None else _chance_colour(look.chance)
        style = Style(color=CLOSED_FG if look.chance is None else "#ffffff", bgcolor=bg, bold=bold)
    elif state is CellState.FLAGGED:
        style = Style(color=FLAG_FG, bgcolor=CLOSED_BG[shade], bold=bold)
    elif state is CellState.EXPLODED:
        style = Style(color="#000000", bgcolor=EXPLODED_BG, bold=bold)
    elif state is CellState.MINE:
        style = Style(color="#000000", bgcolor=OPENED_BG[shade], bold=bold)
    else:  # a wrong flag
        style = Style(color=FLAG_FG, bgcolor=OPENED_BG[shade], bold=bold)
    if look.cursor:
        style += Style(bgcolor=CURSOR_BG, underline=True)
    if look.hint is not None:  # over the cursor: the hint moves the cursor onto its cell
        style += Style(bgcolor=HINT_SAFE_BG if look.hint else HINT_GUESS_BG)
    return style
