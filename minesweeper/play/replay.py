"""Replays: a finished game kept as JSON, played again click by click.

A replay holds the kind of game (topology, size, mines, first-click rule,
no-guess), the board in its topology's text format, and every click with its
time in milliseconds since the first open; the format is described in
docs/replay.md. Playing the clicks again on a fixed-board `GameSession` gives
back the game: its points, time, result and statistics, which is how records
entries are checked (`check_entry`).
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from minesweeper.board import Board
from minesweeper.boards.generate import DEAL_SEED_BITS, deal, lay_mines
from minesweeper.errors import InputError, MinesweeperError, NotAFileError, RecordsError
from minesweeper.inputs import open_regular
from minesweeper.jsontext import NotJSONError, load_json
from minesweeper.limits import MAX_REPLAY_BYTES, quote
from minesweeper.outputs import written_aside
from minesweeper.play.records import COMPUTER, Category, Entry
from minesweeper.play.session import (
    ACTION_KINDS,
    ASSIST_KINDS,
    Action,
    GameSession,
    Settings,
    played_by_computer,
)
from minesweeper.play.stats import GameStats
from minesweeper.protocol import LineReader, format_board, read_board
from minesweeper.variant import FirstClick

FORMAT = "minesweeper-replay"
VERSION = 1


class ReplayError(RecordsError):
    """A replay file that cannot be read, or whose clicks do not make a game."""


@dataclass(frozen=True)
class Replay:
    """One game: its category, its board, its clicks and the help the player had.

    ``assists`` are ``(kind, index)`` pairs: help of ``kind`` (see
    `minesweeper.play.session.ASSIST_KINDS`) from action ``index`` on; the computer
    makes every click from its index on. ``player`` and ``date`` say who played
    and when (None when unknown).
    """

    category: Category
    board: Board
    actions: tuple[Action, ...]
    assists: tuple[tuple[str, int], ...] = ()
    player: str | None = None
    date: str | None = None
    #: The seed the game laid its mines from (`GameSession.deal_seed`); None for a board
    #: given to the game, or a replay written before replays carried it.
    seed: int | None = None

    @classmethod
    def of(
        cls, session: GameSession, player: str | None = None, date: datetime | None = None
    ) -> Replay:
        """The replay of ``session``'s game so far (usually a finished one)."""
        if session.board is None:
            raise ReplayError("nothing to replay: the game has not started")
        settings = session.settings
        when = date if date is not None else datetime.now(UTC)
        return cls(
            category=settings.category(),
            board=session.board,
            actions=tuple(session.actions),
            assists=tuple(session.assists),
            player=player,
            date=when.isoformat(timespec="seconds"),
            seed=session.deal_seed,
        )

    # -- playing --------------------------------------------------------------------------

    def session(self, upto: int | None = None) -> GameSession:
        """A session after the first ``upto`` clicks (all by default), played on the board.

        Raises `ReplayError` when a click comes after the game ended.
        """
        session = self.start()
        for _ in self.play(session, self.actions[:upto]):
            pass
        for kind, at in self.assists:
            if at == len(self.actions) and upto is None:
                session.note_assist(kind)
        return session

    def start(self) -> GameSession:
        """A session on the board before its first click (its clock is the replay's)."""
        settings = Settings.of_category(self.category)
        # The board is fixed: the maker is never asked to lay mines.
        return GameSession(settings, clock=_Clock(), board=self.board, board_maker=lay_mines)

    def play(self, session: GameSession, actions: Sequence[Action]) -> Iterator[Action]:
        """Make ``actions`` on ``session`` (from `start`) one by one, yielding each once made.

        Raises `ReplayError` when a click comes after the game ended.
        """
        for action, _changed in self.steps(session, actions):
            yield action

    def steps(
        self, session: GameSession, actions: Sequence[Action]
    ) -> Iterator[tuple[Action, list[int]]]:
        """`play`, yielding each action with the cells it changed: those it opened, the
        mines that went off, or the cell it flagged (the end's reveal of the board aside)."""
        clock = session.clock
        assert isinstance(clock, _Clock)
        for index, action in enumerate(actions):
            if session.over:
                raise ReplayError(f"action {index + 1} comes after the game ended")
            for kind, at in self.assists:
                if at == index:
                    session.note_assist(kind)
            clock.now = action.ms / 1000
            if action.kind == "open":
                yield action, session.open(action.cell)
            elif action.kind == "chord":
                yield action, session.chord(action.cell)
            else:
                session.toggle_flag(action.cell)
                yield action, [action.cell]

    @functools.cached_property
    def final(self) -> GameSession:
        """The session after every click (made once; do not change it)."""
        return self.session()

    def stats(self) -> GameStats:
        """The statistics of the whole game."""
        return self.final.stats()

    def summary(self) -> list[str]:
        """The game in a few lines for people: its kind, who, the result, the statistics."""
        final = self.final
        verdict = "won" if final.won else "lost" if final.lost else "not finished"
        who = ", ".join(part for part in (self.player, self.date) if part) or "unknown player"
        lines = [
            self.category.label,
            f"{who}: {verdict}, {final.points} points, {final.ms / 1000:.3f} s",
            final.stats().summary(by_computer=played_by_computer(self.assists)),
        ]
        if played_by_computer(self.assists):
            lines.append("played by the computer")
        elif self.assists:
            helped = ", ".join(f"{kind} from click {at + 1}" for kind, at in self.assists)
            lines.append(f"assisted: {helped}")
        return lines

    # -- text -----------------------------------------------------------------------------

    def as_json(self) -> dict[str, Any]:
        """The JSON document (see docs/replay.md)."""
        topology = self.board.topology
        final = self.final
        category = self.category
        return {
            "format": FORMAT,
            "version": VERSION,
            **category.as_json(),
            "player": self.player,
            "date": self.date,
            **({} if self.seed is None else {"seed": self.seed}),
            "board": format_board(self.board).splitlines(),
            "actions": [
                [action.ms, action.kind, *topology.move_of(action.cell)] for action in self.actions
            ],
            "assists": [[kind, at] for kind, at in self.assists],
            "result": {"won": final.won, "points": final.points, "ms": final.ms},
            "stats": final.stats().as_json(),
        }

    def to_bytes(self) -> bytes:
        """The replay file: JSON with one board row and one click per line."""
        document = self.as_json()
        lines = []
        for key, value in document.items():
            if key in ("board", "actions") and value:
                items = ",\n".join(f"    {json.dumps(item)}" for item in value)
                lines.append(f'  "{key}": [\n{items}\n  ]')
            else:
                lines.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
        return ("{\n" + ",\n".join(lines) + "\n}\n").encode("utf-8")

    @classmethod
    def from_bytes(cls, data: bytes) -> Replay:
        """Read a replay file's bytes; raises `ReplayError` naming the first problem."""
        if len(data) > MAX_REPLAY_BYTES:
            raise ReplayError(f"larger than {MAX_REPLAY_BYTES} bytes: not a replay")
        try:
            document = load_json(data)
        except NotJSONError as error:  # bad UTF-8, JSON or Unicode, huge numbers, deep nesting
            raise ReplayError(f"{error.reason}: not a replay") from None
        return cls.from_document(document)

    @classmethod
    def from_document(cls, document: Any) -> Replay:
        """The replay a parsed replay file holds; raises `ReplayError` naming the first problem."""
        return _parse(document)


