"""How a judge's output that differs from the expected one is shown: the line, its map and
move, and the expected and actual lines there side by side."""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st
from paths import ROOT

from minesweeper.judge.difference import EXCERPT_COLS, EXCERPT_ROWS, compare_output
from minesweeper.server import serve

BASIC = ROOT / "testcases" / "basic"
GIVEN = (BASIC / "repeated-visits.in").read_bytes()
EXPECTED = (BASIC / "repeated-visits.out").read_bytes()
LINES = EXPECTED.decode().splitlines()


def served(given: bytes) -> bytes:
    output = io.StringIO()
    serve(io.BytesIO(given), output)
    return output.getvalue().encode()


def with_line(number: int, text: str | None) -> bytes:
    """The expected output with line ``number`` replaced (None: the output ends before it)."""
    lines = LINES[: number - 1] if text is None else [*LINES[: number - 1], text, *LINES[number:]]
    return "".join(line + "\n" for line in lines).encode()


def test_equal_outputs_do_not_differ() -> None:
    assert compare_output(EXPECTED, EXPECTED, GIVEN) is None


def test_a_wrong_count_names_its_move_and_shows_its_map() -> None:
    difference = compare_output(with_line(8, "?3?"), EXPECTED, GIVEN)
    assert difference is not None
    assert difference.summary == (
        "line 8 (after move 2 '1 1' (input line 6), map row 2): got '?3?', expected '?2?'"
    )
    assert difference.excerpt.splitlines() == [
        "the map after move 2 '1 1' (input line 6), output lines 7-9:",
        "   expected  got",
        "7  ???       ???",
        "8  ?2?       ?3?  <-",
        "9  ???       ???",
    ]


def test_the_first_map_is_the_board_as_read() -> None:
    difference = compare_output(with_line(1, "?!?"), EXPECTED, GIVEN)
    assert difference is not None
    assert difference.summary.startswith("line 1 (the board as read, map row 1): ")
    assert difference.excerpt.splitlines()[0] == "the map of the board as read, output lines 1-3:"


def test_a_wrong_result_names_the_move_that_decided_the_game() -> None:
    difference = compare_output(with_line(22, "GAME OVER!"), EXPECTED, GIVEN)
    assert difference is not None
    assert difference.summary == (
        "line 22 (the result lines, after move 6 '2 0' (input line 10)): "
        "got 'GAME OVER!', expected 'YOU WIN!'"
    )
    assert difference.excerpt.splitlines() == [
        "the result lines, after move 6 '2 0' (input line 10), output lines 22-23:",
        "    expected  got",
        "22  YOU WIN!  GAME OVER!  <-",
        "23  7 6       7 6",
    ]


def test_a_damaged_expected_verdict_is_still_the_result() -> None:
    difference = compare_output(EXPECTED, with_line(22, "YOU WIN!!"), GIVEN)
    assert difference is not None
    assert difference.summary == (
        "line 22 (the result lines, after move 6 '2 0' (input line 10)): "
        "got 'YOU WIN!', expected 'YOU WIN!!'"
    )


def test_output_that_ends_early_or_goes_on() -> None:
    short = compare_output(with_line(10, None), EXPECTED, GIVEN)
    assert short is not None
    assert short.summary == (
        "line 10 (after move 3 '0 1' (input line 7), map row 1): the output ends, expected '?1?'"
    )
    assert short.excerpt.splitlines()[2:] == [
        "10  ?1?       (no line)  <-",
        "11  ?2?       (no line)  <-",
        "12  ???       (no line)  <-",
    ]
    long = compare_output(EXPECTED + b"???\n", EXPECTED, GIVEN)
    assert long is not None
    assert long.summary == (
        "line 24 (past the end of the expected output): got '???', expected the output to end"
    )
    assert long.excerpt.splitlines()[-1] == "24  (no line)  ???  <-"


def test_only_the_last_newline_differs() -> None:
    difference = compare_output(EXPECTED.rstrip(b"\n"), EXPECTED, GIVEN)
    assert difference is not None
    assert difference.summary == "line 23: '7 6' lacks the newline that ends it, expected one"
    difference = compare_output(b"a\n", b"a", b"")
    assert difference is not None
    assert difference.summary == "line 1: 'a' ends with a newline, expected none"


def test_without_a_readable_board_the_lines_around_are_shown() -> None:
    difference = compare_output(b"1\n2\n3\n4\nX\n6\n7\n8\n9\n", b"1\n2\n3\n4\n5\n6\n7\n8\n9\n")
    assert difference is not None
    assert difference.summary == "line 5: got 'X', expected '5'"
    assert difference.excerpt.splitlines() == [
        "output lines 2-8:",
        "   expected  got",
        "2  2         2",
        "3  3         3",
        "4  4         4",
        "5  5         X  <-",
        "6  6         6",
        "7  7         7",
        "8  8         8",
    ]


def test_a_big_map_shows_a_window_around_the_difference() -> None:
    rows, cols = 40, 100
    board = "\n".join("." * cols for _ in range(rows - 1)) + "\n" + "." * (cols - 1) + "X"
    given = f"{rows} {cols}\n{board}\n0 0\n".encode()
    expected = served(given)
    lines = expected.decode().splitlines()
    # Row 30 of the map after the move (output line 40 + 30), column 70.
    lines[69] = lines[69][:69] + "5" + lines[69][70:]
    difference = compare_output(("\n".join(lines) + "\n").encode(), expected, given)
    assert difference is not None
    assert difference.summary == (
        "line 70 (after move 1 '0 0' (input line 42), map row 30): "
        f"got {'0' * 15 + '5' + '0' * 14!r}, expected {'0' * 30!r} (columns 55-84)"
    )
    excerpt = difference.excerpt.splitlines()
    assert excerpt[0] == (
        "the map after move 1 '0 0' (input line 42), output lines 66-74 of 41-80, "
        "columns 55-84 of 100:"
    )
    assert len(excerpt) == 2 + EXCERPT_ROWS
    assert [line.split()[0] for line in excerpt[2:]] == [str(n) for n in range(66, 75)]
    assert excerpt[6] == f"70  {'0' * EXCERPT_COLS}  {'0' * 15 + '5' + '0' * 14}  <-"


def test_characters_a_terminal_acts_on_are_escaped() -> None:
    difference = compare_output(with_line(8, "?2?\r\x1b[0m"), EXPECTED, GIVEN)
    assert difference is not None
    assert "8  ?2?       ?2?\\r\\x1b[0m  <-" in difference.excerpt.splitlines()
    assert "\x1b" not in difference.summary + difference.excerpt


@given(st.integers(0, len(EXPECTED) - 1), st.sampled_from(["?", "0", "1", "X", "@", " ", "\n"]))
def test_the_line_named_is_the_first_that_differs(position: int, char: str) -> None:
    actual = EXPECTED[:position] + char.encode() + EXPECTED[position + 1 :]
    difference = compare_output(actual, EXPECTED, GIVEN)
    assert (difference is None) == (actual == EXPECTED)
    if difference is None:
        return
    got, want = actual.split(b"\n"), EXPECTED.split(b"\n")
    first = next(i for i, pair in enumerate(zip(got, want, strict=False)) if pair[0] != pair[1])
    assert difference.summary.startswith(f"line {first + 1} (")
    marked = [line.split()[0] for line in difference.excerpt.splitlines() if line.endswith("<-")]
    assert marked[0] == str(first + 1)
