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


@dataclass(frozen=True)
class StrategySpec:
    """A strategy chosen by name with its settings: what a command picks, and all a worker
    process needs to build the same player again (it pickles small).

    ``think`` is the budget per guess for a strategy that thinks, in its unit (a
    budget without a unit takes the strategy's): None leaves its default; a
    strategy that does not think takes none.
    """

    name: str
    think: Think | None = None

    def __post_init__(self) -> None:
        cls = find_strategy(self.name)  # an unknown name fails here
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
    def thinks(self) -> bool:
        """Whether the strategy spends a budget per guess."""
        return find_strategy(self.name).think is not None

    @property
    def budget(self) -> Think | None:
        """The think budget it plays with: the one given, else the strategy's default;
        None for a strategy that does not think."""
        return self.think if self.think is not None else find_strategy(self.name).think

    @property
    def label(self) -> str:
        """How tables name it: ``search (think 100 ms)``, ``rollout (think 32 layouts)``,
        or just the name."""
        budget = self.budget
        return self.name if budget is None else f"{self.name} (think {budget})"

    def build(self, seed: int = 0) -> Strategy:
        """A fresh player with these settings, seeded with ``seed``."""
        cls = find_strategy(self.name)
        if self.think is None:
            return cls(seed)
        return cls(seed, think=self.think)  # type: ignore[call-arg]


def _no_thinker(names: list[str]) -> StrategySpecError:
    """The error for a think budget given to ``names``, none of which thinks."""
    thinkers = ", ".join(thinking_strategies()) or "none"
    if len(names) == 1:
        return StrategySpecError(
            f"strategy {names[0]!r} does not think (strategies that think: {thinkers})"
        )
    chosen = ", ".join(map(repr, names))
    return StrategySpecError(f"none of {chosen} thinks (strategies that think: {thinkers})")
