"""Perfect play as the yardstick: the limit table of small boards, and the reach on expert
endgames (docs/perfect-play.md).

Usage:
``python scripts/research/perfect_play.py table [--boards 3x3/2,4x4/3,...] [--strategy S ...]``
prints, per board and first-click rule (classic: the first click only safe, at the corner;
modern: an opening, in the middle), the perfect-play chance to win, exact, and each
strategy's own chance on the same boards, exact too: the strategy plays every layout the
rule allows once (seeded as bench seeds game ``i``), each layout alike.

``python scripts/research/perfect_play.py reach --games N [--seed S]`` plays expert classic
games with `best` and, in each, values perfectly the first position whose layouts number
between 5,000 and 1,000,000, within 10 s of CPU: how many were done (every move valued, or
the best moves valued and the rest bounded, as ``analyze --optimal`` answers past its reach),
how far in layouts and unknown cells, and at what cost.

``python scripts/research/perfect_play.py versus LOG --out FILE [--boards A B]`` values, in
each position of another solver's decision log within reach, its guess and `best`'s move
by perfect play: how far each is from the perfect move (docs/perfect-play.md).
"""

from __future__ import annotations

import itertools
import json
import math
import random
import statistics
import time
from fractions import Fraction
from pathlib import Path
from typing import cast

import click

from minesweeper.bench import strategy_seed
from minesweeper.bench.choices import read_log
from minesweeper.board import Board
from minesweeper.client import play
from minesweeper.game import Game, State
from minesweeper.intervals import Z95
from minesweeper.solver.best import Best
from minesweeper.solver.constraints import InconsistentView
from minesweeper.solver.perfect import OutOfReach, PerfectPlay, Reach, first_click, perfect_play
from minesweeper.solver.probability import probabilities
from minesweeper.solver.registry import StrategySpec
from minesweeper.solver.strategy import Decision
from minesweeper.solver.view import View
from minesweeper.topology import SquareTopology

#: Boards of the table: rows x cols / mines.
BOARDS = "3x3/2,3x3/3,4x4/2,4x4/3,4x4/4,5x5/3,5x5/4,5x5/5,6x6/4,6x6/5"
STRATEGIES = ("best", "search", "gauss-powermean")


@click.group()
def main() -> None:
    """The limit table and the reach of perfect play."""


