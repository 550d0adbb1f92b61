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

from minesweeper.judge.assignment import Kind, Standing
from minesweeper.judge.comparison import Compare
from minesweeper.judge.grading import AdvancedGrade, BasicGrade, Found, Grade, grade_boards
from minesweeper.judge.headers import COMPILE_LIMITS, Build, Role, build
from minesweeper.judge.process import Limits, is_judge_error
from minesweeper.judge.repeats import by_board, won
from minesweeper.judge.runner import Programs, grade_case
from minesweeper.judge.sandbox import Sandbox
from minesweeper.topology.base import Topology
from minesweeper.topology.square import SquareTopology

#: A build cell when the student handed no such header in.
MISSING = "missing"
#: A build cell when the header built.
BUILT = "ok"
#: The characters a spreadsheet reads as the start of a formula (OWASP, CSV injection).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r", "\n")


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
class Score:
    """A student's cases of one kind: ``passed`` of ``total`` (games: the mean won over the
    runs, ``low`` and ``high`` the fewest and most won in one run)."""

    passed: float = 0
    total: int = 0
    low: int = 0
    high: int = 0

    def shown(self) -> str:
        """``5/5``, or a mean over runs ``22.4/25``."""
        passed = f"{self.passed:g}" if self.passed == int(self.passed) else f"{self.passed:.1f}"
        return f"{passed}/{self.total}"


@dataclass(frozen=True)
class Scores:
    """A role's scores on the course's cases, the project's within the assignment, and the
    extra ones (`judge.assignment.Kind`)."""

    course: Score = Score()
    project: Score = Score()
    extra: Score = Score()

    def of(self, kind: Kind) -> Score:
        score: Score = getattr(self, kind.value)
        return score


@dataclass(frozen=True)
class CaseResult:
    """One case (one board of an advanced file) of a student: 1 where it passed (the game
    was won), 0 where not, in each run (one for a basic case); and what failed, or where
    an output that passed is not byte-exact."""

    case: str
    role: str
    kind: str
    runs: tuple[int, ...]
    detail: str = ""

    @property
    def passed(self) -> int:
        return sum(self.runs)


@dataclass(frozen=True)
class Row:
    """A student's line of the scoreboard. A build cell is ``ok``, ``missing`` or what
    stopped the build (``compile error``, ``compile time limit (60 s)``...); ``basic`` and
    ``advanced`` score each kind of case; ``repeat`` is how often each game was played;
    ``seconds`` is the wall time of the student's builds and games, ``build_seconds`` that
    of the builds. ``notes`` say, one line each, what failed (kept in JSON and shown under
    the table), ``cases`` every case's result (JSON)."""

    student: str
    server_build: str
    basic: Scores
    client_build: str
    advanced: Scores
    repeat: int
    seconds: float
    build_seconds: float
    notes: tuple[str, ...] = ()
    cases: tuple[CaseResult, ...] = ()


@dataclass(frozen=True)
class Grading:
    """How every student is graded: the cases and each one's standing with the assignment,
    the limits, the sandbox, the compile limits, how a server's output is compared and how
    often each game is played."""

    cases: tuple[Found, ...]
    standings: tuple[Standing, ...] = ()
    limits: Limits = field(default_factory=Limits)
    sandbox: Sandbox | None = field(default_factory=Sandbox)
    compile_limits: Limits = COMPILE_LIMITS
    topology: type[Topology] = SquareTopology
    compare: Compare = Compare.JUDGE
    repeat: int = 1
    roots: tuple[Path, ...] = ()

    def standing(self, case: Found) -> Standing:
        if not self.standings:
            return Standing(Kind.PROJECT)
        return self.standings[self.cases.index(case)]


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
    with tempfile.TemporaryDirectory(prefix="minesweeper-build-") as scratch:
        builds = {role: _build(submission, role, Path(scratch), grading, notes) for role in Role}
        programs = Programs(
            server=_run(builds[Role.SERVER]),
            client=_run(builds[Role.CLIENT]),
            limits=grading.limits,
            sandbox=grading.sandbox,
            topology=grading.topology,
            compare=grading.compare,
            repeat=grading.repeat,
        )
        graded = [(case, _grades(case, programs)) for case in grading.cases]
    results = [result for case, grades in graded for result in _results(case, grades, grading)]
    notes += [_note(result) for result in results if result.detail]
    return Row(
        submission.student,
        _cell(builds[Role.SERVER]),
        _scores(results, "basic"),
        _cell(builds[Role.CLIENT]),
        _scores(results, "advanced"),
        grading.repeat,
        time.monotonic() - start,
        sum(made.seconds for made in builds.values() if made is not None),
        tuple(notes),
        tuple(results),
    )


def _grades(case: Found, programs: Programs) -> list[Grade] | None:
    """The case's grades, None when the student has no program of its kind."""
    if (programs.server if case.basic else programs.client) is None:
        return None
    return grade_case(case, programs)