def read_replay_bytes(path: Path) -> bytes:
    """The bytes of the regular file ``path``, at most `MAX_REPLAY_BYTES` + 1; `ReplayError` if not.

    A FIFO or device in the replays folder is refused rather than read for ever.
    """
    try:
        with open_regular(path) as file:
            return file.read(MAX_REPLAY_BYTES + 1)
    except NotAFileError as error:
        raise ReplayError(str(error)) from None


def read_replay(path: Path) -> Replay:
    """The replay in file ``path``; `ReplayError` names the file and the problem."""
    data = read_replay_bytes(path)
    try:
        return Replay.from_bytes(data)
    except ReplayError as error:
        raise ReplayError(f"{path}: {error}") from None


def save_replay(data: bytes, directory: Path, stem: str) -> Path:
    """Write a replay as ``directory/stem.json`` (``stem-2.json``... if taken); return its path.

    Never overwrites a file; the file appears whole (written aside, then linked).
    """
    directory.mkdir(parents=True, exist_ok=True)
    with written_aside(directory, data, ".replay-", private=False) as temp:
        for number in range(1, 10_000):
            path = directory / (f"{stem}.json" if number == 1 else f"{stem}-{number}.json")
            try:
                os.link(temp, path)
            except FileExistsError:
                continue
            return path
    raise ReplayError(f"too many replays named {stem} in {directory}")


def replay_name(replay: Replay) -> str:
    """A file name stem that says what the game was, e.g. ``2026-11-30T11-20-05-expert-won``."""
    category = replay.category
    date = (replay.date or "game")[:19].replace(":", "-")
    game = category.variant
    size = f"{game.name}-{game.rows}x{game.cols}-{game.mines}"
    won = replay.final.won
    return f"{date}-{size}-{'won' if won else 'lost'}"


# -- checking records -------------------------------------------------------------------------


