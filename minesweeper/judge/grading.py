"""Grading directories of test cases: basic judge cases and advanced client games.

A basic case is ``x.in`` with ``x.out``: the judge's stdout for ``x.in`` must
equal ``x.out`` byte for byte. An advanced case is an ``.in`` without ``.out``:
a board and first click (or several) that the client plays. Cases under a
subdirectory named after a topology use that topology.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from minesweeper.advanced import run_case
from minesweeper.boards.cases import AdvancedCase, parse_cases
from minesweeper.errors import MinesweeperError
from minesweeper.inputs import find_files, read_regular
from minesweeper.judge.difference import compare_output
from minesweeper.judge.process import is_judge_error
from minesweeper.server import serve
from minesweeper.solver.registry import StrategySpec
from minesweeper.topology import TOPOLOGIES
from minesweeper.topology.base import Topology
from minesweeper.topology.square import SquareTopology


@dataclass(frozen=True)
class Found:
    """A case file, its topology, and whether it is basic (has an ``.out``).

    ``problem`` says why a path the search found cannot be graded (a FIFO, a
    device, a link loop, an unreadable folder); such a path is reported, not read.
    """

    path: Path
    name: str
    topology: type[Topology]
    basic: bool
    problem: str = ""


@dataclass(frozen=True)
class BasicGrade:
    """A basic case's verdict; ``detail`` says in one line why it failed (where the
    output first differs), ``excerpt`` shows the expected and the actual lines there.

    ``stderr`` is the end of a foreign server's standard error; ``note`` says where an
    output that passed as the course's judge compares is not byte-exact.
    """

    name: str
    passed: bool
    detail: str = ""
    stderr: str = ""
    excerpt: str = ""
    note: str = ""


@dataclass(frozen=True)
class AdvancedGrade:
    """How the client did on one advanced case; ``error`` when it could not be played.

    ``stderr`` is the end of a foreign client's standard error.
    """

    name: str
    won: bool = False
    finished: bool = False
    visit_count: int = 0
    steps: int = 0
    seconds: float = 0.0
    error: str = ""
    stderr: str = ""


#: A case's grade, of either kind.
Grade = BasicGrade | AdvancedGrade


def discover(
    paths: Iterable[Path], default_topology: type[Topology] = SquareTopology
) -> list[Found]:
    """Every ``.in`` under ``paths`` (directories searched recursively), sorted, once each.

    What the search cannot grade comes back with its ``problem`` set.
    """
    found: dict[Path, Found] = {}
    for root in paths:
        files, problems = [root], []
        if root.is_dir():
            search = find_files(root)
            files, problems = search.files, search.problems
        for path, problem in problems:
            found.setdefault(
                path.absolute(), Found(path, str(path), default_topology, False, problem)
            )
        for path in files:
            try:
                key = path.resolve()
            except (OSError, RuntimeError):  # a link loop named on the command line
                key = path.absolute()
            if key in found:
                continue
            relative = path.relative_to(root) if root.is_dir() else Path(path.name)
            # The innermost folder named after a topology, the named folder itself included.
            base = (root if root.is_dir() else root.parent).absolute().name
            folders = [part for part in (base, *relative.parts[:-1]) if part in TOPOLOGIES]
            topology = TOPOLOGIES[folders[-1]] if folders else default_topology
            found[key] = Found(path, str(path), topology, path.with_suffix(".out").exists())
    return list(found.values())


def judge_errors(grades: Iterable[Grade]) -> int:
    """How many of ``grades`` are judge errors: the machine failed to start the program."""
    return sum(
        is_judge_error(grade.detail if isinstance(grade, BasicGrade) else grade.error)
        for grade in grades
    )


def grade_basic(case: Found) -> BasicGrade:
    """Run the judge on ``case`` and compare its stdout with the ``.out`` byte for byte;
    a difference is shown as for a foreign server (`judge.difference`)."""
    stdout = io.StringIO()
    error = ""
    try:
        expected = read_regular(case.path.with_suffix(".out"))
        given = read_regular(case.path)
    except MinesweeperError as problem:
        return BasicGrade(case.name, False, str(problem))
    except OSError as problem:
        return BasicGrade(case.name, False, f"cannot read: {problem.strerror or problem}")
    try:
        serve(io.BytesIO(given), stdout, case.topology)
    except MinesweeperError as problem:
        error = f" (the judge stopped: {problem})"
    difference = compare_output(stdout.getvalue().encode(), expected, given, case.topology)
    if difference is None:
        return BasicGrade(case.name, True)
    return BasicGrade(case.name, False, difference.summary + error, excerpt=difference.excerpt)


def grade_boards(
    case: Found, grade: Callable[[AdvancedCase], AdvancedGrade]
) -> list[AdvancedGrade]:
    """``grade`` applied to every board of an advanced case file; a file that cannot be
    read or parsed is one row with its error."""
    try:
        boards = parse_cases(read_regular(case.path), case.topology, case.name)
    except (MinesweeperError, OSError) as problem:
        return [AdvancedGrade(case.name, error=str(problem))]
    return [grade(board) for board in boards]


def grade_advanced(case: Found, strategy: StrategySpec, seed: int = 0) -> list[AdvancedGrade]:
    """Play every board in ``case`` with a fresh player of ``strategy``; errors become a
    graded row."""

    def grade(board: AdvancedCase) -> AdvancedGrade:
        try:
            result = run_case(board, strategy.build(seed))
        except MinesweeperError as problem:
            return AdvancedGrade(board.name, error=str(problem))
        game = result.game
        return AdvancedGrade(
            board.name,
            won=result.won,
            finished=result.finished,
            visit_count=game.visit_count,
            steps=game.step_count,
            seconds=result.seconds,
        )

    return grade_boards(case, grade)
