"""`minesweeper grade --submissions DIR`: a class's headers graded into one scoreboard."""

from __future__ import annotations

import dataclasses
import shlex
import statistics
from pathlib import Path

import click
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

import minesweeper
from minesweeper.cli.common import EXIT_JUDGE_ERROR, fail, wide_console, write_text
from minesweeper.judge.escape import printable
from minesweeper.judge.grading import discover
from minesweeper.judge.headers import Role, compile_command, require_compiler
from minesweeper.judge.process import Limits
from minesweeper.judge.sandbox import Sandbox, describe, require
from minesweeper.judge.submissions import (
    Grading,
    Row,
    csv_text,
    find_submissions,
    grade_class,
    has_judge_error,
    json_text,
)
from minesweeper.topology.base import Topology

#: How many notes of one student the terminal shows (JSON keeps them all).
SHOWN_NOTES = 3


def default_cases() -> tuple[Path, ...]:
    """The cases a class is graded on when none are named: the repository's ``testcases/``
    (beside the package, else in the working folder) and the public ACM ones beside the
    repository (``../shared/acm-2023``) when present."""
    root = Path(minesweeper.__file__).resolve().parent.parent
    candidates = [root / "testcases", Path("testcases"), root.parent / "shared" / "acm-2023"]
    found = [path for path in candidates if path.is_dir()]
    unique = list({path.resolve(): path for path in found}.values())
    if not unique:
        raise click.UsageError("no testcases/ folder found: give the folders of cases, DIR...")
    return tuple(unique)


def class_grading(
    paths: tuple[Path, ...],
    limits: Limits,
    compile_limits: Limits,
    sandbox: Sandbox | None,
    topology: type[Topology],
) -> Grading:
    """The cases (``paths``, else `default_cases`) of ``topology`` every student is graded
    on, named on stderr where a path cannot be read or is of another topology."""
    paths = paths or default_cases()
    everything = discover(paths, topology)
    for case in everything:
        if case.problem:
            click.echo(f"minesweeper: {case.name}: {case.problem} (not graded)", err=True)
    cases = tuple(case for case in everything if not case.problem and case.topology == topology)
    others = sum(not case.problem and case.topology != topology for case in everything)
    if others:
        click.echo(
            f"{others} case file(s) of other topologies not graded: headers play "
            f"{topology.name} boards (--topology NAME grades that topology's cases)",
            err=True,
        )
    if not cases:
        raise click.UsageError(f"no .in files of topology {topology.name} found")
    if sandbox is not None:
        sandbox = dataclasses.replace(sandbox, hidden=tuple(path.resolve() for path in paths))
    return Grading(cases, limits, sandbox, compile_limits, topology)


def grade_submissions(
    folder: Path,
    grading: Grading,
    jobs: int,
    trace: bool,
    json_path: Path | None,
    csv_path: Path | None,
) -> None:
    """Grade every student of ``folder`` and print the scoreboard; write the reports."""
    require_compiler()
    if grading.sandbox is not None:
        require()
    submissions = find_submissions(folder)
    if not submissions:
        raise click.UsageError(f"{folder}: no student folders in it")
    if trace:
        for role in Role:
            student = Path("STUDENT") / role.header
            command = compile_command(role, student, Path("BUILD") / role.value)
            click.echo(f"build {role.header}: {shlex.join(command)}", err=True)
    console = wide_console()
    console.print(Text(describe(grading.sandbox)))
    columns = (TextColumn("grading"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, TextColumn("{task.description}"), console=console) as progress:
        task = progress.add_task("", total=len(submissions))

        def done(row: Row) -> None:
            progress.update(task, advance=1, description=printable(row.student))

        rows = grade_class(submissions, grading, jobs, done)
    console.print(scoreboard(rows))
    for row in rows:
        for note in row.notes[:SHOWN_NOTES]:
            console.print(Text(f"{printable(row.student)}: {printable(note)}"), soft_wrap=True)
        if len(row.notes) > SHOWN_NOTES:
            more = len(row.notes) - SHOWN_NOTES
            console.print(Text(f"{printable(row.student)}: ... {more} more (see --json)"))
    console.print(class_summary(rows))
    if csv_path is not None:
        write_text(csv_path, csv_text(rows))
    if json_path is not None:
        write_text(json_path, json_text(rows))
    if machine := [row.student for row in rows if has_judge_error(row)]:
        names = ", ".join(printable(student) for student in machine)
        fail(
            f"{len(machine)} student(s) with a judge error (the machine failed, not their "
            f"code): {names}; grade them again",
            EXIT_JUDGE_ERROR,
        )


def scoreboard(rows: list[Row]) -> Table:
    table = Table(title="Submissions")
    for heading in ("student", "server.h", "basic", "client.h", "advanced", "seconds"):
        table.add_column(heading, justify="right" if heading == "seconds" else "left")
    for row in rows:
        table.add_row(
            Text(printable(row.student)),
            _build_cell(row.server_build),
            f"{row.basic_passed}/{row.basic_total}",
            _build_cell(row.client_build),
            f"{row.advanced_won}/{row.advanced_total}",
            f"{row.seconds:.1f}",
        )
    return table


def _build_cell(cell: str) -> Text:
    colour = {"ok": "green", "missing": "yellow"}.get(cell, "red")
    return Text(cell, colour)


def class_summary(rows: list[Row]) -> str:
    seconds = statistics.median(row.seconds for row in rows)
    builds = statistics.median(row.build_seconds for row in rows)
    return (
        f"{len(rows)} student(s); median {seconds:.1f} s per student, "
        f"of which {builds:.1f} s building"
    )
