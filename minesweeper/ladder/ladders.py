"""The ladders: per category, best time, best 3BV/s and win rate, for all time or this month.

People and bots are ranked apart. A ranked game counts from its first open: a
started game that is lost, resigned or left unfinished is a game not won, so
abandoning hard boards does not raise a win rate. Times and 3BV/s rank wins
only, each player's best game once, with a link to its replay. The win-rate
ladder also names the players still short of its minimum, with their games.
A player's page gives the lifetime figures of every kind of game they played.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import and_, case, func, select
from sqlalchemy.orm import Session

from minesweeper.ladder.api import (
    BestGameRow,
    LadderOut,
    PendingRow,
    PlayerCategory,
    PlayerGame,
    PlayerPage,
    WinRateRow,
)
from minesweeper.ladder.categories import (
    MINIMUM_BBBV,
    SHARED_BOARDS,
    parse_ranked,
    settings_from_json,
)
from minesweeper.ladder.errors import BadRequest, NotFound
from minesweeper.ladder.schema import Account, Game
from minesweeper.play.history import Play, PlayedGame, figures
from minesweeper.play.records import Category
from minesweeper.play.stats import Clicks, GameStats

BOARDS = ("time", "3bv/s", "win-rate")
PERIODS = ("all", "month")
#: Rows a ladder lists at most.
MAX_ROWS = 100
#: The kinds of game a player's page sums up, in its order.
KINDS = ("ranked", *SHARED_BOARDS, "practice")
#: The latest started games of one kind a player's page sums up (a bound on its work).
MAX_FIGURED_GAMES = 10_000


def month_start_ms(now_ms: int) -> int:
    """Midnight UTC of the first day of the month ``now_ms`` falls in."""
    now = datetime.fromtimestamp(now_ms / 1000, UTC)
    return int(datetime(now.year, now.month, 1, tzinfo=UTC).timestamp() * 1000)


def ladder(
    db: Session,
    category: str,
    board: str,
    *,
    period: str = "all",
    bots: bool = False,
    mode: str = "ranked",
    day: str | None = None,
    now_ms: int,
    win_rate_minimum: int,
    limit: int = 20,
) -> LadderOut:
    """One ladder's rows, best first; ``category`` is any text naming a ranked variant."""
    variant = parse_ranked(category)
    category = str(variant)
    if board not in BOARDS:
        raise BadRequest(f"unknown ladder {board!r} (known: {', '.join(BOARDS)})")
    if period not in PERIODS:
        raise BadRequest(f"unknown period {period!r} (known: {', '.join(PERIODS)})")
    limit = max(1, min(limit, MAX_ROWS))
    where = [
        Game.mode == mode,
        Game.category == category,
        Game.is_bot == bots,
        Game.started_ms.is_not(None),
    ]
    if day is not None:
        where.append(Game.day == day)
    if period == "month":
        where.append(Game.started_ms >= month_start_ms(now_ms))
    least = MINIMUM_BBBV[variant.preset_name or ""] if mode == "ranked" else None
    rows: list[BestGameRow] | list[WinRateRow]
    pending = None
    if board == "win-rate":
        rows = _win_rates(db, where, win_rate_minimum, limit)
        pending = _short_of_minimum(db, where, win_rate_minimum, limit)
    else:
        rows = _best_games(db, [*where, Game.bbbv >= (least or 0)], board, limit)
    return LadderOut(
        category=category,
        board=board,
        period=period,
        players="bots" if bots else "people",
        mode=mode,
        day=day,
        minimum_games=win_rate_minimum if board == "win-rate" else None,
        minimum_bbbv=None if board == "win-rate" else least,
        rows=list(rows),
        pending=pending,
    )


def _best_games(db: Session, where: list[Any], board: str, limit: int) -> list[BestGameRow]:
    order: tuple[Any, ...]
    if board == "time":
        order = (Game.ms.asc(), Game.ended_ms.asc(), Game.id)
    else:
        order = (Game.bbbv_per_second.desc(), Game.ended_ms.asc(), Game.id)
    rank = func.row_number().over(partition_by=Game.account_id, order_by=order).label("rank")
    wins = [*where, Game.state == "won"]
    if board == "3bv/s":
        wins.append(Game.bbbv_per_second.is_not(None))
    inner = select(Game.id, rank).where(*wins).subquery()
    query = (
        select(Game, Account.name)
        .join(inner, and_(inner.c.id == Game.id, inner.c.rank == 1))
        .join(Account, Account.id == Game.account_id)
        .order_by(*order)
        .limit(limit)
    )
    return [
        BestGameRow(
            rank=place,
            player=name,
            ms=game.ms,
            bbbv=game.bbbv,
            bbbv_per_second=game.bbbv_per_second,
            clicks=game.clicks,
            date=_iso(game.ended_ms or 0),
            game=game.id,
            replay=f"/api/games/{game.id}/replay",
        )
        for place, (game, name) in enumerate(db.execute(query), 1)
    ]


