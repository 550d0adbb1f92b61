"""`minesweeper grade`: run every basic and advanced case found in directories."""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

import click
from rich.table import Table

from minesweeper.advanced import DEFAULT_STRATEGY
from minesweeper.cli.bench import wide_console
from minesweeper.cli.common import reports_errors, seed_option, strategy_option, topology_option
from minesweeper.grading import AdvancedGrade, BasicGrade, discover, grade_advanced, grade_basic
from minesweeper.solver.strategy import find_strategy


@click.command()
@click.argument(
    "paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path), metavar="DIR..."
)
@strategy_option(DEFAULT_STRATEGY, help="The client's strategy.")
@seed_option(fresh=False)
@topology_option
@reports_errors
def grade(paths: tuple[Path, ...], strategy: str, seed: int, topology: str) -> None:
    """Grade every case under DIR... (searched recursively).

    Basic cases (`x.in` with `x.out`) pass when the judge prints `x.out` byte
    for byte. Advanced cases (an `.in` without `.out`, ending with the first
    click) are played by the client: won or lost, visits, steps, CPU seconds.
    Cases in a subdirectory named after a topology use that topology. Exits 1
    when a basic case fails or a case cannot be played.
    """
    find_strategy(strategy)  # an unknown name fails before any case runs
    found = discover(paths, topology)
    if not found:
        raise click.UsageError("no .in files found")
    basic: list[BasicGrade] = []
    advanced: list[AdvancedGrade] = []
    console = wide_console()
    with console.status("grading...") as status:
        for case in found:
            status.update(f"grading {case.name}")
            if case.basic:
                basic.append(grade_basic(case))
            else:
                advanced.extend(grade_advanced(case, strategy, seed))
    if basic:
        console.print(basic_table(basic))
    if advanced:
        console.print(advanced_table(advanced, strategy))
    failures = sum(not grade.passed for grade in basic) + sum(bool(g.error) for g in advanced)
    console.print(summary(basic, advanced))
    if failures:
        sys.exit(1)


def basic_table(grades: list[BasicGrade]) -> Table:
    table = Table(title="Basic cases (judge output)")
    table.add_column("case")
    table.add_column("result")
    table.add_column("detail", overflow="fold")
    for grade in grades:
        verdict = "[green]pass[/]" if grade.passed else "[red]FAIL[/]"
        table.add_row(grade.name, verdict, grade.detail)
    return table


def advanced_table(grades: list[AdvancedGrade], strategy: str) -> Table:
    table = Table(title=f"Advanced cases (client: {strategy})")
    table.add_column("case")
    table.add_column("result")
    for heading in ("visits", "steps", "seconds"):
        table.add_column(heading, justify="right")
    for grade in grades:
        if grade.error:
            table.add_row(grade.name, f"[red]ERROR[/] {grade.error}", "", "", "")
            continue
        if grade.won:
            verdict = "[green]won[/]"
        elif grade.finished:
            verdict = "[yellow]lost[/]"
        else:
            verdict = "[red]move limit[/]"
        table.add_row(
            grade.name,
            verdict,
            str(grade.visit_count),
            str(grade.steps),
            f"{grade.seconds:.3f}",
        )
    return table


def summary(basic: list[BasicGrade], advanced: list[AdvancedGrade]) -> str:
    parts = []
    if basic:
        passed = sum(grade.passed for grade in basic)
        parts.append(f"basic: {passed}/{len(basic)} passed")
    if advanced:
        played = [grade for grade in advanced if not grade.error]
        won = sum(grade.won for grade in played)
        part = f"advanced: {won}/{len(advanced)} won"
        if played:
            median = statistics.median(grade.seconds for grade in played)
            part += f", median {median:.3f} s per game"
        errors = len(advanced) - len(played)
        if errors:
            part += f", {errors} could not be played"
        parts.append(part)
    return "; ".join(parts)
