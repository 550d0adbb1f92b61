"""How much of what can be known does Gauss-Jordan deduction find, on positions met in games?

Plays seeded games with ``gauss-powermean`` (``minesweeper bench --rules acm``'s boards)
and, at every position where the strategy decides, compares `gauss.deduce` with
the exact engine (`minesweeper.solver.probability`): a cell is determinable
when its exact mine probability is 0 or 1 (mine count not told, so only the
frontier can be determined). Positions the engine could only approximate are
left out and counted.

Run::

    python scripts/research/deduction_share.py --games 200 intermediate expert
"""

from __future__ import annotations

import click
from common import preset_boards

from minesweeper.client import play
from minesweeper.solver.gauss import deduce
from minesweeper.solver.powermean import GaussPowerMean
from minesweeper.solver.probability import probabilities
from minesweeper.solver.strategy import Decision
from minesweeper.solver.view import View
from minesweeper.variant import Rules


class Tally:
    """Counts over positions: determinable cells, the ones deduction found, and misses."""

    def __init__(self) -> None:
        self.positions = 0
        self.skipped = 0
        self.determinable = 0
        self.found = 0
        self.complete = 0
        self.stuck = 0  # positions where deduction found nothing yet something was determinable

    def add(self, view: View) -> None:
        exact = probabilities(view)
        if exact.approximate:
            self.skipped += 1
            return
        certain = exact.safe | exact.mines
        found = deduce(view)
        got = found.safe | found.mines
        assert got <= certain, "deduction claimed a cell the exact engine does not"
        self.positions += 1
        self.determinable += len(certain)
        self.found += len(got)
        self.complete += got == certain
        self.stuck += bool(certain) and not got


class Watching(GaussPowerMean):
    """`gauss-powermean` that hands every position it decides on to a `Tally`."""

    tally: Tally

    def decide(self, view: View) -> Decision:
        self.tally.add(view)
        return super().decide(view)


@click.command()
@click.argument("presets", nargs=-1)
@click.option("--games", default=200, show_default=True)
@click.option("--seed", default=5, show_default=True)
def main(presets: tuple[str, ...], games: int, seed: int) -> None:
    """Share of determinable cells that Gauss-Jordan deduction finds, per preset."""
    for preset in presets or ("beginner", "intermediate", "expert"):
        tally = Tally()
        for index, board, first in preset_boards(preset, Rules.ACM, games, seed):
            strategy = Watching(seed=index)
            strategy.tally = tally
            play(board, first, strategy)
        share = tally.found / tally.determinable if tally.determinable else 1.0
        click.echo(
            f"{preset:13} {games} games, {tally.positions} positions "
            f"({tally.skipped} too large for the exact engine, left out): "
            f"deduction found {tally.found}/{tally.determinable} determinable cells "
            f"= {share:.2%}; complete in {tally.complete / tally.positions:.2%} of positions; "
            f"found nothing while something was determinable in {tally.stuck} positions"
        )


if __name__ == "__main__":
    main()
