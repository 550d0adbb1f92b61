"""`RecordsScreen`: the top-10 table of the current category, or why it cannot be read."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label

from minesweeper.play.records import RecordsError
from minesweeper.tui.controller import Controller


class RecordsScreen(ModalScreen[None]):
    """Shows the table; a records file that fails its check is explained instead."""

    DEFAULT_CSS = """
    RecordsScreen { align: center middle; }
    RecordsScreen > Vertical {
        width: 90%; max-width: 90; height: auto; max-height: 90%; padding: 0 1;
        border: thick $accent; background: $surface;
    }
    RecordsScreen DataTable { height: auto; max-height: 14; }
    RecordsScreen #problem { color: $error; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,t", "close", "Close")]

    def __init__(self, controller: Controller) -> None:
        super().__init__()
        self.controller = controller

    def compose(self) -> ComposeResult:
        settings = self.controller.settings
        category = settings.category()
        title = category.label
        if settings.preset_name:
            title = f"{settings.preset_name}: {title}"
        with Vertical():
            yield Label(f"[b]Records:[/b] {title}", markup=True)
            try:
                entries = self.controller.table()
            except RecordsError as error:
                self.controller.records_problem = str(error)
                yield Label(str(error), id="problem")
            else:
                table: DataTable[str] = DataTable(cursor_type="none", zebra_stripes=True)
                table.add_columns("Place", "Name", "Points", "Time", "3BV", "Result", "Date")
                for place, entry in enumerate(entries, 1):
                    table.add_row(
                        str(place),
                        entry.name,
                        str(entry.points),
                        f"{entry.seconds:.1f} s",
                        "?" if entry.bbbv is None else str(entry.bbbv),
                        "won" if entry.won else "lost",
                        entry.date[:10],
                    )
                yield table
                if not entries:
                    yield Label("Nobody has finished a game of this kind yet.")
            yield Label("[dim]escape closes[/dim]", markup=True)

    def action_close(self) -> None:
        self.dismiss(None)
