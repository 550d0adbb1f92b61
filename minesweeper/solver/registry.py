"""Registry of strategies by name, in the manner of python-chess's ``VARIANTS``, and
`StrategySpec`: a strategy chosen by name with its settings."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from minesweeper.errors import UsageError
from minesweeper.solver.best import Best, ExactSafest
from minesweeper.solver.powermean import GaussPowerMean
from minesweeper.solver.rollout import Rollout
from minesweeper.solver.search import Search
from minesweeper.solver.strategy import Strategy
from minesweeper.solver.think import Think, ThinkError
from minesweeper.solver.worlds import Worlds

#: Every strategy class by its ``--strategy`` name (tests add their doubles to it).
STRATEGIES: dict[str, type[Strategy]] = {
    cls.name: cls for cls in (ExactSafest, Best, Search, Rollout, GaussPowerMean, Worlds)
}


def thinking_strategies() -> list[str]:
    """The names of the registered strategies that think, sorted."""
    return sorted(name for name, cls in STRATEGIES.items() if cls.think is not None)


def find_strategy(name: str) -> type[Strategy]:
    """The strategy class called ``name``."""
    try:
        return STRATEGIES[name]
    except KeyError:
        known = ", ".join(sorted(STRATEGIES))
        raise UsageError(f"unknown strategy {name!r} (known: {known})") from None


class StrategySpecError(UsageError):
    """A strategy's settings that do not fit it (a think budget it would not use)."""


#: The kinds of value a strategy's setting may hold (a class attribute of one of these).
Setting = bool | int | float


def settings_of(cls: type[Strategy]) -> dict[str, Setting]:
    """The settings ``cls`` takes by name, with their defaults: its public class attributes
    that hold a number or a truth value (the think budget has ``--think`` of its own)."""
    found = {}
    for attr in dir(cls):
        value = getattr(cls, attr)
        if not attr.startswith("_") and attr != "think" and isinstance(value, Setting):
            found[attr] = value
    return found


def parse_settings(cls: type[Strategy], text: str) -> dict[str, Setting]:
    """``regions=1,blend=0.25`` as values of ``cls``'s settings, each of its default's type;
    a `StrategySpecError` naming the setting otherwise."""
    known = settings_of(cls)
    found: dict[str, Setting] = {}
    for item in filter(None, text.split(",")):
        attr, equals, value = item.partition("=")
        if attr not in known:
            names = ", ".join(sorted(known)) or "none"
            raise StrategySpecError(f"{cls.name} has no setting {attr!r} (settings: {names})")
        if not equals:
            raise StrategySpecError(f"{cls.name}: setting {attr!r} needs a value ({attr}=...)")
        found[attr] = _setting_value(cls.name, attr, value, type(known[attr]))
    return found


def _setting_value(strategy: str, attr: str, value: str, kind: type) -> Setting:
    words = {"1": True, "true": True, "on": True, "0": False, "false": False, "off": False}
    try:
        if kind is bool:
            return words[value.lower()]
        return int(value) if kind is int else float(value)
    except (KeyError, ValueError):
        wanted = {bool: "0 or 1", int: "a whole number", float: "a number"}[kind]
        raise StrategySpecError(f"{strategy}: setting {attr}={value!r} is not {wanted}") from None


