"""What the judge promises whatever a program writes: bounded memory, reports safe to
print and to parse, results from workers that are data and nothing else."""

from __future__ import annotations

import json
import shlex
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from judge_helpers import run_cli
from paths import TESTS

from minesweeper.boards.cases import parse_case
from minesweeper.judge.grading import AdvancedGrade, BasicGrade
from minesweeper.judge.interactive import UNREAD_BYTES, UNREAD_MAPS, play_client
from minesweeper.judge.process import Limits
from minesweeper.judge.workers import decode, encode

#: Writes NUL, ESC and a screen-clearing sequence to stderr, then a bad move with ESC.
NOISY = (
    "import sys; sys.stdin.readline(); "
    "sys.stderr.write('nul \\x00 esc \\x1b[2J\\x1b]0;title\\x07 end\\n'); sys.stderr.flush(); "
    "print('\\x1b[2J 1', flush=True); sys.stdin.read()"
)
BOARD = "2 10\n..........\nX.X.X.X.X.\n0 1\n"


def test_a_client_that_stops_reading_is_stopped_at_the_stated_backlog() -> None:
    # 300x300 maps of 90 KB each: a client that sends 40 moves (the first cell again and
    # again, a mine beside it) and reads nothing.
    size = 300
    rows = [".X" + "." * (size - 2)] + ["." * size] * (size - 1)
    case = parse_case(f"{size} {size}\n" + "\n".join(rows) + "\n0 0\n")
    moves = "0 0\\n" * 40
    code = f"import sys, time; sys.stdout.write('{moves}'); sys.stdout.flush(); time.sleep(30)"
    run = play_client(case, [sys.executable, "-c", code], Limits(move_seconds=10))
    assert run.problem.startswith("stopped reading its input (")
    unread = int(run.problem.split("(")[1].split()[0])
    one_map = size * (size + 1)
    assert max(UNREAD_MAPS * one_map, UNREAD_BYTES) < unread <= UNREAD_BYTES + 5 * one_map


def test_trace_escapes_what_the_client_writes(tmp_path: Path) -> None:
    (tmp_path / "board.in").write_text(BOARD)
    client = shlex.join([sys.executable, "-c", NOISY])
    result = run_cli(
        ["judge", "--client", client, "--trace", "--no-sandbox", str(tmp_path / "board.in")]
    )
    assert result.exit_code == 1
    assert "\x1b" not in result.stderr and "\x00" not in result.stderr
    assert "client: \\x1b[2J 1" in result.stderr
    assert "stderr: nul \\x00 esc \\x1b[2J\\x1b]0;title\\x07 end" in result.stderr


def test_junit_and_json_stay_well_formed_whatever_the_program_wrote(tmp_path: Path) -> None:
    (tmp_path / "board.in").write_text(BOARD)
    client = shlex.join([sys.executable, "-c", NOISY])
    junit, report = tmp_path / "r.xml", tmp_path / "r.json"
    args = [
        "grade",
        "--client",
        client,
        "--no-sandbox",
        "--junit",
        str(junit),
        "--json",
        str(report),
    ]
    result = run_cli([*args, str(tmp_path)])
    assert result.exit_code == 1
    assert "\x1b" not in result.stdout
    case = ET.parse(junit).getroot().find("testsuite/testcase")
    assert case is not None
    assert case.findtext("system-err") == "nul \\x00 esc \\x1b[2J\\x1b]0;title\\x07 end\n"
    failure = case.find("failure")
    assert failure is not None and failure.get("message") == 'bad output line 1: "\\x1b[2J 1"'
    game = json.loads(report.read_text(encoding="ascii"))["advanced"][0]
    assert (
        game["stderr"] == "nul \x00 esc \x1b[2J\x1b]0;title\x07 end\n"
    )  # JSON keeps them, escaped


def test_grades_go_through_json_and_back() -> None:
    grades = [
        BasicGrade("a.in", False, "line 2", "err\x00", "x"),
        AdvancedGrade("b.in", True, True, 3, 4, 0.5),
    ]
    assert decode(encode(grades)) == grades


@pytest.mark.parametrize(
    "data",
    [
        b"\x80\x04\x95",  # a pickle
        b'{"kind": "basic"}',
        b'[{"kind": "other", "name": "a"}]',
        b'[{"kind": "basic", "name": "a", "passed": 1, "detail": "", "stderr": "", "excerpt": ""}]',
        b'[{"kind": "advanced", "name": "a", "won": true}]',
        b'[{"kind": "basic", "name": "a", "passed": true, "detail": "", "stderr": "", '
        b'"excerpt": "", "__class__": "x"}]',
    ],
)
def test_anything_but_grades_is_refused(data: bytes) -> None:
    with pytest.raises(ValueError):
        decode(data)


def test_a_worker_that_dies_fails_its_case_and_a_fresh_one_grades_the_rest(tmp_path: Path) -> None:
    # Unsandboxed, a client can kill the worker that started it: on the first board only.
    for name in ("a", "b", "c"):
        (tmp_path / f"{name}.in").write_text(BOARD)
    code = (
        "import os, signal, sys\n"
        "if os.path.exists(sys.argv[1]):\n"
        "    os.execv(sys.executable, [sys.executable, *sys.argv[2:]])\n"
        "open(sys.argv[1], 'w').close(); os.kill(os.getppid(), signal.SIGKILL)\n"
    )
    honest = [str(TESTS / "clients" / "broken.py"), "none", "99"]
    client = shlex.join([sys.executable, "-c", code, str(tmp_path / "killed"), *honest])
    report = tmp_path / "r.json"
    args = ["grade", "--client", client, "--no-sandbox", "--jobs", "2", "--json", str(report)]
    run_cli([*args, str(tmp_path)])
    outcomes = [game["outcome"] for game in json.loads(report.read_text())["advanced"]]
    assert sorted(outcomes) == ["lost", "lost", "the grading worker died"]
