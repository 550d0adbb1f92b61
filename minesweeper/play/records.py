"""The records table: the 10 best results of each category, in a signed JSON file.

A category is a kind of game (topology, size, mine count, first-click rule,
whether the board was a no-guess one and whether the mine count was told); each
keeps its 10 best results by points, losses included. The file is readable JSON
signed with HMAC-SHA256 under a random key kept in the user's config directory
(mode 0600), so an edited, truncated or otherwise damaged file is detected,
reported (`RecordsTampered`) and never overwritten. Updates are
read-modify-write under a `filelock.FileLock` and land with an atomic
``os.replace``, so games finishing at once lose nothing.

Besides the points table, each category keeps the 10 fastest wins of people
(``times``; the computer's results stay in the points table only). Every entry
may carry its game's replay: the file ``replays/<sha256>.json`` beside the
records, named by the SHA-256 of its bytes, which the signed entry records, so a
replay cannot change without its entry failing to match it.

Version 1 files (no times, no replays) are read as they are and written back as
version 2 by the next result that enters.

Paths: ``$MINESWEEPER_DATA_DIR/records.json`` (default: the platformdirs user
data dir) and ``$MINESWEEPER_CONFIG_DIR/records.key`` (default: the platformdirs
user config dir); both can be given explicitly instead.
"""

from __future__ import annotations

import enum
import hashlib
import hmac
import json
import math
import os
import secrets
import stat
import typing
from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import platformdirs
from filelock import FileLock

from minesweeper.errors import (
    MinesweeperError,
    NotAFileError,
    RecordsError,
    SettingsError,
    TooLargeError,
)
from minesweeper.inputs import open_regular, read_regular
from minesweeper.jsontext import NotJSONError, load_json
from minesweeper.outputs import write_atomically, written_aside
from minesweeper.topology.registry import find_topology
from minesweeper.variant import FirstClick, Rules, Variant

APP_NAME = "minesweeper"
#: How many results each category keeps.
TABLE_SIZE = 10
FORMAT = "minesweeper-records"
VERSION = 2
#: Versions this module reads (older ones are rewritten as `VERSION` on the next write).
READABLE_VERSIONS = (1, 2)
#: The name the computer player's results enter under.
COMPUTER = "Computer"
#: The folder, beside the records file, that holds the entries' replays.
REPLAYS_DIR = "replays"
DATA_DIR_ENV = "MINESWEEPER_DATA_DIR"
CONFIG_DIR_ENV = "MINESWEEPER_CONFIG_DIR"
RECORDS_FILE = "records.json"
KEY_FILE = "records.key"
_Record = TypeVar("_Record", "Category", "Entry")
#: A key file holds 64 hex digits and a newline; reading stops a little past that.
_KEY_FILE_BYTES = 1024


