"""`minesweeper analyze --optimal`: each move's perfect-play chance to win, and what the
`best` strategy's own move costs against it."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from fractions import Fraction
from time import process_time
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


#: The CPU seconds and the share of the memory left that the search leaves to the rest of
#: the command (the answer written; `Guard`'s stop past the limits is exit status 2).
SPARE_SECONDS = 0.2
MEMO_SHARE = 0.8


def optimal(view: View, seconds: float, megabytes: float | None = None) -> Optimal:
    """Perfect play of ``view`` within ``seconds`` of CPU (and ``megabytes`` of memory, of
    which its positions take a share), and `best`'s move valued by it (first after the best
    moves). Past the search's reach, the moves not valued yet have a bound
    (`PerfectPlay.complete`), or, if not even the best moves are valued, `OutOfReach` (one
    line, exit status 2)."""
    deadline = process_time() + seconds - SPARE_SECONDS
    choice = Best().decide(view).opens[0] if view.unknown() else None
    memo = Reach.memory if megabytes is None else int(MEMO_SHARE * megabytes * 1e6)
    reach = Reach(seconds=max(0.0, deadline - process_time()), memory=memo)
    first = [] if choice is None else [choice]  # (cell 0 is a cell)
    try:
        play = perfect_play(view, reach=reach, partial=True, first=first)
    except OutOfReach as error:
        raise OutOfReach(f"past perfect play's reach: {error}") from None
    if not play.moves:
        return Optimal(view, play, None)
    assert choice is not None
    return Optimal(view, play, play.of(choice))


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
        if not chosen.exact:
            less = f"at least {float(cost) * 100:.2f} points less"
            most = f"at most {_share(chosen.chance)}"
            lines.append(f"best's move {where(chosen.cell)}: {most}, {less}")
        else:
            lines.append(
                f"best's move {where(chosen.cell)}: {_share(chosen.chance)}"
                + (" (a best move)" if cost == 0 else f", {float(cost) * 100:.2f} points less")
            )
        bounded = sum(not move.exact for move in play.moves)
        if bounded:
            lines.append(
                f"not every move valued within the limits: {bounded} of {len(play.moves)} "
                "show a bound (at most)"
            )
        lines.append("each move's chance to win, playing perfectly after it:")
        width = max(len(where(move.cell)) for move in play.moves)
        lines += [
            f"  {where(move.cell):<{width}} {_share(move.chance):>7}  "
            + ("" if move.exact else "at most ")
            + str(move.chance)
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
            "exact": move.exact,  # false: the chance is an upper bound (not valued in time)
        }

    return {
        "layouts": play.layouts,
        "positions": play.positions,
        "complete": play.complete,
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
