"""`minesweeper bench`: strategies side by side on the same seeded boards."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from minesweeper.advanced import DEFAULT_STRATEGY
from minesweeper.bench import (
    BENCH_PRESETS,
    DEFAULT_PRESETS,
    PRESET_GROUPS,
    Deal,
    Result,
    Rules,
    resolve_presets,
    run_bench,
)
from minesweeper.cases import load_cases
from minesweeper.cli.common import (
    fail,
    reports_errors,
    seed_option,
    strategy_option,
    topology_option,
)
from minesweeper.cli.gameopts import resized, size_options
from minesweeper.client import GameRecord
from minesweeper.errors import MinesweeperError
from minesweeper.solver.strategy import find_strategy


def _cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


@click.command()
@click.option(
    "--preset",
    "presets",
    multiple=True,
    type=click.Choice([*BENCH_PRESETS, *PRESET_GROUPS]),
    help="Board preset (repeatable; `acm` = acm-10, acm-15, acm-20). "
    f"Default: {', '.join(DEFAULT_PRESETS)}.",
)
@click.option(
    "--rules",
    type=click.Choice([rules.value for rules in Rules]),
    default=Rules.ACM.value,
    show_default=True,
    help="modern: opening at the preset start, count told; classic: (0, 0) safe, count told; "
    "acm: zero at the preset start, count not told.",
)
@click.option(
    "--first",
    type=(int, int),
    default=None,
    metavar="R C",
    help="First click instead of the rules' start cell.",
)
@click.option(
    "--boards",
    type=click.Path(exists=True, path_type=Path),
    help="Play these boards instead of generated ones: an advanced .in file "
    "(one or several cases) or a directory of them.",
)
@click.option(
    "--games",
    type=click.IntRange(min=1),
    default=None,
    help="Games per preset [default: 1000; with --boards, all of them].",
)
@strategy_option(
    DEFAULT_STRATEGY, multiple=True, help="Strategy (repeatable; all play the same boards)."
)
@seed_option(fresh=False)
@click.option(
    "--jobs",
    type=click.IntRange(min=1),
    default=_cores(),
    show_default="all cores",
    help="Worker processes.",
)
@click.option(
    "--json",
    "json_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write the results to this JSON file.",
)
@click.option(
    "--per-game",
    "per_game_path",
    type=click.Path(dir_okay=False, path_type=Path),
    help="Also write one JSON line per game and strategy (won, visits, steps, seconds).",
)
@size_options
@topology_option
@reports_errors
def bench(
    presets: tuple[str, ...],
    rules: str,
    first: tuple[int, int] | None,
    boards: Path | None,
    games: int | None,
    strategies: tuple[str, ...],
    seed: int,
    jobs: int,
    json_path: Path | None,
    per_game_path: Path | None,
    rows: int | None,
    cols: int | None,
    mines: int | None,
    topology: str,
) -> None:
    """Play seeded random boards with several strategies side by side.

    Prints, per preset and strategy, the win rate with its 95% Wilson interval,
    the average share of safe cells revealed and the median CPU seconds per
    game. The same --seed gives every strategy the same boards in every run,
    whatever --jobs.
    """
    chosen = Rules(rules)
    names = strategies or (DEFAULT_STRATEGY,)
    for name in names:
        find_strategy(name)
    if boards is not None:
        if presets or first is not None or (rows, cols, mines) != (None, None, None):
            raise MinesweeperError(
                "--boards brings its own boards: drop --preset, --rows/--cols/--mines and --first"
            )
        cases = load_cases(boards, topology)
        if games is not None:
            cases = cases[:games]
        deals = Deal.given(boards.name, cases, chosen)
    else:
        deals = [
            Deal.generated(
                resized(preset, rows, cols, mines, topology), chosen, games or 1000, topology, first
            )
            for preset in resolve_presets(presets or DEFAULT_PRESETS)
        ]
    try:
        results = run_with_progress(deals, names, seed, jobs)
    except KeyboardInterrupt:
        fail("interrupted: no results", 130)
    wide_console().print(results_table(results, seed))
    if json_path is not None:
        text = json.dumps({"seed": seed, "results": [r.as_json() for r in results]}, indent=2)
        write_text(json_path, text + "\n")
    if per_game_path is not None:
        rows = [json.dumps(row) for result in results for row in result.game_rows()]
        write_text(per_game_path, "".join(row + "\n" for row in rows))


def run_with_progress(
    deals: list[Deal], strategies: tuple[str, ...], seed: int, jobs: int
) -> list[Result]:
    """`run_bench` under a progress bar per deal and strategy, with the running win rate."""
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("won {task.fields[rate]}"),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=False,
    )
    bars = {
        (id(deal), name): progress.add_task(
            f"{deal.name} {deal.rules.value} {name}", total=deal.games, rate="-"
        )
        for deal in deals
        for name in strategies
    }

    def update(deal: Deal, name: str, records: list[GameRecord]) -> None:
        wins = sum(record.won for record in records)
        progress.update(
            bars[id(deal), name],
            completed=len(records),
            rate=f"{wins / len(records):.1%}",
        )

    with progress:
        return run_bench(deals, strategies, seed, jobs, update)


def wide_console() -> Console:
    """A stdout console; 132 columns when not a terminal (rich would assume 80)."""
    console = Console(highlight=False)
    if not console.is_terminal:
        console.width = 132
    return console


def results_table(results: list[Result], seed: int) -> Table:
    table = Table(title=f"Benchmark (seed {seed})")
    for heading in ("preset", "board", "rules", "strategy"):
        table.add_column(heading)
    for heading in ("games", "win rate", "95% interval", "safe cells", "median s"):
        table.add_column(heading, justify="right", no_wrap=True)
    for result in results:
        deal = result.deal
        low, high = result.ci95
        table.add_row(
            deal.name,
            f"{deal.rows}x{deal.cols}/{deal.mines}",
            deal.rules.value,
            result.strategy,
            str(result.games),
            f"{result.win_rate:.1%}",
            f"{low:.1%} - {high:.1%}",
            f"{result.avg_safe_share:.1%}",
            f"{result.median_seconds:.4f}",
        )
    return table


def write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically: readers never see half a file."""
    directory = path.resolve().parent
    with tempfile.NamedTemporaryFile("w", dir=directory, suffix=".tmp", delete=False) as handle:
        handle.write(text)
    os.replace(handle.name, path)
