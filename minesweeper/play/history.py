"""A player's history: every finished game, and the lifetime figures drawn from it.

Each finished game is kept as a `PlayedGame`: its kind of game (the records
`Category`), who played, when, the result, the time, the 3BV, the clicks, and
how it was played (`Play`): by a person alone, by a person with help (a hint,
the odds, the computer taking over), or by the computer alone. `figures` sums a
history up per player, category and way of playing, never mixing them: an
assisted or a computer game never counts in a person's unaided figures, and a
no-guess board is a category of its own.

A game left unfinished after its first click (a new game, a restart or quitting
in the middle) is kept too, as **abandoned**: it counts as a game not won, as
the ranked ladder counts a resigned game (and Windows 7's Minesweeper a game
left for a new one), so that leaving bad boards does not raise a win rate; it
is shown apart (how many were left). A game
never started (no click) is no game.

The history lives in ``history.json`` beside the records file (`History.beside`),
one JSON document written whole with an atomic replace under a `filelock`, so
two games finishing at once lose nothing. A file that cannot be read is
reported (`HistoryError`) and never overwritten.

Nothing here draws anything: ``minesweeper stats``, the terminal game's
statistics screen and a web page all read `History.figures` (or
`Figures.as_json`).
"""

from __future__ import annotations

import enum
import json
import os
import statistics
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from filelock import FileLock

from minesweeper.errors import MinesweeperError, NotAFileError, RecordsError, TooLargeError
from minesweeper.inputs import read_regular
from minesweeper.intervals import wilson_interval
from minesweeper.outputs import write_atomically
from minesweeper.play.records import Category, Records, default_records_path
from minesweeper.play.stats import Clicks, GameStats

FORMAT = "minesweeper-history"
VERSION = 1
HISTORY_FILE = "history.json"


class HistoryError(RecordsError):
    """The history file could not be read or written; it is left as it was."""


class Play(enum.Enum):
    """How a game was played; figures of different ways are never mixed."""

    PERSON = "person"  # a person alone, no help
    ASSISTED = "assisted"  # a person with a hint, the odds or the computer's moves
    COMPUTER = "computer"  # the computer alone, from the first click

    @property
    def label(self) -> str:
        return {"person": "unaided", "assisted": "assisted", "computer": "computer"}[self.value]


@dataclass(frozen=True)
class PlayedGame:
    """One game: its category, player, date (ISO 8601, UTC), result and figures;
    ``abandoned`` when it was left unfinished after its first click."""

    category: Category
    player: str
    date: str
    play: Play
    won: bool
    stats: GameStats
    abandoned: bool = False

    @classmethod
    def make(
        cls,
        category: Category,
        player: str,
        play: Play,
        stats: GameStats,
        date: datetime | None = None,
        abandoned: bool = False,
    ) -> PlayedGame:
        when = date if date is not None else datetime.now(UTC)
        stamp = when.isoformat(timespec="seconds")
        return cls(category, player, stamp, play, stats.won and not abandoned, stats, abandoned)

    def as_json(self) -> dict[str, Any]:
        stats, clicks = self.stats, self.stats.clicks
        left = {"abandoned": True} if self.abandoned else {}  # files before it stay the same
        return {
            **self.category.as_json(),
            "player": self.player,
            "date": self.date,
            "play": self.play.value,
            "won": self.won,
            "ms": stats.ms,
            "bbbv": stats.bbbv,
            "solved_bbbv": stats.solved,
            "clicks": [clicks.left, clicks.right, clicks.chord],
            **left,
        }

    @classmethod
    def from_json(cls, item: Any) -> PlayedGame:
        """One game from its JSON object; `ValueError` (or `TypeError`...) when malformed."""
        if not isinstance(item, dict):
            raise ValueError("a game must be a JSON object")
        fields = dict(item)
        left, right, chord = fields.pop("clicks")
        numbers = (fields["ms"], fields["bbbv"], fields["solved_bbbv"], left, right, chord)
        if not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in numbers):
            raise ValueError("times, 3BV and clicks must be whole numbers, 0 or more")
        if not isinstance(fields["won"], bool) or not isinstance(fields["player"], str):
            raise ValueError("won must be true or false, player a text")
        abandoned = fields.pop("abandoned", False)
        if not isinstance(abandoned, bool) or (abandoned and fields["won"]):
            raise ValueError("abandoned must be true or false, and an abandoned game not won")
        datetime.fromisoformat(fields["date"])
        stats = GameStats(
            fields.pop("bbbv"),
            fields.pop("solved_bbbv"),
            Clicks(left, right, chord),
            fields.pop("ms"),
            fields["won"],
        )
        player, date, won = fields.pop("player"), fields.pop("date"), fields.pop("won")
        play = Play(fields.pop("play"))
        category = Category.from_json(fields)
        return cls(category, player, date, play, won, stats, abandoned)