class RecordsTampered(RecordsError):
    """The records file failed its integrity check; it is left untouched."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        self.reason = reason
        super().__init__(
            f"the records file {path} failed its check ({reason}): it was edited, truncated "
            "or damaged, so it will not be used or overwritten. Restore it from a backup, or "
            "delete it to start new records (its results are lost)."
        )


_CATEGORY_FIELDS = {"topology", "rows", "cols", "mines", "first_click", "no_guess", "count_told"}


@dataclass(frozen=True)
class Category:
    """A kind of game: results are only ranked against games of the same category.

    ``variant`` is the `Variant`; ``no_guess`` whether the boards were no-guess ones.
    Under the acm rules the mine count is not told (a game of its own kind: the count
    helps). Categories sort by their fields as the file has always listed them.
    """

    variant: Variant
    no_guess: bool = False

    @property
    def label(self) -> str:
        """A human name, e.g. ``square 9x9, 10 mines, opening first click``; under the ACM
        rules the count stays untold: ``square 9x9, mine count not told (acm rules)``."""
        game = self.variant
        size = f"{game.name} {game.rows}x{game.cols}"
        if game.count_told:
            text = f"{size}, {game.mines} mines, {game.first_click.value} first click"
        else:
            text = f"{size}, mine count not told (acm rules)"
        return text + ", no-guess" if self.no_guess else text

    def as_json(self) -> dict[str, Any]:
        """The category's fields; a told count (every category before acm's) is left out."""
        game = self.variant
        fields: dict[str, Any] = {
            "topology": game.name,
            "rows": game.rows,
            "cols": game.cols,
            "mines": game.mines,
            "first_click": game.first_click.value,
            "no_guess": self.no_guess,
        }
        if not game.count_told:
            fields["count_told"] = False
        return fields

    @classmethod
    def from_json(cls, fields: dict[str, Any]) -> Category:
        """The category `as_json` wrote. A field missing or of the wrong kind raises
        `KeyError`, `TypeError` or `ValueError`; fields that name no game a
        `MinesweeperError` (`SettingsError`, `TopologyError`...)."""
        unknown = set(fields) - _CATEGORY_FIELDS
        if unknown:
            raise SettingsError(f"unknown category fields: {', '.join(sorted(unknown))}")
        for name in ("rows", "cols", "mines"):  # `true` is an int to Python, not to a file
            if type(fields[name]) is not int:
                raise TypeError(f"category field {name!r} is not a whole number")
        for name in ("no_guess", "count_told"):
            if type(fields.get(name, False)) is not bool:
                raise TypeError(f"category field {name!r} is not true or false")
        rules = Rules.of(FirstClick(fields["first_click"]), fields.get("count_told", True))
        topology = find_topology(str(fields["topology"]))
        game = Variant(topology, fields["rows"], fields["cols"], fields["mines"], rules)
        return cls(game, fields.get("no_guess", False))

    def sort_key(self) -> tuple[str, int, int, int, str, bool, bool]:
        game = self.variant
        return (
            game.name,
            game.rows,
            game.cols,
            game.mines,
            game.first_click.value,
            self.no_guess,
            game.count_told,
        )

    def __lt__(self, other: Category) -> bool:
        return self.sort_key() < other.sort_key()


@dataclass(frozen=True)
class Entry:
    """One result: who, how many points, seconds played, won or lost, and when (ISO 8601 UTC).

    ``bbbv`` and ``clicks`` are the board's 3BV and the clicks made (see
    `minesweeper.play.stats`); ``replay`` the SHA-256 (hex) of the game's replay file.
    Entries written before these existed have None.
    """

    name: str
    points: int
    seconds: float
    won: bool
    date: str
    bbbv: int | None = None
    clicks: int | None = None
    replay: str | None = None

    @classmethod
    def make(
        cls,
        name: str,
        points: int,
        seconds: float,
        won: bool,
        date: datetime | None = None,
        *,
        bbbv: int | None = None,
        clicks: int | None = None,
    ) -> Entry:
        """An entry dated ``date`` (now by default)."""
        when = date if date is not None else datetime.now(UTC)
        return cls(
            name,
            points,
            round(seconds, 3),
            won,
            when.isoformat(timespec="seconds"),
            bbbv=bbbv,
            clicks=clicks,
        )

    @property
    def bbbv_per_second(self) -> float | None:
        """3BV per second of a win (None for a loss, or when the 3BV is not known)."""
        if not self.won or self.bbbv is None or self.seconds <= 0:
            return None
        return self.bbbv / self.seconds

    def rank_key(self) -> tuple[int, bool, float, str]:
        """Sort key: more points first, then a win, a shorter time, an earlier date."""
        return (-self.points, not self.won, self.seconds, self.date)

    def time_key(self) -> tuple[float, str]:
        """Sort key of the times table: a shorter time first, then an earlier date."""
        return (self.seconds, self.date)

    def as_json(self) -> dict[str, Any]:
        """The entry's fields, leaving out the ones it does not have (None)."""
        return {key: value for key, value in asdict(self).items() if value is not None}