def _results(case: Found, grades: list[Grade] | None, grading: Grading) -> list[CaseResult]:
    """A case's results: one per basic case, one per board of an advanced file (over the
    runs); a missing program passes nothing."""
    kind = grading.standing(case).kind.value
    if case.basic:
        grade = grades[0] if grades else None
        if not isinstance(grade, BasicGrade):
            return [CaseResult(case.name, "basic", kind, (0,))]
        note = f"passes; not byte-exact: {grade.note}" if grade.note else ""
        return [CaseResult(grade.name, "basic", kind, (int(grade.passed),), grade.detail or note)]
    if grades is None:
        misses = (0,) * grading.repeat
        return [CaseResult(name, "advanced", kind, misses) for name in _board_names(case)]
    games = [grade for grade in grades if isinstance(grade, AdvancedGrade)]
    return [_board_result(board, kind) for board in by_board(games, grading.repeat)]


def _board_result(runs: list[AdvancedGrade], kind: str) -> CaseResult:
    errors = [grade.error for grade in runs if grade.error]
    detail = errors[0] if errors else ""
    if detail and len(runs) > 1:
        detail += f" ({len(errors)} of {len(runs)} runs)"
    return CaseResult(
        runs[0].name, "advanced", kind, tuple(int(won(game)) for game in runs), detail
    )


def _note(result: CaseResult) -> str:
    """A result's line among the student's notes."""
    extra = " (extra case, not counted)" if result.kind == Kind.EXTRA and not result.passed else ""
    return f"{result.case}{extra}: {result.detail}"


def _scores(results: Sequence[CaseResult], role: str) -> Scores:
    """The student's score on each kind of case of ``role``."""
    scores = {}
    for kind in Kind:
        mine = [result for result in results if result.role == role and result.kind == kind]
        runs = max((len(result.runs) for result in mine), default=1)
        wins = [sum(result.runs[run] for result in mine) for run in range(runs)]
        scores[kind.value] = Score(sum(wins) / runs, len(mine), min(wins), max(wins))
    return Scores(**scores)


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
    notes += [f"{role.header}: {note}" for note in made.notes]
    return made


def _run(made: Build | None) -> tuple[str, ...] | None:
    return made.run if made is not None else None


def _cell(made: Build | None) -> str:
    """A build's cell: ok, missing, or its problem's kind (``compile error``)."""
    if made is None:
        return MISSING
    return BUILT if made.ok else made.problem.split(":")[0]


def _board_names(case: Found) -> list[str]:
    """The names of the boards an advanced case file holds (a file may hold several)."""
    return [grade.name for grade in grade_boards(case, lambda board: AdvancedGrade(board.name))]


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
    results = [result for case in grading.cases for result in _results(case, None, grading)]
    basic, advanced = _scores(results, "basic"), _scores(results, "advanced")
    return Row(submission.student, "", basic, "", advanced, grading.repeat, 0.0, 0.0, (problem,))


#: The CSV's columns, in order: the build cells, each kind's passed (games: the mean won
#: over the runs) and total, how often each game was played, the times.
COLUMNS = (
    "student",
    "server_build",
    *(f"basic_{kind.value}_{what}" for kind in Kind for what in ("passed", "total")),
    "client_build",
    *(f"advanced_{kind.value}_{what}" for kind in Kind for what in ("won", "total")),
    "repeat",
    "seconds",
    "build_seconds",
)


def csv_text(rows: Sequence[Row]) -> str:
    """The scoreboard as CSV: a header line, then a line per student (`COLUMNS`). A text
    cell a spreadsheet would run as a formula is neutralised (`cell`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for row in rows:
        writer.writerow(cell(value) for value in _csv_values(row))
    return out.getvalue()


def _csv_values(row: Row) -> list[object]:
    basic = [value for kind in Kind for value in _pair(row.basic.of(kind))]
    advanced = [value for kind in Kind for value in _pair(row.advanced.of(kind))]
    return [row.student, row.server_build, *basic, row.client_build, *advanced, row.repeat,
            f"{row.seconds:.3f}", f"{row.build_seconds:.3f}"]  # fmt: skip


def _pair(score: Score) -> tuple[object, int]:
    passed = int(score.passed) if score.passed == int(score.passed) else round(score.passed, 3)
    return passed, score.total


def cell(value: object) -> object:
    """``value`` as a CSV cell no spreadsheet runs: text starting with ``=``, ``+``, ``-``,
    ``@``, a tab or a line end gets a leading ``'`` (OWASP's advice on CSV injection),
    so a student folder named ``=cmd|' /C calc'!A0`` stays text."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def json_text(rows: Sequence[Row]) -> str:
    """The scoreboard as JSON: ``{"students": [...]}``, each row with its scores by kind of
    case, its notes and every case's result."""
    students = [dataclasses.asdict(row) for row in rows]
    for student in students:
        student["seconds"] = round(student["seconds"], 3)
        student["build_seconds"] = round(student["build_seconds"], 3)
    return json.dumps({"students": students}, indent=2) + "\n"


def has_judge_error(row: Row) -> bool:
    """Whether the machine failed one of the student's builds or cases (a judge error:
    their note ``NAME: judge error: ...``), so that some of their results are missing."""
    return any(is_judge_error(note.partition(": ")[2]) for note in row.notes)
