"""A replay as the page plays it back: what every click changed on the board.

The page holds no rules: it shows frames the project's own session computed by
playing the replay's clicks again (`Replay.steps`), one click at a time. Anyone may
send a replay, so its size is checked before it is read: boards the page draws, and
at most the clicks a ladder game of that board may have. Each frame costs what its
click changed, not the whole board (only the end shows the whole board again).
"""

from __future__ import annotations

from typing import Any, TypeGuard

from minesweeper.jsontext import NotJSONError, load_json
from minesweeper.ladder.games import moves_allowed
from minesweeper.play.replay import Replay, ReplayError
from minesweeper.play.session import GameSession
from minesweeper.web.boards import MAX_DRAWN_CELLS

CellShown = tuple[str, int | None]


def shown(session: GameSession, cell: int) -> CellShown:
    """What ``cell`` shows in ``session``: its state's name and, when opened, its number."""
    return session.cell_state(cell).value, session.count(cell)


def frames(replay: Replay) -> list[dict[str, Any]]:
    """One frame per click: its time, kind and cell, and the cells it changed
    (``[cell, state, number]``); the last frame shows the board as the game ended."""
    session = replay.start()
    cells = range(session.topology.size)
    board = [shown(session, cell) for cell in cells]
    found = []
    for action, changed in replay.steps(session, replay.actions):
        touched = cells if session.over else sorted({action.cell, *changed})
        now = []
        for cell in touched:
            state = shown(session, cell)
            if state != board[cell]:
                board[cell] = state
                now.append([cell, *state])
        found.append({"ms": action.ms, "kind": action.kind, "cell": action.cell, "cells": now})
    return found


def read_drawable(data: bytes) -> Replay:
    """The replay in ``data``, if the page can play it back; `ReplayError` if not, raised
    before a board or click is read when the replay says it is too large."""
    try:
        document = load_json(data)
    except NotJSONError as error:
        raise ReplayError(f"{error.reason}: not a replay") from None
    if isinstance(document, dict):
        rows, cols = document.get("rows"), document.get("cols")
        if _whole(rows) and _whole(cols):
            clicks = document.get("actions")
            check_drawable(rows * cols, len(clicks) if isinstance(clicks, list) else 0)
    return Replay.from_document(document)


def check_drawable(cells: int, clicks: int) -> None:
    """`ReplayError` unless the page may play back a game of ``cells`` cells and ``clicks``
    clicks: a board it draws, and at most the clicks a ladder game of that board may have."""
    if cells > MAX_DRAWN_CELLS:
        raise ReplayError(f"the page plays boards of at most {MAX_DRAWN_CELLS:,} cells")
    if clicks > moves_allowed(cells):
        raise ReplayError(
            f"{clicks:,} clicks: a game of {cells:,} cells has at most {moves_allowed(cells):,}"
        )


def playback(data: bytes) -> dict[str, Any]:
    """The replay in ``data`` as the page plays it: geometry, who and when, result, frames."""
    return replay_playback(read_drawable(data))


def replay_playback(replay: Replay) -> dict[str, Any]:
    """``replay`` as the page plays it: geometry, who and when, result, frames."""
    return {
        "geometry": replay.board.topology.geometry().as_json(),
        "player": replay.player,
        "date": replay.date,
        "result": replay.as_json()["result"],
        "stats": replay.stats().as_json(),
        "frames": frames(replay),
    }


def _whole(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0