def rank(entries: Iterable[Entry]) -> list[Entry]:
    """The best `TABLE_SIZE` of ``entries``, best first (place = index + 1)."""
    return sorted(entries, key=Entry.rank_key)[:TABLE_SIZE]


def enters_times(entry: Entry) -> bool:
    """Whether ``entry`` belongs in a times table: a win by a person."""
    return entry.won and entry.name != COMPUTER


def rank_times(entries: Iterable[Entry]) -> list[Entry]:
    """The `TABLE_SIZE` fastest wins by people among ``entries``, fastest first."""
    return sorted((e for e in entries if enters_times(e)), key=Entry.time_key)[:TABLE_SIZE]


class Ranking(enum.Enum):
    """The two tables of a category, and what each shows: ``points`` (the top 10 by
    points, losses and the computer included) and ``times`` (the fastest wins by people).
    The records command and the terminal game's records screen both draw them from here.
    """

    POINTS = "points"
    TIMES = "times"

    @property
    def title(self) -> str:
        return "top 10 by points" if self is Ranking.POINTS else "fastest wins"

    @property
    def columns(self) -> tuple[tuple[str, bool], ...]:
        """The table's columns: ``(heading, numeric)``; numbers are set flush right."""
        middle: tuple[tuple[str, bool], ...]
        if self is Ranking.POINTS:
            middle = (("Points", True), ("Time", True), ("3BV", True), ("Result", False))
        else:
            middle = (("Time", True), ("3BV", True), ("3BV/s", True))
        return (("Place", True), ("Name", False), *middle, ("Date (UTC)", False))

    def row(self, place: int, entry: Entry) -> tuple[str, ...]:
        """The cells of ``entry`` at ``place`` (1-based), one per column."""
        date = datetime.fromisoformat(entry.date).strftime("%Y-%m-%d %H:%M")
        bbbv = "?" if entry.bbbv is None else str(entry.bbbv)
        if self is Ranking.POINTS:
            result = "won" if entry.won else "lost"
            # The computer's time is its move delay: no figure to set beside a person's.
            time = "-" if entry.name == COMPUTER else f"{entry.seconds:.1f} s"
            middle: tuple[str, ...] = (str(entry.points), time, bbbv, result)
        else:
            rate = entry.bbbv_per_second
            middle = (f"{entry.seconds:.3f} s", bbbv, "?" if rate is None else f"{rate:.2f}")
        return (str(place), entry.name, *middle, date)


def entered(place: int | None, time_place: int | None, won: bool) -> str | None:
    """What entering the tables means, in words; None when the result enters neither.

    Only a win at the head of a table is a new record (``a new record: place 1 (won)
    and place 1 of the fastest wins``); anything else has entered (``entered at
    place 4 (lost)``): a loss is never announced as a record.
    """
    parts = []
    if place is not None:
        parts.append(f"place {place} ({'won' if won else 'lost'})")
    if time_place is not None:
        parts.append(f"place {time_place} of the fastest wins")
    if not parts:
        return None
    record = won and 1 in (place, time_place)
    return ("a new record: " if record else "entered at ") + " and ".join(parts)


def replay_digest(data: bytes) -> str:
    """The name of a replay in the records: the SHA-256 of its bytes, in hex."""
    return hashlib.sha256(data).hexdigest()


@dataclass
class Standings:
    """A category's two tables: by points (losses and the computer included) and by time."""

    points: list[Entry]
    times: list[Entry]


def _place(ranked: list[Entry], entry: Entry) -> int | None:
    return next((i + 1 for i, e in enumerate(ranked) if e is entry), None)


def user_data_dir() -> Path:
    """``$MINESWEEPER_DATA_DIR``, else the platform's user data dir: records, autosaved runs."""
    return Path(os.environ.get(DATA_DIR_ENV) or platformdirs.user_data_dir(APP_NAME))


