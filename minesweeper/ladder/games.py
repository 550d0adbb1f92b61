"""Server-authoritative games: dealt from a secret seed, every move stored before it is answered.

A game in the database is its settings, its secret seed, its mines once laid and
its moves, each with its time by the server's clock. The `GameSession` that plays
it is kept in memory (`minesweeper.ladder.live`) and rebuilt from those whenever a
process has not got it (after a restart, or when another process made the last
moves), by making the same moves at the same times: the rules live in
`minesweeper.play.session` alone.

A move is applied to the session, stored with the game's new state in one
transaction guarded by the game's move count (two processes cannot both store
move N), and only then answered. A process killed before the commit answered
nothing; after it, the move is in the database. Every answer is one of the API's
models (`minesweeper.ladder.api`).
"""

from __future__ import annotations

import hmac
import json
import random
import secrets
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar, cast

from sqlalchemy import CursorResult, func, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from minesweeper.board import Board
from minesweeper.boards.generate import start_cell
from minesweeper.boards.noguess import no_guess_board
from minesweeper.errors import MinesweeperError
from minesweeper.ladder import aids
from minesweeper.ladder.accounts import Player
from minesweeper.ladder.api import (
    ComputerMove,
    ComputerOut,
    EndOut,
    GameOut,
    GameSummary,
    HintOut,
    MoveOut,
    OddsOut,
    Resigned,
)
from minesweeper.ladder.categories import (
    SHARED_BOARDS,
    GameRequest,
    board_period,
    period_end_ms,
    settings_for,
    settings_from_json,
    settings_json,
    settings_view,
)
from minesweeper.ladder.config import LadderConfig
from minesweeper.ladder.cpu import CpuSlots
from minesweeper.ladder.errors import BadRequest, Conflict, Forbidden, LadderError, NotFound
from minesweeper.ladder.live import Live, LiveGames, apply_move, caught_up, play_moves
from minesweeper.ladder.locks import hold
from minesweeper.ladder.ratelimit import RateLimiter
from minesweeper.ladder.schema import Account, Game, Move, Secret
from minesweeper.ladder.stored import daily_board, fresh_session, stored_replay
from minesweeper.ladder.views import (
    end_view,
    iso_ms,
    map_text,
    opened_pairs,
    topology_view,
    visible,
)
from minesweeper.play.replay import Replay
from minesweeper.play.session import GameSession, Settings
from minesweeper.topology.base import Topology
from minesweeper.variant import FirstClick

T = TypeVar("T")

#: What a move may be: open (left click), flag (right click: puts or lifts a flag), chord.
MOVE_KINDS = ("open", "flag", "chord")
#: A game takes at most this many moves per cell (and never fewer than `MIN_MOVE_LIMIT`).
MOVES_PER_CELL = 4
MIN_MOVE_LIMIT = 1000
#: Tries of a move that raced another process, and the first wait's bound in seconds
#: (doubled at each try: at most about 2.5 s in all).
RETRIES = 8
BACKOFF = 0.01


class _Raced(Exception):
    """Another process stored a move of this game first: rebuild and try again."""


def moves_allowed(cells: int) -> int:
    """The most moves a game of ``cells`` cells may take (a replay of more is no ladder game's)."""
    return max(MIN_MOVE_LIMIT, MOVES_PER_CELL * cells)


def move_limit(session: GameSession) -> int:
    return moves_allowed(session.topology.size)