@dataclass(frozen=True)
class Figures:
    """The lifetime figures of one player's games of one category played one way.

    Times are in milliseconds; the best and median times, the best 3BV/s and the
    efficiency are those of the wins (None without a win). ``interval`` is the
    win rate's 95% Wilson interval. ``games`` counts the abandoned ones too
    (``abandoned`` says how many): they are games not won. Streaks count wins in
    a row, in the order the games ended; the current one is the run at the end.
    """

    player: str
    category: Category
    play: Play
    games: int
    wins: int
    abandoned: int
    current_streak: int
    best_streak: int
    best_ms: int | None
    median_ms: float | None
    best_bbbv_per_second: float | None
    efficiency: float | None

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    def as_json(self) -> dict[str, Any]:
        """Every figure, for scripts and web pages (rates as fractions, times in ms)."""
        low, high = self.interval
        return {
            "player": self.player,
            "category": self.category.as_json(),
            "label": self.category.label,
            "play": self.play.value,
            "games": self.games,
            "wins": self.wins,
            "abandoned": self.abandoned,
            "win_rate": round(self.win_rate, 4),
            "interval": [round(low, 4), round(high, 4)],
            "current_streak": self.current_streak,
            "best_streak": self.best_streak,
            "best_ms": self.best_ms,
            "median_ms": self.median_ms,
            "best_bbbv_per_second": _rounded(self.best_bbbv_per_second),
            "efficiency": _rounded(self.efficiency),
        }


#: The columns of a table of figures: ``(heading, numeric)``, as `row` fills them.
COLUMNS = (
    ("Play", False),
    ("Games", True),
    ("Wins", True),
    ("Left", True),
    ("Win %", True),
    ("95%", True),
    ("Streak", True),
    ("Best", True),
    ("Median", True),
    ("3BV/s", True),
    ("Eff", True),
)
#: What the columns' short headings mean, in one line under a table.
LEGEND = (
    "Left: abandoned after the first click (not won); win % with its 95% interval; "
    "streak: now/best; best and median winning time in seconds, best 3BV/s and "
    "median efficiency of the wins"
)


def row(item: Figures) -> tuple[str, ...]:
    """The cells of ``item`` under `COLUMNS`; ``-`` where there is no win (and for the
    computer's times and pace, which are its move delay)."""

    def seconds(ms: float | None) -> str:
        return "-" if ms is None else f"{ms / 1000:.2f}"

    low, high = item.interval
    rate, interval = f"{item.win_rate:.0%}", f"{low * 100:.0f}-{high * 100:.0f}"
    pace = "-" if item.best_bbbv_per_second is None else f"{item.best_bbbv_per_second:.2f}"
    if item.play is Play.COMPUTER:  # its pace is its move delay: no speed to show
        pace = "-"
    efficiency = "-" if item.efficiency is None else f"{item.efficiency:.0%}"
    best, median = seconds(item.best_ms), seconds(item.median_ms)
    if item.play is Play.COMPUTER:
        best = median = "-"
    return (
        item.play.label,
        str(item.games),
        str(item.wins),
        str(item.abandoned),
        rate,
        interval,
        f"{item.current_streak}/{item.best_streak}",
        best,
        median,
        pace,
        efficiency,
    )


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def _streaks(results: list[bool]) -> tuple[int, int]:
    """The run of wins at the end, and the longest run of wins."""
    best = run = 0
    for won in results:
        run = run + 1 if won else 0
        best = max(best, run)
    return run, best


def summarise(player: str, category: Category, play: Play, games: list[PlayedGame]) -> Figures:
    """The figures of ``games`` (all of ``player``, ``category`` and ``play``), in order."""
    wins = [game.stats for game in games if game.won]
    current, best = _streaks([game.won for game in games])
    rates = [s.bbbv_per_second for s in wins if s.bbbv_per_second is not None]
    efficiencies = [s.efficiency for s in wins if s.efficiency is not None]
    return Figures(
        player=player,
        category=category,
        play=play,
        games=len(games),
        wins=len(wins),
        abandoned=sum(game.abandoned for game in games),
        current_streak=current,
        best_streak=best,
        best_ms=min((s.ms for s in wins), default=None),
        median_ms=statistics.median(s.ms for s in wins) if wins else None,
        best_bbbv_per_second=max(rates, default=None),
        efficiency=statistics.median(efficiencies) if efficiencies else None,
    )


def figures(games: Iterable[PlayedGame], player: str | None = None) -> list[Figures]:
    """The figures of every (player, category, way of playing) in ``games`` (of ``player``
    only, when given), ordered by category, then player, then person, assisted, computer."""
    groups: dict[tuple[str, Category, Play], list[PlayedGame]] = {}
    for game in games:
        if player is None or game.player == player:
            groups.setdefault((game.player, game.category, game.play), []).append(game)
    order = list(Play)
    keys = sorted(groups, key=lambda key: (key[1], key[0], order.index(key[2])))
    return [summarise(*key, groups[key]) for key in keys]


