"""The solver: reads only what a player sees (a `View`), never the board."""

from minesweeper.solver.constraints import Constraint, InconsistentView, constraints, frontier
from minesweeper.solver.strategy import (
    STRATEGIES,
    Decision,
    Strategy,
    StrategySpec,
    find_strategy,
    register,
)
from minesweeper.solver.view import View

__all__ = [
    "STRATEGIES",
    "Constraint",
    "Decision",
    "InconsistentView",
    "Strategy",
    "StrategySpec",
    "View",
    "constraints",
    "find_strategy",
    "frontier",
    "register",
]
