"""Accounts and sessions: names, argon2id passwords, bearer tokens that expire.

A token is 32 random bytes (URL-safe base64); the database keeps only its SHA-256,
so a copy of the database signs no one in. Signing out deletes the token: a
signed-out token is refused like a forged one.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from minesweeper.ladder.config import LadderConfig
from minesweeper.ladder.cpu import CpuSlots
from minesweeper.ladder.errors import BadRequest, Conflict, Unauthorized
from minesweeper.ladder.locks import hold
from minesweeper.ladder.ratelimit import RateLimiter
from minesweeper.ladder.schema import Account, Token
from minesweeper.play.records import COMPUTER

#: 3 to 24 characters: ASCII letters, digits, and ``_ . -`` inside.
NAME_PATTERN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9_.-]{1,22})[A-Za-z0-9]")
NAME_RULE = "3 to 24 characters: letters, digits, and _ . - between them"
PASSWORD_MIN, PASSWORD_MAX = 8, 256
#: Names no player may take (the records' computer, and names that look official).
RESERVED = {COMPUTER.lower(), "admin", "administrator", "root", "server", "ladder", "daily"}
#: Guests are named ``guest-`` and 8 hex digits; no one else may take such a name.
GUEST_PREFIX = "guest-"


@dataclass(frozen=True)
class Player:
    """The signed-in player a request acts for."""

    id: int
    name: str
    is_bot: bool
    is_guest: bool = False


@dataclass(frozen=True)
class Issued:
    """A new token and when it expires (ms since the epoch)."""

    token: str
    expires_ms: int
    player: Player


def check_name(name: str) -> str:
    """``name`` if it is a valid player name; `BadRequest` saying the rule otherwise."""
    if not NAME_PATTERN.fullmatch(name):
        raise BadRequest(f"a name is {NAME_RULE}")
    if name.lower() in RESERVED or name.lower().startswith(GUEST_PREFIX):
        raise BadRequest(f"the name {name!r} is reserved")
    return name


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class Accounts:
    """Signing up, in and out, and finding the player behind a token."""

    def __init__(self, config: LadderConfig, cpu: CpuSlots) -> None:
        self.config = config
        #: argon2id takes 64 MiB and tens of milliseconds a hash: hashes are heavy work.
        self.cpu = cpu
        cost = config.password_cost
        self.hasher = PasswordHasher(
            time_cost=cost.time_cost, memory_cost=cost.memory_kib, parallelism=cost.parallelism
        )
        self.limiter = RateLimiter(config.clock)
        self._decoy: str | None = None

    @property
    def decoy(self) -> str:
        """A hash verified against when the name is unknown, so that a wrong name costs as
        long as a wrong password and the timing does not tell which names exist (made at
        the first need, not at start-up)."""
        if self._decoy is None:
            self._decoy = self._hash(secrets.token_hex(16))
        return self._decoy

    def _hash(self, password: str) -> str:
        with self.cpu.held("sign-ins"):
            return self.hasher.hash(password)

    def _verify(self, stored: str, password: str) -> None:
        with self.cpu.held("sign-ins"):
            self.hasher.verify(stored, password)

    def now_ms(self) -> int:
        return int(self.config.clock() * 1000)

    def sign_up(self, db: Session, name: str, password: str, address: str) -> Issued:
        check_name(name)
        _check_password(password)
        self.limiter.hit(db, f"sign-up:{address}", self.config.sign_up_per_address, "sign-ups")
        db.commit()  # the attempt counts even if the name is taken
        account = Account(
            name=name,
            name_key=name.lower(),
            is_bot=False,
            password_hash=self._hash(password),
            created_ms=self.now_ms(),
        )
        db.add(account)
        try:
            db.flush()
        except IntegrityError:
            db.rollback()
            raise Conflict(f"the name {name!r} is taken") from None
        self.limiter.mark(db, f"known:{name.lower()}:{address}")
        return self.issue(db, account, self.config.session_seconds)

    def sign_in(self, db: Session, name: str, password: str, address: str) -> Issued:
        """A new token for ``name`` with the right ``password``; failures slow the guesser.

        Each attempt is counted as a failure before the password is checked (so attempts
        made at once cannot all pass one count) and taken back if the password is right.
        """
        key = name.lower()[:32]
        pending = self._count_attempt(db, key, address)
        db.commit()  # counted before the slow check, whatever comes of it
        account = db.scalar(select(Account).where(Account.name_key == name.lower()))
        stored = account.password_hash if account is not None else None
        try:
            self._verify(stored or self.decoy, password)
            if stored is None:
                raise VerificationError
        except (VerificationError, InvalidHashError):
            raise Unauthorized("wrong name or password") from None
        assert account is not None
        self.limiter.forget(db, pending)
        self.limiter.mark(db, f"known:{key}:{address}")
        if self.hasher.check_needs_rehash(stored):
            account.password_hash = self._hash(password)
        return self.issue(db, account, self.config.session_seconds)

    def _count_attempt(self, db: Session, key: str, address: str) -> list[int]:
        """Check that a sign-in to the name ``key`` from ``address`` may be tried now, and
        count it as failed; the ids of the failures counted.

        Failures from this address slow this address (doubling waits, not a lockout).
        Failures from everywhere slow the addresses the account has not signed in from
        lately: a rival failing on purpose from anywhere locks no one out at home.
        """
        config = self.config
        self.limiter.hit(db, f"sign-in:{address}", config.sign_in_per_address, "sign-ins")
        hold(db, f"sign-in:{key}", self.now_ms())  # one name's attempts are counted in turn
        here = f"sign-in-failed:{key}:{address}"
        self.limiter.wait(db, here, config.sign_in_failures_per_address, "failed sign-ins")
        pending = [self.limiter.record(db, here)]
        if not self.limiter.seen(db, f"known:{key}:{address}", config.known_address_seconds):
            everywhere = f"sign-in-failed:{key}"
            what = "failed sign-ins to this name"
            self.limiter.wait(db, everywhere, config.sign_in_failures_per_name, what)
            pending.append(self.limiter.record(db, everywhere))
        return pending

    def guest(self, db: Session, address: str) -> Issued:
        """A new guest account, signed in: practice games without signing up."""
        self.limiter.hit(db, f"guest:{address}", self.config.guests_per_address, "guests")
        db.commit()
        name = GUEST_PREFIX + secrets.token_hex(4)
        account = Account(
            name=name, name_key=name, is_bot=False, is_guest=True, created_ms=self.now_ms()
        )
        db.add(account)
        db.flush()
        return self.issue(db, account, self.config.session_seconds)

    def bot_token(self, db: Session, name: str) -> Issued:
        """A token for the bot ``name``, made if needed (``minesweeper ladder token --bot``)."""
        check_name(name)
        account = db.scalar(select(Account).where(Account.name_key == name.lower()))
        if account is None:
            account = Account(
                name=name, name_key=name.lower(), is_bot=True, created_ms=self.now_ms()
            )
            db.add(account)
            db.flush()
        elif not account.is_bot:
            raise Conflict(f"{name!r} is a person's account, not a bot's")
        return self.issue(db, account, self.config.bot_token_seconds)

    def issue(self, db: Session, account: Account, seconds: int) -> Issued:
        token = secrets.token_urlsafe(32)
        now = self.now_ms()
        expires = now + seconds * 1000
        # Sessions that have expired are of no use to anyone: they go as new ones come.
        db.execute(delete(Token).where(Token.account_id == account.id, Token.expires_ms <= now))
        db.add(
            Token(account_id=account.id, digest=digest(token), created_ms=now, expires_ms=expires)
        )
        db.flush()
        return Issued(token, expires, _player(account))

    def player(self, db: Session, token: str | None) -> Player:
        """The player ``token`` signs in; `Unauthorized` when it is missing, unknown or expired."""
        if not token:
            raise Unauthorized("sign in first: send the header 'Authorization: Bearer TOKEN'")
        row = db.execute(
            select(Token, Account)
            .join(Account, Account.id == Token.account_id)
            .where(Token.digest == digest(token))
        ).first()
        if row is None:
            raise Unauthorized("the token is not valid (forged, or signed out)")
        session, account = row
        if session.expires_ms <= self.now_ms():
            raise Unauthorized("the session has expired: sign in again")
        return _player(account)

    def sign_out(self, db: Session, token: str | None) -> None:
        self.player(db, token)
        assert token is not None
        db.execute(delete(Token).where(Token.digest == digest(token)))


def _player(account: Account) -> Player:
    return Player(account.id, account.name, account.is_bot, account.is_guest)


def _check_password(password: str) -> None:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise BadRequest(f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters")
