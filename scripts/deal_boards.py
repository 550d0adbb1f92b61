"""Write `bench`'s seeded boards to a board file, for another solver to play the same games.

    python scripts/deal_boards.py --preset expert --rules modern --seed 19 --games 2000 \\
        --out em19.txt

Game ``i`` of the file is game ``i`` of ``minesweeper bench --seed S`` (and of
`scripts/search_variants.py --seed S`): the same mines and first click, so a
results file of another solver on it (``index WIN|LOSS``) pairs with those runs
by index, as with ``bench --boards FILE --reference``. The format is that of the
``dh-2026`` board files (each board, its first click, a blank line), which D.
Hill's solver plays through `scripts/hill/` (docs/hill.md). The file is written
atomically.
"""

from __future__ import annotations

from pathlib import Path

import click

from minesweeper.bench import Deal, resolve_presets
from minesweeper.boards.cases import format_case
from minesweeper.outputs import write_atomically
from minesweeper.variant import Rules


def dealt(preset: str, rules: str, seed: int, games: int) -> str:
    """The text of ``games`` boards of ``bench --preset P --rules R --seed S``."""
    (spec,) = resolve_presets([preset])
    deal = Deal.of_preset(spec, Rules(rules), games)
    return "".join(format_case(*deal.game(seed, i)) + "\n" for i in range(games))


@click.command()
@click.option("--preset", default="expert", show_default=True)
@click.option("--rules", type=click.Choice([r.value for r in Rules]), default="classic")
@click.option("--seed", default=0, show_default=True)
@click.option("--games", default=1000, show_default=True)
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True)
def main(preset: str, rules: str, seed: int, games: int, out: Path) -> None:
    """Write the seeded boards of bench's deal to OUT."""
    write_atomically(out, dealt(preset, rules, seed, games).encode())


if __name__ == "__main__":
    main()
