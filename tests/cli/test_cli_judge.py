"""`grade --server/--client`, `judge` and `client` end to end: reports, exit status, same games."""

from __future__ import annotations

import io
import json
import random
import shlex
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from judge_helpers import run_cli
from paths import ROOT, TESTS

from minesweeper.advanced import DEFAULT_STRATEGY, run_case
from minesweeper.boards.cases import format_case, read_cases_file
from minesweeper.boards.generate import random_board
from minesweeper.judge.reference import play_stdio
from minesweeper.solver.registry import find_strategy
from minesweeper.topology import TOPOLOGIES, find_topology

ROOT = ROOT
ADVANCED = ROOT / "testcases" / "advanced"
#: A few advanced cases, small to large, for tests that start one process per case.
SOME = [
    ADVANCED / name
    for name in ("adv-05x05-006.in", "adv-10x10-025.in", "adv-16x30-099.in", "adv-30x30-180.in")
]
BROKEN = TESTS / "clients" / "broken.py"
OUR_CLIENT = shlex.join([sys.executable, "-m", "minesweeper", "client"])
BOARD = "2 10\n..........\nX.X.X.X.X.\n0 1\n"
pytestmark = pytest.mark.usefixtures("no_child_left_behind")


def games(report: Path) -> list[tuple]:
    rows = json.loads(report.read_text())["advanced"]
    return [(r["name"], r["outcome"], r["visit_count"], r["steps"]) for r in rows]


def test_our_client_over_pipes_plays_the_same_games_as_in_process(tmp_path: Path) -> None:
    paths = [str(path) for path in SOME]
    built_in = run_cli(["grade", "--json", str(tmp_path / "a.json"), *paths])
    piped = run_cli(["grade", "--client", OUR_CLIENT, "--json", str(tmp_path / "b.json"), *paths])
    assert (built_in.exit_code, piped.exit_code) == (0, 0), piped.stdout
    assert games(tmp_path / "a.json") == games(tmp_path / "b.json")
    assert {outcome for _, outcome, _, _ in games(tmp_path / "b.json")} == {"won", "lost"}


def test_the_stdio_client_makes_the_in_process_clients_moves() -> None:
    # A scripted conversation: the judge's lines, as the in-process game printed them.
    case = read_cases_file(ADVANCED / "adv-16x16-040.in")[0]
    trace = io.StringIO()
    result = run_case(case, find_strategy(DEFAULT_STRATEGY)(0), trace)
    rows = case.board.topology.shape[0]
    lines = trace.getvalue().splitlines()
    moves = lines[:: rows + 1]  # each move line is followed by its map
    maps = [lines[i + 1 : i + 1 + rows] for i in range(0, len(lines), rows + 1)]
    judge = "16 16\n" + "".join("\n".join(m) + "\n" for m in maps) + result.result_lines
    stdout = io.StringIO()
    play_stdio(io.StringIO(judge), stdout, find_strategy(DEFAULT_STRATEGY)(0), TOPOLOGIES["square"])
    assert stdout.getvalue().splitlines() == moves[1:]  # the judge made the first click


#: A cycle of 8 nodes with mines at 3 and 6: the first click at 0 opens 0, 1, 2 and 7.
GRAPH = "8 8\n...X..X.\n" + "".join(f"{u} {(u + 1) % 8}\n" for u in range(8)) + "0\n"


@pytest.mark.parametrize("topology", ["hex", "domino", "parquet", "graph"])
def test_our_client_over_pipes_on_every_kind_of_board(topology: str, tmp_path: Path) -> None:
    if topology == "graph":
        text = GRAPH
    else:
        shape = find_topology(topology).random(8, 8, random.Random(1))
        first = shape.cell_at(4, 4)
        text = format_case(random_board(shape, 10, random.Random(2), first, "zero"), first)
    (tmp_path / "case.in").write_text(text)
    options = ["--topology", topology, str(tmp_path / "case.in")]
    ours = run_cli(["advanced", *options])
    client = shlex.join([sys.executable, "-m", "minesweeper", "client", "--topology", topology])
    piped = run_cli(["judge", "--client", client, *options])
    assert (piped.exit_code, piped.stderr) == (ours.exit_code, "")
    assert piped.stdout == ours.stdout


