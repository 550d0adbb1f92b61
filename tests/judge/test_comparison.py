"""The course's comparison (`judge.comparison`) against the real GNU ``diff -qZB``."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from minesweeper.judge.comparison import Compare, judge_equal, not_exact, passes

DIFF = shutil.which("diff")
needs_diff = pytest.mark.skipif(DIFF is None, reason="GNU diff is not installed")

#: Characters of a judge's output line, and white space diff -Z strips (no newline).
CELLS = "?012345678X@"
WHITE = " \t\r\v\f"


def diff_says_equal(actual: bytes, expected: bytes) -> bool:
    """What the course's judge ran: ``diff -qZB expected actual``; 0 same, 1 different."""
    assert DIFF is not None
    with tempfile.TemporaryDirectory() as folder:
        want, got = Path(folder, "expected"), Path(folder, "actual")
        want.write_bytes(expected)
        got.write_bytes(actual)
        status = subprocess.run(
            [DIFF, "-qZB", str(want), str(got)], capture_output=True, check=False
        ).returncode
    assert status in (0, 1)
    return status == 0


@st.composite
def judge_output(draw: st.DrawFn) -> list[bytes]:
    """A judge's output as lines: maps of non-blank rows, maybe the two result lines."""
    rows = draw(st.lists(st.text(CELLS, min_size=1, max_size=4), min_size=1, max_size=8))
    if draw(st.booleans()):
        rows += [draw(st.sampled_from(["YOU WIN!", "GAME OVER!"])), "3 4"]
    return [row.encode() for row in rows]


@st.composite
def mutated(draw: st.DrawFn, lines: list[bytes]) -> bytes:
    """``lines`` as a student's server might print them: white space at line ends, blank
    lines, no last newline, a changed, lost, doubled or moved line, a NUL byte."""
    out = list(lines)
    for _ in range(draw(st.integers(0, 4))):
        kind = draw(st.sampled_from(["trail", "blank", "change", "drop", "dup", "swap", "lead"]))
        at = draw(st.integers(0, max(0, len(out) - 1)))
        if kind == "trail" and out:
            out[at] += draw(st.text(WHITE, min_size=1, max_size=3)).encode()
        elif kind == "blank":
            out.insert(draw(st.integers(0, len(out))), draw(st.text(WHITE, max_size=2)).encode())
        elif kind == "change" and out:
            out[at] = draw(st.text(CELLS + "\0", min_size=1, max_size=4)).encode()
        elif kind == "drop" and out:
            del out[at]
        elif kind == "dup" and out:
            out.insert(at, out[at])
        elif kind == "swap" and len(out) > 1:
            out[at], out[-1] = out[-1], out[at]
        elif kind == "lead" and out:
            out[at] = b" " + out[at]
    text = b"".join(line + b"\n" for line in out)
    if text and draw(st.booleans()):
        text = text[:-1]  # the last newline missing
    return text


@needs_diff
@settings(max_examples=400, deadline=None)
@given(st.data())
def test_the_judges_comparison_is_diff_qZB_on_a_judges_output(data: st.DataObject) -> None:
    lines = data.draw(judge_output())
    expected = b"".join(line + b"\n" for line in lines)
    actual = data.draw(mutated(lines))
    assert judge_equal(actual, expected) == diff_says_equal(actual, expected)
    assert judge_equal(expected, actual) == diff_says_equal(expected, actual)


@needs_diff
@settings(max_examples=300, deadline=None)
@given(
    st.text(CELLS[:3] + WHITE + "\n", max_size=14), st.text(CELLS[:3] + WHITE + "\n", max_size=14)
)
def test_with_blank_lines_on_both_sides_only_diffs_edit_script_may_differ(
    actual: str, expected: str
) -> None:
    # Any text at all: where the rule and diff disagree, both outputs have a blank line
    # (diff's shortest edit script may then pair a blank line with a moved one).
    ours = judge_equal(actual.encode(), expected.encode())
    if ours != diff_says_equal(actual.encode(), expected.encode()):
        for text in (actual, expected):
            assert any(not line.strip() for line in text.split("\n")[:-1])


@needs_diff
def test_a_nul_byte_in_the_first_block_makes_diff_compare_bytes() -> None:
    for at in (0, 4095, 4096, 9000):
        expected = b"x" * at + b"\0\n"
        actual = b"x" * at + b"\0 \n"
        assert judge_equal(actual, expected) == diff_says_equal(actual, expected), at
    assert not judge_equal(b"\0 \n", b"\0\n")
    assert judge_equal(b"x" * 4096 + b"\0 \n", b"x" * 4096 + b"\0\n")


def test_exact_is_byte_for_byte_and_judge_forgives_white_space() -> None:
    expected = b"1?\n??\nGAME OVER!\n1 1\n"
    for actual in (b"1?\n??\nGAME OVER!\n1 1", b"1? \n??\r\n\nGAME OVER!\n1 1\n\n"):
        assert passes(actual, expected, Compare.JUDGE)
        assert not passes(actual, expected, Compare.EXACT)
    for actual in (b"1?\n?? ?\nGAME OVER!\n1 1\n", b" 1?\n??\nGAME OVER!\n1 1\n"):
        assert not passes(actual, expected, Compare.JUDGE)  # inner and leading space count
    assert passes(expected, expected, Compare.EXACT)


def test_not_exact_names_the_first_departure_and_counts_the_others() -> None:
    expected = b"1?\n??\nYOU WIN!\n2 3\n"
    assert not_exact(expected, expected) == ""
    assert not_exact(b"1?\n??\nYOU WIN!\n2 3", expected) == "line 4 lacks its newline"
    assert not_exact(b"1? \n??\nYOU WIN!\n2 3\n", expected) == "line 1 ends with ' '"
    assert (
        not_exact(b"1?\r\n??\r\nYOU WIN!\r\n2 3\r\n", expected)
        == "line 1 ends with '\\r' (and 3 more line(s))"
    )
    assert (
        not_exact(b"1?\n\n??\nYOU WIN!\n2 3\n", expected)
        == "line 2 is blank, the expected output has no such line"
    )
    assert not_exact(b"1?\n??\nYOU WIN!\n2 3\n\n\n", expected).startswith("line 5 is blank")
    assert not_exact(b"1?\n??\nYOU WIN!\n2 3\n", b"1? \n??\nYOU WIN!\n2 3\n") == (
        "line 1 lacks the trailing ' ' of the expected output"
    )
