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
from minesweeper.cli.builds import built_headers
from minesweeper.cli.common import (
    EXIT_JUDGE_ERROR,
    fail,
    output_file_option,
    reports_errors,
    seed_option,
    strategy_option,
    topology_option,
    wide_console,
    write_text,
)
from minesweeper.cli.programs import (
    CommandLine,
    compile_options,
    limits_options,
    sandbox_options,
)
from minesweeper.errors import UsageError
from minesweeper.judge.escape import printable
from minesweeper.judge.grading import AdvancedGrade, BasicGrade, discover, judge_errors
from minesweeper.judge.headers import Role
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
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path), metavar="[DIR]...")
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
@click.option(
    "--server-header",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    metavar="FILE",
    help="Build this server.h with the project's harness (g++) and grade it as --server.",
)
@click.option(
    "--client-header",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    metavar="FILE",
    help="Build this client.h with the project's harness (g++) and grade it as --client.",
)
@click.option(
    "--submissions",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    metavar="DIR",
    help="Grade a class: every folder of DIR is a student's, holding server.h and/or "
    "client.h; one row per student (cases: DIR... or the repo's and the ACM ones).",
)
@strategy_option(DEFAULT_STRATEGY, help="The built-in client's strategy.")
@seed_option(fresh=False)
@click.option(
    "--jobs",
    type=click.IntRange(min=1, max=max(64, 4 * (os.cpu_count() or 1))),
    default=1,
    show_default=True,
    help="Cases (with --submissions: students) graded at once.",
)
@output_file_option("--junit", "junit", help="Also write JUnit XML.")
@output_file_option("--json", "json_path", help="Also write JSON.")
@output_file_option("--csv", "csv_path", help="With --submissions: a CSV row per student.")
@click.option("--trace", is_flag=True, help="Show the compiler's command lines on stderr.")
@limits_options
@compile_options
@sandbox_options
@topology_option
@reports_errors
def grade(
    paths: tuple[Path, ...],
    server: tuple[str, ...] | None,
    client: tuple[str, ...] | None,
    server_header: Path | None,
    client_header: Path | None,
    submissions: Path | None,
    strategy: StrategySpec,
    seed: int,
    jobs: int,
    junit: Path | None,
    json_path: Path | None,
    csv_path: Path | None,
    trace: bool,
    limits: Limits,
    compile_limits: Limits,
    sandbox: Sandbox | None,
    topology: type[Topology],
) -> None:
    """Grade every case under DIR... (searched recursively).

    Basic cases (`x.in` with `x.out`) pass when the judge prints `x.out` byte
    for byte; below the table, each failing one shows the expected and the actual
    lines of the map (or result) where they first differ, and the move that led
    there (its input line). Advanced cases (an `.in` without `.out`, ending with the first
    click) are played by the client: won or lost, visits, steps, CPU seconds.
    Cases in a folder named after a topology use that topology.

    `--server CMD` grades a foreign judge on the basic cases, `--client CMD` a
    foreign client on the advanced ones (docs/judge.md), each case in a fresh
    process under the limits below, in a sandbox that shows it neither the
    cases nor the judge's files (unless `--no-sandbox`; the report's first line
    says how the programs ran); with either, only the cases of its kind
    are graded, and only those of `--topology` (square by default) unless the
    command has `{topology}` in it. `--server-header FILE` and `--client-header
    FILE` build a student's `server.h` or `client.h` with the project's harness
    and grade the program so built (docs/headers.md); a header that does not
    build is a verdict: one line, the compiler's first errors, exit 1.
    `--submissions DIR` grades a whole class into one table (and `--csv`,
    `--json`) and exits 0 once every student has a row.

    Exits 1 when a basic case fails, a case cannot be played or a
    client misbehaves; a lost game is a result, not a failure. A FIFO, a
    device, a broken link or an unreadable folder found on the way is named on
    stderr, not read, and also makes the exit status 1. Exits 3 when the machine
    failed to start a program even when tried again (a judge error, not the
    program's result): grade again.
    """
    check_choices(paths, server, client, server_header, client_header, submissions, csv_path)
    for path, option in ((junit, "--junit"), (json_path, "--json"), (csv_path, "--csv")):
        if path is not None:
            check_writable(path, option, replaced=True)
    if submissions is not None:
        from minesweeper.cli.submissions import class_grading, grade_submissions

        grading = class_grading(paths, limits, compile_limits, sandbox, topology)
        grade_submissions(submissions, grading, jobs, trace, json_path, csv_path)
        return
    if sandbox is not None:
        sandbox = dataclasses.replace(sandbox, hidden=tuple(path.resolve() for path in paths))
    headers = {Role.SERVER: server_header, Role.CLIENT: client_header}
    if any(headers.values()) and sandbox is not None:
        require()
    with built_headers(headers, compile_limits, sandbox, trace) as built:
        programs = Programs(
            built.get(Role.SERVER, server),
            built.get(Role.CLIENT, client),
            strategy,
            seed,
            limits,
            sandbox,
            topology,
        )
        names = (
            str(server_header) if server_header else None,
            str(client_header) if client_header else None,
        )
        grade_cases(paths, programs, jobs, junit, json_path, names)


