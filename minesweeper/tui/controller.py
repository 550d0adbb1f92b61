"""`Controller`: the game on screen, the session plus what the UI keeps around it.

The session holds every rule; the controller only adds the keyboard cursor,
the hint, the analysis overlay, the computer player and the trip to the
records at the end. It knows nothing of Textual, so the widgets stay thin and
the flow can be tested on its own.

A game in which the player had a hint, the odds or the computer's moves is
assisted: it is not recorded. A game the computer played from its first click
enters the records as `COMPUTER`. Every recorded game keeps its replay.
"""

from __future__ import annotations

import getpass
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from minesweeper.board import Board
from minesweeper.errors import MinesweeperError
from minesweeper.play.autoplay import COMPUTER, AutoPlayer, first_cell, new_session
from minesweeper.play.ending import Ending, enters_records
from minesweeper.play.history import HistoryError
from minesweeper.play.records import Entry, Ranking, Records, RecordsError, RecordsTampered, entered
from minesweeper.play.review import cell_name
from minesweeper.play.session import CellState, GameSession, Settings
from minesweeper.solver.probability import Probabilities
from minesweeper.solver.registry import StrategySpec
from minesweeper.tui.analysis import Hint, chances, computer_strategy, hint

#: What the message line says at the start.
GREETING = "left click opens, right flags (again: ?), middle chords; arrows, space, h hint"
#: What it says first under the ACM rules, where the header shows flags, not mines left.
COUNT_NOT_TOLD = "acm rules: the mine count is not told (Mines ?); the counter shows your flags"
#: Mouse buttons as Textual numbers them.
LEFT, MIDDLE, RIGHT = 1, 2, 3


#: What the message says of a game that had help.
NOT_RECORDED = "assisted: not recorded"
#: What the message says of a game on a layout from a board file.
GIVEN_BOARD = "a given board: not recorded"


#: What the message line says when a game in progress was left for another.
ABANDONED = "the game left unfinished counts as abandoned (not won) in your statistics"


@dataclass(frozen=True)
class Conventions:
    """Playing habits where clones differ; each is a switch in the settings.

    ``left_chords``: a left click on a number with as many flags around it
    chords. ``confirm_quit``: ``q`` during a game asks first. ``question_marks``:
    right clicks cycle flag, ``?``, nothing (and ``m`` marks ``?``); a mark is
    only a note to oneself and protects nothing.
    """

    left_chords: bool = True
    confirm_quit: bool = True
    question_marks: bool = True


@dataclass(frozen=True)
class RecordNews:
    """How a finished game went with the records: ``place`` (None: not in the top 10).

    ``assisted``: the player had help, so the game was not recorded; ``time_place``:
    the place among the fastest wins (None: not among them); ``bests``: the personal
    bests the game set, in words.
    """

    computer: bool
    place: int | None = None
    waiting_for_name: bool = False
    assisted: bool = False
    time_place: int | None = None
    bests: tuple[str, ...] = ()


