"""Variants of a strategy side by side on `bench`'s seeded boards, paired game by game.

Usage: ``python scripts/search_variants.py --preset expert --rules classic --games 1000
[--offset K] --out FILE VARIANT...``

A variant is a strategy name with class attributes set, such as ``best``,
``search`` or ``search:depth=1,zero_weight=0.3`` (``think=200``: a budget in the
strategy's own unit). Game ``i`` is the board of
``minesweeper bench --seed S`` game ``i`` with the same strategy seed, so the
figures match bench's. Each game appends one JSON line to ``--out`` (variant,
index, won, CPU seconds); ``--report FILE...`` reads such lines (one file or
several) and prints every variant's win rate with its 95% interval, median CPU
seconds per game, and for each variant against the first: the games only one
of them won and the two-sided exact sign test. Playing again into the same
``--out`` resumes: the games it already holds for a variant are not replayed.
"""

from __future__ import annotations

import json
import math
import statistics
from pathlib import Path

import click

from minesweeper.bench import Deal, resolve_presets, strategy_seed, wilson_interval
from minesweeper.client import play
from minesweeper.errors import UsageError
from minesweeper.solver.registry import StrategySpec
from minesweeper.solver.strategy import Strategy
from minesweeper.solver.think import Think, ThinkError
from minesweeper.variant import Rules


def make(variant: str, seed: int) -> Strategy:
    """The strategy of ``variant``: a `StrategySpec` name (``best:regions=1``) whose
    settings may include ``think=N[UNIT]``, its budget (in the strategy's unit if none)."""
    name, _, settings = variant.partition(":")
    items = [item for item in settings.split(",") if item]
    kept = [item for item in items if not item.startswith("think=")]
    budgets = [item.removeprefix("think=") for item in items if item.startswith("think=")]
    try:
        think = Think.parse(budgets[-1]) if budgets else None
        spec = StrategySpec(f"{name}:{','.join(kept)}" if kept else name, think)
    except (ThinkError, UsageError) as error:
        raise click.BadParameter(f"{variant}: {error}") from None
    return spec.build(seed)


def sign_test(a: int, b: int) -> float:
    """Two-sided exact sign-test p-value of ``a`` against ``b`` discordant games."""
    n = a + b
    tail = sum(math.comb(n, k) for k in range(min(a, b) + 1)) / 2**n if n else 1.0
    return min(1.0, 2 * tail)


def report(paths: tuple[str, ...]) -> None:
    games: dict[str, dict[int, dict]] = {}
    for path in paths:
        for line in Path(path).read_text().splitlines():
            row = json.loads(line)
            games.setdefault(row["variant"], {})[row["index"]] = row
    names = list(games)
    for name in names:
        rows = games[name].values()
        wins = sum(r["won"] for r in rows)
        low, high = wilson_interval(wins, len(rows))
        median = statistics.median(r["seconds"] for r in rows)
        click.echo(
            f"{name:40} {wins:5}/{len(rows):<5} {wins / len(rows):6.1%} "
            f"[{low:.1%}, {high:.1%}]  median {median:.3f} s/game"
        )
    first = games[names[0]]
    for name in names[1:]:
        shared = sorted(first.keys() & games[name].keys())
        only_first = sum(first[i]["won"] and not games[name][i]["won"] for i in shared)
        only_this = sum(games[name][i]["won"] and not first[i]["won"] for i in shared)
        p = sign_test(only_this, only_first)
        click.echo(
            f"{name} vs {names[0]} on {len(shared)} games: won only by {name}: {only_this}, "
            f"only by {names[0]}: {only_first}, sign test p = {p:.3g}"
        )


def played(path: Path) -> set[tuple[str, int]]:
    """The ``(variant, index)`` games ``path`` already holds (a cut last line is ignored)."""
    if not path.exists():
        return set()
    done = set()
    for line in path.read_text().splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        done.add((row["variant"], row["index"]))
    return done


@click.command()
@click.argument("variants", nargs=-1)
@click.option("--preset", default="expert", show_default=True)
@click.option("--rules", type=click.Choice([r.value for r in Rules]), default="classic")
@click.option("--games", default=1000, show_default=True)
@click.option("--offset", default=0, show_default=True, help="First game index.")
@click.option("--seed", default=0, show_default=True)
@click.option("--out", type=click.Path(dir_okay=False), help="Append one JSON line per game.")
@click.option("--report", "report_only", is_flag=True, help="Summarise the files given instead.")
def main(variants, preset, rules, games, offset, seed, out, report_only) -> None:
    """Play VARIANTS on the same seeded boards, or with --report summarise files."""
    if report_only:
        report(variants)
        return
    if not out:
        raise click.UsageError("--out is required to play")
    (spec,) = resolve_presets([preset])
    deal = Deal.of_preset(spec, Rules(rules), offset + games)
    done = played(Path(out))
    with open(out, "a") as sink:
        for index in range(offset, offset + games):
            todo = [variant for variant in variants if (variant, index) not in done]
            if not todo:
                continue
            board, first = deal.game(seed, index)
            for variant in todo:
                strategy = make(variant, strategy_seed(seed, deal.name, index))
                record = play(board, first, strategy, deal.rules.tells_mine_count)
                row = {"variant": variant, "index": index, "won": record.won}
                row["seconds"] = round(record.seconds, 4)
                sink.write(json.dumps(row) + "\n")
                sink.flush()


if __name__ == "__main__":
    main()
