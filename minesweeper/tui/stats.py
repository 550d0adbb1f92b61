"""`StatsScreen`: the player's lifetime figures, one kind of game at a time.

The figures come from the history beside the records (`minesweeper.play.history`),
as `minesweeper stats` prints them: the player's unaided, assisted and the
computer's own games, each on a row of its own. Tab steps through the kinds of
game played, the one on screen first.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label

from minesweeper.play.history import COLUMNS, LEGEND, Figures, HistoryError, row
from minesweeper.play.records import COMPUTER, Category
from minesweeper.tui.controller import Controller


class StatsScreen(ModalScreen[None]):
    """The figures of the controller's player (and the computer's) in one category."""

    CSS_PATH = "styles/stats.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,i,f4", "close", "Close"),
        Binding("tab", "step(1)", "Next kind", priority=True),
        Binding("shift+tab", "step(-1)", "Previous", priority=True),
    ]

    def __init__(self, controller: Controller) -> None:
        super().__init__()
        self.controller = controller
        self.problem: str | None = None
        self.groups: dict[Category, list[Figures]] = {}
        try:
            found = controller.history.figures()
        except HistoryError as error:
            self.problem = str(error)
            found = []
        here = controller.settings.category()
        self.groups[here] = []
        for item in found:
            if item.player in (controller.player, COMPUTER):
                self.groups.setdefault(item.category, []).append(item)
        self.categories = list(self.groups)
        self.index = 0

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(id="title")
            # One space between columns (the default pads both sides): every figure fits 80.
            yield DataTable(cursor_type="none", zebra_stripes=True, cell_padding=0)
            yield Label(id="empty")
            yield Label(self.problem or "", id="problem")
            yield Label(f"[dim]{LEGEND}. tab: next kind of game; escape closes[/dim]", markup=True)

    def on_mount(self) -> None:
        self.query_one("#problem", Label).display = self.problem is not None
        self.show()

    def show(self) -> None:
        category = self.categories[self.index]
        where = f"{self.index + 1}/{len(self.categories)}"
        self.query_one("#title", Label).update(
            Text.assemble(
                ("Statistics", "bold"), f" of {self.controller.player}: {category.label} ({where})"
            )
        )
        table: DataTable[str | Text] = self.query_one(DataTable)
        table.clear(columns=True)
        for name, numeric in COLUMNS:  # the title names the player; "computer" its own row
            table.add_column(Text(f" {name}", justify="right" if numeric else "left"))
        items = self.groups[category]
        for item in items:
            cells = row(item)
            table.add_row(
                *(
                    Text(f" {cell}", justify="right" if numeric else "left")
                    for cell, (_, numeric) in zip(cells, COLUMNS, strict=True)
                ),
            )
        empty = self.query_one("#empty", Label)
        empty.update("No finished game of this kind yet.")
        empty.display = not items
        table.display = bool(items)

    def action_step(self, delta: int) -> None:
        self.index = (self.index + delta) % len(self.categories)
        self.show()

    def action_close(self) -> None:
        self.dismiss(None)
