"""Win rate against the board's 3BV, from the per-game lines of `minesweeper bench`.

Reads ``bench --per-game FILE`` (one JSON object per game, with ``bbbv``) and
prints, per preset, rules and strategy, the win rate in each 3BV band with its
95% Wilson interval. Bands are the quantiles of the 3BV over all games of the
preset, so every strategy is judged on the same bands.

Run::

    minesweeper bench --preset expert --games 1000 --strategy best \\
        --strategy gauss-powermean --jobs 1 --per-game games.jsonl
    python scripts/research/winrate_by_bbbv.py games.jsonl --bands 4
"""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from pathlib import Path

import click

from minesweeper.bench import wilson_interval


def bands_of(values: list[int], count: int) -> list[float]:
    """The upper edges of ``count`` quantile bands of ``values`` (the last one open)."""
    if count < 2 or len(set(values)) < 2:
        return []
    return sorted(set(statistics.quantiles(values, n=count, method="inclusive")))


def band(value: int, edges: list[float]) -> int:
    return next((index for index, edge in enumerate(edges) if value <= edge), len(edges))


def label(index: int, edges: list[float], low: int, high: int) -> str:
    start = low if index == 0 else int(edges[index - 1]) + 1
    end = high if index == len(edges) else int(edges[index])
    return f"{start}-{end}"


@click.command()
@click.argument("per_game", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--bands", type=click.IntRange(min=1, max=20), default=4, show_default=True)
def main(per_game: Path, bands: int) -> None:
    """Win rate per 3BV band for every preset, rules and strategy in PER_GAME."""
    games = [json.loads(line) for line in per_game.read_text().splitlines() if line.strip()]
    games = [game for game in games if game.get("bbbv") is not None]
    by_preset: dict[str, list[dict]] = defaultdict(list)
    for game in games:
        by_preset[game["preset"]].append(game)
    for preset, rows in sorted(by_preset.items()):
        values = [row["bbbv"] for row in rows]
        edges = bands_of(values, bands)
        low, high = min(values), max(values)
        click.echo(
            f"{preset}: {len(rows)} games, 3BV {low}-{high} (median {statistics.median(values):g})"
        )
        groups: dict[tuple[str, str, int], list[bool]] = defaultdict(list)
        for row in rows:
            groups[(row["rules"], row["strategy"], band(row["bbbv"], edges))].append(row["won"])
        for (rules, strategy, index), wins in sorted(groups.items()):
            rate = sum(wins) / len(wins)
            lo, hi = wilson_interval(sum(wins), len(wins))
            click.echo(
                f"  {rules:<8} {strategy:<16} 3BV {label(index, edges, low, high):>9}: "
                f"{len(wins):>5} games, win rate {rate:6.1%} ({lo:.1%} - {hi:.1%})"
            )


if __name__ == "__main__":
    main()
