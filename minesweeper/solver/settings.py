"""`Setting`: a strategy's setting, declared where the strategy is, in the manner of
python-chess's engine ``Option``: its kind (a truth value, a whole number or a number),
its default, its range, what it does, and for a thinking budget its unit.

>>> from minesweeper.solver.strategy import Strategy
>>> class Careful(Strategy):
...     name = "careful"
...     cutoff = Setting(0.9, "share of the best safety a candidate needs", 0, 1)
...     def decide(self, view): ...
>>> Careful.settings()["cutoff"].parse("0.5"), Careful().cutoff
(0.5, 0.9)
>>> Careful.settings()["cutoff"].parse("2")
Traceback (most recent call last):
...
minesweeper.solver.settings.SettingError: setting cutoff=2.0 is out of range (0 to 1)

A player holds each value as a plain attribute of its own (`Strategy.__init__` sets the
defaults), which its code reads as before (``self.cutoff``); the class attribute is the
declaration (``Careful.cutoff``). A subclass changes a default with `Setting.but`, or
by giving the attribute a plain value.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, overload

from minesweeper.errors import UsageError

#: The kinds of value a setting may hold.
Value = bool | int | float
V = TypeVar("V", bool, int, float)

#: How a text reads as a truth value.
_TRUTH = {"1": True, "true": True, "on": True, "0": False, "false": False, "off": False}
#: What each kind of value is called in messages and listings.
KINDS = {bool: "0 or 1", int: "a whole number", float: "a number"}


class SettingError(UsageError):
    """A setting's value that does not fit it: not of its kind, or out of its range."""


@dataclass(frozen=True)
class Setting(Generic[V]):
    """A setting of a strategy: its ``default`` (whose type is the setting's kind), what
    it does (``help``), the range ``low`` to ``high`` (None: unbounded), and ``unit``: what
    a thinking budget counts (``positions``, ``layouts``, ``ms``), None for other settings.
    ``name`` is the attribute it is declared as."""

    default: V
    help: str
    low: float | None = None
    high: float | None = None
    unit: str | None = None
    name: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        self.check(self.default)

    def __set_name__(self, owner: type, name: str) -> None:
        object.__setattr__(self, "name", name)

    @overload
    def __get__(self, instance: None, owner: type | None = None) -> Setting[V]: ...

    @overload
    def __get__(self, instance: object, owner: type | None = None) -> V: ...

    def __get__(self, instance: object, owner: type | None = None) -> Setting[V] | V:
        """The declaration, read from the class; the default, read from a player that holds
        no value of its own (`Strategy.__init__` gives each player one)."""
        return self if instance is None else self.default

    @property
    def kind(self) -> type:
        """``bool``, ``int`` or ``float``."""
        return type(self.default)

    def parse(self, text: str) -> V:
        """``text`` as a value of this setting (``1``/``on``/``true`` for a truth value);
        `SettingError` when it is not one, or out of range."""
        kind = self.kind
        try:
            if kind is bool:
                value: Any = _TRUTH[text.strip().lower()]
            else:
                value = int(text) if kind is int else float(text)
        except (KeyError, ValueError):
            raise SettingError(f"setting {self.name}={text!r} is not {KINDS[kind]}") from None
        return self.check(value)

    def check(self, value: Any) -> V:
        """``value`` if it is of this setting's kind and in its range (an int for a
        number), else `SettingError`."""
        kind = self.kind
        fits = type(value) is kind or (kind is float and type(value) is int)
        if not fits:
            raise SettingError(f"setting {self.name}={value!r} is not {KINDS[kind]}")
        if (self.low is not None and value < self.low) or (
            self.high is not None and value > self.high
        ):
            raise SettingError(f"setting {self.name}={value!r} is out of range ({self.range})")
        return kind(value)  # type: ignore[no-any-return]

    @property
    def range(self) -> str:
        """The range in words: ``0 to 1``, ``at least 1``, ``any``."""
        low, high = self.low, self.high
        if low is not None and high is not None:
            return f"{_number(low)} to {_number(high)}"
        if low is not None:
            return f"at least {_number(low)}"
        if high is not None:
            return f"at most {_number(high)}"
        return "any"

    def but(self, default: V) -> Setting[V]:
        """This setting with another default (a subclass's)."""
        return dataclasses.replace(self, default=default)

    def describe(self) -> str:
        """One line for listings: ``cutoff  0.9  (a number, 0 to 1)  what it does``."""
        unit = f" {self.unit}" if self.unit else ""
        if self.kind is bool:
            return f"{self.name}={int(self.default)}  (0 or 1)  {self.help}"
        return f"{self.name}={self.default}{unit}  ({KINDS[self.kind]}, {self.range})  {self.help}"


def _number(value: float) -> str:
    return str(int(value)) if value == int(value) else str(value)
