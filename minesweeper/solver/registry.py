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
from minesweeper.solver.settings import SettingError, Value
from minesweeper.solver.strategy import Strategy
from minesweeper.solver.think import Think, ThinkError
from minesweeper.solver.worlds import Worlds

#: Every strategy class by its ``--strategy`` name (tests add their doubles to it).
STRATEGIES: dict[str, type[Strategy]] = {
    cls.name: cls for cls in (ExactSafest, Best, Search, Rollout, GaussPowerMean, Worlds)
}


def thinking_strategies() -> list[str]:
    """The names of the registered strategies that think, sorted."""
    return sorted(name for name, cls in STRATEGIES.items() if cls.thinking() is not None)


def find_strategy(name: str) -> type[Strategy]:
    """The strategy class called ``name``."""
    try:
        return STRATEGIES[name]
    except KeyError:
        known = ", ".join(sorted(STRATEGIES))
        raise UsageError(f"unknown strategy {name!r} (known: {known})") from None


class StrategySpecError(UsageError):
    """A strategy's settings that do not fit it (a think budget it would not use)."""


def parse_settings(cls: type[Strategy], text: str) -> dict[str, Value]:
    """``regions=1,blend=0.25`` as values of ``cls``'s settings (`Strategy.settings`), each
    checked by its declaration; a `StrategySpecError` naming the setting otherwise."""
    known = cls.settings()
    found: dict[str, Value] = {}
    for item in filter(None, text.split(",")):
        attr, equals, value = item.partition("=")
        if attr not in known:
            names = ", ".join(sorted(known)) or "none"
            raise StrategySpecError(f"{cls.name} has no setting {attr!r} (settings: {names})")
        if not equals:
            raise StrategySpecError(f"{cls.name}: setting {attr!r} needs a value ({attr}=...)")
        try:
            found[attr] = known[attr].parse(value)
        except SettingError as error:
            raise StrategySpecError(f"{cls.name}: {error}") from None
    return found


@dataclass(frozen=True)
class StrategySpec:
    """A strategy chosen by name with its settings: what a command picks, and all a worker
    process needs to build the same player again (it pickles small).

    ``name`` is a registered name, optionally with settings of its class after a colon
    (``best:regions=1,blend=0.25``, see `Strategy.settings`): the whole text names the
    player in tables and logs, so the two of one run are told apart. ``think`` is the
    budget per guess ``--think`` gives a strategy that thinks (`Strategy.thinking`), in
    its unit (a budget without a unit takes the strategy's): None leaves its setting as
    the name says, else its default; a strategy that does not think takes none.
    """

    name: str
    think: Think | None = None

    def __post_init__(self) -> None:
        cls = self.kind  # an unknown name fails here
        named = parse_settings(cls, self.name.partition(":")[2])  # and a setting it lacks
        if self.think is None:
            return
        if not isinstance(self.think, Think):
            raise TypeError(f"a think budget is a Think, not {self.think!r}")
        setting = cls.thinking()
        if setting is None:
            raise _no_thinker([self.name])
        if "think" in named:
            raise StrategySpecError(f"two budgets for {self.name!r}: its think= and --think")
        unit = setting.unit or "ms"
        if not self.think.fits(unit):
            raise StrategySpecError(
                f"strategy {self.name!r} counts its budget in {unit}, not {self.think.unit}"
            )
        try:
            object.__setattr__(self, "think", self.think.of(unit))
            setting.check(self.think.amount)
        except (ThinkError, SettingError) as error:  # in range for some unit, not for this one
            raise StrategySpecError(str(error)) from None

    @classmethod
    def choose(
        cls, names: Sequence[str], think: Think | Sequence[Think] | None = None
    ) -> list[StrategySpec]:
        """Specs for ``names`` (each once, in order), the budgets ``think`` given to those
        that think (and whose name sets no budget): to each the one in its unit, else the
        one without a unit.

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
            if budget is not None and "think" not in spec.settings:
                fitting = [b for b in budgets if b.unit == budget.unit] or [
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
    def settings(self) -> dict[str, Value]:
        """The settings its name gives (``regions=1``: ``{"regions": True}``)."""
        return parse_settings(self.kind, self.name.partition(":")[2])

    @property
    def thinks(self) -> bool:
        """Whether the strategy spends a budget per guess."""
        return self.kind.thinking() is not None

    @property
    def budget(self) -> Think | None:
        """The think budget it plays with, in its unit: the one given, else the one its name
        sets, else the strategy's default; None for a strategy that does not think."""
        setting = self.kind.thinking()
        if setting is None:
            return None
        if self.think is not None:
            return self.think
        amount = self.settings.get("think", setting.default)
        return Think(int(amount), setting.unit or "ms")

    @property
    def label(self) -> str:
        """How tables name it: ``search (think 100 positions)``, ``rollout (think 32
        layouts)``, or just the name (which says the budget when it sets one)."""
        budget = self.budget
        if budget is None or "think" in self.settings:
            return self.name
        return f"{self.name} (think {budget})"

    def build(self, seed: int = 0) -> Strategy:
        """A fresh player with these settings, seeded with ``seed``."""
        values = self.settings
        if self.think is not None:
            values["think"] = self.think.amount
        return self.kind(seed, **values)


def _no_thinker(names: list[str]) -> StrategySpecError:
    """The error for a think budget given to ``names``, none of which thinks."""
    thinkers = ", ".join(thinking_strategies()) or "none"
    if len(names) == 1:
        return StrategySpecError(
            f"strategy {names[0]!r} does not think (strategies that think: {thinkers})"
        )
    chosen = ", ".join(map(repr, names))
    return StrategySpecError(f"none of {chosen} thinks (strategies that think: {thinkers})")
