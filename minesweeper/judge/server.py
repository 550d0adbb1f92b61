"""A foreign judge server graded on a basic case: its output against the ``.out``, byte for
byte or as the course's judge compared (`judge.comparison`)."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Sequence

from minesweeper.errors import MachineError, MinesweeperError
from minesweeper.inputs import read_regular
from minesweeper.judge.comparison import Compare, normalised, not_exact, passes
from minesweeper.judge.difference import compare_output
from minesweeper.judge.grading import BasicGrade, Found
from minesweeper.judge.process import Child, ChildProblem, Limits, describe_exit, judge_error
from minesweeper.judge.sandbox import Sandbox


def grade_server(
    case: Found,
    command: Sequence[str],
    limits: Limits,
    sandbox: Sandbox | None = None,
    compare: Compare = Compare.EXACT,
) -> BasicGrade:
    """Pipe ``case``'s input into a fresh ``command`` (in ``sandbox``, unless None) and
    compare what it prints with the ``.out`` as ``compare`` says; an output that passes
    without being byte-exact has a ``note`` saying where.

    The whole case must finish within ``limits.game_seconds`` and print at most
    ``limits.output_bytes`` or the expected output and one byte. A server killed
    by a signal or a limit fails even when its output matched so far; its exit
    status is not compared (the reference exits with 2 on bad input), but a
    failing case names a status other than 0.
    """
    try:
        given = read_regular(case.path)
        expected = read_regular(case.path.with_suffix(".out"))
    except MinesweeperError as problem:
        return BasicGrade(case.name, False, str(problem))
    # A correct server may print more than the limit on a big board: allow what is expected.
    limits = dataclasses.replace(limits, output_bytes=max(limits.output_bytes, len(expected) + 1))
    try:
        child = Child(command, limits, sandbox)
    except MachineError as error:
        return BasicGrade(case.name, False, judge_error(error))
    except OSError as error:
        reason = error.strerror or str(error)
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
    if passes(actual, expected, compare) and not ended:
        return BasicGrade(case.name, True, stderr=_stderr(child), note=not_exact(actual, expected))
    if compare is Compare.JUDGE:  # show the first difference that counts
        actual, expected = normalised(actual), normalised(expected)
    difference = compare_output(actual, expected, given, case.topology)
    if not ended and code:  # not a verdict of its own, but it says why the output stopped
        ended = describe_exit(code, limits, stderr)
    detail = [ended] if ended else []
    if difference is not None:
        detail.append(difference.summary)
    excerpt = difference.excerpt if difference is not None else ""
    return BasicGrade(case.name, False, "; ".join(detail), _stderr(child), excerpt)


def _stderr(child: Child) -> str:
    return child.stderr_tail.decode(errors="replace")