def _win_rates(db: Session, where: list[Any], minimum: int, limit: int) -> list[WinRateRow]:
    played = func.count(Game.id)
    won = func.sum(case((Game.state == "won", 1), else_=0))
    query = (
        select(Account.name, played.label("played"), won.label("won"))
        .join(Account, Account.id == Game.account_id)
        .where(*where)
        .group_by(Account.id, Account.name)
        .having(played >= max(1, minimum))
    )
    found = [(name, int(p), int(w or 0)) for name, p, w in db.execute(query)]
    found.sort(key=lambda row: (-row[2] / row[1], -row[1], row[0]))
    return [
        WinRateRow(rank=place, player=name, played=p, won=w, win_rate=round(w / p, 4))
        for place, (name, p, w) in enumerate(found[:limit], 1)
    ]


def _short_of_minimum(db: Session, where: list[Any], minimum: int, limit: int) -> list[PendingRow]:
    """The players with started games, but fewer than ``minimum``: the most games first."""
    played = func.count(Game.id)
    won = func.sum(case((Game.state == "won", 1), else_=0))
    query = (
        select(Account.name, played.label("played"), won.label("won"))
        .join(Account, Account.id == Game.account_id)
        .where(*where)
        .group_by(Account.id, Account.name)
        .having(played < minimum)
        .order_by(played.desc(), Account.name)
        .limit(limit)
    )
    return [
        PendingRow(player=name, played=int(p), won=int(w or 0)) for name, p, w in db.execute(query)
    ]


def player_page(db: Session, name: str, *, recent: int = 20) -> PlayerPage:
    """A player's public page: for each kind of game (`KINDS`: ranked, daily, weekly,
    practice) and category the lifetime figures of the history model
    (`minesweeper.play.history`: games, wins, abandoned, win rate with its 95% interval,
    streaks, best and median time, best 3BV/s, efficiency), practice games with help apart
    from the unaided ones; ``categories`` repeats the ranked ones; and the latest finished
    ranked, daily and weekly games. Guests have none."""
    account = db.scalar(
        select(Account).where(Account.name_key == name.lower(), Account.is_guest.is_(False))
    )
    if account is None:
        raise NotFound(f"no player {name!r}")
    kinds = {kind: _figures_of(db, account, kind) for kind in KINDS}
    return PlayerPage(
        name=account.name,
        bot=account.is_bot,
        joined=_iso(account.created_ms),
        categories=kinds["ranked"],
        kinds=kinds,
        games=_latest_games(db, account, recent),
    )


def _figures_of(db: Session, account: Account, mode: str) -> list[PlayerCategory]:
    """The figures of ``account``'s started games of ``mode`` (the latest
    `MAX_FIGURED_GAMES`), per category and way of playing."""
    latest = db.scalars(
        select(Game)
        .where(Game.account_id == account.id, Game.mode == mode)
        .where(Game.started_ms.is_not(None))
        .order_by(func.coalesce(Game.ended_ms, Game.started_ms).desc(), Game.id.desc())
        .limit(MAX_FIGURED_GAMES)
    )
    played = [played_game(game, account.name, _play(account, game)) for game in latest]
    played.reverse()  # oldest first: streaks run in the order the games were played
    found = [
        PlayerCategory(**{**item.as_json(), "category": _named(item.category)})
        for item in figures(played)
    ]
    found.sort(key=lambda item: item.category)  # stable: a category's plays stay in order
    return found


def _play(account: Account, game: Game) -> Play:
    """How ``game`` was played: a bot's by the computer; a practice game with help,
    assisted (ranked games and shared boards refuse help)."""
    if account.is_bot:
        return Play.COMPUTER
    return Play.ASSISTED if json.loads(game.assists or "[]") else Play.PERSON


def _named(category: Category) -> str:
    """A category as the ladder names it: ``expert``, ``hex beginner``, ``5x5/3 acm``..."""
    return str(category.variant) + (" no-guess" if category.no_guess else "")


def _latest_games(db: Session, account: Account, recent: int) -> list[PlayerGame]:
    games = db.scalars(
        select(Game)
        .where(
            Game.account_id == account.id,
            Game.mode.in_(("ranked", *SHARED_BOARDS)),
            Game.state != "playing",
            Game.started_ms.is_not(None),
        )
        .order_by(Game.ended_ms.desc())
        .limit(recent)
    )
    return [
        PlayerGame(
            id=game.id,
            mode=game.mode,
            category=game.category,
            day=game.day,
            state=game.state,
            ms=game.ms,
            bbbv_per_second=game.bbbv_per_second,
            ended=_iso(game.ended_ms or 0),
            replay=f"/api/games/{game.id}/replay",
        )
        for game in games
    ]


def played_game(game: Game, player: str, play: Play) -> PlayedGame:
    """A started game as the history model keeps one: a game still being played, or
    resigned, is abandoned (a game not won). The ladder keeps a game's clicks as a
    total (left here; the figures use only the total)."""
    won = game.state == "won"
    bbbv = game.bbbv or 0
    stats = GameStats(bbbv, bbbv if won else 0, Clicks(left=game.clicks or 0), game.ms or 0, won)
    when = datetime.fromtimestamp((game.ended_ms or game.started_ms or 0) / 1000, UTC)
    if game.mode == "practice":
        category = settings_from_json(game.settings).category()
    else:
        category = Category(parse_ranked(game.category))
    abandoned = game.state in ("playing", "resigned")
    return PlayedGame.make(category, player, play, stats, when, abandoned=abandoned)


def _iso(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec="seconds")
