"""Write `bench`'s seeded boards to a board file, for another solver to play the same games.

    python scripts/research/deal_boards.py --preset expert --rules modern --seed 19 --games 2000 \\
        --out em19.txt

Game ``i`` of the file is game ``i`` of ``minesweeper bench --seed S``: the same mines
and first click, so a results file of another solver on it (``index WIN|LOSS``) pairs
with those runs by index, as with ``bench --boards FILE --reference``. The format is that of the
``dh-2026`` board files (each board, its first click, a blank line), which D.
Hill's solver plays through `scripts/research/hill/` (docs/research/hill.md). The file is written
atomically.

``--twin`` writes each board turned or mirrored instead (its first click with it):
the same game, the same chances, but cells that tie by symmetry change places.
A deterministic player breaks such ties the same way on both files, so the two
runs differ by tie-break luck alone. Paired, a player against its own twin shows
how far apart two equally strong runs fall on these boards; and playing both
files averages that luck out of a comparison with another player. A
``transpose`` of a square board with its first click on the diagonal is the
same deal; on other boards a twin is a deal of the turned shape.
"""

from __future__ import annotations

from pathlib import Path

import click

from minesweeper.bench import Deal, resolve_presets
from minesweeper.board import Board
from minesweeper.boards.cases import format_case
from minesweeper.outputs import write_atomically
from minesweeper.topology.square import SquareTopology
from minesweeper.variant import Rules

#: How a twin moves the cell at (row, col) of a rows x cols board: its new place, given
#: (row, col, rows, cols); a transpose or a turn swaps the board's sides.
TWINS = {
    "transpose": lambda r, c, rows, cols: (c, r),
    "flip-rows": lambda r, c, rows, cols: (rows - 1 - r, c),
    "flip-cols": lambda r, c, rows, cols: (r, cols - 1 - c),
    "turn": lambda r, c, rows, cols: (rows - 1 - r, cols - 1 - c),
}


def twin(board: Board, first: int, how: str) -> tuple[Board, int]:
    """``board`` and its first click turned or mirrored as ``TWINS[how]`` says."""
    old = board.topology
    if not isinstance(old, SquareTopology):
        raise click.UsageError("--twin needs square boards")
    rows, cols = (old.cols, old.rows) if how == "transpose" else (old.rows, old.cols)
    new = SquareTopology(rows, cols)

    def moved(cell: int) -> int:
        r, c = TWINS[how](*divmod(cell, old.cols), old.rows, old.cols)
        return r * cols + c

    return Board(new, (moved(m) for m in board.mines)), moved(first)


def dealt(preset: str, rules: str, seed: int, games: int, how: str | None = None) -> str:
    """The text of ``games`` boards of ``bench --preset P --rules R --seed S`` (each turned
    or mirrored by ``how``, a key of `TWINS`, if given)."""
    (spec,) = resolve_presets([preset])
    deal = Deal.of_preset(spec, Rules(rules), games)
    cases = (deal.game(seed, i) for i in range(games))
    if how is not None:
        cases = (twin(board, first, how) for board, first in cases)
    return "".join(format_case(board, first) + "\n" for board, first in cases)


@click.command()
@click.option("--preset", default="expert", show_default=True)
@click.option("--rules", type=click.Choice([r.value for r in Rules]), default="classic")
@click.option("--seed", default=0, show_default=True)
@click.option("--games", default=1000, show_default=True)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True)
@click.option(
    "--twin", "how", type=click.Choice(list(TWINS)), help="Each board turned or mirrored."
)
def main(preset: str, rules: str, seed: int, games: int, out: Path, how: str | None) -> None:
    """Write the seeded boards of bench's deal to OUT."""
    write_atomically(out, dealt(preset, rules, seed, games, how).encode())


if __name__ == "__main__":
    main()
