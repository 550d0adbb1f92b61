"""Judging a choice by playing on from it: which of two guesses in a position wins more.

For a position of a decision log (`minesweeper.bench.decisions`, or the
reference solver's) where the logged cell and ours differ, the difference in
the chance to win the game by opening one or the other, then playing on with
our strategy, is estimated over three kinds of layouts whose chances are exact
(the engine): both cells safe, only theirs safe, only ours safe. Within each
kind, layouts are drawn uniformly (`minesweeper.solver.rollout.strata`: exact
weights, no rejection; the ``rollout`` strategy plays on the same way); where
both are safe, each layout is played from both choices, so that the two games
share their board and the difference has little noise.
"""

from __future__ import annotations

import dataclasses
import json
import math
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from minesweeper.board import Board
from minesweeper.client import play_on
from minesweeper.errors import InputError, PathError
from minesweeper.intervals import Z95
from minesweeper.solver.registry import StrategySpec
from minesweeper.solver.rollout import strata
from minesweeper.solver.strategy import Decision
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
        raise PathError(f"cannot read {path}: {error.strerror}") from None
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
class Stratum:
    """Games played on from two choices over layouts of one kind (``weight``: its exact
    chance), each layout played from both choices where both cells are safe in it."""

    weight: float
    played: int = 0
    won_theirs: int = 0
    won_ours: int = 0
    only_theirs: int = 0
    only_ours: int = 0

    @property
    def difference(self) -> float:
        """This stratum's share of P(win | theirs) - P(win | ours)."""
        return self.weight * (self.won_theirs - self.won_ours) / self.played if self.played else 0.0

    @property
    def variance(self) -> float:
        """The variance of `difference` (the per-layout differences' sample variance)."""
        if self.played < 2:
            return 0.0
        n = self.played
        mean = (self.only_theirs - self.only_ours) / n
        spread = (self.only_theirs + self.only_ours) / n - mean * mean
        return self.weight**2 * max(spread, 1 / (n + 2)) / n


def play_on_both(
    view: View, theirs: int, ours: int, spec: StrategySpec, layouts: int, rng: random.Random
) -> tuple[float, float, tuple[Stratum, ...]]:
    """Both choices' exact safety, and the strata of games played on from them.

    The layouts fall into three kinds (`strata`), whose chances are exact: both
    cells safe (each layout played from both choices: the same board, so the
    difference is measured where the choices really differ), only theirs safe,
    only ours safe (a choice that hits its mine loses). ``layouts`` are shared
    among the kinds by their chance, at least 4 for each kind that can happen.
    """
    kinds = strata(view, [theirs, ours])
    safe_t = sum(kind.chance for kind in kinds if theirs in kind.safe)
    safe_o = sum(kind.chance for kind in kinds if ours in kind.safe)
    tell = view.mine_count is not None
    found = []
    for kind in kinds:
        if kind.chance <= 1e-12:
            continue
        plays = (theirs in kind.safe, ours in kind.safe)
        count = max(4, round(layouts * kind.chance))
        won = [0, 0]
        only = [0, 0]
        for _ in range(count):
            board = Board(view.topology, kind.sampler.sample(rng))
            seed = rng.getrandbits(63)
            result = [
                play and play_on(board, view, cell, spec.build(seed), tell).won
                for play, cell in zip(plays, (theirs, ours), strict=True)
            ]
            won = [w + r for w, r in zip(won, result, strict=True)]
            only[0] += result[0] and not result[1]
            only[1] += result[1] and not result[0]
        found.append(Stratum(kind.chance, count, won[0], won[1], only[0], only[1]))
    return safe_t, safe_o, tuple(found)


@dataclass(frozen=True)
class Compared:
    """A logged position: the logged choice, ours, and (when they differ) both played on."""

    board: int
    guess: int
    theirs: int
    ours: int
    ours_certain: bool
    their_safety: float | None = None
    our_safety: float | None = None
    strata: tuple[Stratum, ...] = ()

    @property
    def agree(self) -> bool:
        return self.theirs == self.ours

    @property
    def judged(self) -> bool:
        return bool(self.strata)

    @property
    def difference(self) -> float:
        """Estimated P(win | their choice) - P(win | ours)."""
        return sum(stratum.difference for stratum in self.strata)

    @property
    def variance(self) -> float:
        return sum(stratum.variance for stratum in self.strata)

    def as_json(self) -> dict[str, Any]:
        row: dict[str, Any] = {
            "board": self.board,
            "guess": self.guess,
            "theirs": self.theirs,
            "ours": self.ours,
            "ours_certain": self.ours_certain,
        }
        if self.strata:
            row["their_safety"] = self.their_safety
            row["our_safety"] = self.our_safety
            row["strata"] = [dataclasses.asdict(stratum) for stratum in self.strata]
        return row

    @classmethod
    def from_json(cls, row: dict[str, Any]) -> Compared:
        strata = tuple(Stratum(**stratum) for stratum in row.get("strata", ()))
        return cls(
            row["board"],
            row["guess"],
            row["theirs"],
            row["ours"],
            row["ours_certain"],
            row.get("their_safety"),
            row.get("our_safety"),
            strata,
        )


def compare(logged: Logged, spec: StrategySpec, layouts: int, seed: int) -> Compared:
    """Our strategy's move in ``logged``'s position and, where it differs, both played on."""
    decision: Decision = spec.build(seed).decide(logged.view)
    ours = decision.opens[0]
    found = Compared(logged.board, logged.guess, logged.cell, ours, not decision.guess)
    if found.agree or found.ours_certain or layouts <= 0:
        return found
    rng = random.Random(f"{seed}:{logged.board}:{logged.guess}")
    safe_t, safe_o, strata = play_on_both(logged.view, logged.cell, ours, spec, layouts, rng)
    return Compared(logged.board, logged.guess, logged.cell, ours, False, safe_t, safe_o, strata)


@dataclass(frozen=True)
class Summary:
    """How often we agree, and over the disagreements played on, who wins more."""

    positions: int
    agreed: int
    certain: int
    judged: int
    difference: float  # mean of P(win | theirs) - P(win | ours) over the judged positions
    low: float
    high: float
    theirs_better: int  # positions where the interval of the difference lies above 0
    ours_better: int
    safer_theirs: int  # judged positions where their cell is the safer one
    safer_ours: int

    @classmethod
    def of(cls, compared: list[Compared]) -> Summary:
        judged = [c for c in compared if c.judged]
        n = len(judged)
        mean = sum(c.difference for c in judged) / n if n else 0.0
        half = Z95 * math.sqrt(sum(c.variance for c in judged)) / n if n else 0.0
        return cls(
            len(compared),
            sum(c.agree for c in compared),
            sum(c.ours_certain for c in compared),
            n,
            mean,
            mean - half,
            mean + half,
            sum(c.difference - Z95 * math.sqrt(c.variance) > 0 for c in judged),
            sum(c.difference + Z95 * math.sqrt(c.variance) < 0 for c in judged),
            sum((c.their_safety or 0) > (c.our_safety or 0) + 1e-9 for c in judged),
            sum((c.our_safety or 0) > (c.their_safety or 0) + 1e-9 for c in judged),
        )
