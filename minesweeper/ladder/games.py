"""Server-authoritative games: dealt from a secret seed, every move stored before it is answered.

A game in the database is its settings, its secret seed, its mines once laid and
its moves, each with its time by the server's clock. The `GameSession` that plays
it is rebuilt from those whenever a process has not got it in memory (after a
restart, or when another process made the last move), by making the same moves at
the same times: the rules live in `minesweeper.play.session` alone.

A move is applied to the session, stored with the game's new state in one
transaction guarded by the game's move count (two processes cannot both store
move N), and only then answered. A process killed before the commit answered
nothing; after it, the move is in the database.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar, cast

from sqlalchemy import CursorResult, func, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from minesweeper.board import Board
from minesweeper.boards.generate import BoardMaker, lay_mines, random_board, start_cell
from minesweeper.boards.noguess import no_guess_board
from minesweeper.errors import MinesweeperError
from minesweeper.ladder import aids
from minesweeper.ladder.accounts import Player
from minesweeper.ladder.categories import (
    GameRequest,
    parse_ranked,
    settings_for,
    settings_from_json,
    settings_json,
    settings_view,
)
from minesweeper.ladder.config import LadderConfig
from minesweeper.ladder.cpu import CpuSlots
from minesweeper.ladder.errors import BadRequest, Conflict, Forbidden, LadderError, NotFound
from minesweeper.ladder.locks import hold
from minesweeper.ladder.ratelimit import RateLimiter
from minesweeper.ladder.schema import Account, Game, Move, Secret
from minesweeper.ladder.views import end_view, map_text, opened_pairs, topology_view, visible
from minesweeper.play.autoplay import new_session
from minesweeper.play.records import Entry
from minesweeper.play.replay import Replay, check_entry
from minesweeper.play.session import Action, GameSession, Settings
from minesweeper.topology.base import Topology
from minesweeper.variant import FirstClick

T = TypeVar("T")

#: What a move may be: open (left click), flag (right click: puts or lifts a flag), chord.
MOVE_KINDS = ("open", "flag", "chord")
#: A game takes at most this many moves per cell (and never fewer than `MIN_MOVE_LIMIT`).
MOVES_PER_CELL = 4
MIN_MOVE_LIMIT = 1000
#: Cells of the games kept in memory per process (the rest are rebuilt from the database
#: when asked): about 2,000 expert games, or 100 of the largest practice boards (a random
#: tiling of 10,000 pieces holds about 5 MB of neighbour lists).
CACHE_CELLS = 1_000_000
#: Tries of a move that raced another process, and the first wait's bound in seconds
#: (doubled at each try: at most about 2.5 s in all).
RETRIES = 8
BACKOFF = 0.01


class ManualClock:
    """A session's clock that shows what it is set to: the server's time of the move."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@dataclass
class Live:
    """A game being played in this process: its session, and how many moves it has made."""

    session: GameSession
    clock: ManualClock
    moves: int


class _Raced(Exception):
    """Another process stored a move of this game first: rebuild and try again."""


class LiveGames:
    """The sessions of recently played games, least recently used dropped first once their
    cells pass ``capacity`` (cells, not games: a board's memory grows with its cells)."""

    def __init__(self, capacity: int = CACHE_CELLS) -> None:
        self.capacity = capacity
        self._cells = 0
        self._games: OrderedDict[str, Live] = OrderedDict()
        self._guard = threading.Lock()
        self._locks = [threading.Lock() for _ in range(64)]

    @contextmanager
    def locked(self, game_id: str) -> Iterator[None]:
        """Hold this process's lock of ``game_id`` (moves of one game go one at a time)."""
        digest = hashlib.blake2b(game_id.encode(), digest_size=2).digest()
        with self._locks[int.from_bytes(digest) % len(self._locks)]:
            yield

    def get(self, game_id: str) -> Live | None:
        with self._guard:
            live = self._games.get(game_id)
            if live is not None:
                self._games.move_to_end(game_id)
            return live

    def put(self, game_id: str, live: Live) -> None:
        with self._guard:
            self._forget(game_id)
            self._games[game_id] = live
            self._cells += live.session.topology.size
            while self._cells > self.capacity and len(self._games) > 1:
                self._forget(next(iter(self._games)))

    def drop(self, game_id: str) -> None:
        with self._guard:
            self._forget(game_id)

    def _forget(self, game_id: str) -> None:
        live = self._games.pop(game_id, None)
        if live is not None:
            self._cells -= live.session.topology.size


