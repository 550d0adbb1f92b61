"""The records table: the 10 best results of each category, in a signed JSON file.

A category is a kind of game (topology, size, mine count, first-click rule, and
whether the board was a no-guess one); each keeps its 10 best results by points,
losses included. The file is readable JSON signed with HMAC-SHA256 under a
random key kept in the user's config directory (mode 0600), so an edited,
truncated or otherwise damaged file is detected, reported (`RecordsTampered`)
and never overwritten. Updates are read-modify-write under a `filelock.FileLock`
and land with an atomic ``os.replace``, so games finishing at once lose nothing.

Paths: ``$MINESWEEPER_DATA_DIR/records.json`` (default: the platformdirs user
data dir) and ``$MINESWEEPER_CONFIG_DIR/records.key`` (default: the platformdirs
user config dir); both can be given explicitly instead.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
import stat
import tempfile
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import platformdirs
from filelock import FileLock

from minesweeper.errors import MinesweeperError
from minesweeper.limits import MAX_FILE_BYTES

APP_NAME = "minesweeper"
#: How many results each category keeps.
TABLE_SIZE = 10
FORMAT = "minesweeper-records"
VERSION = 1
DATA_DIR_ENV = "MINESWEEPER_DATA_DIR"
CONFIG_DIR_ENV = "MINESWEEPER_CONFIG_DIR"
RECORDS_FILE = "records.json"
KEY_FILE = "records.key"
#: A key file holds 64 hex digits and a newline; reading stops a little past that.
_KEY_FILE_BYTES = 1024


class RecordsError(MinesweeperError):
    """The records could not be read or written."""


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


@dataclass(frozen=True, order=True)
class Category:
    """A kind of game: results are only ranked against games of the same category."""

    topology: str
    rows: int
    cols: int
    mines: int
    first_click: str
    no_guess: bool = False

    @property
    def label(self) -> str:
        """A human name, e.g. ``square 9x9, 10 mines, opening first click``."""
        text = (
            f"{self.topology} {self.rows}x{self.cols}, {self.mines} mines, "
            f"{self.first_click} first click"
        )
        return text + ", no-guess" if self.no_guess else text


@dataclass(frozen=True)
class Entry:
    """One result: who, how many points, seconds played, won or lost, and when (ISO 8601 UTC)."""

    name: str
    points: int
    seconds: float
    won: bool
    date: str

    @classmethod
    def make(
        cls, name: str, points: int, seconds: float, won: bool, date: datetime | None = None
    ) -> Entry:
        """An entry dated ``date`` (now by default)."""
        when = date if date is not None else datetime.now(UTC)
        return cls(name, points, round(seconds, 3), won, when.isoformat(timespec="seconds"))

    def rank_key(self) -> tuple[int, bool, float, str]:
        """Sort key: more points first, then a win, a shorter time, an earlier date."""
        return (-self.points, not self.won, self.seconds, self.date)


def rank(entries: Iterable[Entry]) -> list[Entry]:
    """The best `TABLE_SIZE` of ``entries``, best first (place = index + 1)."""
    return sorted(entries, key=Entry.rank_key)[:TABLE_SIZE]


def default_records_path() -> Path:
    """``$MINESWEEPER_DATA_DIR/records.json``, else in the platform's user data dir."""
    base = os.environ.get(DATA_DIR_ENV) or platformdirs.user_data_dir(APP_NAME)
    return Path(base) / RECORDS_FILE


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
    fd, temp = tempfile.mkstemp(dir=path.parent, prefix=".key-")  # mkstemp makes it 0600
    try:
        with os.fdopen(fd, "w", encoding="ascii") as file:
            file.write(key.hex() + "\n")
            file.flush()
            os.fsync(file.fileno())
        try:
            os.link(temp, path)
        except FileExistsError:
            return _read_key(path)
    finally:
        os.unlink(temp)
    return key


