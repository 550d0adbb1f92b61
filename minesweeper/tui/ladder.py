"""Ranked play in the terminal: the game on screen is a game on a ladder server.

`RemoteSession` is a `GameSession` whose board is the server's: every open, flag
and chord is a request, and the session shows what the answers revealed, nothing
more (the mines come with the end of the game). `LadderController` is the terminal
game's controller for it: no hints, odds or computer (ranked games are unaided), no
replaying a layout, and the result is the server's.
"""

from __future__ import annotations

from typing import Any

from minesweeper.errors import MinesweeperError, RulesError
from minesweeper.ladder.categories import MINIMUM_BBBV, parse_ranked
from minesweeper.ladder.remote import LadderClient
from minesweeper.play.autoplay import first_cell
from minesweeper.play.session import CellState, GameSession, Settings, State
from minesweeper.play.stats import Clicks, GameStats
from minesweeper.tui.controller import Controller, RecordNews

UNAIDED = "ranked games are played unaided: no hints, odds or computer"


class RemoteSession(GameSession):
    """One ranked game after another on ``remote``, with ``settings`` (a ranked variant)."""

    def __init__(self, remote: LadderClient, settings: Settings, **extra: Any) -> None:
        self.remote = remote
        super().__init__(settings, **extra)
        self._deal()

    def _deal(self) -> None:
        variant = parse_ranked(str(self.settings.variant))  # only ranked games are dealt
        game = self.remote.new_game(
            mode="ranked", preset=variant.preset_name, rules=variant.rules.value
        )
        self.game_id: str = game["id"]
        self.category: str = game["category"]
        self.topology = variant.make_topology()
        self._reset(None)
        self._seen: dict[int, int] = {}
        self._remote_state = State.PLAYING
        self._moves = 0
        self._end: dict[str, Any] | None = None

    # -- what the answers showed ----------------------------------------------------------

    @property
    def state(self) -> State:
        return self._remote_state

    def is_opened(self, cell: int) -> bool:
        return cell in self._seen

    def count(self, cell: int) -> int | None:
        return self._seen.get(cell)

    def opened(self) -> dict[int, int]:
        return dict(self._seen)

    def cell_state(self, cell: int) -> CellState:
        if cell in self._exploded:
            return CellState.EXPLODED
        if cell in self._seen:
            return CellState.OPENED
        flagged = cell in self._flags
        if self._end is not None:
            mine = cell in self._end["mines"]
            if flagged:
                return CellState.FLAGGED if mine else CellState.WRONG_FLAG
            return CellState.MINE if mine else CellState.CLOSED
        return CellState.FLAGGED if flagged else CellState.CLOSED

    def stats(self) -> GameStats:
        if self._end is None:
            return GameStats(0, 0, Clicks(), self.ms, False)
        stats = self._end["stats"]
        clicks = stats["clicks"]
        return GameStats(
            stats["bbbv"],
            stats["solved_bbbv"],
            Clicks(clicks["left"], clicks["right"], clicks["chord"]),
            stats["ms"],
            stats["won"],
        )

    # -- moves: requests ------------------------------------------------------------------

    def open(self, cell: int) -> list[int]:
        return self._send("open", cell)

    def toggle_flag(self, cell: int) -> bool:
        self._send("flag", cell)
        return cell in self._flags

    def chord(self, cell: int) -> list[int]:
        return self._send("chord", cell)

    def _send(self, kind: str, cell: int) -> list[int]:
        self._check(cell)
        if self.over:
            return []
        answer = self.remote.move(self.game_id, kind, cell, expect=self._moves)
        self._moves = answer["number"]
        opened = [c for c, _ in answer["opened"]]
        self._seen.update(dict(map(tuple, answer["opened"])))
        self._flags.difference_update(opened)
        if answer["kind"] in ("flag", "unflag"):
            (self._flags.add if answer["flagged"] else self._flags.discard)(cell)
        if self._started_at is None and self._seen:
            self._started_at = self.clock() - answer["ms"] / 1000
        end = answer["end"]
        if end is not None:
            self._end = end
            self._exploded = set(end["exploded"])
            self._stopped_ms = end["ms"]
            self.points = end["points"]
            self._remote_state = State.WON if end["won"] else State.LOST
            if end["won"]:  # a win flags every mine, as a game played here does
                self._flags.update(end["mines"])
        return list(self._exploded) if self.lost else opened

    def unranked_win(self) -> str | None:
        """Why a win enters no time or 3BV/s ladder (its board's 3BV under the level's
        least), in words; None for a win that ranks, or a loss."""
        if not self.won or self._end is None:
            return None
        bbbv = (self._end.get("stats") or {}).get("bbbv")
        least = MINIMUM_BBBV.get(parse_ranked(self.category).preset_name or "")
        if bbbv is None or least is None or bbbv >= least:
            return None
        return f"a win, but a board of 3BV {bbbv} ranks no time (the least is {least})"

    # -- what a ranked game does not allow ------------------------------------------------

    def note_assist(self, kind: str) -> None:
        raise RulesError(UNAIDED)

    def restart(self) -> None:
        self.new_game()

    def new_game(self) -> None:
        """A new ranked board (a started game left unfinished is resigned: it counts)."""
        if not self.over and self.started:
            self.remote.resign(self.game_id)
        self._deal()


class LadderController(Controller):
    """The terminal game's controller, playing ranked on ``remote``: no aids to offer, and
    the points are the server's, known at the end."""

    aids = False

    def __init__(self, remote: LadderClient, settings: Settings, **extra: Any) -> None:
        self.remote = remote
        super().__init__(settings, **extra)

    def _make(self, settings: Settings, board: object = None) -> None:
        extra = {"clock": self.clock} if self.clock is not None else {}
        self.session = RemoteSession(self.remote, settings, **extra)
        self.settings = self.session.settings
        self.cursor = first_cell(self.session)
        self.message = f"ranked {self.session.category} on {self.remote.url}; {UNAIDED}"
        self._fresh()

    def new_game(self, settings: Settings | None = None) -> None:
        """A new ranked board; settings that are not ranked are refused, the game stays."""
        try:
            super().new_game(settings)
        except MinesweeperError as error:
            self.message = str(error)

    def leave(self) -> bool:
        """Nothing to keep here: the ladder keeps its games (a started one left
        unfinished is resigned by `RemoteSession.new_game`, and counts as not won)."""
        return False

    def show_hint(self) -> None:
        self.message = UNAIDED

    def toggle_overlay(self) -> bool:
        self.message = UNAIDED
        return False

    def start_computer(self) -> None:
        self.message = UNAIDED

    def restart(self) -> None:
        self.session.new_game()
        self._fresh()
        self.message = "a ranked board is played once: a new one"

    def _finish(self) -> None:
        session = self.session
        assert isinstance(session, RemoteSession)
        verdict = "won" if session.won else "lost"
        self.outcome = RecordNews(computer=False)
        # The page's replay view (the ladder serves it at /), not the replay's raw JSON.
        replay = f"{self.remote.url}/#/replay/{session.game_id}"
        self.message = (
            f"you {verdict} ({session.ms / 1000:.3f} s on the server's clock); "
            f"{session.unranked_win() or 'on the ladder'}, replay at {replay}\n"
            f"{session.stats().summary()}"
        )

    @property
    def points_shown(self) -> bool:
        return self.session.over
