"""`Think`: ``--think N[UNIT]``, the budget per guess given to the strategies that think,
in the manner of python-chess's ``engine.Limit``: one amount, in one unit, checked here.

>>> str(Think.parse("40"))
'40'
>>> str(Think.parse("40").of("positions")), str(Think.parse("64layouts"))
('40 positions', '64 layouts')

A strategy that thinks declares its budget as its setting ``think``
(`minesweeper.solver.strategy.Strategy.thinking`), counted in work in a unit of its own
(`UNITS`), so that a rerun plays the same moves on any machine: ``search`` in the
positions its look-ahead solves (``positions``), ``rollout`` in the layouts it plays on
(``layouts``). Milliseconds of CPU time (``ms``) remain a unit for a strategy that would
rather think by the clock (its moves then depend on the machine). A budget read from
``--think`` without a unit (``Think.parse("64")``) is in the unit of the strategy that
takes it (`Think.of`); one with a unit goes only to strategies that count in it
(`minesweeper.solver.registry.StrategySpec` matches them). Results and game logs record
it by its unit (`Think.fields`: ``think_ms``, ``think_layouts`` or ``think_positions``).
`minesweeper.solver.probability.Budget` is another thing: the counting engine's bounds on
memory and time.
"""

from __future__ import annotations

from dataclasses import dataclass

from minesweeper.errors import LimitError

#: Each unit a budget may be counted in: what it counts, and the most per guess.
UNITS: dict[str, tuple[str, int]] = {
    # A minute, beyond which a game of dozens of guesses would run for hours.
    "ms": ("milliseconds of CPU time per guess", 60_000),
    # Each layout is a game played on from each searched cell (tens of ms each).
    "layouts": ("layouts played on per searched guess", 10_000),
    # Each position is one engine count (a fraction of a ms at expert size).
    "positions": ("positions the look-ahead solves per guess", 60_000),
}
#: The most milliseconds per guess (the ``ms`` unit's bound).
MAX_THINK_MS = UNITS["ms"][1]
#: Digits read from a ``--think`` text: more than any budget in range needs.
_MAX_DIGITS = 12


class ThinkError(LimitError):
    """A think budget out of range, in a unit that does not fit, or text that names none."""


@dataclass(frozen=True, order=True)
class Think:
    """A budget per guess: a whole ``amount`` of ``unit`` (a key of `UNITS`), or of the
    unit of the strategy that takes it when ``unit`` is None (see `of`)."""

    amount: int
    unit: str | None = "ms"

    def __post_init__(self) -> None:
        if type(self.amount) is not int:
            raise ThinkError(f"{self.amount!r} is not a whole number")
        if self.unit is not None and self.unit not in UNITS:
            raise ThinkError(f"unknown unit {self.unit!r} (units: {', '.join(UNITS)})")
        most = max(top for _, top in UNITS.values()) if self.unit is None else self.limit
        if not 0 <= self.amount <= most:
            raise ThinkError(f"{self} is out of range (0 to {_bounds(self.unit)} per guess)")

    @classmethod
    def parse(cls, text: str) -> Think:
        """The budget ``text`` gives: a whole number, with a unit (``"250ms"``, ``"64
        layouts"``) or without (``"64"``: the taking strategy's unit); `ThinkError` otherwise."""
        text = text.strip()
        shown = text if len(text) <= _MAX_DIGITS else text[:_MAX_DIGITS] + "..."
        digits = text.rstrip("abcdefghijklmnopqrstuvwxyz").rstrip()
        unit = text[len(digits) :].strip() or None
        if not digits.isascii() or not digits.lstrip("-").isdigit():
            raise ThinkError(f"{shown!r} is not a whole number (with a unit: {', '.join(UNITS)})")
        if unit is not None and unit not in UNITS:
            raise ThinkError(f"{shown!r}: unknown unit {unit!r} (units: {', '.join(UNITS)})")
        if len(digits) > _MAX_DIGITS:  # no huge int from a long run of digits
            raise ThinkError(f"{shown} is out of range (0 to {_bounds(unit)} per guess)")
        return cls(int(digits), unit)

    @property
    def limit(self) -> int:
        """The most this unit allows per guess."""
        return UNITS[self.unit or "ms"][1]

    def fits(self, unit: str) -> bool:
        """Whether a strategy counting in ``unit`` may take this budget."""
        return self.unit is None or self.unit == unit

    def of(self, unit: str) -> Think:
        """This budget for a strategy that counts in ``unit`` (`ThinkError` if another)."""
        if self.unit == unit:
            return self
        if self.unit is not None:
            raise ThinkError(f"a budget in {self.unit} given where it is counted in {unit}")
        return Think(self.amount, unit)

    def fields(self) -> dict[str, int]:
        """How results and game logs record it: ``{"think_ms": 100}``, ``{"think_layouts": 32}``."""
        return {f"think_{self.unit or 'ms'}": self.amount}

    def __str__(self) -> str:
        return str(self.amount) if self.unit is None else f"{self.amount} {self.unit}"


def _bounds(unit: str | None) -> str:
    units = UNITS if unit is None else {unit: UNITS[unit]}
    return ", ".join(f"{top} {name}" for name, (_, top) in units.items())
