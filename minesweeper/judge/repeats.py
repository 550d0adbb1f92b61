"""Advanced games played several times (``--repeat N``): wins per run, per board.

A client that draws random numbers wins a different number of games on each
run; a fair grade is the mean over N runs, with their range. `grade_case`
returns an advanced file's grades run after run (every board of run 1, then of
run 2...); these functions group them back.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from minesweeper.judge.grading import AdvancedGrade


def won(grade: AdvancedGrade) -> bool:
    """Whether the game counts as won: a game the client could not finish is not."""
    return grade.won and not grade.error


def by_board(grades: Sequence[AdvancedGrade], repeat: int) -> list[list[AdvancedGrade]]:
    """One advanced file's grades (run after run) as each board's ``repeat`` games."""
    boards = len(grades) // repeat
    return [[grades[run * boards + board] for run in range(repeat)] for board in range(boards)]


@dataclass(frozen=True)
class Wins:
    """Games won in each of the runs, of ``games`` games a run."""

    runs: tuple[int, ...]
    games: int

    @property
    def mean(self) -> float:
        return statistics.fmean(self.runs) if self.runs else 0.0

    @property
    def low(self) -> int:
        return min(self.runs, default=0)

    @property
    def high(self) -> int:
        return max(self.runs, default=0)

    def shown(self) -> str:
        """``22/25``, or over several runs ``22.4/25 (21-24, 5 runs)``."""
        if len(self.runs) <= 1:
            return f"{self.low}/{self.games}"
        return f"{self.mean:.1f}/{self.games} ({self.low}-{self.high}, {len(self.runs)} runs)"


def run_wins(cases: Sequence[Sequence[AdvancedGrade]], repeat: int) -> Wins:
    """The games won in each run, over the advanced files whose grades are ``cases``."""
    runs = [0] * repeat
    games = 0
    for grades in cases:
        boards = len(grades) // repeat
        games += boards
        for run in range(repeat):
            runs[run] += sum(won(grade) for grade in grades[run * boards : (run + 1) * boards])
    return Wins(tuple(runs), games)
