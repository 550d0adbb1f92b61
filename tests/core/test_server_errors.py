"""Bad input: one stderr line naming the line, exit status 2, maps already printed kept."""

from __future__ import annotations

import pytest
from judge_helpers import run_cli

MAP_3X3 = "???\n???\n???\n"

CASES = [
    # (input, expected line number, words in the message, maps printed before the error)
    ("", 1, "header", ""),
    ("3\n", 1, "header", ""),
    ("3 x\n", 1, "header", ""),
    ("3 3 3\n", 1, "header", ""),
    ("0 3\n", 1, "at least 1x1", ""),
    ("3 -1\n", 1, "at least 1x1", ""),
    ("3 3\n...\n..\n...\n", 3, "row 2 has 2 characters, expected 3", ""),
    ("3 3\n...\n....\n...\n", 3, "row 2 has 4 characters", ""),
    ("3 3\n...\n.#.\n...\n", 3, "unexpected character '#'", ""),
    ("3 3\n...\n...\n", 4, "row 3 of 3", ""),
    ("2 2\nXX\nXX\n", 3, "no safe cell", ""),
    ("3 3\n...\n.X.\n...\n0\n", 5, "two integers", MAP_3X3),
    ("3 3\n...\n.X.\n...\na b\n", 5, "two integers", MAP_3X3),
    ("3 3\n...\n.X.\n...\n0 1.5\n", 5, "two integers", MAP_3X3),
    ("3 3\n...\n.X.\n...\n0 0 0\n", 5, "two integers", MAP_3X3),
    ("3 3\n...\n.X.\n...\n3 0\n", 5, "outside", MAP_3X3),
    ("3 3\n...\n.X.\n...\n0 -1\n", 5, "outside", MAP_3X3),
    ("3 3\n...\n.X.\n...\n0 0\n\n9 9\n", 7, "outside", MAP_3X3 + "1??\n???\n???\n"),
]


@pytest.mark.parametrize(("text", "line", "words", "printed"), CASES)
def test_bad_input(text: str, line: int, words: str, printed: str) -> None:
    run = run_cli(["server"], stdin=text)
    assert run.exit_code == 2
    assert run.stdout == printed
    lines = run.stderr.splitlines()
    assert len(lines) == 1, run.stderr
    assert f"line {line}:" in lines[0]
    assert words in lines[0]
    assert "Traceback" not in run.stderr


def test_missing_file_is_a_clear_error() -> None:
    run = run_cli(["server", "/nonexistent/board.in"])
    assert run.exit_code == 2
    assert "Traceback" not in run.stderr
    assert "/nonexistent/board.in" in run.stderr