class Games:
    """Dealing, playing and showing games; every method runs in the caller's transaction."""

    def __init__(self, config: LadderConfig, cpu: CpuSlots) -> None:
        self.config = config
        self.cpu = cpu
        self.limiter = RateLimiter(config.clock)
        self.live = LiveGames()

    def now_ms(self) -> int:
        return int(self.config.clock() * 1000)

    # -- starting -------------------------------------------------------------------------

    def create(
        self,
        db: Session,
        player: Player,
        request: GameRequest,
        seed: int | None = None,
        address: str = "unknown",
    ) -> GameOut:
        """Deal a new game for ``player`` (asking from ``address``); ``seed`` only for
        practice (a replayable deal)."""
        settings, category = settings_for(request)
        if player.is_guest and request.mode != "practice":
            raise Forbidden("guests play practice games: sign up to play ranked")
        if seed is not None and request.mode != "practice":
            raise BadRequest("only practice games take a seed: ranked boards are the server's")
        game = self._dealt(db, player, request.mode, settings, category, seed)
        # Drawn before anything is written: a write takes SQLite's one lock for every game.
        try:
            live = self._rebuild(game, [])
        except LadderError:
            raise
        except MinesweeperError as error:  # a size no tiling of these pieces covers
            raise BadRequest(str(error)) from None
        self._admit(db, player, game, address)
        db.add(game)
        try:
            db.flush()
        except IntegrityError:  # the same shared board started by another request meanwhile
            db.rollback()
            raise Conflict(f"you have played the {category} board of {game.day}") from None
        self.live.put(game.id, live)
        return self._state(game, live, player.name)

    def _dealt(
        self,
        db: Session,
        player: Player,
        mode: str,
        settings: Settings,
        category: str,
        seed: int | None,
    ) -> Game:
        """A new game's row (not stored yet): a daily or weekly board is its period's, laid
        now; any other is its seed (the given one, for practice, or 128 secret bits)."""
        now = self.now_ms()
        day = None
        board: list[int] | None = None
        if mode in SHARED_BOARDS:
            day = board_period(mode, now)
            deal = self.daily_seed(db, day, category)
            board = sorted(daily_board(settings, category, deal).mines)
        else:
            deal = seed if seed is not None else secrets.randbits(128)
        return Game(
            id=secrets.token_hex(12),
            account_id=player.id,
            mode=mode,
            category=category,
            day=day,
            is_bot=player.is_bot,
            settings=settings_json(settings),
            seed=str(deal),
            board=None if board is None else json.dumps(board),
            assists="[]",
            created_ms=now,
            state="playing",
            moves=0,
        )

    def _admit(self, db: Session, player: Player, game: Game, address: str) -> None:
        """Whether ``player`` may have ``game`` too: their unfinished games, how fast they are
        dealt games (people), a daily or weekly board once. Holds the player's lock until the
        game is stored, so that requests at once cannot all pass one count."""
        hold(db, f"games:{player.id}", self.now_ms())
        unfinished = (
            db.scalar(
                select(func.count())
                .select_from(Game)
                .where(Game.account_id == player.id, Game.state == "playing")
            )
            or 0
        )
        if unfinished >= self.config.open_games:
            raise Conflict(
                f"{unfinished} games unfinished: finish or resign one before starting another"
            )
        if not player.is_bot:
            config = self.config
            self.limiter.hit(db, f"games:{player.id}", config.games_per_account, "games dealt")
            self.limiter.hit(db, f"games-from:{address}", config.games_per_address, "games dealt")
        if game.mode in SHARED_BOARDS:
            played = db.scalar(
                select(Game.id).where(
                    Game.account_id == player.id,
                    Game.mode == game.mode,
                    Game.category == game.category,
                    Game.day == game.day,
                )
            )
            if played is not None:
                raise Conflict(
                    f"you have played the {game.category} board of {game.day} (game {played})"
                )

    def daily_seed(self, db: Session, day: str, category: str) -> int:
        """The seed of ``category``'s board of ``day`` (a day, or an ISO week: ``2026-W07``):
        the same for every player and process."""
        key = db.get(Secret, "daily")
        if key is None:
            try:
                with db.begin_nested():
                    db.add(Secret(name="daily", value=secrets.token_hex(32)))
            except IntegrityError:
                pass  # another process made it first
            key = db.get(Secret, "daily")
            assert key is not None
        mac = hmac.new(bytes.fromhex(key.value), f"{day}/{category}".encode(), "sha256")
        return int.from_bytes(mac.digest()[:16])

    # -- reading --------------------------------------------------------------------------

    def state(self, db: Session, player: Player, game_id: str) -> GameOut:
        with self.live.locked(game_id):
            game = self._owned(db, player, game_id)
            return self._state(game, self._session(db, game), player.name)

    def _state(self, game: Game, live: Live, name: str) -> GameOut:
        session = live.session
        if game.started_ms is None:
            ms = 0
        elif game.ms is not None:
            ms = game.ms
        else:
            ms = self.now_ms() - game.started_ms
        opened, flags = visible(session)
        return GameOut(
            id=game.id,
            mode=game.mode,
            category=game.category,
            day=game.day,
            player=name,
            settings=settings_view(settings_from_json(game.settings)),
            topology=topology_view(session.topology),
            state=session.state.value,
            started=session.started,
            ms=ms,
            moves=live.moves,
            first_cell=self._first_cell(game, session),
            assists=[[kind, at] for kind, at in session.assists],
            opened=opened,
            flags=flags,
            end=self._end(game, session),
        )

    def summaries(self, db: Session, player: Player, limit: int) -> list[GameSummary]:
        """``player``'s latest ``limit`` games, newest first."""
        games = db.scalars(
            select(Game)
            .where(Game.account_id == player.id)
            .order_by(Game.created_ms.desc())
            .limit(limit)
        )
        return [
            GameSummary(
                id=game.id,
                mode=game.mode,
                category=game.category,
                day=game.day,
                state=game.state,
                started=iso_ms(game.started_ms),
                ms=game.ms,
                bbbv=game.bbbv,
                bbbv_per_second=game.bbbv_per_second,
            )
            for game in games
        ]

    def _end(self, game: Game, session: GameSession) -> EndOut | None:
        hidden = iso_ms(self._hidden_until(game))
        return end_view(session, f"/api/games/{game.id}/replay", hidden)

    def _hidden_until(self, game: Game) -> int | None:
        """When the board of ``game`` may be shown whole: the end of its period for a daily
        or weekly board (everyone plays it until then), None when it may be shown now."""
        if game.mode not in SHARED_BOARDS or game.day is None:
            return None
        ends = period_end_ms(game.day)
        return ends if self.now_ms() < ends else None

    def _first_cell(self, game: Game, session: GameSession) -> int | None:
        """Where a daily or weekly game must be opened first (its board is laid around it)."""
        if game.mode not in SHARED_BOARDS:
            return None
        variant = settings_from_json(game.settings).variant
        return start_cell(session.topology, variant.start, variant.cols)

    def _owned(self, db: Session, player: Player, game_id: str, lock: bool = False) -> Game:
        query = select(Game).where(Game.id == game_id)
        if lock:
            query = query.with_for_update()
        game = db.scalar(query)
        if game is None:
            raise NotFound(f"no game {game_id!r}")
        if game.account_id != player.id:
            raise Forbidden("this game is another player's")
        return game

    # -- playing --------------------------------------------------------------------------

    def move(
        self,
        db: Session,
        player: Player,
        game_id: str,
        kind: str,
        cell: int,
        expect: int | None = None,
        with_map: bool = False,
    ) -> MoveOut:
        """Make one move and return what it revealed; stored before this returns.

        ``expect``, when given, is the number of moves the client believes the game has:
        a move sent twice (a retry, a replayed request) is refused rather than made twice.
        """
        if kind not in MOVE_KINDS:
            raise BadRequest(f"unknown move {kind!r} (known: {', '.join(MOVE_KINDS)})")

        def act(game: Game, session: GameSession) -> list[int]:
            size = session.topology.size
            if not 0 <= cell < size:
                raise BadRequest(f"cell {cell} is not on the board (cells 0 to {size - 1})")
            first = self._first_cell(game, session)
            if kind == "open" and not session.started and first is not None and cell != first:
                raise BadRequest(f"a {game.mode} board is opened first at cell {first}")
            return apply_move(session, kind, cell)

        game, session, changed = self._turn(db, player, game_id, act, expect)
        action = session.actions[-1]
        return MoveOut(
            game=game.id,
            number=len(session.actions),
            kind=action.kind,
            cell=cell,
            opened=[] if session.lost else opened_pairs(session, changed),
            flagged=cell in session.flags,
            state=session.state.value,
            ms=action.ms,
            end=self._end(game, session),
            map=map_text(session) if with_map else None,
        )

    def computer(self, db: Session, player: Player, game_id: str) -> ComputerOut:
        """Let the computer make its next decision's moves in a practice game."""

        def act(game: Game, session: GameSession) -> tuple[list[Any], list[int]]:
            _practice_only(game, "the computer")
            with self.cpu.held("practice aids"):
                return aids.computer_step(session)

        game, session, (moves, opened) = self._turn(db, player, game_id, act)
        return ComputerOut(
            game=game.id,
            moves=[ComputerMove(kind=move.kind, cell=move.cell) for move in moves],
            opened=[] if session.lost else opened_pairs(session, opened),
            state=session.state.value,
            ms=session.ms,
            end=self._end(game, session),
        )

    def hint(self, db: Session, player: Player, game_id: str) -> HintOut:
        """The cell to open next in a practice game (noted as help)."""

        def act(game: Game, session: GameSession) -> HintOut:
            _practice_only(game, "hints")
            session.note_assist("hint")
            with self.cpu.held("practice aids"):
                return aids.hint(session)

        return self._turn(db, player, game_id, act)[2]

    def odds(self, db: Session, player: Player, game_id: str) -> OddsOut:
        """Every closed cell's mine probability in a practice game (noted as help)."""

        def act(game: Game, session: GameSession) -> OddsOut:
            _practice_only(game, "the odds")
            session.note_assist("odds")
            with self.cpu.held("practice aids"):
                return aids.odds(session)

        return self._turn(db, player, game_id, act)[2]

    def _turn(
        self,
        db: Session,
        player: Player,
        game_id: str,
        act: Callable[[Game, GameSession], T],
        expect: int | None = None,
    ) -> tuple[Game, GameSession, T]:
        """Do ``act`` on the game's session and store what it did before returning it.

        The new clicks are stored as moves at the server's time, with the game's new
        state, in one transaction that fails if another process stored a move first
        (then the session is rebuilt and ``act`` tried again).
        """
        with self.live.locked(game_id):
            for attempt in range(RETRIES):
                try:
                    return self._turn_once(db, player, game_id, act, expect)
                except (_Raced, OperationalError, IntegrityError):
                    # another process stored this move number first, or holds the database:
                    # wait a random, growing while, so that two servers do not retry in step
                    db.rollback()
                    self.live.drop(game_id)
                    time.sleep(random.uniform(0, BACKOFF * 2**attempt))
                except BaseException:
                    db.rollback()
                    self.live.drop(game_id)
                    raise
            raise Conflict("the game is busy (moves arriving through other servers): try again")

    def _turn_once(
        self,
        db: Session,
        player: Player,
        game_id: str,
        act: Callable[[Game, GameSession], T],
        expect: int | None,
    ) -> tuple[Game, GameSession, T]:
        game = self._owned(db, player, game_id, lock=True)
        if game.state != "playing":
            raise Conflict(f"the game is over ({game.state})")
        if expect is not None and expect != game.moves:
            raise Conflict(f"the game has {game.moves} moves, not {expect}: move not made")
        live = self._session(db, game)
        session = live.session
        if live.moves >= move_limit(session):
            raise Conflict(f"the game has reached its limit of {move_limit(session)} moves")
        now = self.now_ms()
        live.clock.now = 0.0 if game.started_ms is None else (now - game.started_ms) / 1000
        was_started = session.started
        assists = list(session.assists)
        try:
            result = act(game, session)
        except MinesweeperError as error:
            if isinstance(error, LadderError):
                raise
            raise Conflict(str(error)) from None  # e.g. a no-guess deal that found no board
        _store(db, game, session, now, was_started, assists)
        live.moves = len(session.actions)
        self.live.put(game.id, live)
        return game, session, result

    def resign(self, db: Session, player: Player, game_id: str) -> Resigned:
        """End an unfinished game as lost (a started ranked game counts as a loss)."""
        with self.live.locked(game_id):
            game = self._owned(db, player, game_id, lock=True)
            if game.state != "playing":
                raise Conflict(f"the game is over ({game.state})")
            now = self.now_ms()
            ms = None if game.started_ms is None else now - game.started_ms
            if _guarded_update(db, game, {"state": "resigned", "ended_ms": now, "ms": ms}) != 1:
                raise Conflict("the game moved on meanwhile: try again")
            db.commit()
            self.live.drop(game_id)
            return Resigned(game=game.id, state="resigned")

    # -- rebuilding -----------------------------------------------------------------------

    def _session(self, db: Session, game: Game) -> Live:
        live = self.live.get(game.id)
        if live is not None and caught_up(db, game, live):
            return live
        moves = db.scalars(select(Move).where(Move.game_id == game.id).order_by(Move.number))
        live = self._rebuild(game, list(moves))
        self.live.put(game.id, live)
        return live

    @contextmanager
    def _drawing(self, game: Game) -> Iterator[None]:
        """Hold a slot for heavy work while ``game``'s topology is drawn again from its seed,
        if it is drawn at random piece by piece (a tiling of 10,000 pieces: 2 s)."""
        if settings_from_json(game.settings).variant.topology.text_format != "tiling":
            yield
            return
        with self.cpu.held("boards"):
            yield

    def _rebuild(self, game: Game, moves: list[Move]) -> Live:
        with self._drawing(game):
            session, clock = fresh_session(game, self._deal_no_guess)
        play_moves(session, clock, moves)
        for kind, at in json.loads(game.assists):
            if at <= len(moves):
                session.assists.append((kind, at))
        return Live(session, clock, len(moves))

    def _deal_no_guess(
        self, topology: Topology, mines: int, first: int, rule: FirstClick, rng: random.Random
    ) -> Board:
        """A practice no-guess board (its first open): searched in a slot for heavy work, for
        at most the configured seconds (the command line's search may take 30 s)."""
        with self.cpu.held("no-guess deals"):
            seconds = self.config.no_guess_seconds
            return no_guess_board(topology, mines, first, rule, rng, seconds=seconds)

    # -- replays --------------------------------------------------------------------------

    def replay(self, db: Session, game_id: str) -> Replay:
        """The replay of a finished game (anyone may watch it once it is over)."""
        row = db.execute(
            select(Game, Account.name)
            .join(Account, Account.id == Game.account_id)
            .where(Game.id == game_id)
        ).first()
        if row is None:
            raise NotFound(f"no game {game_id!r}")
        game, name = row
        if game.state == "playing":
            raise Conflict("the game is not over: its replay shows after the end")
        until = self._hidden_until(game)
        if until is not None:  # its moves would show everyone the day's board
            raise Conflict(
                f"the {game.category} board of {game.day} is still being played: "
                f"its replays show from {iso_ms(until)}"
            )
        if game.board is None:
            raise Conflict("the game ended before its first open: there is nothing to replay")
        moves = list(db.scalars(select(Move).where(Move.game_id == game.id).order_by(Move.number)))
        return stored_replay(game, moves, name)


