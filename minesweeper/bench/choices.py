"""Judging a choice by playing on from it: which of two guesses in a position wins more.

For a position of a decision log (`minesweeper.bench.decisions`, or the
reference solver's), the chance to win the game by opening cell ``c`` and then
playing on with a strategy is ``P(c safe) * P(win | c safe)``. The first factor
is exact (the engine); the second is estimated by playing on over layouts
drawn uniformly from those that fit the position with ``c`` safe
(`LayoutSampler`: exact weights, no rejection). Its interval is the binomial
one of those games, scaled by the exact safety.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from minesweeper.board import Board
from minesweeper.client import play_on
from minesweeper.errors import InputError, MinesweeperError
from minesweeper.intervals import Z95
from minesweeper.solver.layouts import LayoutSampler
from minesweeper.solver.probability import probabilities
from minesweeper.solver.strategy import Decision, StrategySpec
from minesweeper.solver.view import View
from minesweeper.topology import SquareTopology


@dataclass(frozen=True)
class Logged:
    """One line of a decision log: the position, the cell guessed there, and the rest."""

    board: int
    guess: int
    view: View
    cell: int
    row: dict[str, Any]


def view_of(position: list[str], mines_left: int | None) -> View:
    """The view of a logged position (``?``, digits, ``F``) on a square board."""
    topology = SquareTopology(len(position), len(position[0]))
    revealed, mines = {}, set()
    for r, line in enumerate(position):
        for c, char in enumerate(line):
            cell = topology.cell_at(r, c)
            if char.isdigit():
                revealed[cell] = int(char)
            elif char == "F":
                mines.add(cell)
            elif char != "?":
                raise ValueError(f"unexpected {char!r} in a position")
    count = None if mines_left is None else mines_left + len(mines)
    return View(topology, revealed, frozenset(mines), count)


def read_log(path: Path) -> Iterator[Logged]:
    """The positions of a decision log, in order; a bad line is an `InputError`."""
    try:
        handle = path.open(encoding="utf-8")
    except OSError as error:
        raise MinesweeperError(f"cannot read {path}: {error.strerror}") from None
    with handle:
        for line_no, line in enumerate(handle, 1):
            try:
                row = json.loads(line)
                view = view_of(row["position"], row["mines_left"])
                cell = view.topology.cell_at(row["row"], row["col"])
                yield Logged(int(row["board"]), int(row["guess"]), view, cell, row)
            except (ValueError, KeyError, TypeError, IndexError) as error:
                raise InputError(line_no, f"not a decision log line ({error})", str(path)) from None


@dataclass(frozen=True)
class Outlook:
    """Opening ``cell``, then playing on: its exact safety and the games won on from it."""

    cell: int
    safety: float
    won: int
    played: int

    @property
    def value(self) -> float:
        """The estimated chance to win the game by this choice."""
        return self.safety * self.won / self.played if self.played else 0.0

    @property
    def variance(self) -> float:
        """The variance of `value` (the win rate on from it taken as (won + 1) / (played + 2))."""
        if not self.played:
            return 0.0
        rate = (self.won + 1) / (self.played + 2)
        return self.safety**2 * rate * (1 - rate) / self.played


def play_on_from(
    view: View, cell: int, spec: StrategySpec, layouts: int, rng: random.Random
) -> Outlook:
    """`Outlook` of opening ``cell`` in ``view``, over ``layouts`` sampled games."""
    safety = 1 - probabilities(view).chance(cell)
    if safety == 0:
        return Outlook(cell, 0.0, 0, 0)
    sampler = LayoutSampler(view, safe=[cell])
    won = 0
    tell = view.mine_count is not None
    for _ in range(layouts):
        board = Board(view.topology, sampler.sample(rng))
        strategy = spec.build(rng.getrandbits(63))
        won += play_on(board, view, cell, strategy, tell).won
    return Outlook(cell, safety, won, layouts)


@dataclass(frozen=True)
class Compared:
    """A logged position: the logged choice, ours, and (when they differ) both played on."""

    board: int
    guess: int
    theirs: int
    ours: int
    ours_certain: bool
    their_outlook: Outlook | None = None
    our_outlook: Outlook | None = None

    @property
    def agree(self) -> bool:
        return self.theirs == self.ours

    def as_json(self) -> dict[str, Any]:
        row: dict[str, Any] = {
            "board": self.board,
            "guess": self.guess,
            "theirs": self.theirs,
            "ours": self.ours,
            "ours_certain": self.ours_certain,
        }
        for name, outlook in (("their", self.their_outlook), ("our", self.our_outlook)):
            if outlook is not None:
                row[f"{name}_safety"] = outlook.safety
                row[f"{name}_won"] = outlook.won
                row[f"{name}_played"] = outlook.played
        return row


def compare(logged: Logged, spec: StrategySpec, layouts: int, seed: int) -> Compared:
    """Our strategy's move in ``logged``'s position and, where it differs, both played on."""
    decision: Decision = spec.build(seed).decide(logged.view)
    ours = decision.opens[0]
    found = Compared(logged.board, logged.guess, logged.cell, ours, not decision.guess)
    if found.agree or found.ours_certain or layouts <= 0:
        return found
    rng = random.Random(f"{seed}:{logged.board}:{logged.guess}")
    theirs = play_on_from(logged.view, logged.cell, spec, layouts, rng)
    mine = play_on_from(logged.view, ours, spec, layouts, rng)
    return Compared(logged.board, logged.guess, logged.cell, ours, False, theirs, mine)


@dataclass(frozen=True)
class Summary:
    """How often we agree, and over the disagreements played on, who wins more."""

    positions: int
    agreed: int
    certain: int
    judged: int
    difference: float  # mean of (their value - our value) over the judged positions
    low: float
    high: float
    theirs_better: int  # positions where their choice's interval lies above ours
    ours_better: int

    @classmethod
    def of(cls, compared: list[Compared]) -> Summary:
        judged = [c for c in compared if c.their_outlook is not None and c.our_outlook is not None]
        diffs, spread, theirs_better, ours_better = [], 0.0, 0, 0
        for one in judged:
            assert one.their_outlook is not None and one.our_outlook is not None
            diff = one.their_outlook.value - one.our_outlook.value
            var = one.their_outlook.variance + one.our_outlook.variance
            diffs.append(diff)
            spread += var
            if diff - Z95 * math.sqrt(var) > 0:
                theirs_better += 1
            elif diff + Z95 * math.sqrt(var) < 0:
                ours_better += 1
        mean = sum(diffs) / len(diffs) if diffs else 0.0
        half = Z95 * math.sqrt(spread) / len(diffs) if diffs else 0.0
        return cls(
            len(compared),
            sum(c.agree for c in compared),
            sum(c.ours_certain for c in compared),
            len(judged),
            mean,
            mean - half,
            mean + half,
            theirs_better,
            ours_better,
        )
