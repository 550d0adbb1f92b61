"""A class's submissions graded into one scoreboard: one row per student.

Every folder of the submissions folder is one student; their ``server.h`` and
``client.h`` are found anywhere inside it (the shallowest of each name), built
(`judge.headers`) and graded on the same cases, each student apart: a build
that fails, a crash or a time limit costs only that student's row.
"""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import multiprocessing
import os
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path

from minesweeper.judge.grading import AdvancedGrade, BasicGrade, Found, grade_boards
from minesweeper.judge.headers import COMPILE_LIMITS, Build, Role, build
from minesweeper.judge.process import Limits, is_judge_error
from minesweeper.judge.runner import Programs, grade_case
from minesweeper.judge.sandbox import Sandbox
from minesweeper.topology.base import Topology
from minesweeper.topology.square import SquareTopology

#: A build cell when the student handed no such header in.
MISSING = "missing"
#: A build cell when the header built.
BUILT = "ok"
#: The CSV's columns, in order: `Row`'s fields but its notes.
COLUMNS = (
    "student",
    "server_build",
    "basic_passed",
    "basic_total",
    "client_build",
    "advanced_won",
    "advanced_total",
    "seconds",
    "build_seconds",
)


@dataclass(frozen=True)
class Submission:
    """One student's folder and the headers found in it (None: not handed in), and why a
    file of that name was passed over."""

    student: str
    folder: Path
    server: Path | None = None
    client: Path | None = None
    notes: tuple[str, ...] = ()

    def header(self, role: Role) -> Path | None:
        return self.server if role is Role.SERVER else self.client


@dataclass(frozen=True)
class Row:
    """A student's line of the scoreboard. A build cell is ``ok``, ``missing`` or what
    stopped the build (``compile error``, ``compile time limit (60 s)``...); ``seconds`` is
    the wall time of the student's builds and games, ``build_seconds`` that of the builds.
    ``notes`` say, one line each, what failed (kept in JSON and shown under the table)."""

    student: str
    server_build: str
    basic_passed: int
    basic_total: int
    client_build: str
    advanced_won: int
    advanced_total: int
    seconds: float
    build_seconds: float
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Grading:
    """How every student is graded: the cases, the limits, the sandbox, the compile limits."""

    cases: tuple[Found, ...]
    limits: Limits = field(default_factory=Limits)
    sandbox: Sandbox | None = field(default_factory=Sandbox)
    compile_limits: Limits = COMPILE_LIMITS
    topology: type[Topology] = SquareTopology


def find_submissions(folder: Path) -> list[Submission]:
    """Every folder of ``folder`` (hidden ones left out), sorted by name, as a submission."""
    students = sorted(
        entry
        for entry in folder.iterdir()
        if entry.is_dir() and not entry.is_symlink() and not entry.name.startswith(".")
    )
    return [_submission(student) for student in students]


def _submission(folder: Path) -> Submission:
    found: dict[Role, Path | None] = {}
    notes: list[str] = []
    for role in Role:
        candidates = _named(folder, role.header)
        links = [path for path in candidates if path.is_symlink() or not path.is_file()]
        notes += [f"{path.relative_to(folder)}: not a regular file, not built" for path in links]
        files = [path for path in candidates if path not in links]
        found[role] = files[0] if files else None
        if len(files) > 1:
            notes.append(
                f"{len(files)} files named {role.header}: built "
                f"{files[0].relative_to(folder)}, the shallowest"
            )
    return Submission(folder.name, folder, found[Role.SERVER], found[Role.CLIENT], tuple(notes))


def _named(folder: Path, name: str) -> list[Path]:
    """The paths named ``name`` under ``folder``, shallowest first (links not followed,
    hidden folders such as ``__MACOSX`` or ``.git`` left out)."""
    paths = []
    for root, folders, files in os.walk(folder):
        folders[:] = sorted(f for f in folders if not f.startswith((".", "__")))
        paths += [Path(root) / name for _ in range(files.count(name))]
    return sorted(paths, key=lambda path: (len(path.parts), str(path)))


