"""`minesweeper grade` end to end: basic byte-for-byte checks, advanced games, exit status."""

from __future__ import annotations

import io
import json
import random
import shlex
import shutil
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner
from doubles import register_doubles
from paths import ROOT

from minesweeper.boards.cases import format_case
from minesweeper.boards.generate import random_board
from minesweeper.cli import main
from minesweeper.judge.grading import discover
from minesweeper.server import serve
from minesweeper.topology import TOPOLOGIES, SquareTopology

ROOT = ROOT
ACM = ROOT / "testcases" / "acm-2023"


@pytest.fixture(autouse=True)
def _doubles(monkeypatch: pytest.MonkeyPatch) -> None:
    register_doubles(monkeypatch)


def grade(*args: str, columns: int = 80) -> tuple[int, str]:
    """``minesweeper grade ARGS`` in a terminal ``columns`` wide (80, as when piped)."""
    result = CliRunner(env={"COLUMNS": str(columns)}).invoke(
        main, ["grade", "--strategy", "first-unknown", *args]
    )
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
    found = discover([tmp_path, tmp_path / "square"], TOPOLOGIES["hex"])
    assert [(f.path.name, f.topology.name, f.basic) for f in found] == [("a.in", "square", False)]


def altered_case(directory: Path) -> Path:
    """A copy of a repository case whose expected output says ?3? where the judge prints ?2?."""
    directory.mkdir()
    shutil.copy(ROOT / "testcases" / "basic" / "repeated-visits.in", directory)
    lines = (ROOT / "testcases" / "basic" / "repeated-visits.out").read_text().splitlines(True)
    assert lines[7] == "?2?\n"
    lines[7] = "?3?\n"
    (directory / "repeated-visits.out").write_text("".join(lines))
    return directory / "repeated-visits.in"


def test_a_failing_case_shows_its_move_and_the_maps_there(tmp_path: Path) -> None:
    case = altered_case(tmp_path / "cases")
    reports = ["--json", str(tmp_path / "r.json"), "--junit", str(tmp_path / "r.xml")]
    status, output = grade(str(case.parent), *reports, columns=300)  # no line wraps
    assert status == 1
    summary = "line 8 (after move 2 '1 1' (input line 6), map row 2): got '?2?', expected '?3?'"
    excerpt = [
        "the map after move 2 '1 1' (input line 6), output lines 7-9:",
        "   expected  got",
        "7  ???       ???",
        "8  ?3?       ?2?  <-",
        "9  ???       ???",
    ]
    # The table names the case and the line; below it, the maps there.
    assert f"{case}: {summary}\n" + "".join(f"  {line}\n" for line in excerpt) in output
    [entry] = json.loads((tmp_path / "r.json").read_text())["basic"]
    assert (entry["name"], entry["detail"], entry["excerpt"]) == (
        str(case),
        summary,
        "\n".join(excerpt),
    )
    failure = ET.parse(tmp_path / "r.xml").find(".//testcase/failure")
    assert failure is not None
    assert (failure.get("message"), failure.text) == (summary, "\n".join(excerpt))


def test_names_and_details_are_shown_as_they_are(tmp_path: Path) -> None:
    # Brackets are rich markup: a case named so must neither vanish nor break the table.
    write_basic(tmp_path, "[bold]x", "2 2\n.X\n..\n0 0\n1 1\n1 0\n", tamper=True)
    status, output = grade(str(tmp_path), columns=300)
    assert status == 1
    assert f"{tmp_path}/[bold]x.in: line 3 (after move 1" in output


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
    status, output = grade(str(ACM))
    assert status == 0, output
    assert "basic: 5/5 passed" in output
    assert "/5 won" in output


@pytest.mark.slow  # 2.5 s or more end to end
def test_a_foreign_server_plays_only_its_topologys_cases() -> None:
    # The reference server, run as a foreign program, stands for a student's square server.
    every = [case for case in discover([ROOT / "testcases"]) if case.basic]
    square = [case for case in every if case.topology is SquareTopology]
    status, output = grade(
        "--server", "minesweeper server", "--no-sandbox", str(ROOT / "testcases")
    )
    assert status == 0, output
    assert f"basic: {len(square)}/{len(square)} passed" in output
    assert f"{len(every) - len(square)} case file(s) of other topologies not graded" in output
    # Named, a topology's folder is that topology's: the same server told so passes it.
    hexes = ROOT / "testcases" / "basic" / "hex"
    command = "minesweeper server --topology hex"
    status, output = grade("--server", command, "--topology", "hex", "--no-sandbox", str(hexes))
    count = len(list(hexes.glob("*.in")))
    assert status == 0, output
    assert f"basic: {count}/{count} passed" in output


def test_a_failing_servers_exit_status_and_stderr_are_in_the_report(tmp_path: Path) -> None:
    server = tmp_path / "boom.py"
    server.write_text("import sys\nprint('boom', file=sys.stderr)\nsys.exit(3)\n")
    case = ROOT / "testcases" / "basic" / "two-rows.in"
    status, output = grade("--server", f"python3 {server}", "--no-sandbox", str(case))
    assert status == 1
    assert "exited with status 3; line 1" in output
    assert "its standard error, last 1 line(s):\n    boom\n" in output


def test_the_report_of_two_folders_fits_80_columns_and_names_every_case() -> None:
    # Issue 41: `grade testcases/ ../shared/acm-2023/` at 80 columns cut the case names to
    # five identical rows, and piped the table was 98 columns wide.
    status, output = grade(str(ROOT / "testcases" / "advanced"), str(ACM))
    assert status == 0, output
    lines = output.splitlines()
    assert max(map(len, lines)) <= 80
    names = "".join(line.split("│")[1].strip() for line in lines if line.count("│") > 2)
    for case in sorted(ACM.rglob("*.in")):
        assert str(case) in names


def test_compare_judge_passes_trailing_white_space_with_a_note(tmp_path: Path) -> None:
    # A server that prints the right maps with a space at each line's end and no last
    # newline: byte for byte (the default for --server) it fails; as the course's judge
    # compared (--compare judge) it passes, and the report says where it is not exact.
    server = tmp_path / "spaced.py"
    server.write_text(
        "import io, sys\n"
        "from minesweeper.server import serve\n"
        "out = io.StringIO()\n"
        "serve(sys.stdin.buffer, out)\n"
        "sys.stdout.write('\\n'.join(line + ' ' for line in out.getvalue().splitlines()))\n"
    )
    case = ROOT / "testcases" / "basic" / "two-rows.in"
    command = shlex.join([sys.executable, str(server)])
    status, output = grade("--server", command, "--no-sandbox", str(case))
    assert status == 1 and "basic: 0/1 passed" in output
    status, output = grade(
        "--server", command, "--compare", "judge", "--no-sandbox", str(case), columns=300
    )
    assert status == 0, output
    assert "basic: 1/1 passed" in output
    assert "passes; not byte-exact: line 1 ends with ' ' (and 11 more line(s))" in output
    assert "compared as the course's judge (diff -ZB" in output


def test_compare_is_for_a_server(tmp_path: Path) -> None:
    status, output = grade("--compare", "judge", str(ROOT / "testcases" / "basic"))
    assert status == 2
    assert "--compare: give --server, --server-header or --submissions" in output