def test_a_misbehaving_client_fails_the_run_and_the_reports_say_why(tmp_path: Path) -> None:
    (tmp_path / "board.in").write_text(BOARD)
    client = shlex.join([sys.executable, str(BROKEN), "hang", "3"])
    junit, report = tmp_path / "junit.xml", tmp_path / "report.json"
    result = run_cli(
        [
            *("grade", "--client", client, "--move-seconds", "1.5"),
            *("--junit", str(junit), "--json", str(report), str(tmp_path)),
        ]
    )
    assert result.exit_code == 1
    assert "time limit (move 3)" in " ".join(result.stdout.split())  # folded at 80 columns
    assert "advanced: 0/1 won, 1 could not be played" in result.stdout
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None and suite.get("failures") == "1"
    failure = suite.find("testcase/failure")
    assert failure is not None and failure.get("message") == "time limit (move 3)"
    assert games(report) == [(str(tmp_path / "board.in"), "time limit (move 3)", 3, 3)]


def test_a_lost_game_passes_in_junit(tmp_path: Path) -> None:
    (tmp_path / "board.in").write_text(BOARD)
    client = shlex.join([sys.executable, str(BROKEN), "none", "99"])
    junit = tmp_path / "junit.xml"
    result = run_cli(["grade", "--client", client, "--junit", str(junit), str(tmp_path)])
    assert result.exit_code == 0, result.stdout
    case = ET.parse(junit).getroot().find("testsuite/testcase")
    assert case is not None and case.find("failure") is None
    assert case.findtext("system-out") == "lost: 10 visits, 11 steps"


def test_grade_a_server(tmp_path: Path) -> None:
    basic = ROOT / "testcases" / "basic"
    (tmp_path / "hex").mkdir()
    for name in ("repeated-visits", "crlf-whitespace", "ends-early", "hex/hex-1"):
        for suffix in (".in", ".out"):
            shutil.copy(basic / f"{name}{suffix}", tmp_path / f"{name}{suffix}")
    (tmp_path / "advanced.in").write_text(BOARD)  # not graded: no --client
    server = [sys.executable, "-m", "minesweeper", "server", "--topology", "{topology}"]
    result = run_cli(["grade", "--server", shlex.join(server), str(tmp_path)])
    assert result.exit_code == 0, result.stdout
    assert "basic: 4/4 passed" in result.stdout
    assert "1 advanced case file(s) not graded: no --client-header FILE or" in result.stdout
    # The right output given by name (a foreign program does not see the judge's package),
    # readable by the sandbox's user.
    right = str(tmp_path / "repeated-visits.out")
    tmp_path.chmod(0o755)
    bad = shlex.join(
        [sys.executable, str(BROKEN.with_name("bad_server.py")), "wrong-line", "2", right]
    )
    result = run_cli(["grade", "--server", bad, str(tmp_path / "repeated-visits.in")])
    assert result.exit_code == 1
    assert "basic: 0/1 passed" in result.stdout
    assert "the board as read, map row 2" in result.stdout


def test_the_first_click_can_decide_the_game(tmp_path: Path) -> None:
    (tmp_path / "won.in").write_text("1 2\n.X\n0 0\n")
    client = shlex.join([sys.executable, str(BROKEN), "none", "99"])
    result = run_cli(["judge", "--client", client, "--trace", str(tmp_path / "won.in")])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "YOU WIN!\n1 1\n"
    assert result.stderr == "judge: 1 2\njudge: 1@\njudge: YOU WIN!\njudge: 1 1\n"


