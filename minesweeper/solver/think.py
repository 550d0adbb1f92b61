"""`Think`: how long a strategy may think per guess, in the manner of python-chess's
``engine.Limit``: one value, one unit (whole milliseconds of CPU time), checked here.

>>> Think(250).seconds
0.25
>>> str(Think.parse("40"))
'40 ms'

It is what a command's ``--think`` gives, what a `StrategySpec` carries to a worker,
what a thinking strategy holds, and what results and game logs record (`ms`).
`minesweeper.solver.probability.Budget` is another thing: the counting engine's
bounds on memory and on the instant (a ``process_time``) it must answer by, which a
strategy derives from its `Think` when it starts on a guess.
"""

from __future__ import annotations

from dataclasses import dataclass
from time import process_time

from minesweeper.errors import LimitError

#: The most milliseconds per guess: a minute, beyond which a game of dozens of guesses
#: would run for hours.
MAX_THINK_MS = 60_000
#: Digits read from a ``--think`` text: more than any budget in range needs.
_MAX_DIGITS = 12


class ThinkError(LimitError):
    """A think budget out of range, or text that names none."""


@dataclass(frozen=True, order=True)
class Think:
    """CPU time per guess, in whole milliseconds from 0 to `MAX_THINK_MS`."""

    ms: int

    def __post_init__(self) -> None:
        if type(self.ms) is not int:
            raise ThinkError(f"{self.ms!r} is not a whole number of milliseconds")
        if not 0 <= self.ms <= MAX_THINK_MS:
            raise ThinkError(f"{self.ms} ms is out of range (0 to {MAX_THINK_MS} ms per guess)")

    @classmethod
    def parse(cls, text: str) -> Think:
        """The budget ``text`` gives in milliseconds (``"250"``); `ThinkError` otherwise."""
        text = text.strip()
        shown = text if len(text) <= _MAX_DIGITS else text[:_MAX_DIGITS] + "..."
        if not text.isascii() or not text.lstrip("-").isdigit():
            raise ThinkError(f"{shown!r} is not a whole number of milliseconds")
        if len(text) > _MAX_DIGITS:  # no huge int from a long run of digits
            raise ThinkError(f"{shown} ms is out of range (0 to {MAX_THINK_MS} ms per guess)")
        return cls(int(text))

    @property
    def seconds(self) -> float:
        return self.ms / 1000

    def deadline(self) -> float:
        """The ``time.process_time`` at which this budget, started now, runs out."""
        return process_time() + self.seconds

    def __str__(self) -> str:
        return f"{self.ms} ms"
