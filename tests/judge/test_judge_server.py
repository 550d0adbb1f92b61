"""The judge against foreign servers: output compared byte for byte, faults named."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paths import ROOT, TESTS

from minesweeper.judge.grading import discover, grade_basic
from minesweeper.judge.process import Limits
from minesweeper.judge.server import grade_server

ROOT = ROOT
BAD_SERVER = TESTS / "clients" / "bad_server.py"
CASE = discover([ROOT / "testcases" / "basic" / "repeated-visits.in"])[0]
LIMITS = Limits(game_seconds=5.0)
pytestmark = pytest.mark.usefixtures("no_child_left_behind")


def bad(*args: str) -> list[str]:
    return [sys.executable, str(BAD_SERVER), *args]


@pytest.mark.parametrize(
    ("line", "detail"),
    [
        (2, "line 2 (the board as read, map row 2): got '!!!', expected '???'"),
        (5, "line 5 (after move 1 '1 1' (input line 5), map row 2): got '!!!', expected '?2?'"),
        (17, "line 17 (after move 5 '0 2' (input line 9), map row 2): got '!!!', expected '?21'"),
        (
            22,
            "line 22 (the result lines, after move 6 '2 0' (input line 10)): "
            "got '!!!', expected 'YOU WIN!'",
        ),
    ],
)
def test_a_wrong_line_is_named_with_its_map_and_move(line: int, detail: str) -> None:
    grade = grade_server(CASE, bad("wrong-line", str(line)), LIMITS)
    assert not grade.passed
    assert grade.detail == detail


def test_a_crashing_server() -> None:
    grade = grade_server(CASE, bad("segfault"), LIMITS)
    assert grade.detail == (
        "crashed (signal 11); line 4 (after move 1 '1 1' (input line 5), map row 1): "
        "the output ends, expected '???'"
    )
    assert grade.excerpt.splitlines()[2:] == [
        "4  ???       (no line)  <-",
        "5  ?2?       (no line)  <-",
        "6  ???       (no line)  <-",
    ]


def test_the_built_in_judge_and_a_foreign_server_show_a_difference_alike(
    tmp_path: Path,
) -> None:
    (tmp_path / "x.in").write_bytes(CASE.path.read_bytes())
    expected = CASE.path.with_suffix(".out").read_bytes()
    (tmp_path / "x.out").write_bytes(expected.replace(b"YOU WIN!", b"GAME OVER!"))
    [case] = discover([tmp_path])
    ours = grade_basic(case)
    theirs = grade_server(case, [sys.executable, "-m", "minesweeper", "server"], LIMITS)
    assert not ours.passed and not theirs.passed
    assert "after move 6 '2 0' (input line 10)" in ours.detail
    assert (ours.detail, ours.excerpt) == (theirs.detail, theirs.excerpt)


def test_a_hanging_server() -> None:
    grade = grade_server(CASE, bad("hang"), Limits(game_seconds=0.5))
    assert (grade.passed, grade.detail) == (False, "time limit (0.5 s)")


def test_a_server_that_writes_too_much() -> None:
    grade = grade_server(CASE, ["yes"], Limits(output_bytes=1000))
    assert (grade.passed, grade.detail) == (False, "output limit (1000 bytes)")


def test_a_server_may_print_its_expected_output_whatever_the_limit() -> None:
    command = [sys.executable, "-m", "minesweeper", "server"]
    expected = CASE.path.with_suffix(".out").read_bytes()
    assert grade_server(CASE, command, Limits(output_bytes=10)).passed
    grade = grade_server(CASE, ["yes"], Limits(output_bytes=10))
    assert grade.detail == f"output limit ({len(expected) + 1} bytes)"


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300))
def test_whatever_a_server_prints_the_judge_gives_a_verdict(output: bytes) -> None:
    code = f"import sys; sys.stdout.buffer.write({output!r})"
    grade = grade_server(CASE, [sys.executable, "-c", code], LIMITS)
    assert grade.passed == (output == CASE.path.with_suffix(".out").read_bytes())
    assert grade.passed or grade.detail