def default_records_path() -> Path:
    """``records.json`` in `user_data_dir`."""
    return user_data_dir() / RECORDS_FILE


def default_key_path() -> Path:
    """``$MINESWEEPER_CONFIG_DIR/records.key``, else in the platform's user config dir."""
    base = os.environ.get(CONFIG_DIR_ENV) or platformdirs.user_config_dir(APP_NAME)
    return Path(base) / KEY_FILE


def load_key(path: Path, create: bool = True) -> bytes | None:
    """The signing key at ``path``; made on first use when ``create`` (dir 0700, file 0600).

    Without ``create``, a missing key gives None. A key that other users may read
    or write is refused: with it they could sign records of their own.
    """
    try:
        return _read_key(path)
    except FileNotFoundError:
        if not create:
            return None
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    key = secrets.token_bytes(32)
    # Write a private temp file, then link it into place: the key appears whole or not at
    # all, and of two processes racing here exactly one wins.
    with written_aside(path.parent, (key.hex() + "\n").encode(), ".key-", sync=True) as temp:
        try:
            os.link(temp, path)
        except FileExistsError:
            return _read_key(path)
    return key


def _read_key(path: Path) -> bytes:
    """The key stored at ``path``; `FileNotFoundError` when there is none."""
    if not os.path.lexists(path):
        raise FileNotFoundError(path)
    try:
        with open_regular(path) as file:  # a FIFO or a device in its place cannot hang us
            mode = os.fstat(file.fileno()).st_mode
            text = file.read(_KEY_FILE_BYTES + 1)
    except (NotAFileError, OSError) as error:
        raise RecordsError(f"cannot read the records key: {error}") from None
    if os.name == "posix" and stat.S_IMODE(mode) & 0o077:
        raise RecordsError(
            f"the records key {path} is open to other users (mode {stat.S_IMODE(mode):04o}), "
            f"who could sign false records with it: run chmod 600 {path}"
        )
    try:
        return bytes.fromhex(text.decode("ascii").strip())
    except ValueError:  # UnicodeDecodeError included
        raise RecordsError(f"the records key {path} is damaged; delete it") from None


