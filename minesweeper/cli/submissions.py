"""`minesweeper grade --submissions DIR`: a class's headers graded into one scoreboard."""

from __future__ import annotations

import dataclasses
import os
import shlex
import statistics
from collections.abc import Sequence
from pathlib import Path

import click
from rich import box
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from minesweeper.cli.common import EXIT_JUDGE_ERROR, fail, write_text
from minesweeper.cli.grade_report import report_console
from minesweeper.judge.assignment import CASES, COURSE_FOLDER, Kind, classify
from minesweeper.judge.escape import printable
from minesweeper.judge.grading import Found, discover
from minesweeper.judge.headers import Role, compile_command, require_compiler
from minesweeper.judge.process import Limits
from minesweeper.judge.sandbox import Sandbox, describe, require
from minesweeper.judge.submissions import (
    Grading,
    Row,
    Scores,
    csv_text,
    find_submissions,
    grade_class,
    has_judge_error,
    json_text,
)
from minesweeper.topology.base import Topology

#: How many notes of one student the terminal shows (JSON keeps them all).
SHOWN_NOTES = 3
#: What each kind of case is, in the list of cases graded.
KIND_NAMES = {
    Kind.COURSE: "the course's public cases",
    Kind.PROJECT: "the project's, within the assignment's guarantees",
    Kind.EXTRA: "outside the assignment's guarantees: shown, not counted",
}


def default_cases() -> tuple[Path, ...]:
    """The cases a class is graded on when none are named: those that travel with the
    package (the project's ``testcases/``, the course's public cases in it), from a
    checkout or an installed package alike. A missing folder is an error that names it."""
    if not CASES.is_dir():
        raise click.UsageError(
            f"the package's cases are missing ({CASES}): reinstall it, or give the folders "
            "of cases, DIR..."
        )
    if not (CASES / COURSE_FOLDER).is_dir():
        raise click.UsageError(
            f"the course's public cases are missing ({CASES / COURSE_FOLDER}): reinstall the "
            "package, or give the folders of cases, DIR..."
        )
    return (CASES.resolve(),)


def class_grading(
    paths: tuple[Path, ...],
    limits: Limits,
    compile_limits: Limits,
    sandbox: Sandbox | None,
    topology: type[Topology],
) -> Grading:
    """The cases (``paths``, else `default_cases`) of ``topology`` every student is graded
    on, each with its standing with the assignment, named shortly; a path that cannot be
    read or is of another topology is named on stderr."""
    paths = paths or default_cases()
    everything = discover(paths, topology)
    for case in everything:
        if case.problem:
            click.echo(f"minesweeper: {case.name}: {case.problem} (not graded)", err=True)
    cases = [case for case in everything if not case.problem and case.topology == topology]
    others = sum(not case.problem and case.topology != topology for case in everything)
    if others:
        click.echo(
            f"{others} case file(s) of other topologies not graded: headers play "
            f"{topology.name} boards\n(--topology NAME grades that topology's cases)",
            err=True,
        )
    if not cases:
        raise click.UsageError(f"no .in files of topology {topology.name} found")
    if sandbox is not None:
        sandbox = dataclasses.replace(sandbox, hidden=tuple(path.resolve() for path in paths))
    named = tuple(dataclasses.replace(case, name=short_name(case, paths)) for case in cases)
    standings = tuple(classify(case) for case in named)
    return Grading(named, standings, limits, sandbox, compile_limits, topology, roots=paths)


def short_name(case: Found, roots: Sequence[Path]) -> str:
    """``case``'s name in the report: relative to the working folder when it lies under it,
    else from its root folder's name (``testcases/basic/at-map.in``)."""
    for root in roots:
        if root.is_dir() and case.path.is_relative_to(root):
            return str(Path(folder_name(root)) / case.path.relative_to(root))
    return case.name