def check_entry(replay: Replay, category: Category, entry: Entry) -> list[str]:
    """What in ``entry`` (of ``category``) its replay does not bear out; [] when all of it does."""
    problems: list[str] = []
    if replay.category != category:
        problems.append(f"the replay is of another kind of game ({replay.category.label})")
    problems += _first_click_problems(replay)
    try:
        session = replay.session()
    except ReplayError as error:
        return [*problems, str(error)]
    if not session.over:
        problems.append("the replay's game is not finished")
    if session.won != entry.won:
        problems.append(
            f"the entry says {'won' if entry.won else 'lost'}, the replay "
            f"{'won' if session.won else 'lost'}"
        )
    if session.points != entry.points:
        problems.append(f"the entry has {entry.points} points, the replay {session.points}")
    if round(session.ms / 1000, 3) != entry.seconds:
        problems.append(f"the entry took {entry.seconds} s, the replay {session.ms / 1000} s")
    stats = session.stats()
    if entry.bbbv is not None and entry.bbbv != stats.bbbv:
        problems.append(f"the entry's 3BV is {entry.bbbv}, the board's {stats.bbbv}")
    if entry.clicks is not None and entry.clicks != stats.clicks.total:
        problems.append(f"the entry has {entry.clicks} clicks, the replay {stats.clicks.total}")
    if replay.player is not None and replay.player != entry.name:
        problems.append(f"the entry names {quote(entry.name)}, the replay {quote(replay.player)}")
    if entry.name == COMPUTER:
        if not played_by_computer(replay.assists):
            problems.append("a Computer entry whose replay was not played by the computer alone")
    elif replay.assists:
        kinds = ", ".join(kind for kind, _ in replay.assists)
        problems.append(f"an assisted game ({kinds}) entered under a person's name")
    return problems


def _first_click_problems(replay: Replay) -> list[str]:
    first = next((action for action in replay.actions if action.kind == "open"), None)
    if first is None:
        return ["the replay opens no cell"]
    board = replay.board
    rule = replay.category.variant.first_click
    if board.is_mine(first.cell):
        return [f"the first click hits a mine, which the {rule.value} first-click rule forbids"]
    topology = board.topology
    fits = board.mine_count <= topology.size - 1 - len(topology.neighbours(first.cell))
    if rule is FirstClick.OPENING and fits and board.count(first.cell) != 0:
        return ["the first click is no opening, which the opening first-click rule promises"]
    return []


def deal_problems(replay: Replay) -> list[str]:
    """Whether the replay's board is the one the game deals from the replay's seed ([]: it is).

    A local record's proof that its board was not made by hand (`records verify
    --replays`); the ladder checks its own deals against the seeds it keeps.
    """
    if not any(action.kind == "open" for action in replay.actions):
        return []  # `check_entry` says so
    if replay.seed is None:
        return ["the replay carries no seed, so its board cannot be shown to be the game's deal"]
    try:
        dealt = dealt_boards(replay)
    except MinesweeperError as error:  # e.g. no no-guess board found in time
        return [f"its board could not be dealt again from its seed: {error}"]
    if not any(board.mines == replay.board.mines for board in dealt):
        return ["its board is not the one the game deals from its seed (a hand-made board?)"]
    return []


def dealt_boards(replay: Replay) -> list[Board]:
    """The boards a game of the replay's kind deals from its seed at its first open.

    One board, or one per prover for a no-guess game (the replay does not say
    which prover laid it). Expects a seed and an open (`deal_problems` sees to both).
    """
    assert replay.seed is not None
    first = next(action.cell for action in replay.actions if action.kind == "open")
    variant = Settings.of_category(replay.category).variant
    topology = replay.board.topology
    if not replay.category.no_guess:
        return [deal(lay_mines, topology, variant, first, replay.seed)]
    from minesweeper.boards.noguess import PROVERS, board_maker  # loaded for these only

    return [
        deal(board_maker(cls), topology, variant, first, replay.seed) for cls in PROVERS.values()
    ]


# -- parsing ----------------------------------------------------------------------------------

_FIELDS = {
    "format": str,
    "version": int,
    "topology": str,
    "rows": int,
    "cols": int,
    "mines": int,
    "first_click": str,
    "no_guess": bool,
    "board": list,
    "actions": list,
}
_OPTIONAL: dict[str, type | tuple[type, ...]] = {
    "player": (str, type(None)),
    "date": (str, type(None)),
    "assists": list,
    "count_told": bool,
    "seed": int,
}
_INFORMATIVE = ("result", "stats")
_CATEGORY_KEYS = ("topology", "rows", "cols", "mines", "first_click", "no_guess", "count_told")