def test_the_reports_keep_the_clients_stderr(tmp_path: Path) -> None:
    (tmp_path / "board.in").write_text(BOARD)
    client = shlex.join([sys.executable, str(BROKEN), "memory", "2"])
    junit, report = tmp_path / "junit.xml", tmp_path / "report.json"
    result = run_cli(
        [
            *("grade", "--client", client, "--memory", "256"),
            *("--junit", str(junit), "--json", str(report), str(tmp_path)),
        ]
    )
    assert result.exit_code == 1
    case = ET.parse(junit).getroot().find("testsuite/testcase")
    assert case is not None
    failure = case.find("failure")
    assert failure is not None and failure.get("message") == "memory limit (256 MiB)"
    assert "MemoryError" in (case.findtext("system-err") or "")
    assert "MemoryError" in json.loads(report.read_text())["advanced"][0]["stderr"]


def test_jobs_do_not_change_results(tmp_path: Path) -> None:
    paths = [str(path) for path in SOME]
    example = shlex.join([sys.executable, str(ROOT / "examples" / "client.py")])
    for jobs in ("1", "2"):
        result = run_cli(
            ["grade", "--client", example, "--jobs", jobs, "--json", str(tmp_path / jobs), *paths]
        )
        assert result.exit_code == 0, result.stdout
    assert games(tmp_path / "1") == games(tmp_path / "2")


def test_judge_one_case_with_a_trace(tmp_path: Path) -> None:
    (tmp_path / "board.in").write_text(BOARD)
    client = shlex.join([sys.executable, str(BROKEN), "none", "99"])
    result = run_cli(["judge", "--client", client, "--trace", str(tmp_path / "board.in")])
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "GAME OVER!\n10 11\n"
    trace = result.stderr.splitlines()
    assert trace[:4] == ["judge: 2 10", "judge: ?2????????", "judge: ??????????", "client: 0 0"]
    assert trace[-6:] == [
        "judge: ??????????",
        "client: 1 0",
        "judge: 1212121211",
        "judge: X?????????",
        "judge: GAME OVER!",
        "judge: 10 11",
    ]
    assert len(trace) == 1 + 2 + 10 * 3 + 2  # header, first map, 10 moves with maps, result


def test_judge_names_the_problem_and_fails(tmp_path: Path) -> None:
    (tmp_path / "board.in").write_text(BOARD)
    client = shlex.join([sys.executable, str(BROKEN), "hello", "2"])
    result = run_cli(["judge", "--client", client, str(tmp_path / "board.in")])
    assert result.exit_code == 1
    assert result.stderr == 'minesweeper: board.in: bad output line 2: "hello"\n'


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--client", "/no/such/program"], "'/no/such/program' is not an executable program"),
        (["--client", ""], "the command is empty"),
        (["--client", "'unclosed"], "No closing quotation"),
        (
            ["--junit", "/no/such/folder/x.xml"],
            "--junit /no/such/folder/x.xml: no folder /no/such/folder",
        ),
    ],
)
def test_bad_options_fail_before_any_work(args: list[str], message: str) -> None:
    result = run_cli(["grade", *args, str(SOME[0])])
    assert result.exit_code == 2
    assert message in result.stderr


def test_the_cpp_example_plays_like_the_python_one(tmp_path: Path) -> None:
    compiler = shutil.which("g++")
    if compiler is None:
        pytest.skip("g++ not found: the C++ example client is not compiled or graded")
    binary = tmp_path / "client"
    tmp_path.chmod(0o755)  # the sandbox's user runs it
    subprocess.run(
        [compiler, "-std=c++17", "-o", str(binary), str(ROOT / "examples" / "client.cpp")],
        check=True,
    )
    paths = [str(path) for path in SOME]
    python = shlex.join([sys.executable, str(ROOT / "examples" / "client.py")])
    for name, client in (("cpp", str(binary)), ("py", python)):
        result = run_cli(["grade", "--client", client, "--json", str(tmp_path / name), *paths])
        assert result.exit_code == 0, result.stdout
    assert games(tmp_path / "cpp") == games(tmp_path / "py")
