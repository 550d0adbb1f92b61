"""Test doubles shared by the tests: stand-in strategies (not real ones) and a clock."""

from __future__ import annotations

import random

import pytest

from minesweeper.solver.registry import STRATEGIES, StrategySpec
from minesweeper.solver.settings import Setting
from minesweeper.solver.strategy import Decision, Strategy
from minesweeper.solver.think import UNITS
from minesweeper.solver.view import View


class FakeClock:
    """Seconds that move by ``tick`` at each look, or only when a test sets ``now``."""

    def __init__(self, now: float = 0.0, tick: float = 0.0) -> None:
        self.now = now
        self.tick = tick

    def __call__(self) -> float:
        self.now += self.tick
        return self.now


class FirstUnknown(Strategy):
    """Guesses the first unknown cell in id order; remembers the views it saw."""

    name = "first-unknown"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.views: list[View] = []

    def decide(self, view: View) -> Decision:
        self.views.append(view)
        return Decision((view.unknown()[0],), guess=True)


class SeededGuess(Strategy):
    """Guesses a random unknown cell with its seeded RNG: results depend on the seed."""

    name = "seeded-guess"

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.rng = random.Random(seed)

    def decide(self, view: View) -> Decision:
        return Decision((self.rng.choice(view.unknown()),), guess=True)


class Pondering(Strategy):
    """A strategy that thinks: guesses the unknown cell its budget in milliseconds points
    at, so that games played with another ``think`` go differently."""

    name = "pondering"
    think = Setting(5, "milliseconds of CPU time per guess", 0, UNITS["ms"][1], unit="ms")

    def decide(self, view: View) -> Decision:
        unknown = view.unknown()
        return Decision((unknown[self.think % len(unknown)],), guess=True)


class Scripted(Strategy):
    """Replays a fixed list of decisions."""

    name = "scripted"

    def __init__(self, decisions: list[Decision]) -> None:
        super().__init__(0)
        self.decisions = iter(decisions)

    def decide(self, view: View) -> Decision:
        return next(self.decisions)


def register_doubles(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register the doubles by name (for the commands) for the length of a test."""

    for double in (FirstUnknown, SeededGuess, Pondering):
        monkeypatch.setitem(STRATEGIES, double.name, double)


def specs(*names: str) -> list[StrategySpec]:
    """The strategies ``names`` with their default settings, as the bench runner takes them."""
    return [StrategySpec(name) for name in names]
