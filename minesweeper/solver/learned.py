"""Strategy ``learned``: `best` with a learned value for each outcome of a guess.

`best` values an outcome of a guess at 1 when it leaves a certain safe cell,
else at the safety of the next guess. ``learned`` replaces that by an
estimate of the chance to win the game from the position the outcome leaves,
a logistic model over a few numbers the engine gives for it (`features`),
fitted on `best`'s own games (``scripts/learned_value.py``). A guess's score
is its safety times the expected value of its outcomes.
"""

from __future__ import annotations

import math

from minesweeper.solver.best import Best, makes_progress
from minesweeper.solver.probability import Probabilities
from minesweeper.solver.strategy import register
from minesweeper.solver.view import View

#: The names of `features`, in order.
FEATURES = (
    "bias",
    "progress",
    "log next safety",
    "log certain safe",
    "log certain mines",
    "unknown share",
    "density",
    "zero",
    "information",
    "progress x unknown share",
)


def features(view: View, cell: int, shown: int, result: Probabilities) -> tuple[float, ...]:
    """The numbers the value model reads for ``cell`` showing ``shown`` in ``view``.

    ``result`` is the engine's answer for the position then.
    """
    chances = result.floats()
    unknown = len(chances)
    uncertain = [p for p in chances.values() if 0.0 < p < 1.0]
    next_safety = 1.0 - min(uncertain) if uncertain else 1.0
    expected = sum(chances.values())
    known = sum(1 for o in view.topology.neighbours(cell) if o in view.mines)
    moved = float(makes_progress(result))
    share = unknown / view.topology.size
    return (
        1.0,
        moved,
        math.log(max(next_safety, 1e-6)),
        math.log1p(len(result.safe)),
        math.log1p(len(result.mines)),
        share,
        expected / unknown if unknown else 0.0,
        float(shown == known),
        math.log1p(result.layouts) / view.topology.size if result.layouts else 0.0,
        moved * share,
    )


def value(weights: tuple[float, ...], x: tuple[float, ...]) -> float:
    """The model's chance to win: the logistic function of ``weights . x``."""
    z = sum(w * f for w, f in zip(weights, x, strict=True))
    return 1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0


@register
class Learned(Best):
    """`best` with each outcome valued by a model of the chance to win from it."""

    name = "learned"

    #: The model's weights, one per `FEATURES` entry (fitted by scripts/learned_value.py).
    weights: tuple[float, ...] = (
        2.39821,
        -0.080716,
        1.96001,
        0.343983,
        0.0525063,
        -0.225854,
        -6.28482,
        0.0517961,
        -2.19437,
        0.107645,
    )

    def worth(self, view: View, cell: int, shown: int, result: Probabilities, risk: float) -> float:
        # A walled-off region costs its risk whatever else happens, as in `best`.
        return risk * value(self.weights, features(view, cell, shown, result))