def _parse(document: Any) -> Replay:
    if not isinstance(document, dict):
        raise ReplayError("not a replay (expected a JSON object)")
    if document.get("format") != FORMAT:
        raise ReplayError(f'not a replay (its "format" is not "{FORMAT}")')
    if document.get("version") != VERSION:
        raise ReplayError(f"replay version {quote(document.get('version'))} is not supported")
    for key, kind in _FIELDS.items():
        value = document.get(key)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ReplayError(f'"{key}" is missing or not a {kind.__name__}')
    for key, kinds in _OPTIONAL.items():
        value = document.get(key)
        if key in document and (
            not isinstance(value, kinds) or isinstance(value, bool) != (kinds is bool)
        ):
            raise ReplayError(f'"{key}" has the wrong type')
    seed = document.get("seed")
    if seed is not None and not 0 <= seed < 1 << DEAL_SEED_BITS:
        raise ReplayError(f"seed {quote(seed)} is not one a game deals from")
    unknown = set(document) - set(_FIELDS) - set(_OPTIONAL) - set(_INFORMATIVE)
    if unknown:
        raise ReplayError(f"unknown field {quote(sorted(unknown)[0])}")
    rules = [rule.value for rule in FirstClick]
    if document["first_click"] not in rules:
        raise ReplayError(
            f"unknown first-click rule {quote(document['first_click'])} (known: {', '.join(rules)})"
        )
    try:
        category = Category.from_json(
            {key: document[key] for key in _CATEGORY_KEYS if key in document}
        )
    except (MinesweeperError, ValueError) as error:
        raise ReplayError(str(error)) from None
    board = _board(document["board"], category)
    actions = _actions(document["actions"], board)
    assists = _assists(document.get("assists", []), len(actions))
    return Replay(
        category, board, actions, assists, document.get("player"), document.get("date"), seed
    )


def _board(lines: Sequence[Any], category: Category) -> Board:
    if not all(isinstance(line, str) for line in lines):
        raise ReplayError('"board" must be a list of text lines')
    try:
        board = read_board(LineReader(lines), category.variant.topology)
    except InputError as error:
        raise ReplayError(f"board line {error.line}: {error.message}") from None
    except MinesweeperError as error:
        raise ReplayError(f"board: {error}") from None
    game = category.variant
    if board.mine_count != game.mines:
        raise ReplayError(f"the board has {board.mine_count} mines, the replay says {game.mines}")
    topology = board.topology
    rows, cols = game.rows, game.cols
    graph = topology.text_format == "graph"
    if (topology.size != rows * cols) if graph else (topology.shape != (rows, cols)):
        shown = "x".join(map(str, topology.shape))
        raise ReplayError(f"the board is {shown}, the replay says {rows}x{cols}")
    return board


def _actions(items: Sequence[Any], board: Board) -> tuple[Action, ...]:
    topology = board.topology
    arity = topology.move_arity
    actions: list[Action] = []
    opened = False
    for index, item in enumerate(items, 1):
        where = f"action {index}"
        if (
            not isinstance(item, list)
            or len(item) != 2 + arity
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in (item[0], *item[2:]))
        ):
            shape = "r, c" if arity == 2 else "node"
            raise ReplayError(f"{where}: expected [ms, kind, {shape}]")
        ms, kind, *move = item
        if kind not in ACTION_KINDS:
            raise ReplayError(
                f"{where}: unknown kind {quote(kind)} (known: {', '.join(ACTION_KINDS)})"
            )
        try:
            cell = topology.cell_from_move(move)
        except MinesweeperError as error:
            raise ReplayError(f"{where}: {error}") from None
        if ms < 0 or (actions and ms < actions[-1].ms):
            raise ReplayError(f"{where}: its time {ms} ms runs backwards")
        if not opened and ms != 0:
            raise ReplayError(f"{where}: the clock starts at the first open, so it must be at 0 ms")
        opened = opened or kind == "open"
        actions.append(Action(ms, kind, cell))
    return tuple(actions)


def _assists(items: Sequence[Any], count: int) -> tuple[tuple[str, int], ...]:
    found: list[tuple[str, int]] = []
    for item in items:
        if isinstance(item, list) and item and any(kind == item[0] for kind, _ in found):
            raise ReplayError(f"assist {quote(item)}: each kind of help is noted once")
        if (
            not isinstance(item, list)
            or len(item) != 2
            or item[0] not in ASSIST_KINDS
            or not isinstance(item[1], int)
            or isinstance(item[1], bool)
            or not 0 <= item[1] <= count
        ):
            raise ReplayError(
                f"assist {quote(item)}: expected [kind, action index] "
                f"(kinds: {', '.join(ASSIST_KINDS)})"
            )
        found.append((item[0], item[1]))
    return tuple(found)


class _Clock:
    """The replay's clock: each click happens at its recorded time."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now
