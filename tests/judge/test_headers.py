"""Students' headers built with the project's harness and graded: one student, a class.

The headers in tests/headers/ are written here, in the course's interface: a
correct server and client (correct/), a server with a realistic bug (made from
the correct one by `buggy_folder`),
one that does not compile (broken/), clients that crash, loop for ever, try
to read the board (cheating/) or to use the server's globals (linking/).
Builds are made once per session (g++ is slow and the machine is shared).
"""

from __future__ import annotations

import csv
import json
import pickle
import shutil
import sys
from pathlib import Path

import filelock
import pytest
from judge_helpers import ACM, ROOT, run_cli
from paths import TESTS

from minesweeper.boards.cases import parse_cases
from minesweeper.game import Game
from minesweeper.judge.assignment import Kind, classify
from minesweeper.judge.grading import Found, discover
from minesweeper.judge.headers import SHOWN_LINES, SHOWN_WIDTH, Build, Role, build
from minesweeper.judge.interactive import play_client
from minesweeper.judge.process import Limits
from minesweeper.judge.runner import Programs, grade_case, grade_client
from minesweeper.judge.sandbox import Sandbox, missing
from minesweeper.protocol import MapText
from minesweeper.topology.square import SquareTopology

HEADERS = TESTS / "headers"
#: The kinds of case, as the CSV's columns name them.
KINDS = ("course", "project", "extra")
TESTCASES = ROOT / "testcases"
EXAMPLE_CLIENT = ROOT / "examples" / "client.py"
#: Builds run sandboxed where the machine can; elsewhere the judge's tests of the
#: sandbox say why it cannot.
SANDBOX = None if missing() else Sandbox()
NO_SANDBOX = [] if SANDBOX else ["--no-sandbox"]
LIMITS = Limits(move_seconds=2.0, game_seconds=20.0, memory_mib=512)

pytestmark = [
    pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed: no header built"),
    pytest.mark.usefixtures("no_child_left_behind"),
]

#: The headers built once for the session: name -> (role, folder beside tests/headers).
BUILDS = {
    "correct-server": (Role.SERVER, "correct/server.h"),
    "correct-client": (Role.CLIENT, "correct/client.h"),
    "buggy-server": (Role.SERVER, "(made by buggy_folder)"),
    "crashing-client": (Role.CLIENT, "crashing/client.h"),
    "looping-client": (Role.CLIENT, "looping/client.h"),
    "cheating-client": (Role.CLIENT, "cheating/client.h"),
    "linking-client": (Role.CLIENT, "linking/client.h"),
}


def readable(path: Path) -> Path:
    """``path`` and the folders in it opened to every user: the sandbox's user must read them."""
    for item in [path, *path.rglob("*")]:
        item.chmod(0o755)
    return path


def buggy_folder(root: Path) -> Path:
    """The correct server with a bug students make: a second visit of a cell is not
    counted as a step."""
    folder = root / "buggy"
    shutil.copytree(HEADERS / "correct", folder)
    server = folder / "server.h"
    text = server.read_text()
    right = "  ++step_count;\n  if (visited[row][column]) return;\n"
    assert right in text
    server.write_text(text.replace(right, "  if (visited[row][column]) return;\n  ++step_count;\n"))
    return readable(folder)


def cheating_folder(root: Path) -> Path:
    """The cheating client beside a copy of the fair one (fair.h), as it expects."""
    folder = root / "cheating"
    folder.mkdir()
    shutil.copy(HEADERS / "cheating" / "client.h", folder / "client.h")
    shutil.copy(HEADERS / "correct" / "client.h", folder / "fair.h")
    shutil.copy(HEADERS / "correct" / "grid.h", folder / "grid.h")
    return readable(folder)


def source(name: str, root: Path) -> Path:
    """The header BUILDS names ``name``, made in the empty folder ``root`` where it is made."""
    if name == "buggy-server":
        return buggy_folder(root) / "server.h"
    if name == "cheating-client":
        return cheating_folder(root) / "client.h"
    return HEADERS / BUILDS[name][1]


