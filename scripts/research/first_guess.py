"""The first guess alone: `best` with its first guess forced, paired on `bench`'s boards.

Usage: ``python scripts/research/first_guess.py --rules classic --games 3000 [--offset K]
--out FILE ROW,COL...``, then ``... --report FILE...``.

On the games whose first opened cell shows a number (nothing is certain yet),
each ROW,COL is played as the first guess in turn, then `best` plays on. Game
``i`` is ``minesweeper bench --seed S`` game ``i``; each game appends one JSON
line per cell (variant ``first=ROW,COL``, `common.write_row`). ``--report`` pairs
every cell with the first one given: the games only one of the two won, McNemar's p.
"""

from __future__ import annotations

from pathlib import Path

import click
from common import game_rows, paired_report, preset_boards, write_row

from minesweeper.bench import strategy_seed
from minesweeper.client import play
from minesweeper.solver.best import Best
from minesweeper.solver.probability import Probabilities
from minesweeper.solver.view import View
from minesweeper.variant import Rules


class FirstGuess(Best):
    """`Best`, except that its first guess (one cell open) is ``cell``."""

    def __init__(self, seed: int, cell: int) -> None:
        super().__init__(seed)
        self.cell = cell

    def look_ahead(self, view: View, result: Probabilities) -> int:
        if len(view.revealed) == 1 and self.cell in result:
            return self.cell
        return super().look_ahead(view, result)


def parse_cells(ctx, param, values: tuple[str, ...]) -> list[tuple[str, int, int]]:
    """Each ROW,COL as its name and two integers (files, with --report)."""
    if ctx.params.get("report"):
        return [(value, 0, 0) for value in values]
    found = []
    for value in values:
        try:
            row, col = (int(part) for part in value.split(","))
        except ValueError:
            raise click.BadParameter(f"{value!r} is not ROW,COL") from None
        found.append((value, row, col))
    return found


@click.command()
@click.option("--report", is_flag=True, is_eager=True, help="Pair the cells of FILEs instead.")
@click.argument("cells", nargs=-1, required=True, callback=parse_cells)
@click.option("--preset", default="expert", show_default=True)
@click.option("--rules", type=click.Choice([r.value for r in Rules]), default="classic")
@click.option("--games", default=1000, show_default=True)
@click.option("--offset", default=0, show_default=True, help="First game index.")
@click.option("--seed", default=0, show_default=True)
@click.option("--out", type=click.Path(dir_okay=False))
def main(report, cells, preset, rules, games, offset, seed, out) -> None:
    """Play each of CELLS (ROW,COL) as the first guess on the same seeded boards."""
    if report:
        click.echo(paired_report(game_rows(Path(name) for name, _, _ in cells)))
        return
    if not out:
        raise click.UsageError("--out is required to play")
    with open(out, "a") as sink:
        for index, board, first in preset_boards(preset, Rules(rules), games, seed, offset):
            if board.count(first) == 0:
                continue  # an opening: the first guess comes later, elsewhere
            for name, row, col in cells:
                player_seed = strategy_seed(seed, preset, index)
                strategy = FirstGuess(player_seed, board.topology.cell_at(row, col))
                record = play(board, first, strategy, Rules(rules).tells_mine_count)
                write_row(sink, f"first={name}", index, record.won, record.seconds)


if __name__ == "__main__":
    main()
