"""The solver: reads only what a player sees (a `View`), never the board.

The strategies by name, and `StrategySpec`: `minesweeper.solver.registry`.
"""

# First: it says where the modules compiled from their source load from (its docstring).
from minesweeper.solver import compiled  # noqa: F401
from minesweeper.solver.constraints import Constraint, InconsistentView, constraints, frontier
from minesweeper.solver.strategy import Decision, Strategy
from minesweeper.solver.view import View

__all__ = [
    "Constraint",
    "Decision",
    "InconsistentView",
    "Strategy",
    "View",
    "constraints",
    "frontier",
]
