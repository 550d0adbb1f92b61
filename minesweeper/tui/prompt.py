"""`NamePrompt`: asks the player's name when a result enters the records."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label

#: Longest name the table keeps.
MAX_NAME = 20


class NamePrompt(ModalScreen[str | None]):
    """Says what the result entered (``news``); returns the name typed (None: declined)."""

    CSS_PATH = "styles/prompt.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "decline", "Skip")]

    def __init__(self, default: str, news: str) -> None:
        super().__init__()
        self.default = default
        self.news = news

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(f"{self.news}.\nYour name:", id="news")
            yield Input(self.default, max_length=MAX_NAME, id="name")
            with Horizontal(id="buttons"):
                yield Button("Save", variant="primary", id="save")
                yield Button("Skip", id="skip")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.dismiss(self.query_one("#name", Input).value)
        else:
            self.dismiss(None)

    def action_decline(self) -> None:
        self.dismiss(None)


class QuitPrompt(ModalScreen[bool]):
    """Asks before a game in progress is abandoned: True to quit (``y``, ``q``, enter)."""

    CSS_PATH = "styles/prompt.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,q,enter", "answer(True)", "Quit"),
        Binding("n,escape", "answer(False)", "Play on"),
    ]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(
                "Quit this game? It counts as abandoned (not won). [b]y[/b]es / [b]n[/b]o",
                markup=True,
            )

    def action_answer(self, quit: bool) -> None:
        self.dismiss(quit)
