"""The per-game log: one JSON line per game and strategy, written as games finish.

A log is also what ``--resume`` reads back: its games are not played again,
and a last line without its newline (the writer was killed mid-line) is
dropped, never an error.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from filelock import FileLock, Timeout

from minesweeper.client import GameRecord
from minesweeper.errors import InputError, PathError
from minesweeper.jsontext import NotJSONError, load_json
from minesweeper.limits import quote
from minesweeper.solver.registry import StrategySpec

from .deals import Deal
from .games import GameOutcome

#: Identifies one game of a run: deal name, strategy, run-wide game number.
GameKey = tuple[str, str, int]

#: The fields of a `GameRecord` every logged game has, and their JSON types.
_RECORD_FIELDS: dict[str, type | tuple[type, ...]] = {
    "won": bool,
    "finished": bool,
    "visit_count": int,
    "steps": int,
    "safe_cells": int,
    "guesses": int,
    "seconds": (int, float),
}


def game_row(
    seed: int, deal: Deal, strategy: StrategySpec, index: int, outcome: GameOutcome
) -> dict:
    """The log line of game ``index`` of ``deal``: what it was, then how it ended.

    A strategy that thinks adds its budget in its unit (``think_positions``, ``think_layouts``):
    another budget is another run.
    """
    row: dict[str, Any] = {
        "seed": seed,
        "preset": deal.name,
        "rules": deal.rules.value,
        "topology": deal.topology,
        "strategy": strategy.name,
        "game": deal.number(index),
        "size": deal.game_size(index),
    }
    if strategy.budget is not None:
        row.update(strategy.budget.fields())
    board = deal.board_name(index)
    if board is not None:
        row["board"] = board
    record = outcome.record
    if record is None:
        row["error"] = outcome.error
    else:
        # Every field of the record: statistics added to `GameRecord` (3BV) come along.
        row.update(dataclasses.asdict(record))
    return row


class GameLog:
    """An open per-game log: appends lines and flushes them, a batch at a time.

    A log is locked (``FILE.lock``) while open, so that two runs never append
    the same games to one file.
    """

    def __init__(self, path: Path, handle: IO[str], seed: int, lock: FileLock) -> None:
        self.path = path
        self.seed = seed
        self._handle = handle
        self._lock = lock

    @classmethod
    def create(cls, path: Path, seed: int) -> GameLog:
        """A new, empty log at ``path`` (an existing file is replaced)."""
        lock = _lock(path)
        return cls(path, _open(path, "w", lock), seed, lock)

    @classmethod
    def resume(
        cls, path: Path, seed: int, deals: Iterable[Deal], strategies: Sequence[StrategySpec]
    ) -> tuple[GameLog, dict[GameKey, GameOutcome]]:
        """The log at ``path`` opened for appending, and the games it already holds.

        A missing file is an empty log. A line that is not a game of this run
        (another seed, rules, topology, deal, strategy or think budget) is an
        `InputError`.
        """
        expected = {
            (deal.name, strategy.name, deal.number(index)): (deal, strategy, index)
            for deal in deals
            for strategy in strategies
            for index in range(deal.games)
        }
        done: dict[GameKey, GameOutcome] = {}
        lock = _lock(path)
        try:
            if path.exists():
                for line_no, row in _read_rows(path):
                    key = _check_row(row, seed, expected, line_no, path)
                    if key in done:
                        raise InputError(
                            line_no, f"{path}: game {key[2]} of {key[1]} appears twice"
                        )
                    done[key] = _outcome(row, line_no, path)
        except BaseException:
            lock.release()
            raise
        return cls(path, _open(path, "a", lock), seed, lock), done

    def write(
        self, deal: Deal, strategy: StrategySpec, outcomes: Mapping[int, GameOutcome]
    ) -> None:
        """Append one line per game (by index in ``deal``) and flush them."""
        text = "".join(
            json.dumps(game_row(self.seed, deal, strategy, index, outcome)) + "\n"
            for index, outcome in outcomes.items()
        )
        self._handle.write(text)
        self._handle.flush()

    def close(self) -> None:
        self._handle.close()
        self._lock.release()


def _lock(path: Path) -> FileLock:
    lock = FileLock(f"{path}.lock", timeout=0)
    try:
        lock.acquire()
    except Timeout:
        raise PathError(f"{path} is in use by another bench run ({lock.lock_file})") from None
    except OSError as error:
        raise PathError(f"cannot lock {path}: {error.strerror}") from None
    return lock


def _open(path: Path, mode: str, lock: FileLock) -> IO[str]:
    try:
        return path.open(mode, encoding="utf-8")
    except OSError as error:
        lock.release()
        raise PathError(f"cannot write {path}: {error.strerror}") from None


def _read_rows(path: Path) -> list[tuple[int, dict]]:
    """The complete lines of the log, parsed; a partial last line is cut off the file."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise PathError(f"cannot read {path}: {error.strerror}") from None
    end = data.rfind(b"\n") + 1
    if end < len(data):
        # Killed mid-write: that game is played again, and appending starts on a fresh line.
        os.truncate(path, end)
    rows = []
    for line_no, line in enumerate(data[:end].splitlines(), 1):
        try:
            row = load_json(line)
        except NotJSONError as error:  # bad UTF-8, JSON or Unicode, huge numbers, deep nesting
            raise InputError(
                line_no, f"{path}: {error.message}: not a line of a per-game log"
            ) from None
        if not isinstance(row, dict):
            raise InputError(line_no, f"{path}: not a JSON object")
        rows.append((line_no, row))
    return rows


