"""`minesweeper advanced`: the judge and the client play advanced cases."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from minesweeper.advanced import DEFAULT_STRATEGY, run_case
from minesweeper.boards.cases import AdvancedCase, parse_case, parse_cases
from minesweeper.cli.common import (
    input_name,
    read_input,
    reports_errors,
    seed_option,
    strategy_option,
    topology_option,
)
from minesweeper.errors import MinesweeperError
from minesweeper.inputs import read_regular
from minesweeper.judge.grading import discover
from minesweeper.solver.registry import StrategySpec
from minesweeper.topology.base import Topology


@click.command()
@click.argument(
    "inputs", nargs=-1, type=click.Path(allow_dash=True, path_type=Path), metavar="[FILE|DIR]..."
)
@strategy_option(DEFAULT_STRATEGY, help="The client's strategy.")
@seed_option(fresh=False)
@click.option("--trace", is_flag=True, help="Write every move and the map after it to stderr.")
@topology_option
@reports_errors
def advanced(
    inputs: tuple[Path, ...],
    strategy: StrategySpec,
    seed: int,
    trace: bool,
    topology: type[Topology],
) -> None:
    """Play the advanced case in FILE (default stdin): the map, then the first click `r c`.

    Prints what the original prints: `YOU WIN!` or `GAME OVER!`, then the visit
    and step counts. The client sees only the maps the judge prints.

    Given several files or a folder (searched for `.in` files without an
    `.out`, as `grade` does; a folder named after a topology gives its cases
    that topology), plays every case in them, each board with a fresh client,
    and heads each result with `==> NAME <==`.
    """
    if len(inputs) <= 1 and not (inputs and inputs[0].is_dir()):
        play_one(inputs[0] if inputs else Path("-"), strategy, seed, trace, topology)
        return
    if Path("-") in inputs:
        raise click.UsageError("standard input ('-') is one case: give it alone")
    missing = [path for path in inputs if not path.exists()]
    if missing:
        raise click.UsageError(f"{missing[0]}: no such file or folder")
    unfinished = bad = 0
    for case in found_cases(inputs, topology):
        try:
            boards = parse_cases(read_regular(case[0]), case[1], str(case[0]))
        except MinesweeperError as error:
            click.echo(f"minesweeper: {error}", err=True)
            bad += 1
            continue
        for board in boards:
            click.echo(f"==> {board.name} <==")
            unfinished += not play(board, strategy, seed, trace)
    if bad:
        raise SystemExit(2)
    if unfinished:
        raise SystemExit(1)


def found_cases(
    inputs: tuple[Path, ...], topology: type[Topology]
) -> list[tuple[Path, type[Topology]]]:
    """The advanced case files under ``inputs`` (named files whatever they hold), each with
    its topology; a path the search cannot read is named on stderr."""
    cases = []
    for found in discover(inputs, topology):
        if found.problem:
            click.echo(f"minesweeper: {found.name}: {found.problem} (not played)", err=True)
        elif not found.basic or found.path in inputs:
            cases.append((found.path, found.topology))
    if not cases:
        raise click.UsageError("no advanced cases (.in files without an .out) found")
    return cases


def play_one(
    path: Path, strategy: StrategySpec, seed: int, trace: bool, topology: type[Topology]
) -> None:
    """One case from a file or standard input, as the original's ``advanced`` plays it."""
    try:
        opened = click.open_file(str(path), "rb")
    except OSError as error:
        raise click.BadParameter(f"{path}: {error.strerror}", param_hint="FILE") from None
    with opened as file:
        case = parse_case(read_input(file), topology, input_name(file))
    if not play(case, strategy, seed, trace):
        raise SystemExit(1)


def play(case: AdvancedCase, strategy: StrategySpec, seed: int, trace: bool) -> bool:
    """Play ``case`` with a fresh client and print its result lines; whether it was decided."""
    result = run_case(case, strategy.build(seed), sys.stderr if trace else None)
    click.echo(result.result_lines, nl=False)
    if not result.finished:
        click.echo(
            f"minesweeper: the client stopped after {result.game.step_count} move(s), "
            "before the game was decided",
            err=True,
        )
    return result.finished
