"""`minesweeper grade` end to end: basic byte-for-byte checks, advanced games, exit status."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from doubles import register_doubles

from minesweeper.boards.cases import format_case
from minesweeper.boards.generate import random_board
from minesweeper.cli import main
from minesweeper.grading import discover, first_difference
from minesweeper.server import serve
from minesweeper.topology import SquareTopology

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "acm-2023"


@pytest.fixture(autouse=True)
def _doubles(monkeypatch: pytest.MonkeyPatch) -> None:
    register_doubles(monkeypatch)


def grade(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["grade", "--strategy", "first-unknown", *args])
    return result.exit_code, result.stdout + result.stderr


def write_basic(directory: Path, name: str, text: str, tamper: bool = False) -> None:
    out = io.StringIO()
    serve(io.StringIO(text), out)
    expected = out.getvalue()
    if tamper:
        expected = expected.replace("1", "2", 1)
    (directory / f"{name}.in").write_text(text)
    (directory / f"{name}.out").write_text(expected)


def write_advanced(directory: Path, name: str, seed: int) -> None:
    topology = SquareTopology(6, 7)
    board = random_board(topology, 6, random.Random(seed), 24, "zero")
    (directory / f"{name}.in").write_text(format_case(board, 24))


def test_all_pass(tmp_path: Path) -> None:
    write_basic(tmp_path, "one", "2 2\n.X\n..\n0 0\n1 1\n1 0\n")
    (tmp_path / "deeper").mkdir()
    write_advanced(tmp_path / "deeper", "adv", 1)
    status, output = grade(str(tmp_path))
    assert status == 0, output
    assert "basic: 1/1 passed" in output
    assert "advanced: " in output and "/1 won" in output


def test_a_failing_basic_case_fails_the_run(tmp_path: Path) -> None:
    write_basic(tmp_path, "good", "2 2\n.X\n..\n0 0\n1 1\n1 0\n")
    write_basic(tmp_path, "bad", "2 2\n.X\n..\n0 0\n1 1\n1 0\n", tamper=True)
    status, output = grade(str(tmp_path))
    assert status == 1
    assert "FAIL" in output
    assert "basic: 1/2 passed" in output


def test_a_lost_advanced_game_does_not_fail_the_run(tmp_path: Path) -> None:
    # first-unknown opens (0, 0) next: a mine there loses.
    (tmp_path / "lose.in").write_text("2 3\nX..\n...\n1 2\n")
    status, output = grade(str(tmp_path))
    assert status == 0, output
    assert "lost" in output
    assert "advanced: 0/1 won" in output


def test_an_unplayable_advanced_case_fails_the_run(tmp_path: Path) -> None:
    (tmp_path / "broken.in").write_text("2 3\nX..\n...\n")
    status, output = grade(str(tmp_path))
    assert status == 1
    assert "ERROR" in output
    assert "1 could not be played" in output


def test_topology_subfolders_and_dedup(tmp_path: Path) -> None:
    (tmp_path / "square").mkdir()
    write_advanced(tmp_path / "square", "a", 2)
    found = discover([tmp_path, tmp_path / "square"], "hex")
    assert [(f.path.name, f.topology, f.basic) for f in found] == [("a.in", "square", False)]


def test_first_difference() -> None:
    assert first_difference(b"a\nb\n", b"a\nc\n") == "line 2: got 'b', expected 'c'"
    assert first_difference(b"a\n", b"a\nb\n") == "line 2: got '', expected 'b'"
    assert first_difference(b"a", b"a\n") == "got 1 byte(s), expected 2: they differ at the end"


def test_unknown_strategy_fails_before_grading(tmp_path: Path) -> None:
    write_advanced(tmp_path, "a", 3)
    result = CliRunner().invoke(main, ["grade", "--strategy", "nope", str(tmp_path)])
    assert result.exit_code == 2
    assert "unknown strategy 'nope'" in result.stderr


def test_grades_the_repository_testcases() -> None:
    status, output = grade(str(ROOT / "testcases"))
    assert status == 0, output
    assert "basic: " in output


def test_grades_the_public_acm_cases() -> None:
    if not SHARED.is_dir():
        pytest.skip(f"conformance data absent: {SHARED} not found, public ACM cases not graded")
    status, output = grade(str(SHARED))
    assert status == 0, output
    assert "basic: 5/5 passed" in output
    assert "/5 won" in output
