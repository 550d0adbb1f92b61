"""The strategy interface and registry: a view in, the next moves out."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import ClassVar

from minesweeper.errors import MinesweeperError
from minesweeper.solver.view import View


@dataclass(frozen=True)
class Decision:
    """What a strategy wants: cells to open now, and cells it has proved to be mines.

    ``opens`` is never empty; when ``guess`` is False every cell in it is proved safe.
    """

    opens: tuple[int, ...]
    mines: frozenset[int] = field(default_factory=frozenset)
    guess: bool = False


class Strategy(ABC):
    """A way of choosing moves from a `View`. Instances may keep state across one game."""

    name: ClassVar[str]

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    @abstractmethod
    def decide(self, view: View) -> Decision:
        """The next move(s) for ``view``, which has at least one unknown cell."""


#: Every strategy class by its ``--strategy`` name; modules register themselves.
STRATEGIES: dict[str, type[Strategy]] = {}


def register(cls: type[Strategy]) -> type[Strategy]:
    """Class decorator adding a strategy to `STRATEGIES`."""
    STRATEGIES[cls.name] = cls
    return cls


def find_strategy(name: str) -> type[Strategy]:
    """The strategy class called ``name``."""
    import minesweeper.solver.strategies  # noqa: F401  (fills the registry)

    try:
        return STRATEGIES[name]
    except KeyError:
        known = ", ".join(sorted(STRATEGIES))
        raise MinesweeperError(f"unknown strategy {name!r} (known: {known})") from None
