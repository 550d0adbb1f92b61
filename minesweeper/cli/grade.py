"""`minesweeper grade`: run every basic and advanced case found in directories."""

from __future__ import annotations

import dataclasses
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

import click
from rich.console import Console
from rich.text import Text

from minesweeper.advanced import DEFAULT_STRATEGY
from minesweeper.bench.executors import JOBS_PER_CORE, max_jobs
from minesweeper.cli.builds import built_headers
from minesweeper.cli.common import (
    EXIT_JUDGE_ERROR,
    fail,
    output_file_option,
    reports_errors,
    seed_option,
    strategy_option,
    topology_option,
    write_text,
)
from minesweeper.cli.grade_report import (
    Standings,
    advanced_table,
    basic_table,
    client_errors,
    counted,
    excerpts,
    report_console,
    summary,
)
from minesweeper.cli.programs import (
    CommandLine,
    compile_options,
    limits_options,
    sandbox_options,
)
from minesweeper.cli.submissions import class_grading, grade_submissions
from minesweeper.errors import UsageError
from minesweeper.judge.assignment import classify
from minesweeper.judge.comparison import Compare
from minesweeper.judge.grading import AdvancedGrade, BasicGrade, Found, discover, judge_errors
from minesweeper.judge.headers import Role
from minesweeper.judge.process import Limits
from minesweeper.judge.report import json_report, junit_xml
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
    type=click.IntRange(min=1, max=max_jobs()),
    default=1,
    show_default=True,
    help="Cases (with --submissions: students) graded at once (at most "
    f"{JOBS_PER_CORE} per core, as bench --jobs).",
)
@click.option(
    "--compare",
    type=click.Choice([rule.value for rule in Compare]),
    help="How a server's output passes: 'exact', byte for byte (the default of --server), "
    "or 'judge', as the course's judge compared, diff -ZB: white space at line ends and "
    "blank lines ignored (the default of --server-header and --submissions). The built-in "
    "judge is compared byte for byte.",
)
@click.option(
    "--repeat",
    type=click.IntRange(min=1, max=1000),
    default=1,
    show_default=True,
    metavar="N",
    help="Play each advanced case N times (clients that draw random numbers): the report "
    "gives the mean and the range of games won.",
)
@output_file_option("--junit", "junit", help="Also write JUnit XML.")
@output_file_option("--json", "json_path", help="Also write JSON.")
@output_file_option("--csv", "csv_path", help="With --submissions: a CSV row per student.")
@click.option("--trace", is_flag=True, help="Show the compiler's command lines on stderr.")
@limits_options(servers=True)
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
    compare: str | None,
    repeat: int,
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
    `--json`) and exits 0 once every student has a row. Headers are graded as
    the course graded them: a server's output compared as its judge did
    (`--compare judge`), and cases outside the assignment's guarantees (a side
    outside 2..30, input that ends before the game is decided, CRLF line ends...)
    shown apart as "extra", never counted against the header.

    Exits 1 when a basic case fails, a case cannot be played or a
    client misbehaves; a lost game is a result, not a failure. A FIFO, a
    device, a broken link or an unreadable folder found on the way is named on
    stderr, not read, and also makes the exit status 1. Exits 3 when the machine
    failed to start a program even when tried again (a judge error, not the
    program's result): grade again.
    """
    check_choices(paths, server, client, server_header, client_header, submissions, csv_path)
    rule = chosen_compare(compare, server, server_header, submissions)
    check_reports({"--junit": junit, "--json": json_path, "--csv": csv_path})
    if submissions is not None:
        grading = class_grading(paths, limits, compile_limits, sandbox, topology)
        grading = dataclasses.replace(grading, compare=rule, repeat=repeat)
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
            rule,
            repeat,
        )
        grade_cases(paths, programs, jobs, junit, json_path, Headers(server_header, client_header))


def chosen_compare(
    compare: str | None,
    server: tuple[str, ...] | None,
    server_header: Path | None,
    submissions: Path | None,
) -> Compare:
    """How a server's output passes: as asked, else a header as the course's judge compared
    it and a program byte for byte."""
    if compare is not None and not (server or server_header or submissions):
        raise click.UsageError("--compare: give --server, --server-header or --submissions")
    if compare is not None:
        return Compare(compare)
    return Compare.JUDGE if server_header is not None or submissions is not None else Compare.EXACT


def check_reports(reports: dict[str, Path | None]) -> None:
    """Each report file named, by its option, can be written (before any case runs)."""
    for option, path in reports.items():
        if path is not None:
            check_writable(path, option, replaced=True)


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


@dataclass(frozen=True)
class Headers:
    """The students' headers graded, if any: the tables name a built program by its header,
    and cases outside the assignment's guarantees do not count against a header."""

    server: Path | None = None
    client: Path | None = None

    @property
    def given(self) -> bool:
        return self.server is not None or self.client is not None


def grade_cases(
    paths: tuple[Path, ...],
    programs: Programs,
    jobs: int,
    junit: Path | None,
    json_path: Path | None,
    headers: Headers = Headers(),
) -> None:
    """Grade the cases under ``paths`` with ``programs`` and print the report."""
    check_programs(programs)
    graded, found, skipped = select_cases(paths, programs)
    console = report_console()
    if programs.foreign:
        console.print(Text(describe(programs.sandbox)))
    if programs.server is not None:
        console.print(Text(f"servers' outputs compared {programs.compare.described}"))
    with console.status("grading...") as status:
        results = list(
            grade_all(found, programs, jobs, lambda c: status.update(f"grading {c.name}"))
        )
    standings = (
        {grade.name: classify(case) for case, grades in results for grade in grades}
        if headers.given
        else {}
    )
    basic = [grade for _, grades in results for grade in grades if isinstance(grade, BasicGrade)]
    advanced = [
        [grade for grade in grades if isinstance(grade, AdvancedGrade)]
        for case, grades in results
        if not case.basic
    ]
    print_report(console, basic, advanced, standings, programs, headers)
    print_left_out(console, graded, found, programs, headers)
    write_reports(junit, json_path, basic, advanced, programs)
    if machine := judge_errors([*basic, *(game for games in advanced for game in games)]):
        fail(f"{machine} case(s) not graded: the machine failed (judge error); grade again",
             EXIT_JUDGE_ERROR)  # fmt: skip
    failures = sum(not g.passed for g in basic if counted(g.name, standings))
    failures += sum(
        bool(g.error) for games in advanced for g in games if counted(g.name, standings)
    )
    if failures or skipped:
        sys.exit(1)


def check_programs(programs: Programs) -> None:
    """Usage errors, and the sandbox, before any case runs."""
    if programs.foreign and programs.sandbox is not None:
        require()
    if programs.foreign and programs.strategy.think is not None:
        raise UsageError(
            "--think: the built-in client does not play with --server or --client: drop --think"
        )


def select_cases(
    paths: tuple[Path, ...], programs: Programs
) -> tuple[list[Found], list[Found], list[Found]]:
    """The cases found that can be read, those of them graded, and the paths skipped (each
    named on stderr)."""
    everything = discover(paths, programs.topology)
    skipped = [case for case in everything if case.problem]
    for case in skipped:
        click.echo(f"minesweeper: {case.name}: {case.problem} (not graded)", err=True)
    graded = [case for case in everything if not case.problem]
    found = [case for case in graded if programs.grades(case)]
    if not found and skipped:
        sys.exit(1)  # each refused file has had its line: one refusal, one line
    if not found:
        shapes = any(programs.other_topology(case) for case in graded)
        raise click.UsageError(
            "no .in files found"
            + (" of that kind" if programs.foreign else "")
            + (f" of topology {programs.topology.name}" if shapes else "")
        )
    return graded, found, skipped


def print_report(
    console: Console,
    basic: list[BasicGrade],
    advanced: list[list[AdvancedGrade]],
    standings: Standings,
    programs: Programs,
    headers: Headers,
) -> None:
    """The tables, the failures' excerpts and the summary line."""
    if basic:
        server = programs.server
        judge = str(headers.server) if headers.server else None
        judge = judge or (shlex.join(server) if server else "built-in")
        console.print(basic_table(basic, judge, standings))
        # Never wrapped by us: excerpts are the programs' own lines, names are paths.
        for failure in excerpts(basic):
            console.print(failure, soft_wrap=True)
    if advanced:
        client = programs.client
        player = str(headers.client) if headers.client else None
        player = player or (shlex.join(client) if client else programs.strategy.label)
        console.print(advanced_table(advanced, player, programs.repeat, standings))
        for note in client_errors([game for games in advanced for game in games]):
            console.print(note, soft_wrap=True)
    console.print(summary(basic, advanced, programs.repeat, standings))


def print_left_out(
    console: Console,
    graded: list[Found],
    found: list[Found],
    programs: Programs,
    headers: Headers,
) -> None:
    """How many case files were not graded, and why."""
    shapes = sum(programs.other_topology(case) for case in graded)
    if shapes:
        console.print(
            f"{shapes} case file(s) of other topologies not graded: the programs play "
            f"{programs.topology.name} boards (--topology NAME for another)"
        )
    ungraded = len(graded) - len(found) - shapes
    if ungraded:
        if programs.server is not None:
            other = "advanced", "--client-header FILE or --client CMD"
        else:
            other = "basic", "--server-header FILE or --server CMD"
        if headers.server and programs.client is None:
            other = "advanced", "--client-header FILE"
        elif headers.client and programs.server is None:
            other = "basic", "--server-header FILE"
        console.print(f"{ungraded} {other[0]} case file(s) not graded: no {other[1]} given")


def write_reports(
    junit: Path | None,
    json_path: Path | None,
    basic: list[BasicGrade],
    advanced: list[list[AdvancedGrade]],
    programs: Programs,
) -> None:
    how = describe(programs.sandbox) if programs.foreign else ""
    games = [game for games in advanced for game in games]
    if junit is not None:
        write_text(junit, junit_xml(basic, games, how))
    if json_path is not None:
        write_text(json_path, json_report(basic, games, how))
