"""`RecordsScreen`: the current category's tables (top 10 by points, fastest wins), or why
they cannot be read."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import DataTable, Label

from minesweeper.play.records import Entry, Ranking, RecordsError
from minesweeper.play.replay import ReplayError, read_replay
from minesweeper.tui.controller import Controller
from minesweeper.tui.replay import ReplayScreen

#: What an empty table says.
EMPTY = {
    Ranking.POINTS: "Nobody has finished a game of this kind yet.",
    Ranking.TIMES: "No person has won a game of this kind yet.",
}


class RecordsScreen(ModalScreen[None]):
    """Shows one table at a time (tab switches, as `records --times` does); a records file
    that fails its check is explained instead."""

    CSS_PATH = "styles/records.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,t", "close", "Close"),
        Binding("tab,shift+tab", "switch", "Points / fastest wins", priority=True),
        Binding("p", "show('points')", "Points"),
        Binding("f", "show('times')", "Fastest wins"),
    ]

    def __init__(self, controller: Controller, ranking: Ranking = Ranking.POINTS) -> None:
        super().__init__()
        self.controller = controller
        self.ranking = ranking
        #: The entries of the table on screen, by row.
        self.entries: list[Entry] = []

    def compose(self) -> ComposeResult:
        settings = self.controller.settings
        title = settings.category().label
        if settings.preset_name:
            title = f"{settings.preset_name}: {title}"
        with Vertical():
            yield Label(f"[b]Records:[/b] {title}", markup=True)
            yield Label(id="tabs")
            yield DataTable(cursor_type="row", zebra_stripes=True)
            yield Label(id="empty")
            yield Label(id="problem")
            yield Label(
                "[dim]tab: points / fastest wins (p, f); enter: watch the entry's replay; "
                "escape closes[/dim]",
                markup=True,
            )

    def on_mount(self) -> None:
        self.show_table()

    def show_table(self) -> None:
        """Fill the table of ``ranking`` from the controller (its entries, or the problem)."""
        ranking = self.ranking
        tabs = Text()
        for shown in Ranking:
            style = "bold reverse" if shown is ranking else "dim"
            tabs.append(f" {shown.title} ", style)
            tabs.append(" ")
        self.query_one("#tabs", Label).update(tabs)
        table: DataTable[str | Text] = self.query_one(DataTable)
        table.clear(columns=True)
        try:
            entries = self.entries = self.controller.table(ranking)
        except RecordsError as error:
            self.controller.records_problem = str(error)
            problem = self.query_one("#problem", Label)
            problem.update(str(error))
            problem.add_class("shown")
            table.display = False
            return
        for name, numeric in ranking.columns:
            table.add_column(Text(name, justify="right") if numeric else name)
        numeric_columns = [numeric for _, numeric in ranking.columns]
        for place, entry in enumerate(entries, 1):
            cells = ranking.row(place, entry)
            table.add_row(
                *(
                    Text(cell, justify="right") if numeric else cell
                    for cell, numeric in zip(cells, numeric_columns, strict=True)
                )
            )
        empty = self.query_one("#empty", Label)
        empty.update(EMPTY[ranking])
        empty.display = not entries

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        """Watch the chosen entry's replay (enter, or a click on its row)."""
        entry = self.entries[event.cursor_row]
        path = self.controller.records.replay_path(entry)
        problem = self.query_one("#problem", Label)
        try:
            if path is None:
                raise ReplayError("this entry has no replay (recorded before replays were kept)")
            replay = read_replay(path)
            replay.final  # noqa: B018 - a replay whose clicks make no game fails here
        except (ReplayError, OSError) as error:
            problem.update(str(error))
            problem.add_class("shown")
            return
        problem.remove_class("shown")
        self.app.push_screen(ReplayScreen(replay))

    def action_switch(self) -> None:
        """The other table."""
        self.action_show("times" if self.ranking is Ranking.POINTS else "points")

    def action_show(self, ranking: str) -> None:
        self.ranking = Ranking(ranking)
        self.show_table()

    def action_close(self) -> None:
        self.dismiss(None)
