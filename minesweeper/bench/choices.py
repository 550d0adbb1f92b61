"""Judging a choice by playing on from it: which of two guesses in a position wins more.

For a position of a decision log (`minesweeper.bench.decisions`, or the
reference solver's) where the logged cell and ours differ, the difference in
the chance to win the game by opening one or the other, then playing on with
our strategy, is estimated as the ``rollout`` strategy estimates its candidates
(`minesweeper.solver.rollout.play_on_layouts`): over kinds of layouts whose
chances are exact (both cells safe, only one safe), drawn uniformly within each
kind, each layout played from both choices where both are safe (the same board,
so the difference has little noise), each later guess counted by its exact
safety. `Calibration` checks the stated errors against a second draw.
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

from minesweeper.errors import InputError, PathError
from minesweeper.intervals import Z95
from minesweeper.solver.layouts import ApproximateCount
from minesweeper.solver.registry import StrategySpec
from minesweeper.solver.rollout import Playout, play_on_layouts
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


def play_on_both(
    view: View, theirs: int, ours: int, spec: StrategySpec, layouts: int, rng: random.Random
) -> Playout:
    """Both choices played on by ``spec``'s strategy over ``layouts`` layouts of ``view``.

    The rollout strategy's play-on (`play_on_layouts`): the layouts fall into
    kinds by which of the two cells are safe, with exact chances; each layout is
    played from both choices where both are safe (the same board, so that the
    difference is measured where the choices really differ), each later guess
    counted by its exact safety. Every game gets a fresh strategy, so that one
    which keeps state across a game plays each as it would play a real one.
    """
    seed = rng.getrandbits(63)
    return play_on_layouts(view, [theirs, ours], lambda: spec.build(seed), layouts, rng)


@dataclass(frozen=True)
class Compared:
    """A logged position: the logged choice, ours, and (when they differ) both played on:
    each one's exact safety, and the estimated difference in the chance to win."""

    board: int
    guess: int
    theirs: int
    ours: int
    ours_certain: bool
    their_safety: float | None = None
    our_safety: float | None = None
    difference: float = 0.0  # P(win | their choice) - P(win | ours), estimated
    error: float = 0.0  # the standard error of `difference`
    layouts: int = 0  # layouts played on (0: not judged)

    @property
    def agree(self) -> bool:
        return self.theirs == self.ours

    @property
    def judged(self) -> bool:
        return self.layouts > 0

    @property
    def variance(self) -> float:
        return self.error**2

    def as_json(self) -> dict[str, Any]:
        row = dataclasses.asdict(self)
        if not self.judged:
            for name in ("their_safety", "our_safety", "difference", "error", "layouts"):
                del row[name]
        return row

    @classmethod
    def from_json(cls, row: dict[str, Any]) -> Compared:
        """A line of `as_json`; a line of another shape (an older version's) is a `ValueError`."""
        try:
            return cls(**row)
        except TypeError:
            raise ValueError(f"not a compared position: fields {sorted(row)}") from None


def compare(logged: Logged, spec: StrategySpec, layouts: int, seed: int) -> Compared:
    """Our strategy's move in ``logged``'s position and, where it differs, both played on."""
    decision: Decision = spec.build(seed).decide(logged.view)
    ours = decision.opens[0]
    found = Compared(logged.board, logged.guess, logged.cell, ours, not decision.guess)
    if found.agree or found.ours_certain or layouts <= 0:
        return found
    rng = random.Random(f"{seed}:{logged.board}:{logged.guess}")
    try:
        playout = play_on_both(logged.view, logged.cell, ours, spec, layouts, rng)
    except ApproximateCount:
        return found  # no exact layouts to draw from: not judged
    theirs = logged.cell
    return dataclasses.replace(
        found,
        their_safety=playout.safety(theirs),
        our_safety=playout.safety(ours),
        difference=playout.win(theirs) - playout.win(ours),
        error=playout.error(theirs, ours),
        layouts=playout.played,
    )


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
            sum(c.difference - Z95 * c.error > 0 for c in judged),
            sum(c.difference + Z95 * c.error < 0 for c in judged),
            sum((c.their_safety or 0) > (c.our_safety or 0) + 1e-9 for c in judged),
            sum((c.our_safety or 0) > (c.their_safety or 0) + 1e-9 for c in judged),
        )


@dataclass(frozen=True)
class Calibration:
    """Two draws of layouts for the same positions (two seeds): whether their stated
    errors match how far they differ. With right errors, `ratio` is about 1 and
    about 5% of the positions lie `beyond` 1.96 errors; `z` is the difference of
    the two draws' mean differences over its stated error."""

    positions: int
    ratio: float  # mean squared difference of the draws over the mean of their variances
    beyond: float  # share of positions whose draws differ by more than 1.96 errors
    first: float  # the first draw's mean difference (theirs - ours)
    second: float
    z: float

    @classmethod
    def of(cls, first: list[Compared], second: list[Compared]) -> Calibration:
        def key(c: Compared) -> tuple[int, int, int, int]:
            return c.board, c.guess, c.theirs, c.ours  # the same position and choices

        one = {key(c): c for c in first if c.judged}
        pairs = [(one[key(c)], c) for c in second if c.judged and key(c) in one]
        n = len(pairs)
        if not n:
            return cls(0, 0.0, 0.0, 0.0, 0.0, 0.0)
        squares = sum((a.difference - b.difference) ** 2 for a, b in pairs)
        stated = sum(a.variance + b.variance for a, b in pairs)
        beyond = sum(
            abs(a.difference - b.difference) > Z95 * math.sqrt(a.variance + b.variance)
            for a, b in pairs
        )
        mean_a = sum(a.difference for a, _ in pairs) / n
        mean_b = sum(b.difference for _, b in pairs) / n
        error = math.sqrt(stated) / n
        return cls(
            n,
            squares / stated if stated else 0.0,
            beyond / n,
            mean_a,
            mean_b,
            (mean_a - mean_b) / error if error else 0.0,
        )