def _read_key(path: Path) -> bytes:
    """The key stored at ``path``; `FileNotFoundError` when there is none."""
    try:
        with open(path, "rb") as file:
            mode = os.fstat(file.fileno()).st_mode
            text = file.read(_KEY_FILE_BYTES + 1)
    except FileNotFoundError:
        raise
    except OSError as error:
        raise RecordsError(f"cannot read the records key {path}: {error.strerror}") from None
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

    # -- reading --------------------------------------------------------------------------

    def load(self) -> dict[Category, list[Entry]]:
        """Every category's table, best first; raises `RecordsTampered` on a failed check."""
        try:
            with open(self.path, "rb") as file:
                raw = file.read(MAX_FILE_BYTES + 1)
        except FileNotFoundError:
            return {}
        except OSError as error:
            raise RecordsError(f"cannot read the records file {self.path}: {error}") from None
        if len(raw) > MAX_FILE_BYTES:
            raise RecordsTampered(self.path, "it is far larger than any records file")
        return self._parse(raw)

    def verify(self) -> int:
        """Check the file; return how many results it holds. Raises `RecordsTampered`."""
        return sum(len(entries) for entries in self.load().values())

    def table(self, category: Category) -> list[Entry]:
        """The table of ``category``, best first (empty when nobody played it)."""
        return self.load().get(category, [])

    def place_for(self, category: Category, entry: Entry) -> int | None:
        """The place ``entry`` would take in its table (1-based), or None if it would not enter."""
        ranked = rank([*self.table(category), entry])
        return next((i + 1 for i, e in enumerate(ranked) if e is entry), None)

    # -- writing --------------------------------------------------------------------------

    def add(self, category: Category, entry: Entry) -> int | None:
        """Enter ``entry``; return its place (1-based), or None when it misses the top 10.

        Raises `RecordsTampered` (writing nothing) when the file fails its check.
        """
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._lock:
                tables = self.load()
                ranked = rank([*tables.get(category, []), entry])
                place = next((i + 1 for i, e in enumerate(ranked) if e is entry), None)
                if place is not None:
                    tables[category] = ranked
                    self._write(tables)
                return place
        except OSError as error:
            raise RecordsError(f"cannot write the records file {self.path}: {error}") from None

    def _write(self, tables: dict[Category, list[Entry]]) -> None:
        key = load_key(self.key_path)
        assert key is not None
        payload = {
            "format": FORMAT,
            "version": VERSION,
            "tables": [
                {
                    "category": asdict(category),
                    "entries": [
                        {"place": place, **asdict(entry)}
                        for place, entry in enumerate(tables[category], 1)
                    ],
                }
                for category in sorted(tables)
            ],
        }
        document = {**payload, "signature": _sign(key, payload)}
        text = json.dumps(document, indent=2, ensure_ascii=False) + "\n"
        fd, temp = tempfile.mkstemp(dir=self.path.parent, prefix=".records-", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as file:
                file.write(text)
                file.flush()
                os.fsync(file.fileno())
            os.replace(temp, self.path)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise

    # -- checking -------------------------------------------------------------------------

    def _parse(self, raw: bytes) -> dict[Category, list[Entry]]:
        def tampered(reason: str) -> RecordsTampered:
            return RecordsTampered(self.path, reason)

        try:
            document = json.loads(raw.decode("utf-8"))
        except (ValueError, RecursionError):  # bad UTF-8 or JSON, huge numbers, deep nesting
            raise tampered("not valid JSON") from None
        if not isinstance(document, dict):
            raise tampered("not a records document")
        signature = document.pop("signature", None)
        if not isinstance(signature, str):
            raise tampered("no signature")
        key = load_key(self.key_path, create=False)
        if key is None:
            raise tampered(f"its signing key {self.key_path} is missing")
        if not hmac.compare_digest(signature, _sign(key, document)):
            raise tampered("the signature does not match")
        if document.get("format") != FORMAT or document.get("version") != VERSION:
            raise RecordsError(f"the records file {self.path} has an unsupported format")
        try:
            tables: dict[Category, list[Entry]] = {}
            for table in document["tables"]:
                category = Category(**table["category"])
                entries = [
                    Entry(**{k: v for k, v in item.items() if k != "place"})
                    for item in table["entries"]
                ]
                tables[category] = rank(entries)
        except (KeyError, TypeError, AttributeError):
            raise tampered("its contents are malformed") from None
        return tables
