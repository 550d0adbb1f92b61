"""The end of a game, the same for every face (the terminal game, `autoplay`): what is
kept (the game history, the replay file) and, by one policy, what enters the records.

The policy (`enters_records`): the records rank games dealt by the program, played by
a person without help or by the computer alone from its first click. A game on a board
its player brought (``given_board``), or one with a hint, the odds or the computer's
moves along the way, is kept in the history but ranked nowhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from minesweeper.errors import MinesweeperError, RecordsError
from minesweeper.play.history import History, Play, PlayedGame
from minesweeper.play.records import Category, Records
from minesweeper.play.replay import Replay, replay_name, save_replay
from minesweeper.play.session import GameSession


def how_played(session: GameSession) -> Play:
    """By the computer alone, with help, or by a person alone."""
    if session.by_computer:
        return Play.COMPUTER
    return Play.ASSISTED if session.assisted else Play.PERSON


def enters_records(session: GameSession, given_board: bool = False) -> bool:
    """Whether the finished game may enter the records (the module's policy)."""
    return not given_board and (session.by_computer or not session.assisted)


@dataclass(frozen=True)
class Kept:
    """What keeping a finished game did: where its replay went, and what went wrong
    (``replay_problem``, ``history_problem``: one line each, None when all went well)."""

    replay: Path | None = None
    replay_problem: str | None = None
    history_problem: str | None = None


class Ending:
    """Where finished games go: ``records``, the ``history`` beside them (by default), and
    ``replay_dir`` for every game's replay (None: replays only go with records)."""

    def __init__(
        self, records: Records, history: History | None = None, replay_dir: Path | None = None
    ) -> None:
        self.records = records
        self.history = history if history is not None else History.beside(records)
        self.replay_dir = replay_dir

    def keep(
        self, session: GameSession, category: Category, player: str, given_board: bool = False
    ) -> Kept:
        """Keep the finished game under ``player``'s name: in the history (not a given
        board's: anyone could bring an easy one), and its replay in `replay_dir`."""
        history_problem = None
        if not given_board:
            game = PlayedGame.make(category, player, how_played(session), session.stats())
            try:
                self.history.add(game)
            except RecordsError as error:
                history_problem = str(error)
        if self.replay_dir is None:
            return Kept(history_problem=history_problem)
        replay = Replay.of(session, player=player)
        try:
            path = save_replay(replay.to_bytes(), self.replay_dir, replay_name(replay))
        except (OSError, MinesweeperError) as error:
            return Kept(replay_problem=str(error), history_problem=history_problem)
        return Kept(replay=path, history_problem=history_problem)

    def abandon(
        self, session: GameSession, category: Category, player: str, given_board: bool = False
    ) -> str | None:
        """Keep ``session``, left unfinished after its first click, in the history as
        abandoned (a game not won); what went wrong, in one line, or None."""
        if given_board or not session.started or session.over:
            return None
        stats = session.stats()
        game = PlayedGame.make(category, player, how_played(session), stats, abandoned=True)
        try:
            self.history.add(game)
        except RecordsError as error:
            return str(error)
        return None

    def enter(self, session: GameSession, category: Category, name: str) -> int | None:
        """Enter the finished game in the records under ``name``, with its replay: its place
        (None: not in the top 10). Raises `RecordsError`."""
        replay = Replay.of(session, player=name).to_bytes()
        return self.records.add(category, session.entry(name), replay)
