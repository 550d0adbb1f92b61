"""`GameSession`: a person's game of minesweeper, with flags, chords, a timer and points.

The judge's `Game` only visits cells; a session wraps one and adds what a person
plays with. Nothing here draws anything: the terminal UI, the computer player
and the tests all drive the same session.

>>> session = GameSession(Settings.preset("beginner"), seed=1)
>>> opened = session.open(session.topology.cell_at(4, 4))   # mines are laid now
>>> session.cell_state(session.topology.cell_at(4, 4))
<CellState.OPENED: 'opened'>
>>> session.count(session.topology.cell_at(4, 4))            # an opening: no mine around
0

Rules:

- ``open(cell)`` opens a closed, unflagged cell; a zero opens its area. The
  first open of a layout is always safe: the mines are laid only then, away
  from the cell (`FirstClick.SAFE`), or away from it and its neighbours
  (`FirstClick.OPENING`, the default; when the mines do not fit around an
  opening the session falls back to a safe first click).
- ``toggle_flag(cell)`` puts or removes a flag on a closed cell. Flags only
  protect a cell from ``open`` and feed ``chord``; a flagged cell that a
  zero's flood reaches is opened and loses its (wrong) flag.
- ``chord(cell)`` on an opened number N with exactly N flags around it opens
  every other closed neighbour. If a flag there is wrong, the chord opens mines:
  the game is lost, those mines show as exploded, and nothing else opens.
- The timer starts at the first open and stops when the game ends.
- Points: see `minesweeper.play.scoring`.
- Every click while the game is on is logged in ``actions`` with its time in
  milliseconds since the first open (`Action`), which is what replays and the
  game's statistics (`stats`) are made of; ``note_assist`` marks help the
  player had (a hint, the odds, the computer).

Cells are topology cell ids (graph nodes), so every topology plays the same way.
"""

from __future__ import annotations

import enum
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from datetime import datetime

from minesweeper.board import Board
from minesweeper.boards.generate import DEAL_SEED_BITS, BoardMaker, deal, lay_mines
from minesweeper.errors import RulesError, SettingsError
from minesweeper.game import Game, State
from minesweeper.play.records import Category, Entry
from minesweeper.play.scoring import open_points, win_bonus
from minesweeper.play.stats import Clicks, GameStats, bbbv, solved_bbbv
from minesweeper.topology.base import Topology
from minesweeper.topology.square import SquareTopology
from minesweeper.variant import FirstClick, Rules, Variant

__all__ = [
    "ACTION_KINDS",
    "ASSIST_KINDS",
    "Action",
    "CellState",
    "FirstClick",
    "GameSession",
    "Settings",
    "SettingsError",
    "State",
    "played_by_computer",
]


@dataclass(frozen=True)
class Settings:
    """What kind of game a person plays: an immutable value, compared by value.

    ``variant`` is the `Variant` (topology, size, mines, rules); ``no_guess`` asks for
    boards a ``prover`` (``"subset"`` or ``"exact"``) solves from the first click
    without guessing. Under the acm rules the game, its computer player and its
    hints never tell the mine count.
    """

    variant: Variant = field(default_factory=Variant)
    no_guess: bool = False
    prover: str = "subset"

    @classmethod
    def preset(
        cls,
        name: str,
        topology: type[Topology] = SquareTopology,
        rules: Rules = Rules.MODERN,
        *,
        no_guess: bool = False,
        prover: str = "subset",
    ) -> Settings:
        """Preset ``name`` on ``topology`` (fitted to it: `Variant.preset`)."""
        return cls(Variant.preset(name, topology, rules), no_guess, prover)

    @classmethod
    def of_category(cls, category: Category) -> Settings:
        """The settings of the games that enter ``category``."""
        return cls(category.variant, no_guess=category.no_guess)

    @property
    def preset_name(self) -> str | None:
        """The name of the preset with this size and mine count, if any."""
        return self.variant.preset_name

    def replace(self, **changes: object) -> Settings:
        """A copy with ``changes`` applied: fields of `Settings` or of its `Variant`."""
        game_changes = {k: v for k, v in changes.items() if k in _VARIANT_FIELDS}
        own = {k: v for k, v in changes.items() if k not in _VARIANT_FIELDS}
        if game_changes:
            own["variant"] = replace(self.variant, **game_changes)  # type: ignore[arg-type]
        return replace(self, **own)  # type: ignore[arg-type]

    def category(self) -> Category:
        """The records table games with these settings enter."""
        return Category(self.variant, self.no_guess)