@dataclass(frozen=True)
class Best:
    """A person's unaided bests in a category before a game: to tell a personal best."""

    ms: int | None
    bbbv_per_second: float | None

    def news(self, stats: GameStats) -> list[str]:
        """What ``stats`` (a win) beats: ``personal best time: 12.345 s (was 15.000 s)``..."""
        if not stats.won:
            return []
        said = []
        if self.ms is None:
            said.append(f"your first win of this kind: {stats.seconds:.3f} s")
        elif stats.ms < self.ms:
            said.append(f"personal best time: {stats.seconds:.3f} s (was {self.ms / 1000:.3f} s)")
        rate = stats.bbbv_per_second
        if self.bbbv_per_second is not None and rate is not None and rate > self.bbbv_per_second:
            said.append(f"personal best 3BV/s: {rate:.2f} (was {self.bbbv_per_second:.2f})")
        return said


class History:
    """The history file at ``path``; every method reads it afresh."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = (
            Path(path) if path is not None else default_records_path().with_name(HISTORY_FILE)
        )
        self._lock = FileLock(str(self.path) + ".lock")

    @classmethod
    def beside(cls, records: Records) -> History:
        """The history kept beside ``records`` (in the same folder)."""
        return cls(records.path.with_name(HISTORY_FILE))

    def games(self) -> list[PlayedGame]:
        """Every game, in the order they ended; raises `HistoryError` on a bad file."""
        if not os.path.lexists(self.path):
            return []
        try:
            raw = read_regular(self.path)
        except (TooLargeError, NotAFileError, OSError) as error:
            raise HistoryError(f"the history file {self.path}: {error}") from None
        return list(self._parse(raw))

    def _parse(self, raw: bytes) -> Iterator[PlayedGame]:
        def bad(reason: str) -> HistoryError:
            return HistoryError(
                f"the history file {self.path} is damaged ({reason}): it is left as it is; "
                "move it away to start a new history"
            )

        try:
            document = json.loads(raw.decode("utf-8"))
        except (ValueError, RecursionError):
            raise bad("not valid JSON") from None
        if not isinstance(document, dict) or document.get("format") != FORMAT:
            raise bad("not a history document")
        if document.get("version") != VERSION:
            raise HistoryError(f"the history file {self.path} has an unsupported version")
        games = document.get("games")
        if not isinstance(games, list):
            raise bad("no list of games")
        for number, item in enumerate(games, 1):
            try:
                yield PlayedGame.from_json(item)
            except (KeyError, TypeError, ValueError, MinesweeperError) as error:
                raise bad(f"game {number}: {error}") from None

    def add(self, game: PlayedGame) -> None:
        """Append ``game``: read, add and replace the file whole, under the lock."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._lock:
                games = self.games()
                games.append(game)
                self._write(games)
        except OSError as error:
            raise HistoryError(f"cannot write the history file {self.path}: {error}") from None

    def _write(self, games: list[PlayedGame]) -> None:
        # One game a line: the file reads and diffs well, and stays small.
        lines = ",\n".join(
            "    " + json.dumps(game.as_json(), ensure_ascii=False) for game in games
        )
        head = f'{{\n  "format": "{FORMAT}",\n  "version": {VERSION},\n  "games": [\n'
        text = head + lines + "\n  ]\n}\n"
        write_atomically(self.path, text.encode("utf-8"))

    def figures(self, player: str | None = None) -> list[Figures]:
        """Every group's figures (see `figures`)."""
        return figures(self.games(), player)

    def last_player(self) -> str | None:
        """The name of the person who played last (None when no person has): the game
        starts under it, so a name typed once stays the player's."""
        people = [game.player for game in self.games() if game.play is not Play.COMPUTER]
        return people[-1] if people else None

    def best(self, player: str, category: Category) -> Best:
        """``player``'s unaided bests in ``category`` so far."""
        mine = [
            game.stats
            for game in self.games()
            if game.won
            and game.play is Play.PERSON
            and game.player == player
            and game.category == category
        ]
        rates = [s.bbbv_per_second for s in mine if s.bbbv_per_second is not None]
        return Best(min((s.ms for s in mine), default=None), max(rates, default=None))


def as_dict(figures_list: Iterable[Figures]) -> list[dict[str, Any]]:
    """The figures as JSON objects (a web page's or a script's view)."""
    return [item.as_json() for item in figures_list]


__all__ = [
    "COLUMNS",
    "LEGEND",
    "Best",
    "Figures",
    "History",
    "HistoryError",
    "Play",
    "PlayedGame",
    "as_dict",
    "figures",
    "row",
    "summarise",
]
