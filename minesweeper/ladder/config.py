"""What a ladder service is configured with: its database, its limits, its clocks."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import platformdirs

APP_NAME = "minesweeper"
DATA_DIR_ENV = "MINESWEEPER_DATA_DIR"
#: The SQLite file a ladder keeps when no ``--database`` is given.
DEFAULT_DATABASE_FILE = "ladder.sqlite3"


def default_database_url() -> str:
    """An SQLite file in the user's data folder (``$MINESWEEPER_DATA_DIR`` if set)."""
    folder = os.environ.get(DATA_DIR_ENV) or platformdirs.user_data_dir(APP_NAME)
    path = Path(folder) / DEFAULT_DATABASE_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{path}"


@dataclass(frozen=True)
class RateLimit:
    """At most ``count`` events per ``seconds`` seconds."""

    count: int
    seconds: int


@dataclass(frozen=True)
class Backoff:
    """After ``free`` failures within ``window`` seconds, each further attempt waits
    ``2 ** (failures - free)`` seconds after the last failure, at most ``longest``."""

    free: int
    window: int
    longest: int


@dataclass(frozen=True)
class PasswordCost:
    """argon2id's cost parameters (argon2-cffi's defaults: RFC 9106's low-memory profile)."""

    time_cost: int = 3
    memory_kib: int = 65536
    parallelism: int = 4


@dataclass(frozen=True)
class LadderConfig:
    """Everything a ladder service needs besides its database URL.

    ``clock`` returns wall-clock seconds (every server process of one ladder must share
    it: game times are differences of its readings, possibly taken by two processes).
    """

    database_url: str
    #: A person's session lasts this long after sign-in.
    session_seconds: int = 14 * 24 * 3600
    #: A bot's token (from ``minesweeper ladder token``) lasts this long.
    bot_token_seconds: int = 365 * 24 * 3600
    #: Sign-ins per client address.
    sign_in_per_address: RateLimit = RateLimit(20, 60)
    #: Failed sign-ins to one name from one address: then that address waits, doubling.
    sign_in_failures_per_address: Backoff = Backoff(5, 15 * 60, 15 * 60)
    #: Failed sign-ins to one name from everywhere (guessing spread over many addresses):
    #: then addresses the account has not signed in from lately wait, doubling. Its own
    #: addresses do not, so that no one locks a player out by failing on purpose.
    sign_in_failures_per_name: Backoff = Backoff(20, 15 * 60, 15 * 60)
    #: An address an account signed up or in from stays its own this long.
    known_address_seconds: int = 30 * 24 * 3600
    #: New accounts per client address.
    sign_up_per_address: RateLimit = RateLimit(5, 3600)
    #: New guests (practice without an account) per client address.
    guests_per_address: RateLimit = RateLimit(30, 3600)
    #: Games a player may have started and not finished at once.
    open_games: int = 20
    #: Games a person may be dealt, per account and per client address (bots, whose
    #: accounts the ladder's operator makes, are not limited): ranked games are dealt only
    #: this fast, so a script that deals until a board is easy finds few of them.
    games_per_account: RateLimit = RateLimit(300, 3600)
    games_per_address: RateLimit = RateLimit(600, 3600)
    #: The win-rate ladder lists players with at least this many started games.
    win_rate_minimum: int = 20
    #: Heavy jobs of one kind running at once per process (kinds: players' games, public
    #: pages and drawings, password hashes), and how long one waits for a slot (then 503).
    cpu_slots: int = 2
    cpu_wait_seconds: float = 2.0
    #: The search for a practice no-guess board gives up after this long (409: start again,
    #: perhaps with fewer mines); an expert-sized board takes about 10 ms.
    no_guess_seconds: float = 3.0
    password_cost: PasswordCost = field(default_factory=PasswordCost)
    clock: Callable[[], float] = time.time