_VARIANT_FIELDS = frozenset(each.name for each in fields(Variant))


#: What a logged click did: ``open`` (left), ``flag``/``unflag`` (right), ``chord`` (middle).
ACTION_KINDS = ("open", "flag", "unflag", "chord")
#: Help a player can have during a game; a game with any of it is assisted.
ASSIST_KINDS = ("hint", "odds", "computer")


def played_by_computer(assists: Sequence[tuple[str, int]]) -> bool:
    """Whether a game helped by ``assists`` was the computer's alone: its help from click 0 only."""
    return list(assists) == [("computer", 0)]


@dataclass(frozen=True)
class Action:
    """One click of a game: ``kind`` (see `ACTION_KINDS`) on ``cell`` at ``ms``.

    ``ms`` counts milliseconds since the first open (clicks before it have 0).
    Clicks that changed nothing (on an opened cell, a flag...) are logged too.
    """

    ms: int
    kind: str
    cell: int


class CellState(enum.Enum):
    """What a cell shows.

    During play: ``CLOSED``, ``FLAGGED``, ``OPENED`` (see `GameSession.count`).
    Once lost: ``EXPLODED`` (the mine(s) opened), ``MINE`` (every other mine
    without a flag), ``WRONG_FLAG`` (a flag on a safe cell); correct flags stay
    ``FLAGGED``. Once won: every mine is flagged (``FLAGGED``), the counter at 0.
    """

    CLOSED = "closed"
    OPENED = "opened"
    FLAGGED = "flagged"
    EXPLODED = "exploded"
    MINE = "mine"
    WRONG_FLAG = "wrong_flag"


