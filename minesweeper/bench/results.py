"""What a benchmark reports: per deal and strategy, win rates with their intervals."""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Any

from minesweeper.client import GameRecord
from minesweeper.intervals import wilson_interval
from minesweeper.solver.registry import StrategySpec
from minesweeper.solver.think import Think

from .deals import Deal


@dataclass(frozen=True)
class GameFailure:
    """A game that raised instead of finishing: its run-wide number, board and message."""

    game: int
    board: str | None
    message: str


@dataclass(frozen=True)
class Result:
    """One deal played by one strategy (with its settings): the records of the games
    played, in game order.

    Games that failed (``errors``) count in neither the games nor the wins.
    ``numbers``: the run-wide number of each record's game (what pairs two players).
    """

    deal: Deal
    strategy: StrategySpec
    records: tuple[GameRecord, ...]
    errors: tuple[GameFailure, ...] = ()
    numbers: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not self.numbers:  # games 0, 1, ... unless told
            object.__setattr__(self, "numbers", tuple(range(len(self.records))))
        if len(self.numbers) != len(self.records):
            raise ValueError("one game number per record")

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def wins(self) -> int:
        return sum(record.won for record in self.records)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def median_seconds(self) -> float:
        return statistics.median(r.seconds for r in self.records) if self.records else 0.0

    @property
    def avg_safe_share(self) -> float:
        return statistics.fmean(r.safe_share for r in self.records) if self.records else 0.0

    def as_json(self) -> dict[str, Any]:
        deal = self.deal
        low, high = self.ci95
        return {
            "preset": deal.name,
            "rows": deal.rows,
            "cols": deal.cols,
            "mines": deal.mines,
            "rules": deal.rules.value,
            "strategy": self.strategy.name,
            **_budget(self.strategy.budget),
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "ci95": [low, high],
            "median_seconds": self.median_seconds,
            "topology": deal.topology,
            "avg_safe_share": self.avg_safe_share,
            "errors": [
                {"game": failure.game, "board": failure.board, "message": failure.message}
                for failure in self.errors
            ],
        }


def _budget(budget: Think | None) -> dict[str, int | None]:
    """The budget's fields (``think_ms``, ``think_layouts``); ``think_ms`` None for none."""
    fields: dict[str, int | None] = {"think_ms": None} if budget is None else {**budget.fields()}
    return fields
