"""`verify`: replay every stored ranked, daily and weekly game and check it ends as recorded.

Each finished game is played again from its stored moves on its stored board
(`minesweeper.play.replay.check_entry` compares result, time, points, 3BV and
clicks), and its board is checked against the deal: a ranked board against what
its seed lays around the first open, a daily or weekly board against its period's deal.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass

from sqlalchemy import select
from sqlalchemy.orm import Session

from minesweeper.ladder.categories import SHARED_BOARDS, settings_from_json
from minesweeper.ladder.games import Games
from minesweeper.ladder.schema import Account, Game, Move
from minesweeper.ladder.stored import daily_board, replay_problems


@dataclass(frozen=True)
class Finding:
    """A stored game and what in it its replay does not bear out ([] when all of it does)."""

    game: str
    player: str
    category: str
    problems: list[str]


def verify(db: Session, games: Games) -> Iterator[Finding]:
    """Check every finished ranked, daily and weekly game, oldest first."""
    query = (
        select(Game, Account.name)
        .join(Account, Account.id == Game.account_id)
        .where(Game.mode.in_(("ranked", *SHARED_BOARDS)), Game.state != "playing")
        .order_by(Game.created_ms, Game.id)
    )
    for game, name in db.execute(query).all():
        moves = list(db.scalars(select(Move).where(Move.game_id == game.id).order_by(Move.number)))
        try:
            problems = replay_problems(game, moves, name)
        except Exception as error:  # a damaged row must be reported, not stop the check
            problems = [f"cannot be replayed: {error}"]
        if game.mode in SHARED_BOARDS and game.day is not None and game.board is not None:
            settings = settings_from_json(game.settings)
            deal = daily_board(
                settings, game.category, games.daily_seed(db, game.day, game.category)
            )
            if sorted(deal.mines) != json.loads(game.board):
                problems.append(f"the board is not the {game.day} board")
        if len(moves) != game.moves:
            problems.append(f"{len(moves)} moves stored, the game says {game.moves}")
        yield Finding(game.id, name, game.category, problems)