def _check_row(
    row: dict,
    seed: int,
    expected: Mapping[GameKey, tuple[Deal, StrategySpec, int]],
    line_no: int,
    path: Path,
) -> GameKey:
    """The key of a logged game, checked to be one of this run's games."""
    if row.get("seed") != seed:
        raise InputError(line_no, f"{path}: seed {quote(row.get('seed'))} is not this run's {seed}")
    key = (row.get("preset"), row.get("strategy"), row.get("game"))
    hashable = all(isinstance(part, (str, int, float, type(None))) for part in key)
    game = expected.get(key) if hashable else None  # type: ignore[arg-type]
    if game is None:
        raise InputError(
            line_no,
            f"{path}: game {quote(key[2])} of {quote(key[0])} by {quote(key[1])} "
            "is not part of this run "
            "(--preset, --boards, --group-by, --games, --strategy)",
        )
    deal, strategy, index = game
    if (row.get("rules"), row.get("topology")) != (deal.rules.value, deal.topology):
        raise InputError(line_no, f"{path}: rules or topology differ from this run's")
    if row.get("size") != deal.game_size(index):
        raise InputError(
            line_no,
            f"{path}: board {quote(row.get('size'))} is not this run's {deal.game_size(index)} "
            "(--rows, --cols, --mines)",
        )
    budget = {} if strategy.budget is None else strategy.budget.fields()
    logged = {k: v for k, v in row.items() if k.startswith("think_") and v is not None}
    if logged != budget:
        raise InputError(
            line_no,
            f"{path}: {_budget(logged)} of {strategy.name} is not this run's "
            f"{_budget(budget)} (--think)",
        )
    return key  # type: ignore[return-value]


def _budget(fields: dict[str, Any]) -> str:
    """A logged budget (``{"think_ms": 100}``) as text: ``think 100 ms``."""
    if not fields:
        return "no think budget"
    return ", ".join(f"think {quote(value)} {name[6:]}" for name, value in fields.items())


def _outcome(row: dict, line_no: int, path: Path) -> GameOutcome:
    if "error" in row:
        return GameOutcome(None, str(row["error"]))
    for name, kind in _RECORD_FIELDS.items():
        value = row.get(name)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise InputError(line_no, f"{path}: {quote(name)} is missing or not a {_kind(kind)}")
    # Fields with defaults (statistics such as 3BV) are optional: older logs lack them.
    extras = {
        field.name: row[field.name]
        for field in dataclasses.fields(GameRecord)
        if field.name not in _RECORD_FIELDS and field.name in row
    }
    return GameOutcome(GameRecord(**{name: row[name] for name in _RECORD_FIELDS}, **extras))


def _kind(kind: type | tuple[type, ...]) -> str:
    return "number" if isinstance(kind, tuple) else kind.__name__