class GameSession:
    """One person's game: a layout (laid at the first open), flags, timer and points.

    ``seed`` makes the layouts reproducible (each `new_game` draws the next one
    from the same random stream). ``clock`` returns seconds (``time.monotonic``
    by default; tests inject a fake). ``board_maker`` lays the mines at the first
    open (`lay_mines` by default; required for ``settings.no_guess``, see
    `minesweeper.play.autoplay.new_session` which picks the no-guess maker).
    ``board`` fixes the layout from the start (the first open is then not protected).

    ``topology`` is drawn from the settings when the session is made (its first use
    of the seed), and again by each `new_game` for kinds drawn at random (tilings,
    graphs); `restart` keeps it.
    """

    def __init__(
        self,
        settings: Settings | None = None,
        *,
        seed: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        board_maker: BoardMaker | None = None,
        board: Board | None = None,
    ) -> None:
        self.settings = settings if settings is not None else Settings()
        if board_maker is None:
            if self.settings.no_guess:
                raise SettingsError(
                    "a no-guess game needs a no-guess board maker "
                    "(use minesweeper.play.autoplay.new_session)"
                )
            board_maker = lay_mines
        self.board_maker = board_maker
        self.rng = random.Random(seed)
        #: The seed the current board's mines were laid from (None: not laid yet, or given):
        #: a replay carries it, so that the board can be shown to be the game's own deal.
        self.deal_seed: int | None = None
        self.clock = clock
        self._fixed_topology = board is not None
        if board is not None:
            self.topology = board.topology
            rows, cols = board.topology.shape
            self.settings = self.settings.replace(
                rows=rows, cols=cols, mines=board.mine_count, topology=type(board.topology)
            )
        else:
            self.topology = self.settings.variant.make_topology(self.rng)
        self._reset(board)

    @classmethod
    def from_board(
        cls,
        board: Board,
        settings: Settings | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> GameSession:
        """A session on a fixed layout (tests, replays); the mine count is taken from it."""
        return cls(settings, clock=clock, board=board)

    # -- state ----------------------------------------------------------------------------

    def _reset(self, board: Board | None) -> None:
        self.board: Board | None = board
        self._game: Game | None = Game(board) if board is not None else None
        self._flags: set[int] = set()
        self._exploded: set[int] = set()
        self._lost = False
        self.points = 0
        self._started_at: float | None = None
        self._stopped_ms: int | None = None
        #: Every click of this game, in order (see `Action`).
        self.actions: list[Action] = []
        #: Help the player had: ``(kind, number of actions before it)``, each kind once.
        self.assists: list[tuple[str, int]] = []

    @property
    def state(self) -> State:
        """`State.PLAYING` until the game is won or lost (also before the first open)."""
        if self._lost:
            return State.LOST
        return self._game.state if self._game is not None else State.PLAYING

    @property
    def over(self) -> bool:
        return self.state is not State.PLAYING

    @property
    def won(self) -> bool:
        return self.state is State.WON

    @property
    def lost(self) -> bool:
        return self.state is State.LOST

    @property
    def started(self) -> bool:
        """True once the first cell has been opened (the timer runs from then)."""
        return self._started_at is not None

    @property
    def mine_count(self) -> int:
        return self.settings.variant.mines

    @property
    def flags(self) -> frozenset[int]:
        return frozenset(self._flags)

    @property
    def count_told(self) -> bool:
        """Whether the player is told the mine count (not under the ACM rules)."""
        return self.settings.variant.count_told

    @property
    def mines_left(self) -> int:
        """Mines minus flags, as the classic counter shows it (may go negative); a game
        whose count is not told (`count_told`) must show the flags instead."""
        return self.mine_count - len(self._flags)

    @property
    def exploded(self) -> frozenset[int]:
        """The mine(s) whose opening lost the game."""
        return frozenset(self._exploded)

    @property
    def elapsed(self) -> float:
        """Seconds since the first open, frozen when the game ends; 0 before."""
        if self._started_at is None:
            return 0.0
        if self._stopped_ms is not None:
            return self._stopped_ms / 1000
        return self.clock() - self._started_at

    @property
    def ms(self) -> int:
        """Whole milliseconds since the first open, frozen when the game ends; 0 before."""
        if self._stopped_ms is not None:
            return self._stopped_ms
        return self._now_ms()

    @property
    def seconds(self) -> int:
        """Whole seconds played: what the timer shows and the time bonus uses."""
        return int(self.elapsed)

    def is_opened(self, cell: int) -> bool:
        return (
            self._game is not None and self._game.is_revealed(cell) and cell not in self._exploded
        )

    def count(self, cell: int) -> int | None:
        """The number an opened cell shows, or None if it is not opened."""
        if self.is_opened(cell):
            assert self.board is not None
            return self.board.count(cell)
        return None

    def opened(self) -> dict[int, int]:
        """Every opened cell and its number: exactly what a player sees (flags aside)."""
        if self._game is None:
            return {}
        board, revealed = self.board, self._game.revealed
        assert board is not None
        return {
            cell: board.count(cell)
            for cell in range(board.size)
            if revealed[cell] and cell not in self._exploded
        }

    def cell_state(self, cell: int) -> CellState:
        """What ``cell`` shows now (see `CellState`)."""
        if cell in self._exploded:
            return CellState.EXPLODED
        if self.is_opened(cell):
            return CellState.OPENED
        flagged = cell in self._flags
        if self.over:
            assert self.board is not None
            mine = self.board.is_mine(cell)
            if flagged:
                return CellState.FLAGGED if mine else CellState.WRONG_FLAG
            return CellState.MINE if mine else CellState.CLOSED
        return CellState.FLAGGED if flagged else CellState.CLOSED

    # -- actions --------------------------------------------------------------------------

    def open(self, cell: int) -> list[int]:
        """Open ``cell``; return the cells newly opened (or the exploded mine).

        Does nothing (returns ``[]``) on an opened or flagged cell or once the game
        is over. The first open lays the mines and starts the timer; it raises what
        the board maker raises (e.g. a no-guess maker giving up), leaving the
        session unstarted.
        """
        self._check(cell)
        if self.over:
            return []
        if cell in self._flags or self.is_opened(cell):
            self._log("open", cell)
            return []
        if self._game is None:
            self._lay(cell)
        if self._started_at is None:
            self._started_at = self.clock()
            self.actions.append(Action(0, "open", cell))  # the timer starts at this click
        else:
            self._log("open", cell)
        return self._open_by_hand([cell])

    def toggle_flag(self, cell: int) -> bool:
        """Put or remove a flag on a closed cell; return whether it is flagged now.

        Opened cells and finished games are left alone.
        """
        self._check(cell)
        if self.over:
            return cell in self._flags
        self._log("unflag" if cell in self._flags else "flag", cell)
        if self.is_opened(cell):
            return False
        if cell in self._flags:
            self._flags.remove(cell)
            return False
        self._flags.add(cell)
        return True

    def chord(self, cell: int) -> list[int]:
        """On an opened number with as many flags around it, open its other closed neighbours.

        Returns the cells opened (or the exploded mines); ``[]`` when the chord does
        not apply (not an opened number, flags not matching, game over).
        """
        self._check(cell)
        if self.over:
            return []
        self._log("chord", cell)
        count = self.count(cell)
        if not count:
            return []
        neighbours = self.topology.neighbours(cell)
        if sum(1 for other in neighbours if other in self._flags) != count:
            return []
        targets = [o for o in neighbours if o not in self._flags and not self.is_opened(o)]
        return self._open_by_hand(targets)

    def restart(self) -> None:
        """Play the same layout again from the start (if it was laid already)."""
        self._reset(self.board)

    def new_game(self) -> None:
        """A new layout, laid at the next first open.

        Topologies drawn at random (tilings, graphs) are drawn afresh: ``topology``
        may change. A session made `from_board` keeps its topology.
        """
        if not self._fixed_topology:
            self.topology = self.settings.variant.make_topology(self.rng)
        self.deal_seed = None
        self._reset(None)

    def note_assist(self, kind: str) -> None:
        """Mark that the player had help of ``kind`` (see `ASSIST_KINDS`) from now on."""
        if kind not in ASSIST_KINDS:
            raise ValueError(f"unknown kind of help {kind!r}")
        if not self.over and all(known != kind for known, _ in self.assists):
            self.assists.append((kind, len(self.actions)))

    @property
    def assisted(self) -> bool:
        """Whether the player had any help in this game."""
        return bool(self.assists)

    @property
    def by_computer(self) -> bool:
        """Whether the computer played this game alone, from its first click."""
        return played_by_computer(self.assists)

    # -- statistics and records -----------------------------------------------------------

    def stats(self) -> GameStats:
        """3BV, clicks, efficiency and time of this game so far (see `minesweeper.play.stats`)."""
        kinds = [action.kind for action in self.actions]
        clicks = Clicks(
            left=kinds.count("open"),
            right=kinds.count("flag") + kinds.count("unflag"),
            chord=kinds.count("chord"),
        )
        board = self.board
        if board is None:
            return GameStats(0, 0, clicks, 0, False)
        solved = solved_bbbv(board, self.opened())
        return GameStats(bbbv(board), solved, clicks, self.ms, self.won)

    def entry(self, name: str, date: datetime | None = None) -> Entry:
        """This finished game as a records entry for ``name``, with its 3BV and clicks."""
        if not self.over:
            raise RulesError("the game is not over yet")
        stats = self.stats()
        return Entry.make(
            name,
            self.points,
            self.elapsed,
            self.won,
            date,
            bbbv=stats.bbbv,
            clicks=stats.clicks.total,
        )

    # -- internals ------------------------------------------------------------------------

    def _check(self, cell: int) -> None:
        if not 0 <= cell < self.topology.size:
            raise RulesError(f"cell {cell} is not on the board")

    def _lay(self, first: int) -> None:
        settings = self.settings
        self.deal_seed = self.rng.getrandbits(DEAL_SEED_BITS)
        board = deal(self.board_maker, self.topology, settings.variant, first, self.deal_seed)
        self.board, self._game = board, Game(board)  # flags placed before stay

    def _open_by_hand(self, targets: list[int]) -> list[int]:
        """Open ``targets`` as the player's own action; score them; end the game if due."""
        game, board = self._game, self.board
        assert game is not None and board is not None
        mines = [cell for cell in targets if board.is_mine(cell)]
        if mines:
            game.visit(mines[0])  # the judge's game ends the same way
            self._exploded.update(mines)
            self._lost = True
            self._stop()
            return mines
        opened: list[int] = []
        for cell in targets:
            if game.is_revealed(cell):  # an earlier target's flood reached it
                continue
            newly = game.visit(cell)
            self.points += open_points(board.count(cell))
            opened.extend(newly)
        self._flags.difference_update(opened)
        if game.state is State.WON:
            self._stop()
            correct = sum(1 for flag in self._flags if board.is_mine(flag))
            self.points += win_bonus(self.mine_count, correct, self.seconds)
            # A won board shows every mine flagged and the counter at 0, as clones do;
            # the points above counted only the flags the player placed.
            self._flags.update(board.mines)
        return opened

    def _now_ms(self) -> int:
        if self._started_at is None:
            return 0
        return max(0, round((self.clock() - self._started_at) * 1000))

    def _log(self, kind: str, cell: int) -> None:
        self.actions.append(Action(self._now_ms(), kind, cell))

    def _stop(self) -> None:
        # The game ends at the click that ended it: the timer and the replay agree.
        if self._stopped_ms is None:
            self._stopped_ms = self.actions[-1].ms if self.actions else self._now_ms()

    def __repr__(self) -> str:
        rows, cols = self.topology.shape
        return (
            f"<GameSession {self.settings.variant.name} {rows}x{cols}, {self.mine_count} mines, "
            f"{self.state.value}, {self.points} points>"
        )
