"""`BoardView`: the board widget, painting a `Layout` with the session's cell states.

It only draws and reports: a click becomes a `BoardView.Pressed` message with
the cell and the mouse button; the app decides what it means.
"""

from __future__ import annotations

from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Region
from textual.message import Message
from textual.strip import Strip
from textual.widget import Widget

from minesweeper.play.session import CellState
from minesweeper.tui.canvas import Layout
from minesweeper.tui.controller import Controller
from minesweeper.tui.palette import BORDER, EDGE, Look, fill, label
from minesweeper.tui.shapes import build_layout


class BoardView(Widget, can_focus=True):
    """The cells of the controller's session, drawn by a `Layout`."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,H", "move(-1, 0)", "Move", key_display="←↑↓→"),
        Binding("right,l", "move(1, 0)", "Right", show=False),
        Binding("up,k", "move(0, -1)", "Up", show=False),
        Binding("down,j", "move(0, 1)", "Down", show=False),
    ]

    class Pressed(Message):
        """A cell was clicked with ``button`` (1 left, 2 middle, 3 right)."""

        def __init__(self, cell: int, button: int) -> None:
            super().__init__()
            self.cell = cell
            self.button = button

    class Moved(Message):
        """The keyboard cursor moved."""

    def __init__(self, controller: Controller, *, wide: bool = True, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.controller = controller
        self.wide = wide
        self.layout_plan: Layout = build_layout(controller.session.topology, wide)
        self._fit()

    def rebuild(self, wide: bool | None = None) -> None:
        """Lay the board out again (a new topology, or another cell width)."""
        if wide is not None:
            self.wide = wide
        self.layout_plan = build_layout(self.controller.session.topology, self.wide)
        self._fit()
        self.refresh(layout=True)

    def _fit(self) -> None:
        self.styles.width = self.layout_plan.width
        self.styles.height = self.layout_plan.height

    # -- painting -------------------------------------------------------------------------

    def look(self, cell: int) -> Look:
        controller = self.controller
        session = controller.session
        state = session.cell_state(cell)
        hint = controller.hint
        chance = None
        if controller.overlay and state is CellState.CLOSED:
            result = controller.chances()
            if result is not None and cell in result:
                chance = result.chance(cell)
        plan = self.layout_plan
        return Look(
            state=state,
            count=session.count(cell),
            shade=plan.shade.get(cell, 0),
            mark=plan.marks.get(cell),
            cursor=cell == controller.cursor and self.has_focus and not controller.playing_computer,
            hint=hint.certain if hint is not None and hint.cell == cell else None,
            chance=chance,
            marked=cell in controller.marks,
        )

    def render_line(self, y: int) -> Strip:
        plan = self.layout_plan
        if y >= plan.height:
            return Strip.blank(self.size.width)
        looks: dict[int, Look] = {}
        segments = []
        for span in plan.lines[y]:
            cell = span.cell
            if cell is None:
                segments.append(Segment(span.text, _static_style(span.text)))
                continue
            look = looks.get(cell)
            if look is None:
                look = looks[cell] = self.look(cell)
            if span.label:
                text, style = label(look, span.width)
            else:
                text, style = " " * span.width, fill(look)
            segments.append(Segment(text, style))
        return Strip(segments, plan.width).extend_cell_length(self.size.width)

    # -- input ----------------------------------------------------------------------------

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        cell = self.layout_plan.cell_at(offset.x, offset.y)
        if cell is not None:
            event.stop()
            self.post_message(self.Pressed(cell, event.button or 1))

    def action_move(self, dx: int, dy: int) -> None:
        controller = self.controller
        controller.cursor = self.layout_plan.step(controller.cursor, dx, dy)
        self.show_cursor()
        self.refresh()
        self.post_message(self.Moved())

    def show_cursor(self) -> None:
        """Scroll the cursor's cell into view."""
        x, y, width = self.layout_plan.label(self.controller.cursor)
        parent = self.parent
        if isinstance(parent, Widget):
            at = self.virtual_region.offset
            parent.scroll_to_region(Region(at.x + x, at.y + y, width, 1), animate=False)

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()


def _static_style(text: str) -> Style | None:
    """Blanks unstyled, a graph's braille edges dim, borders in their colour."""
    if not text.strip():
        return None
    return EDGE if "\u2800" <= text[0] <= "\u28ff" else BORDER
