"""A game as the database keeps it: its board dealt again from its seed, the day's board,
its replay, and what in its stored result its moves do not bear out (`verify`)."""

from __future__ import annotations

import json
import random

from minesweeper.board import Board
from minesweeper.boards.generate import BoardMaker, lay_mines, random_board, start_cell
from minesweeper.ladder.categories import parse_ranked, settings_from_json
from minesweeper.ladder.live import ManualClock, play_moves
from minesweeper.ladder.schema import Game, Move
from minesweeper.ladder.views import iso_ms
from minesweeper.play.autoplay import new_session
from minesweeper.play.records import Entry
from minesweeper.play.replay import Replay, check_entry
from minesweeper.play.session import Action, GameSession, Settings


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