def _canonical(payload: dict[str, Any]) -> bytes:
    return json.dumps(payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()


def _sign(key: bytes, payload: dict[str, Any]) -> str:
    return hmac.new(key, _canonical(payload), hashlib.sha256).hexdigest()


class Records:
    """The records file at ``path``, signed with the key at ``key_path``.

    Every method reads the file afresh; `add` holds the lock from read to write.
    A missing file is an empty table; a file failing its check raises
    `RecordsTampered` and is never written.
    """

    def __init__(self, path: Path | str | None = None, key_path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else default_records_path()
        self.key_path = Path(key_path) if key_path is not None else default_key_path()
        self._lock = FileLock(str(self.path) + ".lock")
        #: Where `add` moved a records file that failed its check, and why (None: it did not).
        self.kept_aside: tuple[Path, RecordsTampered] | None = None

    def kept_aside_note(self) -> str | None:
        """What `add` did with a records file that failed its check, in one line (None: nothing)."""
        if self.kept_aside is None:
            return None
        aside, error = self.kept_aside
        return (
            f"the records file {self.path} failed its check ({error.reason}): it is kept as "
            f"{aside}, and new records begin with this game"
        )

    # -- reading --------------------------------------------------------------------------

    @property
    def replays_dir(self) -> Path:
        """The folder of the entries' replays, beside the records file."""
        return self.path.parent / REPLAYS_DIR

    def replay_path(self, entry: Entry) -> Path | None:
        """Where ``entry``'s replay is kept (None when it has none)."""
        return None if entry.replay is None else self.replays_dir / f"{entry.replay}.json"

    def standings(self) -> dict[Category, Standings]:
        """Both tables of every category; raises `RecordsTampered` on a failed check."""
        if not os.path.lexists(self.path):
            return {}
        try:
            raw = read_regular(self.path)  # a FIFO or a device in its place cannot hang us
        except TooLargeError:
            raise RecordsTampered(self.path, "it is far larger than any records file") from None
        except NotAFileError as error:
            raise RecordsError(f"the records file: {error}") from None
        return self._parse(raw)

    def load(self, ranking: Ranking = Ranking.POINTS) -> dict[Category, list[Entry]]:
        """Every category's table by ``ranking``, best first, where it has one (every
        category has a points table); raises `RecordsTampered` on a failed check."""
        if ranking is Ranking.TIMES:
            return {cat: both.times for cat, both in self.standings().items() if both.times}
        return {category: both.points for category, both in self.standings().items()}

    def load_times(self) -> dict[Category, list[Entry]]:
        """Every category's times table (the fastest wins by people), where it has one."""
        return self.load(Ranking.TIMES)

    def entries(self) -> list[Entry]:
        """Every distinct result the file holds, in either table."""
        found: dict[Entry, None] = {}
        for both in self.standings().values():
            found.update(dict.fromkeys([*both.points, *both.times]))
        return list(found)

    def verify(self) -> int:
        """Check the file; return how many results it holds. Raises `RecordsTampered`."""
        return len(self.entries())

    def table(self, category: Category, ranking: Ranking = Ranking.POINTS) -> list[Entry]:
        """The table of ``category`` by ``ranking``, best first (empty when it has none)."""
        return self.load(ranking).get(category, [])

    def place_for(self, category: Category, entry: Entry) -> int | None:
        """The place ``entry`` would take in its table (1-based), or None if it would not enter."""
        return _place(rank([*self.table(category), entry]), entry)

    def time_place_for(self, category: Category, entry: Entry) -> int | None:
        """The place ``entry`` would take in its times table, or None if it would not enter."""
        return _place(rank_times([*self.table(category, Ranking.TIMES), entry]), entry)

    # -- writing --------------------------------------------------------------------------

    def add(self, category: Category, entry: Entry, replay: bytes | None = None) -> int | None:
        """Enter ``entry``; return its place (1-based), or None when it misses the top 10.

        A win by a person also enters the category's times table when it is fast
        enough (see `time_place_for`). ``replay``, the game's replay file, is kept
        in `replays_dir` and named in the entry, when the entry enters a table.
        A file that fails its check does not cost the result: it is moved aside
        (`kept_aside` says where and why) and the result starts new records.
        """
        if replay is not None:
            entry = replace(entry, replay=replay_digest(replay))
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._lock:
                try:
                    tables = self.standings()
                except RecordsTampered as error:
                    # Its entries' replays stay too: `_prune_replays` keeps what it cannot read.
                    self.kept_aside = (self._move_aside(), error)
                    tables = {}
                both = tables.get(category, Standings([], []))
                points = rank([*both.points, entry])
                times = rank_times([*both.times, entry])
                place = _place(points, entry)
                if place is not None or _place(times, entry) is not None:
                    if replay is not None:
                        self.replays_dir.mkdir(exist_ok=True)
                        write_atomically(self.replay_path(entry), replay)  # type: ignore[arg-type]
                    tables[category] = Standings(points, times)
                    self._write(tables)
                    self._prune_replays(tables)
                return place
        except OSError as error:
            raise RecordsError(f"cannot write the records file {self.path}: {error}") from None

    def _move_aside(self) -> Path:
        """Rename the records file to a new name beside it, never replacing a file; the name."""
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        for number in range(1, 1000):
            suffix = "" if number == 1 else f"-{number}"
            aside = self.path.with_name(f"{self.path.stem}.damaged-{stamp}{suffix}.json")
            try:
                os.link(self.path, aside, follow_symlinks=False)
            except FileExistsError:
                continue
            self.path.unlink()
            return aside
        raise RecordsError(f"cannot move the damaged records file {self.path} aside")

    def _prune_replays(self, tables: dict[Category, Standings]) -> None:
        """Delete the replays of entries that left both tables (under the lock)."""
        if not self.replays_dir.is_dir():
            return
        if self.kept_aside is not None:  # the replays of the file kept aside stay with it
            return
        kept = {entry.replay for both in tables.values() for entry in [*both.points, *both.times]}
        for path in self.replays_dir.glob("*.json"):
            if len(path.stem) == 64 and path.stem not in kept:
                path.unlink(missing_ok=True)

    def _write(self, tables: dict[Category, Standings]) -> None:
        key = load_key(self.key_path)
        assert key is not None
        payload = {
            "format": FORMAT,
            "version": VERSION,
            "tables": [
                {
                    "category": category.as_json(),
                    "entries": [
                        {"place": place, **entry.as_json()}
                        for place, entry in enumerate(tables[category].points, 1)
                    ],
                    "times": [
                        {"place": place, **entry.as_json()}
                        for place, entry in enumerate(tables[category].times, 1)
                    ],
                }
                for category in sorted(tables)
            ],
        }
        document = {**payload, "signature": _sign(key, payload)}
        text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
        write_atomically(self.path, text.encode("utf-8"))

    # -- checking -------------------------------------------------------------------------

    def _parse(self, raw: bytes) -> dict[Category, Standings]:
        def tampered(reason: str) -> RecordsTampered:
            return RecordsTampered(self.path, reason)

        try:
            document = load_json(raw)
        except NotJSONError as error:  # bad UTF-8, JSON or Unicode, huge numbers, deep nesting
            raise tampered(error.reason) from None
        if not isinstance(document, dict):
            raise tampered("not a records document")
        signature = document.pop("signature", None)
        if not isinstance(signature, str):
            raise tampered("no signature")
        key = load_key(self.key_path, create=False)
        if key is None:
            raise tampered(f"its signing key {self.key_path} is missing")
        expected = _sign(key, document).encode()
        if not hmac.compare_digest(signature.encode("utf-8", "surrogatepass"), expected):
            raise tampered("the signature does not match")
        if document.get("format") != FORMAT or document.get("version") not in READABLE_VERSIONS:
            raise RecordsError(f"the records file {self.path} has an unsupported format")

        def entries(items: list[dict[str, Any]]) -> list[Entry]:
            found = [
                _typed(Entry, {k: v for k, v in item.items() if k != "place"}) for item in items
            ]
            for entry in found:
                datetime.fromisoformat(entry.date)  # shown in every table
            return found

        try:
            tables: dict[Category, Standings] = {}
            for table in document["tables"]:
                category = Category.from_json(table["category"])
                # Version 1 has no times table: its wins by people seed one.
                points = entries(table["entries"])
                times = entries(table["times"]) if "times" in table else points
                tables[category] = Standings(rank(points), rank_times(times))
        except (KeyError, TypeError, AttributeError, ValueError, MinesweeperError):
            raise tampered("its contents are malformed") from None
        return tables


def _typed(kind: type[_Record], fields: dict[str, Any]) -> _Record:
    """``kind(**fields)`` when every field has its declared type; `TypeError` if not.

    A signed file is trusted to be ours, yet whoever holds the key can sign
    anything: a name that is a number must not crash the table that shows it.
    """
    hints = typing.get_type_hints(kind)
    for name, value in fields.items():
        allowed = typing.get_args(hints[name]) or (hints[name],)
        if isinstance(value, bool) and bool not in allowed:
            raise TypeError(name)
        if isinstance(value, float) and (float not in allowed or not math.isfinite(value)):
            raise TypeError(name)
        if isinstance(value, int) and float in allowed:
            continue  # a whole number of seconds
        if not isinstance(value, tuple(type(None) if t is None else t for t in allowed)):
            raise TypeError(name)
    return kind(**fields)
