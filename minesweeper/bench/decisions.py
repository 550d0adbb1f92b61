"""The decision log: one JSON line per guess a strategy makes, as `bench --decisions` writes.

Its fields are those of the reference solver's ``*.dh-decisions.jsonl`` logs
(``../shared/dh-2026/README.md``), plus the strategy's name:

- ``board``: the game's run-wide number; ``move``: the guess's move number
  (the first click is 1); ``guess``: the k-th guess of the game;
- ``row``, ``col``: the cell guessed; ``safety``: the exact chance that it is
  safe, by the engine, from what the player saw; ``method``: how the strategy
  chose it (``look-ahead``, ``endgame``, ...), when it says;
- ``mines_left``: the mines not yet known (None when the count is not told);
  ``hit_mine``: whether the guess lost the game;
- ``position``: the position before the guess, one string per row: ``?``
  unknown, ``0``-``8`` revealed, ``F`` a cell the strategy knows is a mine.

A log is written as games finish; on ``--resume`` it keeps the lines of the
games the per-game log holds and drops the rest (those games are played again).
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

from minesweeper.board import Board
from minesweeper.errors import PathError
from minesweeper.solver.constraints import InconsistentView
from minesweeper.solver.probability import probabilities
from minesweeper.solver.strategy import Decision
from minesweeper.solver.view import View

#: What a game's guesses are logged from: the view, the decision and its move number.
Seen = tuple[View, Decision, int]


def position_rows(view: View, mines: Iterable[int] = ()) -> list[str]:
    """``view`` as rows of ``?``, digits and ``F`` (its known mines and ``mines``)."""
    topology = view.topology
    known = view.mines | frozenset(mines)
    rows, cols = topology.shape
    lines = []
    for row in range(rows):
        line = []
        for col in range(cols):
            cell = topology.cell_at(row, col)
            if cell in view.revealed:
                line.append(str(view.revealed[cell]))
            elif cell in known:
                line.append("F")
            else:
                line.append("?")
        lines.append("".join(line))
    return lines


def guess_rows(game: int, board: Board, seen: list[Seen]) -> tuple[dict[str, Any], ...]:
    """The log lines of one game's guesses (``game``: its run-wide number)."""
    rows = []
    topology = board.topology
    for number, (view, decision, move) in enumerate(seen, 1):
        cell = decision.opens[0]
        known = view.with_mines(decision.mines)
        try:
            safety: float | None = 1 - probabilities(known).chance(cell)
        except InconsistentView:  # a strategy's proved mines that the engine refutes
            safety = None
        left = None if known.mine_count is None else known.mine_count - len(known.mines)
        place = topology.move_of(cell)
        rows.append(
            {
                "board": game,
                "move": move,
                "guess": number,
                "row": place[0],
                "col": place[1] if len(place) > 1 else None,
                "safety": None if safety is None else round(safety, 6),
                "method": decision.method,
                "mines_left": left,
                "hit_mine": board.is_mine(cell),
                "position": position_rows(known),
            }
        )
    return tuple(rows)


class DecisionLog:
    """An open decision log (its lines carry the strategy's name)."""

    def __init__(self, path: Path, handle: IO[str]) -> None:
        self.path = path
        self._handle = handle

    @classmethod
    def open(cls, path: Path, keep: set[tuple[str, int]] | None = None) -> DecisionLog:
        """A new log at ``path``, or with ``keep`` (strategy and game of the games a resumed
        run keeps) the old one's lines of those games, then appended to."""
        kept = ""
        if keep is not None and path.exists():
            try:
                lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
            except (OSError, UnicodeDecodeError) as error:
                raise PathError(f"cannot read {path}: {error}") from None
            for line in lines:
                try:
                    row = json.loads(line)
                except ValueError:
                    continue  # a line cut off when the run was killed
                if line.endswith("\n") and (row.get("strategy"), row.get("board")) in keep:
                    kept += line
        try:
            temporary = path.with_name(f".{path.name}.tmp")
            temporary.write_text(kept, encoding="utf-8")
            os.replace(temporary, path)
            return cls(path, path.open("a", encoding="utf-8"))
        except OSError as error:
            raise PathError(f"cannot write {path}: {error.strerror}") from None

    def write(self, strategy: str, rows: Iterable[dict[str, Any]]) -> None:
        text = "".join(json.dumps({"strategy": strategy, **row}) + "\n" for row in rows)
        self._handle.write(text)
        self._handle.flush()

    def close(self) -> None:
        self._handle.close()