def grade_submission(submission: Submission, grading: Grading) -> Row:
    """Build the student's headers and grade them on every case of their kind."""
    start = time.monotonic()
    notes = list(submission.notes)
    basic = [case for case in grading.cases if case.basic]
    advanced = [case for case in grading.cases if not case.basic]
    with tempfile.TemporaryDirectory(prefix="minesweeper-build-") as scratch:
        builds = {role: _build(submission, role, Path(scratch), grading, notes) for role in Role}
        build_seconds = sum(made.seconds for made in builds.values() if made is not None)
        programs = Programs(
            server=_program(builds[Role.SERVER]),
            client=_program(builds[Role.CLIENT]),
            limits=grading.limits,
            sandbox=grading.sandbox,
            topology=grading.topology,
        )
        grades = [
            grade
            for case in (basic if programs.server else []) + (advanced if programs.client else [])
            for grade in grade_case(case, programs)
        ]
    passed = [g for g in grades if isinstance(g, BasicGrade) and g.passed]
    games = [g for g in grades if isinstance(g, AdvancedGrade)]
    notes += _failures(grades)
    return Row(
        submission.student,
        _cell(builds[Role.SERVER]),
        len(passed),
        len(basic),
        _cell(builds[Role.CLIENT]),
        sum(game.won and not game.error for game in games),
        len(games) if programs.client else _boards(advanced),
        time.monotonic() - start,
        build_seconds,
        tuple(notes),
    )


def _build(
    submission: Submission, role: Role, scratch: Path, grading: Grading, notes: list[str]
) -> Build | None:
    header = submission.header(role)
    if header is None:
        return None
    folder = scratch / role.value
    folder.mkdir()
    made = build(
        role, header, folder, grading.compile_limits, grading.sandbox, sources=submission.folder
    )
    if not made.ok:
        notes.append(f"{role.header}: {made.problem}")
    return made


def _program(made: Build | None) -> tuple[str, ...] | None:
    return (str(made.program),) if made is not None and made.program is not None else None


def _cell(made: Build | None) -> str:
    """A build's cell: ok, missing, or its problem's kind (``compile error``)."""
    if made is None:
        return MISSING
    return BUILT if made.ok else made.problem.split(":")[0]


def _boards(cases: Sequence[Found]) -> int:
    """How many games the advanced cases hold (a file may hold several boards)."""
    return sum(len(grade_boards(case, lambda board: AdvancedGrade(board.name))) for case in cases)


def _failures(grades: Sequence[BasicGrade | AdvancedGrade]) -> list[str]:
    """A note per failed case: its name and, in one line, why."""
    notes = []
    for grade in grades:
        if isinstance(grade, BasicGrade) and not grade.passed:
            notes.append(f"{grade.name}: {grade.detail}")
        elif isinstance(grade, AdvancedGrade) and grade.error:
            notes.append(f"{grade.name}: {grade.error}")
    return notes


def grade_class(
    submissions: Sequence[Submission],
    grading: Grading,
    jobs: int = 1,
    done: Callable[[Row], None] | None = None,
) -> list[Row]:
    """Every submission's row, in the order given, ``jobs`` students at a time; ``done`` is
    called as each row is ready (in the order they finish)."""
    rows: dict[str, Row] = {}
    for row in _rows(submissions, grading, jobs):
        rows[row.student] = row
        if done is not None:
            done(row)
    return [rows[submission.student] for submission in submissions]


def _rows(submissions: Sequence[Submission], grading: Grading, jobs: int) -> Iterator[Row]:
    if jobs <= 1:
        for submission in submissions:
            yield grade_submission(submission, grading)
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures: dict[Future[Row], Submission] = {
            pool.submit(grade_submission, submission, grading): submission
            for submission in submissions
        }
        for future in as_completed(futures):
            try:
                yield future.result()
            except BrokenProcessPool as error:  # a worker died (killed from outside)
                yield _lost(futures[future], grading, f"the grading worker died: {error}")


def _lost(submission: Submission, grading: Grading, problem: str) -> Row:
    basic = sum(case.basic for case in grading.cases)
    advanced = _boards([case for case in grading.cases if not case.basic])
    return Row(submission.student, "", 0, basic, "", 0, advanced, 0.0, 0.0, (problem,))


def csv_text(rows: Sequence[Row]) -> str:
    """The scoreboard as CSV: a header line, then a line per student (`COLUMNS`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows:
        values = dataclasses.asdict(row)
        writer.writerow(_value(values[column]) for column in COLUMNS)
    return out.getvalue()


def json_text(rows: Sequence[Row]) -> str:
    """The scoreboard as JSON: ``{"students": [...]}``, each row with its notes."""
    students = [{**dataclasses.asdict(row), "notes": list(row.notes)} for row in rows]
    for student in students:
        student["seconds"] = round(student["seconds"], 3)
        student["build_seconds"] = round(student["build_seconds"], 3)
    return json.dumps({"students": students}, indent=2) + "\n"


def _value(value: object) -> object:
    return f"{value:.3f}" if isinstance(value, float) else value


def has_judge_error(row: Row) -> bool:
    """Whether the machine failed one of the student's builds or cases (a judge error:
    their note ``NAME: judge error: ...``), so that some of their results are missing."""
    return any(is_judge_error(note.partition(": ")[2]) for note in row.notes)
