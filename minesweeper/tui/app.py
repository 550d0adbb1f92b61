"""`MinesweeperApp`: the terminal game, wiring keys, clicks and screens to the controller.

Every control is listed once, in `minesweeper.tui.help` (the ``?`` / F1 screen):
the mouse opens, flags and chords; keys move, open, flag, mark, chord, restart
(r), deal anew (n, F2), let the computer play (a), hint (h), show the odds (p),
and open the settings (s), records (t), statistics (i, F4) and help.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import ClassVar

from textual import events
from textual.actions import ActionParseResult
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import ScrollableContainer, Vertical
from textual.dom import DOMNode
from textual.geometry import Size
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Static

from minesweeper.board import Board
from minesweeper.play.records import Records
from minesweeper.play.session import Settings
from minesweeper.solver.registry import StrategySpec
from minesweeper.tui.board import BoardView
from minesweeper.tui.controller import GREETING, Controller, Conventions
from minesweeper.tui.header import GameHeader, MessageLine
from minesweeper.tui.help import HelpScreen
from minesweeper.tui.prompt import NamePrompt, QuitPrompt
from minesweeper.tui.records import RecordsScreen
from minesweeper.tui.settings import SettingsScreen
from minesweeper.tui.shapes import build_layout
from minesweeper.tui.stats import StatsScreen

#: Below this terminal size the board is replaced by a message.
MIN_WIDTH, MIN_HEIGHT = 30, 8
#: The actions of the game's keys (quitting works everywhere).
GAME_ACTIONS = frozenset(
    [
        "open",
        "flag",
        "mark",
        "chord",
        "restart",
        "new_game",
        "computer",
        "hint",
        "overlay",
        "settings",
        "records",
        "stats",
        "help",
    ]
)
#: The actions of the aids (hint, odds, the computer): never in ranked play.
AID_ACTIONS = frozenset(["computer", "hint", "overlay"])
#: Lines around the board: header, message, footer.
CHROME_LINES = 3


class MinesweeperApp(App[None]):
    """Minesweeper in the terminal, for the mouse and the keyboard."""

    TITLE = "Minesweeper"
    ENABLE_COMMAND_PALETTE = False
    CSS_PATH = "styles/game.tcss"
    # The footer names the essentials (the board adds the arrows); ? lists every control.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space,enter", "open", "Open", key_display="space"),
        Binding("f", "flag", "Flag"),
        Binding("m", "mark", "Mark ?"),
        Binding("c", "chord", "Chord"),
        Binding("r", "restart", "Again", show=False),
        Binding("n,f2", "new_game", "New"),
        Binding("a", "computer", "Auto", show=False),
        Binding("h", "hint", "Hint"),
        Binding("p", "overlay", "Odds", show=False),
        Binding("s", "settings", "Setup"),
        Binding("t", "records", "Top 10", show=False),
        Binding("i,f4", "stats", "Stats", show=False),
        Binding("question_mark,f1", "help", "Help", key_display="?"),
        Binding("q", "leave", "Quit"),
    ]

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        seed: int | None = None,
        records_path: Path | str | None = None,
        strategy: StrategySpec | str = "best",
        delay: float = 0.25,
        clock: Callable[[], float] | None = None,
        replay_dir: Path | None = None,
        board: Board | None = None,
        player: str | None = None,
        controller: Controller | None = None,
    ) -> None:
        super().__init__()
        # A controller made by the caller (ranked play on a ladder: `tui.ladder`) or our own.
        self.controller = controller or Controller(
            settings if settings is not None else Settings(),
            seed=seed,
            records=Records(records_path) if records_path is not None else None,
            strategy=strategy,
            clock=clock,
            replay_dir=replay_dir,
            board=board,
            player=player,
        )
        self.delay = delay
        self._computer_timer: Timer | None = None
        self._prompting = False

    # -- building -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        controller = self.controller
        with Vertical(id="main"):
            yield GameHeader(controller, id="header")
            with ScrollableContainer(id="board-area"):
                yield BoardView(controller, id="board", wide=self._wide())
            yield MessageLine(id="message")
            yield MessageLine(id="records-problem")
        yield Static(
            f"The terminal is too small: make it at least {MIN_WIDTH}x{MIN_HEIGHT}.",
            id="too-small",
        )
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.board.focus()
        self.set_interval(0.5, self.header.tick)
        self._computer_timer = self.set_interval(self.delay, self._computer_move, pause=True)
        self._small(self.size.width, self.size.height)
        self._say_size()
        self.redraw()

    def _say_size(self) -> None:
        """When the roomy drawing does not fit, say at once what terminal it needs."""
        if self._wide():
            return
        controller = self.controller
        plan = build_layout(controller.session.topology, True)
        said = (
            f"this board shows best in a {plan.width + 2}x{plan.height + CHROME_LINES} "
            "terminal; here its cells are narrower or it scrolls with the cursor"
        )
        if controller.message != GREETING:  # e.g. that the mine count is not told
            said += f"\n{controller.message}"
        controller.message = said

    @property
    def main(self) -> Screen:
        """The game's screen (settings, records and prompts open over it)."""
        return self.screen_stack[0]

    @property
    def board(self) -> BoardView:
        return self.main.query_one("#board", BoardView)

    @property
    def header(self) -> GameHeader:
        return self.main.query_one("#header", GameHeader)

    def _wide(self, size: Size | None = None) -> bool:
        """Whether roomy cells fit the terminal (else compact ones, and scrolling if need be)."""
        plan = build_layout(self.controller.session.topology, True)
        width, height = size if size is not None else self.size
        return plan.width <= width - 2 and plan.height <= height - CHROME_LINES

    def _small(self, width: int, height: int) -> None:
        self.main.set_class(width < MIN_WIDTH or height < MIN_HEIGHT, "too-small")

    def on_resize(self, event: events.Resize) -> None:
        self._small(event.size.width, event.size.height)
        board = self.board
        wide = self._wide(event.size)
        if wide != board.wide:
            board.rebuild(wide)

    # -- drawing --------------------------------------------------------------------------

    def redraw(self) -> None:
        """Show the controller's state: the header and the lines under the board are
        reactive (each repaints when what it shows changed); ask for a name when a result
        enters. Every key's action ends here (`run_action`), as do clicks and the computer's
        moves."""
        controller = self.controller
        main = self.main
        self.header.tick()
        self.board.refresh()
        main.query_one("#message", MessageLine).text = controller.message
        main.query_one("#records-problem", MessageLine).text = controller.records_problem or ""
        outcome = controller.outcome
        if outcome is not None and outcome.waiting_for_name and not self._prompting:
            self._ask_name()

    def _ask_name(self) -> None:
        self._prompting = True

        def entered(name: str | None) -> None:
            self._prompting = False
            self.controller.enter_record(name)
            self.redraw()

        self.push_screen(NamePrompt(self.controller.player, self.controller.news), entered)

    def start(self, settings: Settings | None = None) -> None:
        """A new game (of another kind with ``settings``): the board is laid out afresh."""
        self._stop_computer()
        topology = self.controller.session.topology
        self.controller.new_game(settings)
        if self.controller.session.topology is not topology:
            self.board.rebuild(self._wide())
        self.redraw()

    # -- the player's input ---------------------------------------------------------------

    async def run_action(
        self,
        action: str | ActionParseResult,
        default_namespace: DOMNode | None = None,
        namespaces: Mapping[str, DOMNode] | None = None,
    ) -> bool:
        """Any action (a key's), then the game's screen shows where the game now stands."""
        done = await super().run_action(action, default_namespace, namespaces)
        if self.is_running and self.screen_stack and self.screen is self.main:
            self.redraw()
        return done

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Game keys act only on the game's screen, not under a dialog; the aids are not
        offered (nor shown in the footer) where the controller refuses them."""
        if action in AID_ACTIONS and not self.controller.aids:
            return False
        return action not in GAME_ACTIONS or self.screen is self.main

    def on_board_view_pressed(self, message: BoardView.Pressed) -> None:
        self.controller.press(message.cell, message.button)
        self.redraw()

    def on_board_view_moved(self, message: BoardView.Moved) -> None:
        controller = self.controller
        if controller.overlay:
            controller.message = controller.odds()
            self.main.query_one("#message", MessageLine).text = controller.message

    def _at_cursor(self, action: Callable[[int], None]) -> None:
        controller = self.controller
        if controller.session.over:
            controller.message = "the game is over: r plays it again, n starts a new one"
        elif controller.playing_computer:
            controller.message = "the computer is playing: a pauses it, n starts a new game"
        else:
            action(controller.cursor)

    def action_open(self) -> None:
        controller = self.controller
        on_number = controller.session.is_opened(controller.cursor)
        chords = controller.conventions.left_chords and on_number
        self._at_cursor(controller.chord if chords else controller.open)

    def action_mark(self) -> None:
        self._at_cursor(self.controller.mark)

    def action_leave(self) -> None:
        """Quit; during a game in progress, ask first (when the settings say so)."""
        controller = self.controller
        session = controller.session
        playing = session.started and not session.over
        if not (playing and controller.conventions.confirm_quit) or self.screen is not self.main:
            controller.leave()
            self.exit()
            return

        def answered(quit: bool | None) -> None:
            if quit:
                controller.leave()
                self.exit()

        self.push_screen(QuitPrompt(), answered)

    def action_flag(self) -> None:
        self._at_cursor(self.controller.flag)

    def action_chord(self) -> None:
        self._at_cursor(self.controller.chord)

    def action_restart(self) -> None:
        self._stop_computer()
        self.controller.restart()

    def action_new_game(self) -> None:
        self.start()

    def action_hint(self) -> None:
        if self.controller.show_hint() is not None:
            self.board.show_cursor()

    def action_overlay(self) -> None:
        self.controller.toggle_overlay()

    def action_settings(self) -> None:
        controller = self.controller

        def adopt(conventions: Conventions) -> None:
            controller.conventions = conventions

        self.push_screen(
            SettingsScreen(controller.settings, self.start, controller.conventions, adopt)
        )

    def action_records(self) -> None:
        self.push_screen(RecordsScreen(self.controller))

    def action_stats(self) -> None:
        self.push_screen(StatsScreen(self.controller))

    def action_help(self) -> None:
        self.push_screen(HelpScreen())

    # -- the computer ---------------------------------------------------------------------

    def action_computer(self) -> None:
        controller = self.controller
        controller.start_computer()
        if controller.playing_computer and not controller.paused:
            self._computer_timer.resume()  # type: ignore[union-attr]

    def _computer_move(self) -> None:
        controller = self.controller
        moved = controller.computer_step()
        if controller.session.over or not controller.playing_computer:
            self._stop_computer()
        elif not moved:
            return  # paused: nothing changed
        self.redraw()

    def _stop_computer(self) -> None:
        if self._computer_timer is not None:
            self._computer_timer.pause()
