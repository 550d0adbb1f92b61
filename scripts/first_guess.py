"""The first guess alone: `best` with its first guess forced, paired on `bench`'s boards.

Usage: ``python scripts/first_guess.py --rules classic --games 3000 [--offset K]
--out FILE ROW,COL...``

On the games whose first opened cell shows a number (nothing is certain yet),
each ROW,COL is played as the first guess in turn, then `best` plays on. Game
``i`` is ``minesweeper bench --seed S`` game ``i``; each game appends one JSON
line per cell in `search_variants.py`'s format (variant ``first=ROW,COL``), so
``python scripts/search_variants.py --report FILE`` pairs them.
"""

from __future__ import annotations

import json

import click

from minesweeper.bench import Deal, resolve_presets, strategy_seed
from minesweeper.client import play
from minesweeper.solver.best import Best, Outlook
from minesweeper.solver.probability import Probabilities
from minesweeper.solver.view import View
from minesweeper.variant import Rules


class FirstGuess(Best):
    """`Best`, except that its first guess (one cell open) is ``cell``."""

    def __init__(self, seed: int, cell: int) -> None:
        super().__init__(seed)
        self.cell = cell

    def outlooks(self, view: View, result: Probabilities) -> list[Outlook]:
        if len(view.revealed) == 1 and self.cell in result:
            return [Outlook(self.cell, 1 - result.chance(self.cell), 0.0, 1.0)]
        return super().outlooks(view, result)


def parse_cells(ctx, param, values: tuple[str, ...]) -> list[tuple[str, int, int]]:
    """Each ROW,COL as its name and two integers."""
    found = []
    for value in values:
        try:
            row, col = (int(part) for part in value.split(","))
        except ValueError:
            raise click.BadParameter(f"{value!r} is not ROW,COL") from None
        found.append((value, row, col))
    return found


@click.command()
@click.argument("cells", nargs=-1, required=True, callback=parse_cells)
@click.option("--preset", default="expert", show_default=True)
@click.option("--rules", type=click.Choice([r.value for r in Rules]), default="classic")
@click.option("--games", default=1000, show_default=True)
@click.option("--offset", default=0, show_default=True, help="First game index.")
@click.option("--seed", default=0, show_default=True)
@click.option("--out", type=click.Path(dir_okay=False), required=True)
def main(cells, preset, rules, games, offset, seed, out) -> None:
    """Play each of CELLS (ROW,COL) as the first guess on the same seeded boards."""
    (spec,) = resolve_presets([preset])
    deal = Deal.of_preset(spec, Rules(rules), offset + games)
    with open(out, "a") as sink:
        for index in range(offset, offset + games):
            board, first = deal.game(seed, index)
            if board.count(first) == 0:
                continue  # an opening: the first guess comes later, elsewhere
            for name, row, col in cells:
                strategy = FirstGuess(
                    strategy_seed(seed, deal.name, index), board.topology.cell_at(row, col)
                )
                record = play(board, first, strategy, deal.rules.tells_mine_count)
                row_out = {"variant": f"first={name}", "index": index, "won": record.won}
                row_out["seconds"] = round(record.seconds, 4)
                sink.write(json.dumps(row_out) + "\n")
                sink.flush()


if __name__ == "__main__":
    main()