def opened_folder(path: Path) -> Path:
    """A new folder ``path`` that every user may read: the sandbox's user must."""
    path.mkdir()
    return readable(path)


class Builds:
    """The headers of BUILDS in ``folder``, each built the first time a test asks for it
    (1 to 2 s), where every worker of the run finds it. A lock per header: a test waits for
    its own build only, not for the other six."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.made: dict[str, Build] = {}

    def __getitem__(self, name: str) -> Build:
        if name not in self.made:
            self.made[name] = self.build(name)
        return self.made[name]

    def build(self, name: str) -> Build:
        with filelock.FileLock(self.folder / f"{name}.lock"):
            made = self.folder / f"{name}.pickle"
            if made.is_file():
                return pickle.loads(made.read_bytes())
            header = source(name, opened_folder(self.folder / f"{name}-sources"))
            result = build(
                BUILDS[name][0], header, opened_folder(self.folder / name), sandbox=SANDBOX
            )
            made.write_bytes(pickle.dumps(result))
            return result


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Builds:
    """The headers, built once per run on first use, by whichever worker needs one first."""
    if worker_id == "master":
        return Builds(readable(tmp_path_factory.mktemp("builds")))
    shared = tmp_path_factory.getbasetemp().parent / "header-builds"
    with filelock.FileLock(f"{shared}.lock"):
        if not shared.is_dir():
            opened_folder(shared)
    return Builds(shared)


def program(built: Builds, name: str) -> tuple[str, ...]:
    made = built[name]
    assert made.run is not None, made.diagnostics
    return made.run


def square_cases(*paths: Path) -> list[Found]:
    return [
        case for case in discover(paths) if case.topology is SquareTopology and not case.problem
    ]


def games(cases: list[Found], command: tuple[str, ...] | list[str]) -> list[tuple]:
    """Every board of ``cases`` played by ``command``: (name, won, visits, steps, error)."""
    rows = []
    for case in cases:
        for grade in grade_client(case, command, LIMITS, SANDBOX):
            rows.append((grade.name, grade.won, grade.visit_count, grade.steps, grade.error))
    return rows


# -- the server harness ----------------------------------------------------------------------


def test_a_correct_server_header_passes_every_square_case_and_the_acm_ones() -> None:
    header = HEADERS / "correct" / "server.h"
    result = run_cli(
        ["grade", "--trace", "--server-header", str(header), *NO_SANDBOX, str(TESTCASES)]
    )
    square = [case for case in square_cases(TESTCASES) if case.basic]
    standings = [classify(case) for case in square]
    extra = sum(standing.kind is Kind.EXTRA for standing in standings)
    course = sum(standing.kind is Kind.COURSE for standing in standings)
    others = [case for case in discover([TESTCASES]) if case.basic]
    assert (course, extra) == (5, 4) and len(square) >= 17
    assert result.exit_code == 0, result.stdout
    counted = len(square) - extra
    assert (
        f"basic: {counted}/{counted} passed (ACM 5/5, ours {counted - 5}/{counted - 5}); "
        f"extra cases: {extra}/{extra}, not counted"
    ) in " ".join(result.stdout.split())
    shapes = len(others) - len(square)
    assert shapes > 0
    assert f"{shapes} case file(s) of other topologies not graded" in result.stdout
    advanced = len([case for case in square_cases(TESTCASES) if not case.basic])
    assert f"{advanced} advanced case file(s) not graded: no --client-header FILE given" in (
        " ".join(result.stdout.split())
    )
    # --trace shows the compiler's command line: C++17, optimised, the harness's main.cpp,
    # which includes the header by name, found in the build's copy, then beside the header.
    command = next(line for line in result.stderr.splitlines() if line.startswith("build"))
    assert "g++ -std=c++17 -O2" in command and f"-iquote {header.parent}" in command
    assert command.index("/src -iquote") < command.index(f"-iquote {header.parent}")
    assert "harness/server_main.cpp" in command


def test_the_server_harness_prints_the_acm_outputs_byte_for_byte(built: Builds) -> None:
    programs = Programs(server=program(built, "correct-server"), limits=LIMITS, sandbox=SANDBOX)
    cases = [case for case in discover([ACM]) if case.basic]
    assert len(cases) == 5
    grades = [grade for case in cases for grade in grade_case(case, programs)]
    assert [(grade.passed, grade.detail) for grade in grades] == [(True, "")] * 5


def test_topology_cases_are_left_out_unless_asked_for(built: Builds) -> None:
    server = program(built, "correct-server")[0]
    square = run_cli(
        ["grade", "--server", server, "--topology", "square", *NO_SANDBOX, str(TESTCASES)]
    )
    count = len([case for case in square_cases(TESTCASES) if case.basic])
    assert f"basic: {count}/{count} passed" in square.stdout
    # --topology hex runs the hex cases only, and a square server fails some of them.
    hex_cases = len(list((TESTCASES / "basic" / "hex").glob("*.in")))
    hexes = run_cli(
        [
            "grade",
            "--server",
            server,
            "--topology",
            "hex",
            *NO_SANDBOX,
            str(TESTCASES / "basic" / "hex"),
        ]
    )
    assert hexes.exit_code == 1
    assert f"/{hex_cases} passed" in hexes.stdout and "FAIL" in hexes.stdout
    assert "other topologies" not in hexes.stdout


@pytest.mark.slow  # 2.5 s or more end to end
def test_a_command_with_topology_in_it_plays_every_shape() -> None:
    command = "minesweeper server --topology {topology}"
    result = run_cli(["grade", "--server", command, "--no-sandbox", str(TESTCASES / "basic")])
    count = len([case for case in discover([TESTCASES / "basic"]) if case.basic])
    assert result.exit_code == 0, result.stdout
    assert f"basic: {count}/{count} passed" in result.stdout


def test_a_buggy_server_fails_where_its_bug_shows(built: Builds) -> None:
    programs = Programs(server=program(built, "buggy-server"), limits=LIMITS, sandbox=SANDBOX)
    grades = {
        Path(grade.name).name: grade
        for case in square_cases(TESTCASES)
        if case.basic
        for grade in grade_case(case, programs)
    }
    # A second visit of a cell is not counted as a step: only the counts line is wrong.
    failing = {name for name, grade in grades.items() if not grade.passed}
    assert "repeated-visits.in" in failing
    assert "flood-whole-board.in" not in failing
    assert "got '7 4', expected '7 6'" in grades["repeated-visits.in"].detail


def test_a_header_that_does_not_compile_is_a_verdict_of_its_own() -> None:
    header = HEADERS / "broken" / "server.h"
    result = run_cli(["grade", "--server-header", str(header), *NO_SANDBOX, str(TESTCASES)])
    assert result.exit_code == 1
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"minesweeper: {header}: compile error: server.h:6:1: error:")
    assert "Traceback" not in result.stdout + result.stderr
    assert "the compiler's first lines" in result.stdout
    assert "undeclared_helper" in result.stdout
    assert "basic:" not in result.stdout  # nothing is graded


def test_compiler_messages_are_escaped_and_cut(tmp_path: Path) -> None:
    folder = readable(tmp_path)
    header = folder / "server.h"
    long_name = "x" * 500
    errors = "".join(f"int {long_name}{index} = undefined_{index};\n" for index in range(30))
    header.write_bytes(b"#error \x1b[2Jcleared the screen\n" + errors.encode())
    (folder / "out").mkdir()
    made = build(Role.SERVER, readable(header), readable(folder / "out"), sandbox=SANDBOX)
    assert not made.ok
    assert made.problem == "compile error: server.h:1:2: error: #error \\x1b[2Jcleared the screen"
    lines = made.diagnostics.splitlines()
    assert len(lines) <= SHOWN_LINES + 1 and lines[-1].startswith("... (")
    assert all(len(line) <= SHOWN_WIDTH + 3 for line in lines)
    assert "\x1b" not in made.diagnostics


def test_a_compile_that_takes_too_long_is_stopped(tmp_path: Path) -> None:
    # Nested loops evaluated at compile time: hours of work, far more than the half second.
    header = readable(tmp_path) / "server.h"
    header.write_text(
        "constexpr long spin() {\n"
        "  long sum = 0;\n"
        "  for (long i = 0; i < 200000; ++i)\n"
        "    for (long j = 0; j < 200000; ++j)\n"
        "      for (long k = 0; k < 200000; ++k) sum += i ^ j ^ k;\n"
        "  return sum;\n"
        "}\n"
        "constexpr long answer = spin();\n"
    )
    (tmp_path / "out").mkdir()
    limits = Limits(move_seconds=0.5, game_seconds=0.5, memory_mib=2048)
    made = build(Role.SERVER, readable(header), readable(tmp_path / "out"), limits, SANDBOX)
    assert made.problem in ("compile time limit (0.5 s)", "compile time limit (CPU)")


# -- the client harness ----------------------------------------------------------------------


@pytest.mark.slow  # 5 s or more end to end
def test_a_client_header_plays_the_same_games_as_the_same_rules_in_python(
    built: Builds,
) -> None:
    # examples/client.py has the fair client's rules: the same moves, if the harness hands
    # the maps over faithfully (the first one included) and sends each move once.
    cases = square_cases(TESTCASES / "advanced", ACM / "advanced")
    ours = games(cases, program(built, "correct-client"))
    theirs = games(cases, [sys.executable, str(EXAMPLE_CLIENT)])
    assert ours == theirs
    assert all(error == "" for *_, error in ours)
    assert 0 < sum(won for _, won, *_ in ours) < len(ours)


def test_init_game_reads_a_click_that_opens_what_the_first_click_opened(
    built: Builds,
) -> None:
    for path in sorted((TESTCASES / "advanced").glob("*.in"))[:6]:
        (case,) = parse_cases(path.read_bytes(), name=path.name)
        run = play_client(case, program(built, "correct-client"), LIMITS, sandbox=SANDBOX)
        # The client prints InitGame's click on stderr, and its debugging on std::cout
        # there too (the harness moves std::cout off the judge's pipe).
        said = next(line for line in run.stderr.splitlines() if line.startswith("first click"))
        assert "debug: next" in run.stderr
        row, col = map(int, said.split()[2:])
        assert first_map(case, case.board.topology.cell_at(row, col)) == first_map(case, case.first)


def first_map(case, cell) -> str:  # type: ignore[no-untyped-def]
    game = Game(case.board)
    text = MapText(game)
    text.after_visit(game.visit(cell))
    return str(text)


def test_a_crashing_client_is_reported_with_its_stderr(built: Builds, tmp_path: Path) -> None:
    client = program(built, "crashing-client")[0]
    # A path past 80 columns: the report's lines were wrapped mid-phrase when piped.
    case = tmp_path / ("deep" * 20) / "adv-10x10-005.in"
    case.parent.mkdir()
    shutil.copy(TESTCASES / "advanced" / "adv-10x10-005.in", case)
    result = run_cli(["grade", "--client", client, *NO_SANDBOX, str(case)])
    assert result.exit_code == 1
    assert "ERROR crashed" in result.stdout  # in the table, and in full below it:
    assert "adv-10x10-005.in: crashed (signal 11)" in result.stdout
    # The sandbox's shell may add its own line ("Segmentation fault") after the client's.
    shown = result.stdout.split("its standard error, last ", 1)[1]
    assert "line(s):\n    about to crash\n" in shown


def test_a_client_that_never_moves_runs_out_of_time(built: Builds) -> None:
    (case,) = parse_cases((TESTCASES / "advanced" / "adv-10x10-005.in").read_bytes(), name="c")
    limits = Limits(move_seconds=0.5, game_seconds=5.0, memory_mib=256)
    run = play_client(case, program(built, "looping-client"), limits, sandbox=SANDBOX)
    assert run.problem == "time limit (move 1)"
    assert run.game.step_count == 1  # the judge's first click only


def test_a_client_cannot_link_with_the_servers_globals(built: Builds) -> None:
    made = built["linking-client"]
    assert not made.ok
    assert made.problem.startswith("compile error: ")
    assert "undefined reference to `mine_at'" in made.problem + made.diagnostics
    assert made.problem.endswith(
        "(the client runs apart from the server: a client may use no external variable but "
        "rows and columns)"
    )


@pytest.mark.slow  # 5 to 6 s: two builds and two clients' games
@pytest.mark.skipif(SANDBOX is None, reason=f"no sandbox here: {missing()}")
def test_a_cheating_client_wins_no_more_than_a_fair_one(
    built: Builds, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cases_folder = tmp_path / "cases"
    shutil.copytree(TESTCASES / "advanced", cases_folder)
    readable(tmp_path)
    monkeypatch.chdir(cases_folder)  # where the cheater looks first
    cases = square_cases(cases_folder)
    fair = [(name, won) for name, won, *_ in games(cases, program(built, "correct-client"))]
    cheater = program(built, "cheating-client")
    fenced = Sandbox(hidden=(cases_folder,))

    def play(sandbox: Sandbox | None) -> list[tuple[str, bool]]:
        return [
            (grade.name, grade.won)
            for case in cases
            for grade in grade_client(case, cheater, LIMITS, sandbox)
        ]

    # Unsandboxed, the cheat works: it finds the case files and wins every game the first
    # click does not lose; sandboxed it finds nothing and plays the fair game, move for move.
    assert sum(won for _, won in play(None)) > sum(won for _, won in fair)
    assert play(fenced) == fair


# -- a class ---------------------------------------------------------------------------------


def class_folder(root: Path) -> Path:
    """Five students: nested headers, a bug and a crash, no build, a loop, nothing."""
    students = root / "class"
    alice = students / "alice" / "project" / "src"
    shutil.copytree(HEADERS / "correct", alice)
    (students / "alice" / "notes.txt").write_text("not a header\n")
    bob = students / "bob"
    shutil.copytree(buggy_folder(root), bob)
    shutil.copy(HEADERS / "crashing" / "client.h", bob / "client.h")
    shutil.copytree(HEADERS / "broken", students / "carol")
    shutil.copytree(HEADERS / "looping", students / "dave")
    (students / "erin").mkdir()
    return readable(students)


def case_folder(root: Path) -> Path:
    """Three basic and three advanced square cases, and a hex one to be left out."""
    cases = root / "cases"
    (cases / "hex").mkdir(parents=True)
    for name in ("repeated-visits", "two-rows", "loss-first-move"):
        for suffix in (".in", ".out"):
            shutil.copy(TESTCASES / "basic" / f"{name}{suffix}", cases / f"{name}{suffix}")
    for suffix in (".in", ".out"):
        shutil.copy(TESTCASES / "basic" / "hex" / f"hex-1{suffix}", cases / "hex")
    for name in ("adv-05x05-001", "adv-08x08-006", "adv-09x09-016"):
        shutil.copy(TESTCASES / "advanced" / f"{name}.in", cases)
    return readable(cases)


@pytest.mark.slow
def test_a_class_grades_into_one_row_per_student(built: Builds, tmp_path: Path) -> None:
    students, cases = class_folder(tmp_path), case_folder(tmp_path)
    report, data = tmp_path / "class.csv", tmp_path / "class.json"
    args = ["grade", "--submissions", str(students), "--jobs", "2", "--move-seconds", "1"]
    args += ["--csv", str(report), "--json", str(data), *NO_SANDBOX, str(cases)]
    result = run_cli(args)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "1 case file(s) of other topologies not graded" in result.stderr

    # What each student's headers do, graded one by one through the library.
    found = square_cases(cases)
    basic = [case for case in found if case.basic]
    advanced = [case for case in found if not case.basic]

    def passed(name: str) -> int:
        programs = Programs(server=program(built, name), limits=LIMITS, sandbox=SANDBOX)
        return sum(g.passed for case in basic for g in grade_case(case, programs))

    def won(name: str) -> int:
        return sum(game[1] for game in games(advanced, program(built, name)))

    expected = [
        ["alice", "ok", passed("correct-server"), 3, "ok", won("correct-client"), 3],
        ["bob", "ok", passed("buggy-server"), 3, "ok", won("crashing-client"), 3],
        ["carol", "compile error", 0, 3, "missing", 0, 3],
        ["dave", "missing", 0, 3, "ok", 0, 3],
        ["erin", "missing", 0, 3, "missing", 0, 3],
    ]
    assert expected[0][2] == 3 and expected[1][2] == 2 and expected[1][5] == 0
    with report.open(newline="") as file:
        rows = list(csv.DictReader(file))
    assert list(rows[0]) == [
        "student",
        "server_build",
        *(f"basic_{kind}_{what}" for kind in KINDS for what in ("passed", "total")),
        "client_build",
        *(f"advanced_{kind}_{what}" for kind in KINDS for what in ("won", "total")),
        "repeat",
        "seconds",
        "build_seconds",
    ]
    # The cases are three basic and three advanced ones of the project's, within the
    # assignment: no course case, no extra one.
    assert [
        [
            row["student"],
            row["server_build"],
            int(row["basic_project_passed"]),
            int(row["basic_project_total"]),
            row["client_build"],
            int(row["advanced_project_won"]),
            int(row["advanced_project_total"]),
        ]
        for row in rows
    ] == expected
    for row in rows:
        assert row["repeat"] == "1"
        for kind in ("course", "extra"):
            assert row[f"basic_{kind}_total"] == row[f"advanced_{kind}_total"] == "0"
        seconds, building = float(row["seconds"]), float(row["build_seconds"])
        assert 0 <= building <= seconds
    assert float(rows[4]["build_seconds"]) == 0.0  # erin: nothing to build
    assert float(rows[0]["build_seconds"]) > 0.0

    students_json = json.loads(data.read_text())["students"]
    assert [student["student"] for student in students_json] == [row[0] for row in expected]
    carol = students_json[2]
    assert carol["notes"][0].startswith("server.h: compile error: server.h:6:1: error:")
    dave = students_json[3]
    assert all("time limit (move 1)" in note for note in dave["notes"])
    assert "carol: server.h: compile error" in result.stdout


def test_one_game_of_a_client_header_with_its_conversation() -> None:
    header = HEADERS / "correct" / "client.h"
    case = TESTCASES / "advanced" / "adv-05x05-001.in"
    result = run_cli(["judge", "--client-header", str(header), "--trace", *NO_SANDBOX, str(case)])
    assert result.exit_code == 0, result.stderr
    verdict, counts = result.stdout.splitlines()
    assert verdict in ("YOU WIN!", "GAME OVER!")
    lines = result.stderr.splitlines()
    assert lines[0 if SANDBOX else 1].startswith("build client.h: g++ -std=c++17 -O2")
    assert "judge: 5 5" in lines
    moves = [line for line in lines if line.startswith("client: ")]
    assert len(moves) == int(counts.split()[1]) - 1  # every step but the judge's click
    assert any(line.startswith("stderr: first click") for line in lines)