@main.command()
@click.option("--boards", default=BOARDS, show_default=True)
@click.option("--strategy", "strategies", multiple=True, default=STRATEGIES)
@click.option("--seconds", default=600.0, show_default=True, help="CPU per perfect value")
@click.option("--memory", default=1.0, show_default=True, help="GB of positions per value")
@click.option(
    "--rules",
    type=click.Choice(["classic", "modern"]),
    multiple=True,
    default=("classic", "modern"),
    show_default=True,
    help="the first-click rules played (a row past reach costs its listing)",
)
@click.option(
    "--perfect-only",
    is_flag=True,
    help="perfect play's value alone (the strategies play every layout: too many on large boards)",
)
def table(
    boards: str,
    strategies: tuple[str, ...],
    seconds: float,
    memory: float,
    rules: tuple[str, ...],
    perfect_only: bool,
) -> None:
    """The limit table (Markdown)."""
    strategies = () if perfect_only else strategies
    specs = StrategySpec.choose(strategies)
    head = ["board", "first click", "layouts", "perfect play", *strategies, "CPU s"]
    click.echo("| " + " | ".join(head) + " |")
    click.echo("|" + "---|" * len(head))
    for text in boards.split(","):
        size, mines = text.split("/")
        rows, cols = map(int, size.split("x"))
        topology = SquareTopology(rows, cols)
        for name, opening, (r, c) in (
            ("classic (0,0)", False, (0, 0)),
            ("modern (middle)", True, (rows // 2, cols // 2)),
        ):
            if name.split()[0] not in rules:
                continue
            cell = topology.cell_at(r, c)
            start = time.process_time()
            try:
                value = first_click(topology, int(mines), cell, opening, wide(seconds, memory))
            except (OutOfReach, InconsistentView) as error:
                click.echo(f"| {text} | {name} | | {error} |")
                continue
            spent = time.process_time() - start
            kept = {cell, *topology.neighbours(cell)} if opening else {cell}
            free = [x for x in topology.cells() if x not in kept]
            layouts = itertools.combinations(free, int(mines))  # listed only when played
            every = [frozenset(m) for m in layouts] if specs else []
            rates = [exact_rate(spec, topology, every, cell) for spec in specs]
            perfect = f"**{float(value.chance) * 100:.2f}%** ({value.chance})"
            cells = [text, name, f"{math.comb(len(free), int(mines)):,}", perfect]
            cells += [played(rate, value.chance, len(every)) for rate in rates] + [f"{spent:.1f}"]
            click.echo("| " + " | ".join(cells) + " |")


def played(rate: Fraction, optimum: Fraction, layouts: int) -> str:
    """A strategy's exact rate, with how many of the ``layouts`` it loses that perfect play
    (its rate ``optimum``) wins."""
    lost = int((optimum - rate) * layouts)  # layouts won: the rates are exact shares of them
    return f"{float(rate) * 100:.2f}% ({'optimal' if not lost else f'{lost:,} fewer'})"


def wide(seconds: float, gigabytes: float) -> Reach:
    """The reach of a small board's values: 10 million layouts, a billion positions, and
    ``seconds`` of CPU and ``gigabytes`` of positions per value."""
    return Reach(10**7, 10**9, seconds, int(gigabytes * 2**30))


def exact_rate(
    spec: StrategySpec, topology: SquareTopology, layouts: list[frozenset[int]], cell: int
) -> Fraction:
    """The share of ``layouts`` ``spec`` wins from the first click ``cell``, each played once."""
    wins = 0
    for index, layout in enumerate(layouts):
        record = play(
            Board(topology, layout), cell, spec.build(strategy_seed(0, "limit-table", index)), True
        )
        wins += record.won
    return Fraction(wins, len(layouts))


@main.command()
@click.option("--games", default=100, show_default=True)
@click.option("--seed", default=1, show_default=True)
@click.option("--low", default=5_000, show_default=True)
@click.option("--high", default=1_000_000, show_default=True)
def reach(games: int, seed: int, low: int, high: int) -> None:
    """Expert classic endgames valued perfectly within 10 s each."""
    done: list[tuple[int, int, float, bool]] = []
    missed: list[tuple[int | None, int, str]] = []

    rng = random.Random(seed)
    topology = SquareTopology(16, 30)
    for _ in range(games):
        first = topology.cell_at(0, 0)
        free = [c for c in topology.cells() if c != first]
        board = Board(topology, rng.sample(free, 99))
        view = endgame_of(board, first, low, high)
        if view is None:
            continue
        layouts = probabilities(view).layouts
        start = time.process_time()
        try:
            found = perfect_play(
                view, reach=Reach(layouts=high, positions=10**8, seconds=10.0), partial=True
            )
        except OutOfReach as error:
            missed.append((layouts, len(view.unknown()), str(error)))
            continue
        spent = time.process_time() - start
        done.append((found.layouts, len(view.unknown()), spent, found.complete))
        bounded = sum(not move.exact for move in found.moves)
        how = "" if found.complete else f" (best moves; {bounded} of {len(found.moves)} bounded)"
        click.echo(
            f"{found.layouts:>9,} layouts {len(view.unknown()):>3} unknown {spent:6.2f} s{how}"
        )
    for layouts, unknown, why in missed:
        click.echo(f"{layouts:>9,} layouts {unknown:>3} unknown: {why}")
    if done:
        whole = [d for d in done if d[3]]
        click.echo(
            f"valued {len(done)} of {len(done) + len(missed)} ({len(whole)} every move, "
            f"{len(done) - len(whole)} the best moves); layouts up to "
            f"{max(d[0] for d in done):,} (median {statistics.median(d[0] for d in done):,.0f}); "
            f"unknown cells up to {max(d[1] for d in done)}; CPU median "
            f"{statistics.median(d[2] for d in done):.2f} s, max {max(d[2] for d in done):.2f} s"
        )


@main.command()
@click.option("--board", default="5x5/4", show_default=True, help="rows x cols / mines")
@click.option("--rule", type=click.Choice(["classic", "modern"]), default="classic")
@click.option("--strategy", "name", default="best", show_default=True)
@click.option("--top", default=12, show_default=True, help="positions shown")
@click.option("--seconds", default=10.0, show_default=True, help="CPU per position valued")
@click.option("--memory", default=1.0, show_default=True, help="GB of positions per value")
def mistakes(board: str, rule: str, name: str, top: int, seconds: float, memory: float) -> None:
    """The guesses of a strategy that cost chance against perfect play, every layout of a
    small board played once (as the limit table plays it), the costliest first."""
    size, count = board.split("/")
    rows, cols = map(int, size.split("x"))
    topology, mines = SquareTopology(rows, cols), int(count)
    opening = rule == "modern"
    cell = topology.cell_at(rows // 2, cols // 2) if opening else topology.cell_at(0, 0)
    kept = {cell, *topology.neighbours(cell)} if opening else {cell}
    free = [x for x in topology.cells() if x not in kept]
    layouts = [frozenset(m) for m in itertools.combinations(free, mines)]
    spec = StrategySpec.choose([name])[0]
    valued: dict[tuple[frozenset[tuple[int, int]], int], Fraction] = {}
    seen: dict[tuple[frozenset[tuple[int, int]], int], list[object]] = {}

    def on_guess(view: View, decision: Decision, _: int) -> None:
        key = (frozenset(view.revealed.items()), decision.opens[0])
        if key not in valued:
            found = perfect_play(view, reach=wide(seconds, memory))
            valued[key] = found.chance - found.of(decision.opens[0]).chance
            seen[key] = [view, found, 0]
        seen[key][2] = cast(int, seen[key][2]) + 1

    wins = 0
    for index, layout in enumerate(layouts):
        built = spec.build(strategy_seed(0, "limit-table", index))
        wins += play(Board(topology, layout), cell, built, True, on_guess=on_guess).won
    costly = sorted(
        ((valued[key] * cast(int, hits) / len(layouts), key) for key, (_, _, hits) in seen.items()),
        reverse=True,
    )
    click.echo(
        f"{name} wins {wins}/{len(layouts)} = {wins / len(layouts):.4%}; guesses at "
        f"{len(seen):,} positions, {sum(1 for k in valued if valued[k]):,} of them costly; "
        f"chance lost there in all: {float(sum(c for c, _ in costly)):.4%}"
    )
    for lost, key in costly[:top]:
        if not lost:
            break
        view, found, hits = seen[key]
        assert isinstance(view, View) and isinstance(found, PerfectPlay)
        mine = key[1]
        text = "\n".join(
            "  "
            + "".join(
                str(view.revealed[c]) if c in view.revealed else "*" if c == mine else "?"
                for c in (topology.cell_at(r, q) for q in range(cols))
            )
            for r in range(rows)
        )
        click.echo(
            f"\n{float(lost):.4%} of all games: reached by {hits} layout(s); {name} opens "
            f"{topology.position(mine)} (*) {float(found.of(mine).chance):.2%}, perfect play "
            f"{[topology.position(c) for c in found.best]} {float(found.chance):.2%}\n{text}"
        )


@main.command()
@click.argument("log", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True)
@click.option("--boards", nargs=2, type=int, default=(0, 999), show_default=True)
@click.option("--strategy", "name", default="best", show_default=True)
@click.option("--high", default=100_000, show_default=True, help="most layouts valued")
@click.option("--seconds", default=5.0, show_default=True, help="CPU per position valued")
def versus(
    log: Path, out: Path, boards: tuple[int, int], name: str, high: int, seconds: float
) -> None:
    """Another solver's logged guesses (a decision log, as D. Hill's in dh-2026) and the
    strategy's own move in each of those positions, both valued by perfect play where at
    most ``--high`` layouts fit: each one's cost against the perfect move, paired by
    position, by how many layouts fit. Lines go to --out as positions finish; a rerun goes
    on where it stopped, then the report covers the whole file."""
    done = set()
    if out.exists():
        done = {(row["board"], row["guess"]) for row in map(json.loads, out.open())}
    spec = StrategySpec.choose([name])[0]
    with out.open("a") as sink:
        for logged in read_log(log):
            view = logged.view
            if not boards[0] <= logged.board <= boards[1] or view.mine_count is None:
                continue
            if (logged.board, logged.guess) in done:
                continue
            layouts = probabilities(view).layouts
            if layouts is None or layouts > high:
                continue
            ours = spec.build(0).decide(view).opens[0]
            row: dict[str, object] = {"board": logged.board, "guess": logged.guess}
            try:
                found = perfect_play(
                    view,
                    reach=Reach(layouts=high, seconds=seconds),
                    partial=True,
                    first=[logged.cell, ours],
                )
            except OutOfReach:
                found = None
            row["layouts"] = layouts
            if found is not None:
                theirs, mine = found.of(logged.cell), found.of(ours)
                if theirs.exact and mine.exact:
                    row.update(
                        total=found.moves[0].total,
                        perfect=found.moves[0].won,
                        theirs=theirs.won,
                        ours=mine.won,
                    )
            sink.write(json.dumps(row) + "\n")
            sink.flush()
    report(out, name)


def report(out: Path, name: str) -> None:
    """`versus`'s table: each side's mean cost in points, and their paired difference."""
    rows = [row for row in map(json.loads, out.open()) if "perfect" in row]
    click.echo(f"{out}: {len(rows)} positions valued (both moves exact)")
    bands = {"all": (0, 10**12), "<= 2000": (0, 2000), "2001-20000": (2001, 20000)}
    bands["> 20000"] = (20001, 10**12)
    for band, (low, high) in bands.items():
        chosen = [row for row in rows if low <= row["layouts"] <= high]
        if len(chosen) < 2:
            continue
        theirs = [(row["perfect"] - row["theirs"]) / row["total"] for row in chosen]
        ours = [(row["perfect"] - row["ours"]) / row["total"] for row in chosen]
        diff = [t - o for t, o in zip(theirs, ours, strict=True)]
        mean, spread = statistics.fmean(diff), statistics.stdev(diff) / math.sqrt(len(diff))
        click.echo(
            f"{band:>11}: {len(chosen):5} positions; optimal: theirs {theirs.count(0):5}, "
            f"{name} {ours.count(0):5}; mean cost in points: theirs "
            f"{100 * statistics.fmean(theirs):.3f}, {name} {100 * statistics.fmean(ours):.3f}; "
            f"theirs - {name} {100 * mean:+.3f} [{100 * (mean - Z95 * spread):+.3f}, "
            f"{100 * (mean + Z95 * spread):+.3f}]; better: theirs "
            f"{sum(d < 0 for d in diff)}, {name} {sum(d > 0 for d in diff)}"
        )


def endgame_of(board: Board, first: int, low: int, high: int) -> View | None:
    """The first position of `best`'s game on ``board`` with ``low``..``high`` layouts."""
    game = Game(board)
    game.visit(first)
    player = Best()
    while game.state is State.PLAYING:
        topology = board.topology
        revealed = {c: board.count(c) for c in topology.cells() if game.is_revealed(c)}
        view = View(topology, revealed, mine_count=board.mine_count)
        layouts = probabilities(view).layouts
        if layouts is not None and low <= layouts <= high:
            return view
        if layouts is not None and layouts < low:
            return None
        for cell in player.decide(view).opens:
            if game.state is State.PLAYING and not game.is_revealed(cell):
                game.visit(cell)
    return None


if __name__ == "__main__":
    main()
