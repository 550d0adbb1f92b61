"""`GameHeader`: mines left (under the ACM rules the flags placed), the timer, the points
and the win / loss banner."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from minesweeper.tui.controller import Controller


def banner(controller: Controller) -> tuple[str, str]:
    """The banner's words and style for the game's state ("" while a person plays)."""
    session = controller.session
    computer = controller.auto is not None
    if session.won:
        return ("COMPUTER WINS!" if computer else "YOU WIN!"), "bold #ffffff on #1d8a2e"
    if session.lost:
        return ("COMPUTER LOSES" if computer else "GAME OVER"), "bold #ffffff on #c01c28"
    if controller.playing_computer:
        if controller.paused:
            return "COMPUTER PAUSED", "bold #000000 on #e0c040"
        return "COMPUTER PLAYING", "bold #ffffff on #3050c0"
    return "", ""


def header_text(controller: Controller) -> Text:
    """``Mines 10  Time 0  Points 0  [banner]`` for the controller's game; where the mine
    count is not told (acm rules), ``Mines ?  Flags 3`` instead of the mines left."""
    session = controller.session
    text = Text()
    text.append(" Mines ", "bold")
    if session.count_told:
        text.append(f"{session.mines_left:>3}", "bold #ff5050 on #000000")
    else:
        text.append("  ?", "bold #ff5050 on #000000")
        text.append("  Flags ", "bold")
        text.append(f"{len(session.flags):>3}", "bold #ff5050 on #000000")
    text.append("   Time ", "bold")
    text.append(f"{min(session.seconds, 999):>3}", "bold #ff5050 on #000000")
    if controller.points_shown:
        text.append("   Points ", "bold")
        text.append(f"{session.points:>4}", "bold #ffd75f on #000000")
    if session.assisted and not session.by_computer:
        text.append("   ")
        text.append(" assisted ", "italic #000000 on #c0c0c0")
    words, style = banner(controller)
    if words:
        text.append("   ")
        text.append(f" {words} ", style)
    return text


class GameHeader(Static):
    """One line over the board; `tick` reads the controller (on every change and every half
    second), and the line is repainted only when its text changed."""

    text: reactive[Text] = reactive(Text, layout=False)

    def __init__(self, controller: Controller, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.controller = controller

    def on_mount(self) -> None:
        self.tick()

    def tick(self) -> None:
        """Read the controller's game again."""
        self.text = header_text(self.controller)

    def watch_text(self, text: Text) -> None:
        self.update(text)


class MessageLine(Static):
    """A line of words under the board (the message, the records' problem): repainted when
    its ``text`` changes, and of class ``shown`` while it says something."""

    text: reactive[str] = reactive("", layout=True)

    def watch_text(self, text: str) -> None:
        self.update(text)
        self.set_class(bool(text), "shown")