def check_choices(
    paths: tuple[Path, ...],
    server: tuple[str, ...] | None,
    client: tuple[str, ...] | None,
    server_header: Path | None,
    client_header: Path | None,
    submissions: Path | None,
    csv_path: Path | None,
) -> None:
    """Usage errors: options that exclude each other, and cases to grade."""
    if server and server_header:
        raise click.UsageError("--server and --server-header: give one server")
    if client and client_header:
        raise click.UsageError("--client and --client-header: give one client")
    if submissions is not None and (server or client or server_header or client_header):
        raise click.UsageError("--submissions grades the students' headers: drop the programs")
    if csv_path is not None and submissions is None:
        raise click.UsageError("--csv writes one row per student: it goes with --submissions")
    if not paths and submissions is None:
        raise click.UsageError("Missing argument 'DIR...': the folders or files of cases to grade")


def grade_cases(
    paths: tuple[Path, ...],
    programs: Programs,
    jobs: int,
    junit: Path | None,
    json_path: Path | None,
    names: tuple[str | None, str | None] = (None, None),
) -> None:
    """Grade the cases under ``paths`` with ``programs`` and print the report; ``names`` are
    what the tables call a built server and client (their headers)."""
    server, client = programs.server, programs.client
    sandbox = programs.sandbox
    if programs.foreign and sandbox is not None:
        require()
    if programs.foreign and programs.strategy.think is not None:
        raise UsageError(
            "--think: the built-in client does not play with --server or --client: drop --think"
        )
    everything = discover(paths, programs.topology)
    skipped = [case for case in everything if case.problem]
    for case in skipped:
        click.echo(f"minesweeper: {case.name}: {case.problem} (not graded)", err=True)
    graded = [case for case in everything if not case.problem]
    found = [case for case in graded if programs.grades(case)]
    shapes = sum(programs.other_topology(case) for case in graded)
    if not found and skipped:
        sys.exit(1)  # each refused file has had its line: one refusal, one line
    if not found:
        raise click.UsageError(
            "no .in files found"
            + (" of that kind" if programs.foreign else "")
            + (f" of topology {programs.topology.name}" if shapes else "")
        )
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
        judge = names[0] or (shlex.join(server) if server else "built-in")
        console.print(basic_table(basic, judge))
        for failure in excerpts(basic):
            console.print(failure, soft_wrap=True)  # maps keep their lines, however wide
    if advanced:
        player = names[1] or (shlex.join(client) if client else programs.strategy.label)
        console.print(advanced_table(advanced, player))
        for note in client_errors(advanced):
            console.print(note, soft_wrap=True)
    failures = sum(not grade.passed for grade in basic) + sum(bool(g.error) for g in advanced)
    console.print(summary(basic, advanced, len(skipped)))
    if shapes:
        console.print(
            f"{shapes} case file(s) of other topologies not graded: the programs play "
            f"{programs.topology.name} boards (--topology NAME for another)"
        )
    ungraded = len(graded) - len(found) - shapes
    if ungraded:
        other = "advanced (no --client)" if server else "basic (no --server)"
        console.print(f"{ungraded} {other} case file(s) not graded")
    how = describe(sandbox) if programs.foreign else ""
    if junit is not None:
        write_text(junit, junit_xml(basic, advanced, how))
    if json_path is not None:
        write_text(json_path, json_report(basic, advanced, how))
    if machine := judge_errors([*basic, *advanced]):
        fail(f"{machine} case(s) not graded: the machine failed (judge error); grade again",
             EXIT_JUDGE_ERROR)  # fmt: skip
    if failures or skipped:
        sys.exit(1)


#: How many lines of a failing program's standard error the report shows.
STDERR_LINES = 5


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
    """Each failed case's name and summary, the expected and actual lines around it, and the
    end of the server's standard error."""
    return [
        Text(
            f"\n{printable(grade.name)}: {printable(grade.detail)}\n"
            + textwrap.indent(printable(grade.excerpt, keep="\n"), "  ").rstrip("\n")
            + ("\n" if grade.excerpt and grade.stderr.strip() else "")
            + stderr_lines(grade.stderr).rstrip("\n")
        )
        for grade in grades
        if not grade.passed and (grade.excerpt or grade.stderr)
    ]


def client_errors(grades: list[AdvancedGrade]) -> list[Text]:
    """Each game a client could not finish: its name, what happened, the end of its
    standard error."""
    return [
        Text(
            f"\n{printable(grade.name)}: {printable(grade.error)}\n"
            + stderr_lines(grade.stderr).rstrip("\n")
        )
        for grade in grades
        if grade.error and grade.stderr
    ]


def stderr_lines(stderr: str) -> str:
    """The last `STDERR_LINES` lines of a program's standard error, escaped and indented."""
    lines = stderr.rstrip("\n").split("\n")[-STDERR_LINES:] if stderr.strip() else []
    if not lines:
        return ""
    return f"  its standard error, last {len(lines)} line(s):\n" + "".join(
        f"    {printable(line)}\n" for line in lines
    )


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
