"""The replay viewer: a saved game shown again click by click, then its statistics.

`ReplayViewer` holds where the replay stands (and, once asked with a, the analysis
of every click, `minesweeper.play.review`) and knows nothing of Textual;
`ReplayScreen` draws it with the game's own `BoardView`, plays the clicks at their
recorded pace (times ``speed``), pauses on space and steps with the arrows;
`ReplayApp` shows it alone, the records screen over the game.
"""

from __future__ import annotations

from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import ScrollableContainer, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Static

from minesweeper.play.replay import Replay
from minesweeper.play.review import Review, cell_name, describe
from minesweeper.play.session import GameSession
from minesweeper.tui.board import BoardView
from minesweeper.tui.shapes import build_layout


class ReplayViewer:
    """A replay at one point: the session after its first ``index`` clicks.

    Offers what `BoardView` reads of a controller (``session``, ``cursor``, no
    hint, no overlay, no ``?`` marks: a replay keeps none); the cursor marks the last click.
    """

    hint = None
    overlay = False
    marks: frozenset[int] = frozenset()
    playing_computer = True  # hides the keyboard cursor: the viewer has none

    def __init__(self, replay: Replay) -> None:
        self.replay = replay
        #: The analysis of every click, once made (key a): the status line then judges each.
        self.review: Review | None = None
        self.index = 0
        self.session: GameSession = replay.session(upto=0)
        self.cursor = 0

    @property
    def total(self) -> int:
        return len(self.replay.actions)

    @property
    def finished(self) -> bool:
        return self.index >= self.total

    def go(self, index: int) -> None:
        """Show the game after the first ``index`` clicks (clamped to the replay)."""
        self.index = max(0, min(index, self.total))
        self.session = self.replay.session(upto=self.index)
        if self.index:
            self.cursor = self.replay.actions[self.index - 1].cell

    def step(self, delta: int = 1) -> None:
        self.go(self.index + delta)

    def wait(self, speed: float) -> float | None:
        """Seconds until the next click at ``speed`` times the real pace; None at the end."""
        if self.finished:
            return None
        before = self.replay.actions[self.index - 1].ms if self.index else 0
        return (self.replay.actions[self.index].ms - before) / 1000 / speed

    def chances(self) -> None:
        return None

    def status(self) -> str:
        """The line under the board: the last click (judged, once analysed), or the
        statistics at the end (with the analysis' summary)."""
        review = self.review
        if self.finished:
            lines = self.replay.summary()[1:]
            if review is not None:
                lines = [*lines[:2], *list(review.summary())[:2]]
            return "\n".join(lines)
        if not self.index:
            return f"{self.total} clicks to come"
        action = self.replay.actions[self.index - 1]
        judged = review.of_click(self.index - 1) if review is not None else None
        if judged is not None:
            return f"{self.index}/{self.total}: " + describe(self.session.topology, judged)
        return (
            f"click {self.index}/{self.total} at {action.ms / 1000:.3f} s: "
            f"{action.kind} {cell_name(self.session.topology, action.cell)}"
        )


class ReplayScreen(Screen[None]):
    """Shows a replay at ``speed`` times its real pace; space pauses, arrows step.

    The viewer's own app shows it alone; the records screen opens it over the game.
    """

    CSS_PATH = "styles/replay.tcss"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "pause", "Pause/play", priority=True),
        Binding("left", "step(-1)", "Back", priority=True),
        Binding("right", "step(1)", "Step", priority=True),
        Binding("home", "jump(0)", "Start", priority=True),
        Binding("end", "jump(-1)", "End", priority=True),
        Binding("a", "analyse", "Analysis"),
        Binding("q,escape", "close", "Quit"),
    ]

    #: Clicks shown, and whether the playback waits: the screen follows both.
    index: reactive[int] = reactive(0, init=False)
    paused: reactive[bool] = reactive(False, init=False)

    def __init__(self, replay: Replay, speed: float = 1.0) -> None:
        super().__init__()
        self.viewer = ReplayViewer(replay)
        self.speed = speed
        self._timer: Timer | None = None

    def compose(self) -> ComposeResult:
        viewer = self.viewer
        with Vertical(id="main"):
            yield Static(id="title")
            with ScrollableContainer(id="board-area"):
                wide = self._wide()
                yield BoardView(viewer, id="board", wide=wide)  # type: ignore[arg-type]
            yield Static(id="status")
        yield Footer(compact=True)

    def _wide(self) -> bool:
        plan = build_layout(self.viewer.session.topology, True)
        width, height = self.app.size
        return plan.width <= width - 2 and plan.height <= height - 3

    def on_mount(self) -> None:
        self.redraw()
        self._schedule()

    @property
    def board(self) -> BoardView:
        return self.query_one("#board", BoardView)

    def redraw(self) -> None:
        viewer = self.viewer
        replay = viewer.replay
        state = " PAUSED" if self.paused and not viewer.finished else ""
        who = replay.player or "unknown player"
        self.query_one("#title", Static).update(
            f" Replay: {replay.category.label}; {who}; x{self.speed:g}{state}"
        )
        self.board.refresh()
        self.query_one("#status", Static).update(viewer.status())

    def watch_index(self, index: int) -> None:
        self.viewer.go(index)
        self.redraw()
        self._schedule()

    def watch_paused(self) -> None:
        self.redraw()
        self._schedule()

    def _schedule(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        wait = self.viewer.wait(self.speed)
        if wait is not None and not self.paused:
            self._timer = self.set_timer(max(wait, 0.001), self._next)  # Textual needs > 0

    def _next(self) -> None:
        self._timer = None
        self.index = self.viewer.index + 1

    def action_pause(self) -> None:
        self.paused = not self.paused

    def action_step(self, delta: int) -> None:
        """Step one click forward or back; stepping pauses the playback."""
        self.paused = True
        self.index = max(0, min(self.viewer.index + delta, self.viewer.total))

    def action_jump(self, index: int) -> None:
        self.paused = True
        self.index = self.viewer.total if index < 0 else index

    def action_analyse(self) -> None:
        """Judge every click with the exact engine (in a thread: an expert game takes a
        few seconds); the status line then says what each click was."""
        if self.viewer.review is not None:
            return
        self.query_one("#status", Static).update("analysing every click...")
        self.run_worker(self._analyse, thread=True, exclusive=True)

    def _analyse(self) -> None:
        review = Review.of(self.viewer.replay)
        self.app.call_from_thread(self._analysed, review)

    def _analysed(self, review: Review) -> None:
        self.viewer.review = review
        self.redraw()

    def action_close(self) -> None:
        if self._timer is not None:
            self._timer.stop()
        self.dismiss(None)


class ReplayApp(App[None]):
    """`ReplayScreen` on its own: ``minesweeper replay FILE``; quitting it ends the app."""

    TITLE = "Minesweeper replay"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, replay: Replay, speed: float = 1.0) -> None:
        super().__init__()
        self.replay_screen = ReplayScreen(replay, speed)

    def on_mount(self) -> None:
        self.push_screen(self.replay_screen, lambda _: self.exit())

    @property
    def viewer(self) -> ReplayViewer:
        return self.replay_screen.viewer

    @property
    def paused(self) -> bool:
        return self.replay_screen.paused
