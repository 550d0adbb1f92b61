"""Paired comparisons: two players on the same games, judged by the games only one won.

Two strategies that play the same boards win or lose most of them together;
the difference in win rate lies in the discordant games. `Paired` counts them
and gives the difference with its 95% interval (Agresti and Min's adjusted
Wald interval for paired proportions) and McNemar's exact test (a two-sided
binomial test of the discordant games against a fair coin).

A *reference* is another player's results on the same boards, one line per
game (``index WIN|LOSS ...``, as in the ``*.dh-results.txt`` files), paired
with a strategy by the run-wide game number.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

from minesweeper.errors import InputError, PathError
from minesweeper.intervals import mcnemar_exact, paired_interval

from .results import Result

#: Lines in a reference file, at most: a run of a million games is already far beyond need.
MAX_REFERENCE_LINES = 1_000_000


@dataclass(frozen=True)
class Paired:
    """Players ``a`` and ``b`` on the same ``games`` of ``deal``: the ones only one of them won."""

    deal: str
    a: str
    b: str
    games: int
    only_a: int
    only_b: int

    @property
    def difference(self) -> float:
        """``a``'s win rate minus ``b``'s."""
        return (self.only_a - self.only_b) / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95% interval of `difference` (`paired_interval`)."""
        return paired_interval(self.only_a, self.only_b, self.games)

    @property
    def p(self) -> float:
        """McNemar's exact p (`mcnemar_exact`)."""
        return mcnemar_exact(self.only_a, self.only_b)

    def as_json(self) -> dict[str, Any]:
        low, high = self.ci95
        return {
            "preset": self.deal,
            "a": self.a,
            "b": self.b,
            "games": self.games,
            "only_a": self.only_a,
            "only_b": self.only_b,
            "difference": self.difference,
            "ci95": [low, high],
            "p": self.p,
        }


def pair(deal: str, a: str, won_a: Mapping[int, bool], b: str, won_b: Mapping[int, bool]) -> Paired:
    """``a`` against ``b`` on ``deal``, over the games both played (by game number)."""
    common = won_a.keys() & won_b.keys()
    only_a = sum(1 for game in common if won_a[game] and not won_b[game])
    only_b = sum(1 for game in common if won_b[game] and not won_a[game])
    return Paired(deal, a, b, len(common), only_a, only_b)


@dataclass(frozen=True)
class Reference:
    """Another player's results by game number, read from ``path``."""

    path: Path
    won: Mapping[int, bool]

    @property
    def label(self) -> str:
        return "reference"

    @classmethod
    def read(cls, path: Path) -> Reference:
        """The results in ``path``: ``index WIN|LOSS`` per line, then anything on it;
        blank lines and a ``SUMMARY`` line are skipped. Anything else is an `InputError`."""
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise InputError(None, "not UTF-8 text", str(path)) from None
        except OSError as error:
            raise PathError(f"cannot read {path}: {error.strerror}") from None
        won: dict[int, bool] = {}
        for line_no, line in enumerate(text.splitlines(), 1):
            if line_no > MAX_REFERENCE_LINES:
                raise InputError(line_no, f"more than {MAX_REFERENCE_LINES} lines", str(path))
            fields = line.split()
            if not fields or fields[0] == "SUMMARY":
                continue
            if len(fields) < 2 or not fields[0].isdigit() or fields[1] not in ("WIN", "LOSS"):
                raise InputError(
                    line_no, f"expected 'INDEX WIN|LOSS', got {line[:40]!r}", str(path)
                )
            game = int(fields[0])
            if game in won:
                raise InputError(line_no, f"game {game} appears twice", str(path))
            won[game] = fields[1] == "WIN"
        if not won:
            raise InputError(None, "no game results ('INDEX WIN|LOSS' lines)", str(path))
        return cls(path, won)


def won_by_game(result: Result) -> dict[int, bool]:
    """Whether each game of ``result`` was won, by its run-wide number (failed games left out)."""
    return {
        number: record.won for number, record in zip(result.numbers, result.records, strict=True)
    }


def pairings(results: Sequence[Result], reference: Reference | None = None) -> list[Paired]:
    """Every two strategies of each deal, in order, then each strategy against ``reference``.

    Deals of one name (given boards grouped by size) pair as one: their games are numbered
    run-wide, and a strategy is never paired with itself."""
    by_deal: dict[str, dict[str, dict[int, bool]]] = {}
    for result in results:
        label = result.strategy.label
        by_deal.setdefault(result.deal.name, {}).setdefault(label, {}).update(won_by_game(result))
    found = []
    for deal, group in by_deal.items():
        wins = list(group.items())
        found += [pair(deal, *first, *second) for first, second in combinations(wins, 2)]
        if reference is not None:
            found += [pair(deal, *one, reference.label, reference.won) for one in wins]
    return found