@dataclass(frozen=True)
class StrategySpec:
    """A strategy chosen by name with its settings: what a command picks, and all a worker
    process needs to build the same player again (it pickles small).

    ``name`` is a registered name, optionally with settings of its class after a colon
    (``best:regions=1,blend=0.25``, see `settings_of`): the whole text names the player in
    tables and logs, so the two of one run are told apart. ``think`` is the budget per
    guess for a strategy that thinks, in its unit (a budget without a unit takes the
    strategy's): None leaves its default; a strategy that does not think takes none.
    """

    name: str
    think: Think | None = None

    def __post_init__(self) -> None:
        cls = self.kind  # an unknown name fails here
        parse_settings(cls, self.name.partition(":")[2])  # and a setting it does not take
        if self.think is None:
            return
        if not isinstance(self.think, Think):
            raise TypeError(f"a think budget is a Think, not {self.think!r}")
        if cls.think is None:
            raise _no_thinker([self.name])
        unit = cls.think.unit or "ms"
        if not self.think.fits(unit):
            raise StrategySpecError(
                f"strategy {self.name!r} counts its budget in {unit}, not {self.think.unit}"
            )
        try:
            object.__setattr__(self, "think", self.think.of(unit))
        except ThinkError as error:  # in range for some unit, not for this one
            raise StrategySpecError(str(error)) from None

    @classmethod
    def choose(
        cls, names: Sequence[str], think: Think | Sequence[Think] | None = None
    ) -> list[StrategySpec]:
        """Specs for ``names`` (each once, in order), the budgets ``think`` given to those
        that think: to each the one in its unit, else the one without a unit.

        A budget that no strategy among ``names`` would use is a `StrategySpecError`
        rather than a setting silently ignored.
        """
        specs = [cls(name) for name in dict.fromkeys(names)]
        budgets = [think] if isinstance(think, Think) else list(think or ())
        if not budgets:
            return specs
        if not any(spec.thinks for spec in specs):
            raise _no_thinker([spec.name for spec in specs])
        chosen, used = [], set()
        for spec in specs:
            budget = spec.budget
            if budget is not None:
                unit = budget.unit or "ms"
                fitting = [b for b in budgets if b.unit == unit] or [
                    b for b in budgets if b.unit is None
                ]
                if len(fitting) > 1:
                    raise StrategySpecError(f"two budgets for {spec.name!r}: give one per unit")
                if fitting:
                    used.add(fitting[0])
                    spec = cls(spec.name, fitting[0])
            chosen.append(spec)
        unused = [str(b) for b in budgets if b not in used]
        if unused:
            units = ", ".join(f"{s.name}: {s.budget.unit}" for s in chosen if s.budget)
            raise StrategySpecError(f"{', '.join(unused)} fits no chosen strategy (units: {units})")
        return chosen

    @property
    def kind(self) -> type[Strategy]:
        """The registered class it plays."""
        return find_strategy(self.name.partition(":")[0])

    @property
    def settings(self) -> dict[str, Setting]:
        """The settings its name gives (``regions=1``: ``{"regions": True}``)."""
        return parse_settings(self.kind, self.name.partition(":")[2])

    @property
    def thinks(self) -> bool:
        """Whether the strategy spends a budget per guess."""
        return self.kind.think is not None

    @property
    def budget(self) -> Think | None:
        """The think budget it plays with: the one given, else the strategy's default;
        None for a strategy that does not think."""
        return self.think if self.think is not None else self.kind.think

    @property
    def label(self) -> str:
        """How tables name it: ``search (think 100 ms)``, ``rollout (think 32 layouts)``,
        or just the name."""
        budget = self.budget
        return self.name if budget is None else f"{self.name} (think {budget})"

    def build(self, seed: int = 0) -> Strategy:
        """A fresh player with these settings, seeded with ``seed``."""
        cls = self.kind
        player = cls(seed) if self.think is None else cls(seed, think=self.think)  # type: ignore[call-arg]
        for attr, value in self.settings.items():
            setattr(player, attr, value)
        return player


def _no_thinker(names: list[str]) -> StrategySpecError:
    """The error for a think budget given to ``names``, none of which thinks."""
    thinkers = ", ".join(thinking_strategies()) or "none"
    if len(names) == 1:
        return StrategySpecError(
            f"strategy {names[0]!r} does not think (strategies that think: {thinkers})"
        )
    chosen = ", ".join(map(repr, names))
    return StrategySpecError(f"none of {chosen} thinks (strategies that think: {thinkers})")