def moves_allowed(cells: int) -> int:
    """The most moves a game of ``cells`` cells may take (a replay of more is no ladder game's)."""
    return max(MIN_MOVE_LIMIT, MOVES_PER_CELL * cells)


def move_limit(session: GameSession) -> int:
    return moves_allowed(session.topology.size)


def iso_ms(ms: int | None) -> str | None:
    if ms is None:
        return None
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="milliseconds")


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
    ) -> dict[str, Any]:
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
        except IntegrityError:  # the same daily board started by another request meanwhile
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
        """A new game's row (not stored yet): a daily board is the day's, laid now; any other
        is its seed (the given one, for practice, or 128 secret bits)."""
        now = self.now_ms()
        day = None
        board: list[int] | None = None
        if mode == "daily":
            day = datetime.fromtimestamp(now / 1000, UTC).date().isoformat()
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
        dealt games (people), a daily board once. Holds the player's lock until the game is
        stored, so that requests at once cannot all pass one count."""
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
        if game.mode == "daily":
            played = db.scalar(
                select(Game.id).where(
                    Game.account_id == player.id,
                    Game.mode == "daily",
                    Game.category == game.category,
                    Game.day == game.day,
                )
            )
            if played is not None:
                raise Conflict(
                    f"you have played the {game.category} board of {game.day} (game {played})"
                )

    def daily_seed(self, db: Session, day: str, category: str) -> int:
        """The seed of ``category``'s board of ``day``: the same for every player and process."""
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

    def state(self, db: Session, player: Player, game_id: str) -> dict[str, Any]:
        with self.live.locked(game_id):
            game = self._owned(db, player, game_id)
            return self._state(game, self._session(db, game), player.name)

    def _state(self, game: Game, live: Live, name: str) -> dict[str, Any]:
        session = live.session
        settings = settings_from_json(game.settings)
        if game.started_ms is None:
            ms = 0
        elif game.ms is not None:
            ms = game.ms
        else:
            ms = self.now_ms() - game.started_ms
        return {
            "id": game.id,
            "mode": game.mode,
            "category": game.category,
            "day": game.day,
            "player": name,
            "settings": settings_view(settings),
            "topology": topology_view(session.topology),
            "state": session.state.value,
            "started": session.started,
            "ms": ms,
            "moves": live.moves,
            "first_cell": self._first_cell(game, session),
            "assists": [[kind, at] for kind, at in session.assists],
            **visible(session),
            "end": self._end(game, session),
        }

    def _end(self, game: Game, session: GameSession) -> dict[str, Any] | None:
        until = self._hidden_until(game)
        end = end_view(session, whole_board=until is None)
        if end is not None:
            end["replay"] = f"/api/games/{game.id}/replay"
            end["hidden_until"] = iso_ms(until)
        return end

    def _hidden_until(self, game: Game) -> int | None:
        """When the board of ``game`` may be shown whole: the end of its day for a daily
        board (everyone plays it that day), None when it may be shown now."""
        if game.mode != "daily" or game.day is None:
            return None
        day = datetime.fromisoformat(game.day).replace(tzinfo=UTC)
        ends = int((day + timedelta(days=1)).timestamp() * 1000)
        return ends if self.now_ms() < ends else None

    def _first_cell(self, game: Game, session: GameSession) -> int | None:
        """Where a daily game must be opened first (its board is laid around that cell)."""
        if game.mode != "daily":
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
    ) -> dict[str, Any]:
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
                raise BadRequest(f"a daily board is opened first at cell {first}")
            return _apply(session, kind, cell)

        game, session, changed = self._turn(db, player, game_id, act, expect)
        action = session.actions[-1]
        answer: dict[str, Any] = {
            "game": game.id,
            "number": len(session.actions),
            "kind": action.kind,
            "cell": cell,
            "opened": [] if session.lost else opened_pairs(session, changed),
            "flagged": cell in session.flags,
            "state": session.state.value,
            "ms": action.ms,
            "end": self._end(game, session),
        }
        if with_map:
            answer["map"] = map_text(session)
        return answer

    def computer(self, db: Session, player: Player, game_id: str) -> dict[str, Any]:
        """Let the computer make its next decision's moves in a practice game."""

        def act(game: Game, session: GameSession) -> tuple[list[Any], list[int]]:
            _practice_only(game, "the computer")
            with self.cpu.held("practice aids"):
                return aids.computer_step(session)

        game, session, (moves, opened) = self._turn(db, player, game_id, act)
        return {
            "game": game.id,
            "moves": [{"kind": move.kind, "cell": move.cell} for move in moves],
            "opened": [] if session.lost else opened_pairs(session, opened),
            "state": session.state.value,
            "ms": session.ms,
            "end": self._end(game, session),
        }

    def hint(self, db: Session, player: Player, game_id: str) -> dict[str, Any]:
        """The cell to open next in a practice game (noted as help)."""

        def act(game: Game, session: GameSession) -> dict[str, Any]:
            _practice_only(game, "hints")
            session.note_assist("hint")
            with self.cpu.held("practice aids"):
                return aids.hint(session)

        return self._turn(db, player, game_id, act)[2]

    def odds(self, db: Session, player: Player, game_id: str) -> dict[str, Any]:
        """Every closed cell's mine probability in a practice game (noted as help)."""

        def act(game: Game, session: GameSession) -> dict[str, Any]:
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
        new = session.actions[game.moves :]
        for number, action in enumerate(new, game.moves + 1):
            db.add(
                Move(
                    game_id=game.id, number=number, kind=action.kind, cell=action.cell, ms=action.ms
                )
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
        live.moves = len(session.actions)
        self.live.put(game.id, live)
        return game, session, result

    def resign(self, db: Session, player: Player, game_id: str) -> dict[str, Any]:
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
            return {"game": game.id, "state": "resigned"}

    # -- rebuilding -----------------------------------------------------------------------

    def _session(self, db: Session, game: Game) -> Live:
        live = self.live.get(game.id)
        if live is not None and _caught_up(db, game, live):
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


def fresh_session(game: Game, no_guess: BoardMaker) -> tuple[GameSession, ManualClock]:
    """``game``'s session before its first move: the topology drawn from its seed, and the
    board laid if it is known (else laid by the first open, from the same seed; by
    ``no_guess`` for a no-guess game)."""
    settings = settings_from_json(game.settings)
    clock = ManualClock()
    seed = int(game.seed)
    if game.board is None:
        maker = no_guess if settings.no_guess else None
        return GameSession(settings, seed=seed, clock=clock, board_maker=maker), clock
    board = stored_board(game)
    session = GameSession(settings, clock=clock, board=board, board_maker=lay_mines)
    session.settings = settings  # a graph's printed shape must not rename its category
    return session, clock


def stored_board(game: Game) -> Board:
    settings = settings_from_json(game.settings)
    assert game.board is not None
    topology = settings.variant.make_topology(random.Random(int(game.seed)))
    return Board(topology, json.loads(game.board))


def daily_board(settings: Settings, category: str, seed: int) -> Board:
    """The day's board of a ranked category: laid around the preset's first click."""
    parse_ranked(category)  # only a ranked category has a day's board
    variant = settings.variant
    rng = random.Random(seed)
    topology = variant.make_topology(rng)
    first = start_cell(topology, variant.start, variant.cols)
    return random_board(topology, variant.mines, rng, first, variant.first_click)


def stored_replay(game: Game, moves: list[Move], name: str) -> Replay:
    settings = settings_from_json(game.settings)
    actions = tuple(Action(move.ms, move.kind, move.cell) for move in moves)
    assists = tuple((kind, at) for kind, at in json.loads(game.assists))
    return Replay(
        settings.category(),
        stored_board(game),
        actions,
        assists,
        player=name,
        date=iso_ms(game.started_ms),
    )


def replay_problems(game: Game, moves: list[Move], name: str) -> list[str]:
    """What in a finished game's stored result its moves do not bear out ([] if all)."""
    if game.board is None:
        return [] if game.state == "resigned" else ["a finished game without a board"]
    replay = stored_replay(game, moves, name)
    settings = settings_from_json(game.settings)
    if game.state == "resigned":
        problems = []
        if replay.final.over:
            problems.append("a resigned game whose moves end it")
    else:
        entry = Entry(
            name=name,
            points=game.points if game.points is not None else -1,
            seconds=round((game.ms or 0) / 1000, 3),
            won=game.state == "won",
            date=iso_ms(game.started_ms) or "",
            bbbv=game.bbbv,
            clicks=game.clicks,
        )
        problems = check_entry(replay, settings.category(), entry)
    if game.mode == "ranked":
        clock = ManualClock()
        dealt = new_session(settings, seed=int(game.seed), clock=clock)
        play_moves(dealt, clock, moves)
        if dealt.board != replay.board:
            problems.append("the board is not the one its seed deals")
    return problems


def play_moves(session: GameSession, clock: ManualClock, moves: list[Move]) -> None:
    """Make the stored ``moves`` on ``session``, each at its time."""
    for move in moves:
        clock.now = move.ms / 1000
        _apply(session, "flag" if move.kind in ("flag", "unflag") else move.kind, move.cell)


def _caught_up(db: Session, game: Game, live: Live) -> bool:
    """Bring a kept session up to the moves other processes stored since, making only those
    (a game of 40,000 moves played through two servers in turn was made whole again at
    each move); False when it cannot be (then it is rebuilt from the database)."""
    session = live.session
    made = len(session.actions)
    if live.moves != made or made > game.moves:
        return False
    if made < game.moves:
        if session.board is None and game.board is not None:
            return False  # laid elsewhere: the stored board, not a deal made again
        newer = select(Move).where(Move.game_id == game.id, Move.number > made)
        play_moves(session, live.clock, list(db.scalars(newer.order_by(Move.number))))
        live.moves = len(session.actions)
        helped = json.loads(game.assists)
        session.assists[:] = [(kind, at) for kind, at in helped if at <= live.moves]
    return live.moves == game.moves


def _guarded_update(db: Session, game: Game, values: dict[str, Any]) -> int:
    """Update ``game``'s row only if no other move was stored meanwhile; the rows updated."""
    result = db.execute(
        update(Game).where(Game.id == game.id, Game.moves == game.moves).values(**values)
    )
    return cast(CursorResult[Any], result).rowcount


def _practice_only(game: Game, what: str) -> None:
    if game.mode != "practice":
        raise Forbidden(f"{what}: practice games only (a ranked game is played unaided)")


def _apply(session: GameSession, kind: str, cell: int) -> list[int]:
    """Make one move on ``session``; the cells it changed (opened, or the mines that went off)."""
    if kind == "open":
        return session.open(cell)
    if kind == "chord":
        return session.chord(cell)
    session.toggle_flag(cell)
    return []


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


__all__ = ["MOVE_KINDS", "Games", "LiveGames", "MinesweeperError", "replay_problems"]
