"""`minesweeper grade`: run every basic and advanced case found in directories."""

from __future__ import annotations

import dataclasses
import os
import shlex
import statistics
import sys
import textwrap
from pathlib import Path

import click
from rich.table import Table
from rich.text import Text

from minesweeper.advanced import DEFAULT_STRATEGY
from minesweeper.cli.common import (
    output_file_option,
    reports_errors,
    seed_option,
    strategy_option,
    topology_option,
    wide_console,
    write_text,
)
from minesweeper.cli.programs import CommandLine, limits_options, sandbox_options
from minesweeper.errors import UsageError
from minesweeper.judge.escape import printable
from minesweeper.judge.grading import AdvancedGrade, BasicGrade, discover
from minesweeper.judge.process import Limits
from minesweeper.judge.report import (
    json_report,
    junit_xml,
    outcome,
)
from minesweeper.judge.runner import Programs, grade_all
from minesweeper.judge.sandbox import Sandbox, describe, require
from minesweeper.outputs import check_writable
from minesweeper.solver.registry import StrategySpec
from minesweeper.topology.base import Topology


@click.command()
@click.argument(
    "paths", nargs=-1, required=True, type=click.Path(exists=True, path_type=Path), metavar="DIR..."
)
@click.option(
    "--server",
    type=CommandLine(),
    metavar="CMD",
    help='Grade this judge server on the basic cases, e.g. "./a.out" (no shell runs it).',
)
@click.option(
    "--client",
    type=CommandLine(),
    metavar="CMD",
    help='Grade this client on the advanced cases, e.g. "python3 client.py".',
)
@strategy_option(DEFAULT_STRATEGY, help="The built-in client's strategy.")
@seed_option(fresh=False)
@click.option(
    "--jobs",
    type=click.IntRange(min=1, max=max(64, 4 * (os.cpu_count() or 1))),
    default=1,
    show_default=True,
    help="Cases graded at once.",
)
@output_file_option("--junit", "junit", help="Also write JUnit XML.")
@output_file_option("--json", "json_path", help="Also write JSON.")
@limits_options
@sandbox_options
@topology_option
@reports_errors
def grade(
    paths: tuple[Path, ...],
    server: tuple[str, ...] | None,
    client: tuple[str, ...] | None,
    strategy: StrategySpec,
    seed: int,
    jobs: int,
    junit: Path | None,
    json_path: Path | None,
    limits: Limits,
    sandbox: Sandbox | None,
    topology: type[Topology],
) -> None:
    """Grade every case under DIR... (searched recursively).

    Basic cases (`x.in` with `x.out`) pass when the judge prints `x.out` byte
    for byte; below the table, each failing one shows the expected and the actual
    lines of the map (or result) where they first differ, and the move that led
    there (its input line). Advanced cases (an `.in` without `.out`, ending with the first
    click) are played by the client: won or lost, visits, steps, CPU seconds.
    Cases in a subdirectory named after a topology use that topology.

    `--server CMD` grades a foreign judge on the basic cases, `--client CMD` a
    foreign client on the advanced ones (docs/judge.md), each case in a fresh
    process under the limits below, in a sandbox that shows it neither the
    cases nor the judge's files (unless `--no-sandbox`; the report's first line
    says how the programs ran); with either, only the cases of its kind
    are graded. Exits 1 when a basic case fails, a case cannot be played or a
    client misbehaves; a lost game is a result, not a failure. A FIFO, a
    device, a broken link or an unreadable folder found on the way is named on
    stderr, not read, and also makes the exit status 1.
    """
    for path, option in ((junit, "--junit"), (json_path, "--json")):
        if path is not None:
            check_writable(path, option, replaced=True)
    if sandbox is not None:
        sandbox = dataclasses.replace(sandbox, hidden=tuple(path.resolve() for path in paths))
    programs = Programs(server, client, strategy, seed, limits, sandbox)
    if programs.foreign and sandbox is not None:
        require()
    if programs.foreign and strategy.think is not None:
        raise UsageError(
            "--think: the built-in client does not play with --server or --client: drop --think"
        )
    everything = discover(paths, topology)
    skipped = [case for case in everything if case.problem]
    for case in skipped:
        click.echo(f"minesweeper: {case.name}: {case.problem} (not graded)", err=True)
    found = [case for case in everything if not case.problem and programs.grades(case)]
    if not found:
        raise click.UsageError("no .in files found" + (" of that kind" if programs.foreign else ""))
    basic: list[BasicGrade] = []
    advanced: list[AdvancedGrade] = []
    console = wide_console()
    if programs.foreign:
        console.print(Text(describe(sandbox)), soft_wrap=True)
    with console.status("grading...") as status:
        for _, grades in grade_all(
            found, programs, jobs, lambda c: status.update(f"grading {c.name}")
        ):
            for result in grades:
                if isinstance(result, BasicGrade):
                    basic.append(result)
                else:
                    advanced.append(result)
    if basic:
        console.print(basic_table(basic, shlex.join(server) if server else "built-in"))
        for failure in excerpts(basic):
            console.print(failure, soft_wrap=True)  # maps keep their lines, however wide
    if advanced:
        console.print(advanced_table(advanced, shlex.join(client) if client else strategy.label))
    failures = sum(not grade.passed for grade in basic) + sum(bool(g.error) for g in advanced)
    console.print(summary(basic, advanced, len(skipped)))
    ungraded = len(everything) - len(found) - len(skipped)
    if ungraded:
        other = "advanced (no --client)" if server else "basic (no --server)"
        console.print(f"{ungraded} {other} case file(s) not graded")
    how = describe(sandbox) if programs.foreign else ""
    if junit is not None:
        write_text(junit, junit_xml(basic, advanced, how))
    if json_path is not None:
        write_text(json_path, json_report(basic, advanced, how))
    if failures or skipped:
        sys.exit(1)


def basic_table(grades: list[BasicGrade], judge: str) -> Table:
    table = Table(title=f"Basic cases (judge: {judge})")
    table.add_column("case")
    table.add_column("result")
    table.add_column("detail", overflow="fold")
    for grade in grades:
        verdict = Text("pass", "green") if grade.passed else Text("FAIL", "red")
        # Names and details are shown as they are: a bracket in them is not markup.
        table.add_row(Text(printable(grade.name)), verdict, Text(printable(grade.detail)))
    return table


def excerpts(grades: list[BasicGrade]) -> list[Text]:
    """Each failed case's name and summary, and the expected and actual lines around it."""
    return [
        Text(
            f"\n{printable(grade.name)}: {printable(grade.detail)}\n"
            + textwrap.indent(printable(grade.excerpt, keep="\n"), "  ")
        )
        for grade in grades
        if grade.excerpt
    ]


def advanced_table(grades: list[AdvancedGrade], client: str) -> Table:
    table = Table(title=f"Advanced cases (client: {client})")
    table.add_column("case")
    table.add_column("result", overflow="fold")
    for heading in ("visits", "steps", "seconds"):
        table.add_column(heading, justify="right")
    colours = {"won": "green", "lost": "yellow"}
    for grade in grades:
        result = outcome(grade)
        verdict = Text(
            f"{'ERROR ' if grade.error else ''}{printable(result)}", colours.get(result, "red")
        )
        table.add_row(
            Text(printable(grade.name)),
            verdict,
            str(grade.visit_count),
            str(grade.steps),
            f"{grade.seconds:.3f}",
        )
    return table


def summary(basic: list[BasicGrade], advanced: list[AdvancedGrade], skipped: int = 0) -> str:
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
    if skipped:
        parts.append(f"{skipped} path(s) not graded (see above)")
    return "; ".join(parts)