def folder_name(root: Path) -> str:
    """A folder of cases as the report names it: the package's own by its name
    (``testcases``) wherever it is installed, another relative to the working folder when
    under it, else by its own name."""
    if root.resolve() == CASES.resolve():
        return CASES.name
    here = Path.cwd()
    absolute = root.absolute()
    if absolute.is_relative_to(here) and absolute != here:
        return str(absolute.relative_to(here))
    return root.name or str(root)


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
        show_commands()
    console = report_console()
    console.print(Text(describe(grading.sandbox)))
    print_cases(console, grading)
    columns = (TextColumn("grading"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, TextColumn("{task.description}"), console=console) as progress:
        task = progress.add_task("", total=len(submissions))

        def done(row: Row) -> None:
            progress.update(task, advance=1, description=printable(row.student))

        rows = grade_class(submissions, grading, jobs, done)
    console.print(scoreboard(rows))
    print_notes(console, rows)
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


def show_commands() -> None:
    """The compiler's command lines on stderr (``--trace``), for any student."""
    for role in Role:
        student = Path("STUDENT") / role.header
        command = compile_command(role, student, Path("BUILD") / role.value)
        here = f"{Path.cwd()}{os.sep}"
        words = [word.removeprefix(here) for word in command]
        click.echo(f"build {role.header}: {shlex.join(words)}", err=True)


def print_cases(console: Console, grading: Grading) -> None:
    """Every folder graded, how many cases of each kind it holds, and why each extra case
    is one; how outputs are compared and how often games are played."""
    console.print(Text(f"servers' outputs compared {grading.compare.described}"))
    if grading.repeat > 1:
        console.print(Text(f"each advanced game played {grading.repeat} times"))
    for root in grading.roots:
        mine = [
            (case, standing)
            for case, standing in zip(grading.cases, grading.standings, strict=True)
            if case.path.is_relative_to(root)
        ]
        shown = folder_name(root)
        where = f" ({root.resolve()})" if str(root.resolve()) != shown else ""
        console.print(Text(f"cases in {shown}{where}:"))
        for kind in Kind:
            ofkind = [case for case, standing in mine if standing.kind is kind]
            if ofkind:
                basic = sum(case.basic for case in ofkind)
                counts = [f"{basic} basic"] if basic else []
                counts += [f"{len(ofkind) - basic} advanced"] if len(ofkind) > basic else []
                console.print(Text(f"  {kind.heading}: {', '.join(counts)} ({KIND_NAMES[kind]})"))
        for case, standing in mine:
            if standing.kind is Kind.EXTRA:
                console.print(Text(f"    {printable(case.name)}: {standing.reason}"))


def scoreboard(rows: list[Row]) -> Table:
    """A row per student: each header's build, its score on each kind of case (a kind no
    case is of left out), the seconds spent."""
    table = Table(title="Submissions", box=box.SIMPLE_HEAD, pad_edge=False, collapse_padding=True)
    kinds = {
        role: [kind for kind in Kind if any(scores(row, role).of(kind).total for row in rows)]
        for role in ("basic", "advanced")
    }
    table.add_column("student", overflow="fold")
    table.add_column("server.h", overflow="fold")
    for kind in kinds["basic"]:
        table.add_column(f"basic\n{kind.heading}", justify="right")
    table.add_column("client.h", overflow="fold")
    for kind in kinds["advanced"]:
        table.add_column(f"games\n{kind.heading}", justify="right")
    table.add_column("s", justify="right")
    for row in rows:
        table.add_row(
            Text(printable(row.student)),
            _build_cell(row.server_build),
            *(row.basic.of(kind).shown() for kind in kinds["basic"]),
            _build_cell(row.client_build),
            *(row.advanced.of(kind).shown() for kind in kinds["advanced"]),
            f"{row.seconds:.0f}",
        )
    return table


def scores(row: Row, role: str) -> Scores:
    return row.basic if role == "basic" else row.advanced


def _build_cell(cell: str) -> Text:
    colour = {"ok": "green", "missing": "yellow"}.get(cell, "red")
    return Text(cell, colour)


def print_notes(console: Console, rows: list[Row]) -> None:
    """Under the table, each student's range of games won over the runs, and first notes."""
    for row in rows:
        student = printable(row.student)
        if row.repeat > 1 and row.client_build == "ok":
            ranges = [
                f"{kind.heading} {score.low}-{score.high}"
                for kind in Kind
                if (score := row.advanced.of(kind)).total
            ]
            console.print(Text(f"{student}: games won in a run: {', '.join(ranges)}"))
        for note in row.notes[:SHOWN_NOTES]:
            console.print(Text(f"{student}: {printable(note)}"))
        if len(row.notes) > SHOWN_NOTES:
            more = len(row.notes) - SHOWN_NOTES
            console.print(Text(f"{student}: ... {more} more (see --json)"))


def class_summary(rows: list[Row]) -> str:
    seconds = statistics.median(row.seconds for row in rows)
    builds = statistics.median(row.build_seconds for row in rows)
    return (
        f"{len(rows)} student(s); median {seconds:.1f} s per student, "
        f"of which {builds:.1f} s building"
    )
