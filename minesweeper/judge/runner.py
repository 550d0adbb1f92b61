"""Grading found cases with built-in or foreign programs, one after another or in parallel."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from minesweeper.advanced import DEFAULT_STRATEGY
from minesweeper.boards.cases import AdvancedCase
from minesweeper.judge.comparison import Compare
from minesweeper.judge.grading import (
    AdvancedGrade,
    BasicGrade,
    Found,
    Grade,
    grade_advanced,
    grade_basic,
    grade_boards,
)
from minesweeper.judge.interactive import ClientRun, play_client
from minesweeper.judge.process import Limits
from minesweeper.judge.sandbox import Sandbox
from minesweeper.judge.server import grade_server
from minesweeper.judge.workers import grade_parallel
from minesweeper.solver.registry import StrategySpec
from minesweeper.topology.base import Topology
from minesweeper.topology.square import SquareTopology


@dataclass(frozen=True)
class Programs:
    """Who plays: a foreign server and/or client command, else the built-in ones.

    When either command is given, only the cases of its kind are graded, and of
    those only the ones of ``topology`` (a program written for square boards is not
    graded on hexagons), unless its command has ``{topology}`` in it (it is told
    each case's topology, so it plays every shape). Foreign programs run in
    ``sandbox``; None runs them unsandboxed (``--no-sandbox``). A foreign server's
    output is compared as ``compare`` says (the built-in judge's byte for byte); every
    advanced board is played ``repeat`` times (the built-in client with seeds ``seed``,
    ``seed + 1``, ...).
    """

    server: tuple[str, ...] | None = None
    client: tuple[str, ...] | None = None
    strategy: StrategySpec = field(default_factory=lambda: StrategySpec(DEFAULT_STRATEGY))
    seed: int = 0
    limits: Limits = field(default_factory=Limits)
    sandbox: Sandbox | None = field(default_factory=Sandbox)
    topology: type[Topology] = SquareTopology
    compare: Compare = Compare.EXACT
    repeat: int = 1

    @property
    def foreign(self) -> bool:
        return self.server is not None or self.client is not None

    def grades(self, case: Found) -> bool:
        """Whether ``case`` is graded at all."""
        if not self.foreign:
            return True
        return self.command(case) is not None and not self.other_topology(case)

    def command(self, case: Found) -> tuple[str, ...] | None:
        """The foreign program that plays ``case``'s kind, if one is given."""
        return self.server if case.basic else self.client

    def other_topology(self, case: Found) -> bool:
        """Whether ``case`` is left out for its topology: its kind's program plays only
        boards of `topology`."""
        command = self.command(case)
        if command is None or any("{topology}" in word for word in command):
            return False
        return case.topology != self.topology


def grade_case(case: Found, programs: Programs) -> list[Grade]:
    """The grades of one case file: a basic case's one, or each board of an advanced file
    (which may hold several) played `Programs.repeat` times, every board of the first run,
    then of the second... (`judge.repeats` groups them)."""
    if case.basic:
        if programs.server is None:
            return [grade_basic(case)]
        command = for_topology(programs.server, case.topology)
        return [grade_server(case, command, programs.limits, programs.sandbox, programs.compare)]
    grades: list[Grade] = []
    for run in range(programs.repeat):
        if programs.client is None:
            grades += grade_advanced(case, programs.strategy, programs.seed + run)
        else:
            command = for_topology(programs.client, case.topology)
            grades += grade_client(case, command, programs.limits, programs.sandbox)
    return grades


def for_topology(command: Sequence[str], topology: type[Topology]) -> list[str]:
    """``command`` with ``{topology}`` in its words replaced by the case's topology name."""
    return [word.replace("{topology}", topology.name) for word in command]


def grade_client(
    case: Found, command: Sequence[str], limits: Limits, sandbox: Sandbox | None = None
) -> list[AdvancedGrade]:
    """Every board of an advanced case file, each played by a fresh process of ``command``."""

    def grade(board: AdvancedCase) -> AdvancedGrade:
        return advanced_grade(play_client(board, command, limits, sandbox=sandbox))

    return grade_boards(case, grade)


def advanced_grade(run: ClientRun) -> AdvancedGrade:
    """A foreign client's game as a row of the advanced table (CPU seconds of the child)."""
    return AdvancedGrade(
        run.name,
        won=run.won,
        finished=run.game.over,
        visit_count=run.game.visit_count,
        steps=run.game.step_count,
        seconds=run.cpu_seconds,
        error=run.problem,
        stderr=run.stderr,
    )


def grade_all(
    cases: Sequence[Found],
    programs: Programs,
    jobs: int = 1,
    started: Callable[[Found], None] | None = None,
) -> Iterator[tuple[Found, list[Grade]]]:
    """Each case with its grades, in the order of ``cases``, ``jobs`` at a time.

    Parallel cases run in worker processes (started fresh, so a worker forks its
    children from a single thread and the built-in client uses every core) that
    send their grades back as JSON (`workers`).
    """
    if jobs <= 1:
        for case in cases:
            if started:
                started(case)
            yield case, grade_case(case, programs)
        return
    grade = functools.partial(grade_case, programs=programs)
    yield from grade_parallel(cases, grade, jobs, started, failed)


def failed(case: Found, problem: str) -> Grade:
    """A case that could not be graded at all, as a failing grade of its kind."""
    return (
        BasicGrade(case.name, False, problem)
        if case.basic
        else AdvancedGrade(case.name, error=problem)
    )
