"""`HelpScreen`: every mouse action and key of the game, on one screen (``?`` or F1).

`MOUSE` and `KEYS` are the one list of the controls: the help screen shows
them, and a test holds them to the app's bindings, so neither can drift.
"""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

#: What each mouse button does: ``(button, what)``.
MOUSE = (
    ("left", "open; on a number with its flags around it: open the rest"),
    ("right", "flag; again: a ? mark; again: nothing"),
    ("middle", "chord: open the rest around a number with its flags"),
    ("after the end", "a click shows the board; a second one plays it again"),
)
#: What each key does: ``(keys, what)``; the keys as the app binds them.
KEYS = (
    ("arrows, H j k l", "move the cursor (on a graph: to the nearest node)"),
    ("space, enter", "open the cell under the cursor (a number: chord)"),
    ("f", "flag / unflag it"),
    ("m", "put / remove a ? mark (a note: it protects nothing)"),
    ("c", "chord on it"),
    ("r", "restart: the same layout again"),
    ("n, F2", "new game: a new layout"),
    ("a", "the computer plays; again: pause / resume *"),
    ("h", "hint: a safe cell (green), else a guess (amber) *"),
    ("p", "every unknown cell's mine probability in colour *"),
    ("s", "settings: size, topology, rules, no-guess, habits"),
    ("t", "records; tab: fastest wins; enter: watch the replay"),
    ("i, F4", "your lifetime statistics; tab: next kind of game"),
    ("?, F1", "this help"),
    ("q", "quit (during a game it asks first)"),
)


def controls_table() -> Table:
    """The controls as one table: the mouse, then the keys."""
    table = Table.grid(padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    table.add_row(Text("Mouse", style="bold underline"), "")
    for button, what in MOUSE:
        table.add_row(button, what)
    table.add_row(Text("Keys", style="bold underline"), "")
    for keys, what in KEYS:
        table.add_row(keys, what)
    return table


class HelpScreen(ModalScreen[None]):
    """The controls; any of escape, q, ? or F1 closes it."""

    CSS_PATH = "styles/help.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1", "close", "Close", key_display="esc"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(
                "The controls (escape closes). * makes the game assisted: not recorded",
                id="help-title",
            )
            yield Static(controls_table(), id="controls")
        yield Footer(compact=True)

    def action_close(self) -> None:
        self.dismiss(None)
