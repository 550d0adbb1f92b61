"""The strategy interface: a view in, the next moves out (the strategies by name:
`minesweeper.solver.registry`)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

from minesweeper.errors import SolverError
from minesweeper.solver.settings import Setting, SettingError, Value
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

    Its settings are declared as class attributes, each a `Setting` (`settings`); a
    player holds their values, given to its constructor by name or the defaults. A
    strategy that *thinks* spends a budget of work on each guess: its setting ``think``,
    whose unit says what it counts (`thinking`).
    """

    name: ClassVar[str]
    #: The settings declared by the class and its bases, by name (`settings`).
    _settings: ClassVar[dict[str, Setting[Any]]] = {}

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        declared: dict[str, Setting[Any]] = {}
        for klass in reversed(cls.__mro__):
            for name, value in vars(klass).items():
                if isinstance(value, Setting):
                    declared[name] = value
                elif name in declared:  # a plain value for a base's setting: its new default
                    declared[name] = declared[name].but(value)
        cls._settings = declared

    def __init__(self, seed: int = 0, **settings: Value) -> None:
        """A player seeded with ``seed``, with the values ``settings`` gives its settings
        (checked: `SettingError`) and the defaults for the others."""
        self.seed = seed
        declared = self._settings
        for name in settings.keys() - declared.keys():
            raise SettingError(f"{self.name} has no setting {name!r}")
        for name, setting in declared.items():
            value = setting.check(settings[name]) if name in settings else setting.default
            setattr(self, name, value)  # its own: read as a plain attribute

    @classmethod
    def settings(cls) -> dict[str, Setting[Any]]:
        """Its settings by name, its bases' among them (a subclass's declaration wins)."""
        return dict(cls._settings)

    @classmethod
    def thinking(cls) -> Setting[int] | None:
        """Its thinking budget per guess (the setting ``think``), None if it does not think."""
        return cls._settings.get("think")

    @abstractmethod
    def decide(self, view: View) -> Decision:
        """The next move(s) for ``view``, which has at least one unknown cell."""
