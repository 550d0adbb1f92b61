"""A replay as the page plays it back: what every click changed on the board.

The page holds no rules: it shows frames the project's own session computed by
playing the replay's clicks again (`Replay.play`), one click at a time.
"""

from __future__ import annotations

from typing import Any

from minesweeper.play.replay import Replay
from minesweeper.play.session import GameSession


def cell_states(session: GameSession) -> list[tuple[str, int | None]]:
    """What each cell shows in ``session``: its state's name and, when opened, its number."""
    return [
        (session.cell_state(cell).value, session.count(cell)) for cell in session.topology.cells()
    ]


def frames(replay: Replay) -> list[dict[str, Any]]:
    """One frame per click: its time, kind and cell, and the cells it changed
    (``[cell, state, number]``); the last frame shows the board as the game ended."""
    session = replay.start()
    shown = cell_states(session)
    found = []
    for action in replay.play(session, replay.actions):
        now = cell_states(session)
        changed = [
            [cell, state, count]
            for cell, (state, count) in enumerate(now)
            if (state, count) != shown[cell]
        ]
        shown = now
        found.append({"ms": action.ms, "kind": action.kind, "cell": action.cell, "cells": changed})
    return found
