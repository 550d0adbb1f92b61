"""A foreign judge server graded on a basic case: its output against the ``.out``, byte for byte."""

from __future__ import annotations

import dataclasses
import subprocess
import time
from collections.abc import Callable, Sequence

from minesweeper.errors import MinesweeperError
from minesweeper.grading import BasicGrade, Found, first_difference
from minesweeper.inputs import read_regular
from minesweeper.judge.process import Child, ChildProblem, Limits, describe_exit
from minesweeper.protocol import LOSS_LINE, WIN_LINE, LineReader, read_board


def grade_server(case: Found, command: Sequence[str], limits: Limits) -> BasicGrade:
    """Pipe ``case``'s input into a fresh ``command`` and compare what it prints with the ``.out``.

    The whole case must finish within ``limits.game_seconds`` and print at most
    ``limits.output_bytes`` or the expected output and one byte. A server killed
    by a signal or a limit fails even when its output matched so far; its exit
    status is not compared (the reference exits with 2 on bad input).
    """
    try:
        given = read_regular(case.path)
        expected = read_regular(case.path.with_suffix(".out"))
    except MinesweeperError as problem:
        return BasicGrade(case.name, False, str(problem))
    # A correct server may print more than the limit on a big board: allow what is expected.
    limits = dataclasses.replace(limits, output_bytes=max(limits.output_bytes, len(expected) + 1))
    try:
        child = Child(command, limits)
    except (OSError, subprocess.SubprocessError) as error:
        reason = getattr(error, "strerror", None) or str(error)
        return BasicGrade(case.name, False, f"cannot run {command[0]!r}: {reason}")
    with child:
        deadline = child.game_deadline
        what = f"time limit ({limits.game_seconds:g} s)"
        try:
            child.send(given)
            child.close_input(deadline, what)
            actual = child.read_all(deadline, what)
        except ChildProblem as problem:
            return BasicGrade(case.name, False, str(problem), _stderr(child))
        code = child.wait_exit(max(deadline, time.monotonic() + 0.1))
    stderr = bytes(child.stderr_tail)
    ended = "" if code is not None and code >= 0 else describe_exit(code, limits, stderr)
    if actual == expected and not ended:
        return BasicGrade(case.name, True, stderr=_stderr(child))
    detail = [ended] if ended else []
    if actual != expected:
        where = output_landmarks(given.decode(errors="replace"), case.topology, expected)
        detail.append(first_difference(actual, expected, where))
    return BasicGrade(case.name, False, "; ".join(detail), _stderr(child))


def _stderr(child: Child) -> str:
    return child.stderr_tail.decode(errors="replace")


def output_landmarks(given: str, topology: str, expected: bytes) -> Callable[[int], str] | None:
    """Names what a line of the judge's output for input ``given`` is: which map, after which move.

    None when the input is not a readable board.
    """
    reader = LineReader(given.splitlines())
    try:
        board = read_board(reader, topology)
    except MinesweeperError:
        return None
    moves = []
    while (line := reader.next()) is not None:
        moves.append(line)
    rows = board.topology.shape[0]
    lines = expected.decode(errors="replace").split("\n")
    verdicts = [no for no, text in enumerate(lines) if text in (WIN_LINE, LOSS_LINE)]
    map_lines = verdicts[0] if verdicts else len(lines)

    def where(line_no: int) -> str:
        if line_no > map_lines:
            return "the result lines"
        index, row = divmod(line_no - 1, rows)
        if index == 0:
            return f"the board as read, map row {row + 1}"
        if index <= len(moves):
            input_line, text = moves[index - 1]
            return f"after move {index} '{text}' (input line {input_line}), map row {row + 1}"
        return f"map {index + 1}, after the input's last move, row {row + 1}"

    return where