class Controller:
    """One screen's game: settings, session, cursor, hint, overlay, auto-play, records.

    ``seed`` makes the layouts reproducible; ``records`` is where results go
    (a failed check is reported in `records_problem`, and play goes on);
    ``strategy`` is the computer's strategy with its settings, or its name
    (another one is used, with a note, if it is missing); ``replay_dir``, when
    given, receives the replay of every finished game, under ``player``'s name (by
    default the last one used, else the login name; the name typed for a record
    replaces it). ``board`` is a layout to play first (from a board file): games on
    it are not recorded, since anyone could make an easy one.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        seed: int | None = None,
        records: Records | None = None,
        strategy: StrategySpec | str = "best",
        clock: Callable[[], float] | None = None,
        replay_dir: Path | None = None,
        board: Board | None = None,
        player: str | None = None,
    ) -> None:
        self.seed = seed
        self.replay_dir = replay_dir
        #: Where the last game's replay was saved in ``replay_dir`` (or why it was not).
        self.saved_replay: str | None = None
        self.records = records if records is not None else Records()
        #: Where finished games go (the records, the history beside them, the replays).
        self.ending = Ending(self.records, replay_dir=replay_dir)
        #: Every finished game (but those on a given board), beside the records.
        self.history = self.ending.history
        #: Why the last game is missing from the history, if it is.
        self.history_problem: str | None = None
        #: The player's name, in the records, the replays and the statistics alike: the
        #: one given, else the last one used (typed for a record), else the login name.
        self.player = player or self._last_player() or default_name()
        self.strategy = strategy
        self.clock = clock
        self.records_problem: str | None = None
        self.overlay = False
        self.conventions = Conventions()
        #: Whether the layout on screen came from a board file (such games are not recorded).
        self.given_board = board is not None
        self._make(settings, board)
        self.check_records()

    # -- state ----------------------------------------------------------------------------

    def _make(self, settings: Settings, board: Board | None = None) -> None:
        extra = {"clock": self.clock} if self.clock is not None else {}
        if board is not None:  # a given layout first; `n` deals new ones on its shape
            self.session: GameSession = GameSession(settings, seed=self.seed, board=board, **extra)  # type: ignore[arg-type]
        else:
            self.session = new_session(settings, seed=self.seed, **extra)
        self.settings = self.session.settings
        self.cursor = first_cell(self.session)
        self.message = self.quiet or GREETING
        self._fresh()

    def _fresh(self) -> None:
        """Forget everything about the previous game on screen (not the settings)."""
        self.hint: Hint | None = None
        self._chances: tuple[Probabilities | None] | None = None
        self.auto: AutoPlayer | None = None
        self.paused = False
        self.outcome: RecordNews | None = None
        self.marks: set[int] = set()
        self._restart_armed = False

    #: Whether hints, the odds and the computer are offered (ranked play refuses them).
    aids = True

    @property
    def points_shown(self) -> bool:
        """Whether the header shows the points: while playing here; the ladder's are the
        server's, known only at the end."""
        return True

    @property
    def quiet(self) -> str:
        """What the message line says when there is nothing to say: "", or under the ACM
        rules that the mine count is not told (the header's legend)."""
        return "" if self.session.count_told else COUNT_NOT_TOLD

    @property
    def playing_computer(self) -> bool:
        """True while the computer plays (the player may only watch, pause or start anew)."""
        return self.auto is not None and not self.session.over

    def chances(self) -> Probabilities | None:
        """The exact mine probabilities of the position on screen (cached until it changes)."""
        if self._chances is None:
            self._chances = (chances(self.session),)
        return self._chances[0]

    def where(self, cell: int) -> str:
        """A cell as the player reads it (see `cell_name`)."""
        return cell_name(self.session.topology, cell)

    # -- the player's actions -------------------------------------------------------------

    def press(self, cell: int, button: int) -> None:
        """A mouse click: left opens (chords on a satisfied number), right flags (and marks
        ``?``), middle chords. After the end a first click only shows the board; a second
        one plays the same layout again.
        """
        if self.playing_computer:
            self.message = "the computer is playing: watch, pause (a) or start a new game (n)"
            return
        if self.session.over:
            if self._restart_armed:
                self.restart()
            else:
                self._restart_armed = True
                self.message = (
                    "the game is over: click again or r for the same layout, n for a new one"
                )
            return
        self.cursor = cell
        left_chord = self.conventions.left_chords and self.session.is_opened(cell)
        if button == RIGHT:
            self.cycle_mark(cell) if self.conventions.question_marks else self.flag(cell)
        elif button == MIDDLE or left_chord:
            self.chord(cell)
        else:
            self.open(cell)

    def cycle_mark(self, cell: int) -> None:
        """Right click with ``?`` marks: nothing, flag, ``?``, nothing again."""
        if cell in self.session.flags:
            self.flag(cell)
            if cell not in self.session.flags:
                self.marks.add(cell)
        elif cell in self.marks:
            self.marks.discard(cell)
        else:
            self.flag(cell)

    def mark(self, cell: int) -> None:
        """Put or remove a ``?`` on a closed cell (a note to oneself: it protects nothing)."""
        if self.playing_computer or self.session.over:
            return
        if self.session.cell_state(cell) is not CellState.CLOSED:
            return
        self.marks.symmetric_difference_update({cell})

    def open(self, cell: int) -> None:
        self._act(self.session.open, cell)

    def flag(self, cell: int) -> None:
        self._act(self.session.toggle_flag, cell)

    def chord(self, cell: int) -> None:
        self._act(self.session.chord, cell)

    def _act(self, action: Callable[[int], object], cell: int) -> None:
        if self.playing_computer or self.session.over:
            return
        self.message = self.quiet
        if self.overlay and self.session.started:
            self.session.note_assist("odds")  # the click was made seeing the odds
        try:
            action(cell)
        except MinesweeperError as error:  # e.g. no no-guess board found
            self.message = str(error)
        self._after()

    def leave(self) -> bool:
        """Keep the game on screen as abandoned when it is left unfinished after its first
        click (a new game, a restart, quitting); whether it was."""
        session = self.session
        if not session.started or session.over or self.given_board:
            return False
        category = self.settings.category()
        self.history_problem = self.ending.abandon(session, category, self.player)
        return True

    def restart(self) -> None:
        """The same layout again from the start (a new one if none was laid yet)."""
        left = self.leave()
        self.session.restart()
        self._fresh()
        self.message = "the same layout again" + (f" ({ABANDONED})" if left else "")

    def new_game(self, settings: Settings | None = None) -> None:
        """A new layout; with ``settings`` (when they differ), a new kind of game at once."""
        left = self.leave()
        self.given_board = False
        if settings is not None and settings != self.settings:
            self._make(settings)
        else:
            self.session.new_game()
            self._fresh()
        self.message = ABANDONED if left else self.quiet

    def show_hint(self) -> Hint | None:
        """Mark a cell proved safe, or else the computer's strategy's guess, and say so."""
        if self.playing_computer:
            return None
        guesser, _ = computer_strategy(self.strategy, self.seed or 0)
        found = hint(self.session, self.cursor, guesser)
        self.hint = found
        if found is None:
            self.message = "no hint: the game is over" if self.session.over else "no hint"
        elif not self.session.started:
            self.message = "hint: the first open is always safe; open anywhere"
        else:
            self.session.note_assist("hint")
            self.message = found.describe(self.where(found.cell))
            self.cursor = found.cell
        return found

    def toggle_overlay(self) -> bool:
        """Show or hide every unknown cell's mine probability; True when shown."""
        self.overlay = not self.overlay
        if self.overlay and self.session.started:
            self.session.note_assist("odds")
        self.message = self.odds() if self.overlay else self.quiet
        return self.overlay

    def odds(self, cell: int | None = None) -> str:
        """The exact mine probability of ``cell`` (the cursor's by default), in words."""
        cell = self.cursor if cell is None else cell
        result = self.chances()
        if result is None:
            return "mine probabilities: open a cell first" if not self.session.started else ""
        if cell not in result:
            return f"{self.where(cell)}: opened"
        chance = result[cell]
        return f"{self.where(cell)}: mine probability {chance} ({float(chance):.1%})"

    # -- the computer ---------------------------------------------------------------------

    def start_computer(self) -> None:
        """Let the computer play this game from where it stands; or pause / resume it."""
        if self.playing_computer:
            self.paused = not self.paused
            self.message = "paused" if self.paused else self.quiet
            return
        if self.session.over:
            self.message = "the game is over: start a new one (n) first"
            return
        strategy, note = computer_strategy(self.strategy, self.seed or 0)
        self.auto = AutoPlayer(self.session, strategy)
        self.paused = False
        self.hint = None
        self.message = note or f"the computer plays ({strategy.name})"

    def computer_step(self) -> bool:
        """One move of the computer; False when it has nothing (more) to do."""
        if not self.playing_computer or self.paused or self.auto is None:
            return False
        try:
            self.auto.step()
        except MinesweeperError as error:
            self.message = f"the computer stopped: {error}"
            self.auto = None
            return False
        self._after()
        return True

    # -- the end and the records ----------------------------------------------------------

    def _after(self) -> None:
        self._chances = None
        self.marks = {c for c in self.marks if self.session.cell_state(c) is CellState.CLOSED}
        if (
            self.hint is not None
            and self.session.cell_state(self.hint.cell) is not CellState.CLOSED
        ):
            self.hint = None
        if self.session.over and self.outcome is None:
            self._finish()
            if self.saved_replay:
                self.message += f"\n{self.saved_replay}"
            if self.history_problem:
                self.message += f"\n{self.history_problem}"

    def _finish(self) -> None:
        session = self.session
        self.saved_replay = None
        verdict = "won" if session.won else "lost"
        if session.by_computer and enters_records(session, self.given_board):
            stats = session.stats().summary(by_computer=True)
            self._keep(COMPUTER)
            try:
                place = self._record(COMPUTER)
            except RecordsError:
                place = None
            self.outcome = RecordNews(computer=True, place=place)
            news = entered(place, None, session.won)
            self.message = f"the computer {verdict}" + (f"; {news}" if news else "") + f"\n{stats}"
            return
        stats = session.stats().summary()
        who = "the computer" if self.auto is not None else "you"
        if not enters_records(session, self.given_board):
            self._keep(self.player)
            self.outcome = RecordNews(computer=self.auto is not None, assisted=session.assisted)
            why = NOT_RECORDED if session.assisted else GIVEN_BOARD
            self.message = f"{who} {verdict}; {why}\n{stats}"
            return
        category, entry = self.settings.category(), session.entry("?")
        try:
            place = self.records.place_for(category, entry)
            fast = self.records.time_place_for(category, entry)
        except RecordsTampered as error:
            # Entering moves the damaged file aside: the result starts new tables.
            self.records_problem = str(error)
            place, fast = 1, None
        except RecordsError as error:
            self.records_problem = str(error)
            place = fast = None
        waiting = place is not None or fast is not None
        try:
            bests = self.history.best(self.player, category).news(session.stats())
        except HistoryError as error:
            self.history_problem, bests = str(error), []
        self.outcome = RecordNews(
            computer=False,
            place=place,
            waiting_for_name=waiting,
            time_place=fast,
            bests=tuple(bests),
        )
        self.message = "; ".join([f"you {verdict}", *bests])
        if not waiting:
            # The replay names the player now; a result that enters waits for the name typed.
            self._keep(self.player)
            if not self.records_problem:
                self.message += "; not a record"
        self.message += f"\n{stats}"

    def _last_player(self) -> str | None:
        try:
            return self.history.last_player()
        except HistoryError as error:
            self.history_problem = str(error)
            return None

    def _keep(self, player: str) -> None:
        """Keep the finished game under ``player``'s name: in the history (but a given
        board's), and its replay in ``replay_dir`` when there is one."""
        kept = self.ending.keep(self.session, self.settings.category(), player, self.given_board)
        self.history_problem = kept.history_problem
        self.saved_replay = None
        if kept.replay_problem is not None:
            self.saved_replay = f"the replay was not saved: {kept.replay_problem}"
        elif kept.replay is not None:
            where = home_relative(kept.replay.parent)
            self.saved_replay = f"replay saved: {kept.replay.name} (in {where})"

    @property
    def news(self) -> str:
        """What the waiting result's entry into the tables means (for the name prompt)."""
        outcome = self.outcome
        if outcome is None:
            return ""
        said = entered(outcome.place, outcome.time_place, self.session.won) or ""
        return said[:1].upper() + said[1:]

    def enter_record(self, name: str | None) -> int | None:
        """Enter the waiting result under ``name`` (None: the player declined).

        The name typed becomes the player's name from now on: the replay saved in
        ``replay_dir`` and the next games carry it.
        """
        outcome = self.outcome
        if outcome is None or not outcome.waiting_for_name:
            return None
        if name is None:
            self.outcome = RecordNews(computer=False)
            self._keep(self.player)
            self._after_saving("; ".join(["the result was not entered", *outcome.bests]))
            return None
        self.player = name.strip() or self.player
        self._keep(self.player)
        try:
            place = self._record(self.player)
        except RecordsError:
            said = "the result was not recorded"
            place = None
        else:
            said = entered(place, outcome.time_place, self.session.won) or "not entered"
        self.outcome = RecordNews(computer=False, place=place, time_place=outcome.time_place)
        self._after_saving("; ".join([said, *outcome.bests]))
        return place

    def _after_saving(self, said: str) -> None:
        self.message = said + f"\n{self.session.stats().summary()}"
        if self.saved_replay:
            self.message += f"\n{self.saved_replay}"

    def _record(self, name: str) -> int | None:
        """Enter the finished game under ``name``, with its replay; `RecordsError` is noted."""
        try:
            place = self.ending.enter(self.session, self.settings.category(), name)
        except RecordsError as error:
            self.records_problem = str(error)
            raise
        self.records_problem = self.ending.records.kept_aside_note()
        return place

    def check_records(self) -> str | None:
        """Check the records file now; the problem (also kept in `records_problem`), if any."""
        try:
            self.records.verify()
        except RecordsError as error:
            self.records_problem = str(error)
        return self.records_problem

    def table(self, ranking: Ranking = Ranking.POINTS) -> list[Entry]:
        """The current category's table by ``ranking``; raises `RecordsError`."""
        return self.records.table(self.settings.category(), ranking)


def home_relative(path: Path) -> str:
    """``path`` as a person writes it: ``~/...`` under their home folder."""
    try:
        return f"~/{path.resolve().relative_to(Path.home().resolve())}"
    except (ValueError, RuntimeError, OSError):
        return str(path)


def default_name() -> str:
    """The login name, as a default for the records."""
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "Player"