def _store(
    db: Session,
    game: Game,
    session: GameSession,
    now: int,
    was_started: bool,
    assists: list[tuple[str, int]],
) -> None:
    """Store the clicks ``session`` made since ``game``'s row was read, and its new state,
    and commit; `_Raced` when another process stored a move first."""
    new = session.actions[game.moves :]
    for number, action in enumerate(new, game.moves + 1):
        db.add(
            Move(game_id=game.id, number=number, kind=action.kind, cell=action.cell, ms=action.ms)
        )
    values: dict[str, Any] = {"moves": game.moves + len(new)}
    if session.assists != assists:
        values["assists"] = json.dumps([[kind, at] for kind, at in session.assists])
    if session.started and not was_started:
        values["started_ms"] = now
        if game.board is None:
            assert session.board is not None
            values["board"] = json.dumps(sorted(session.board.mines))
    if session.over:
        values.update(_result(session), state=session.state.value, ended_ms=now)
    if _guarded_update(db, game, values) != 1:
        raise _Raced
    db.commit()


def _guarded_update(db: Session, game: Game, values: dict[str, Any]) -> int:
    """Update ``game``'s row only if no other move was stored meanwhile; the rows updated."""
    result = db.execute(
        update(Game).where(Game.id == game.id, Game.moves == game.moves).values(**values)
    )
    return cast(CursorResult[Any], result).rowcount


def _practice_only(game: Game, what: str) -> None:
    if game.mode != "practice":
        raise Forbidden(f"{what}: practice games only (a ranked game is played unaided)")


def _result(session: GameSession) -> dict[str, Any]:
    stats = session.stats()
    rate = stats.bbbv_per_second
    return {
        "ms": session.ms,
        "points": session.points,
        "bbbv": stats.bbbv,
        "bbbv_per_second": None if rate is None else round(rate, 4),
        "clicks": stats.clicks.total,
    }
