"""`minesweeper analyze --optimal`: each move's perfect-play chance to win, and what the
`best` strategy's own move costs against it."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from minesweeper.solver.best import Best
from minesweeper.solver.perfect import MoveValue, OutOfReach, PerfectPlay, Reach, perfect_play
from minesweeper.solver.view import View


@dataclass(frozen=True)
class Optimal:
    """A position's perfect play and `best`'s move in it (None: no cell left to open)."""

    view: View
    play: PerfectPlay
    chosen: MoveValue | None


def optimal(view: View, seconds: float) -> Optimal:
    """Perfect play of ``view`` within ``seconds`` of CPU, and `best`'s move valued by it;
    `OutOfReach` (one line, exit status 2) past the search's reach."""
    try:
        play = perfect_play(view, reach=Reach(seconds=seconds))
    except OutOfReach as error:
        raise OutOfReach(f"past perfect play's reach: {error}") from None
    if not play.moves:
        return Optimal(view, play, None)
    return Optimal(view, play, play.of(Best().decide(view).opens[0]))


def _share(chance: Fraction) -> str:
    return f"{float(chance) * 100:.2f}%"


def as_text(found: Optimal, columns: int = 80) -> str:
    """The chance to win, the best moves, `best`'s cost, then every move best first."""
    view, play = found.view, found.play
    position = view.topology.position
    count = "unknown (uniform prior on the density)" if view.mine_count is None else view.mine_count

    def where(cell: int) -> str:
        return "({},{})".format(*position(cell))

    lines = [
        f"mines: {count}; layouts that fit: {play.layouts:,}; positions valued: {play.positions:,}",
        f"perfect play wins {_share(play.chance)} ({play.chance}); best move(s): "
        + " ".join(map(where, play.best)),
    ]
    chosen = found.chosen
    if chosen is None:
        lines.append("every unknown cell is a mine: nothing to open")
    else:
        cost = play.chance - chosen.chance
        lines.append(
            f"best's move {where(chosen.cell)}: {_share(chosen.chance)}"
            + (" (a best move)" if cost == 0 else f", {float(cost) * 100:.2f} points less")
        )
        lines.append("each move's chance to win, playing perfectly after it:")
        width = max(len(where(move.cell)) for move in play.moves)
        lines += [
            f"  {where(move.cell):<{width}} {_share(move.chance):>7}  {move.chance}"
            for move in play.moves
        ]
    wrapped = [part for line in lines for part in textwrap.wrap(line, columns) or [""]]
    return "\n".join(wrapped) + "\n"


def as_json(found: Optimal) -> dict[str, Any]:
    """The same as JSON: chances as exact fractions (text) and as numbers."""
    position, play, chosen = found.view.topology.position, found.play, found.chosen

    def valued(move: MoveValue) -> dict[str, Any]:
        return {
            "cell": list(position(move.cell)),
            "chance": str(move.chance),
            "value": float(move.chance),
        }

    return {
        "layouts": play.layouts,
        "positions": play.positions,
        "chance": str(play.chance),
        "value": float(play.chance),
        "best": [list(position(cell)) for cell in play.best],
        "strategy": None
        if chosen is None
        else {
            "name": "best",
            **valued(chosen),
            "cost": float(play.chance - chosen.chance),
        },
        "moves": [valued(move) for move in play.moves],
    }
