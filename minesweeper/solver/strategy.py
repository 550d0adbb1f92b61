"""The strategy interface: a view in, the next moves out (the strategies by name:
`minesweeper.solver.registry`)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import ClassVar

from minesweeper.errors import SolverError
from minesweeper.solver.think import Think
from minesweeper.solver.view import View


class StrategyError(SolverError):
    """A strategy asked for something no sound strategy asks for."""


@dataclass(frozen=True)
class Decision:
    """What a strategy wants: cells to open now, and cells it has proved to be mines.

    ``opens`` is never empty; when ``guess`` is False every cell in it is proved safe.
    ``method`` may say how a guess was chosen (for decision logs; it changes no move).
    """

    opens: tuple[int, ...]
    mines: frozenset[int] = field(default_factory=frozenset)
    guess: bool = False
    method: str | None = field(default=None, compare=False)

    @property
    def to_open(self) -> tuple[int, ...]:
        """The cells to open now: all of them when proved safe; of a guess only the first,
        since the others were not proved safe (every player of a strategy reads it so)."""
        return self.opens[:1] if self.guess else self.opens


class Strategy(ABC):
    """A way of choosing moves from a `View`. Instances may keep state across one game.

    A strategy that *thinks* spends a budget of CPU time on each guess: it sets
    `think` to its default `Think` and takes ``think=`` (a `Think`) in its
    constructor; `think` None means the strategy does not think.
    """

    name: ClassVar[str]
    #: CPU time per guess of a strategy that thinks; None for one that does not.
    think: Think | None = None

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    @abstractmethod
    def decide(self, view: View) -> Decision:
        """The next move(s) for ``view``, which has at least one unknown cell."""
