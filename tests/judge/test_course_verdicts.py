"""Issue 39's table, row by row, on fake students written here (no student's code): the
class report gives, case by case, the verdict the course gave, that is the template's
own harness (restated in tests/template_harness.py) and ``diff -qZB``.

Each student is the correct fake student of tests/headers/correct/ with one thing a real
student did: an ``ExitGame`` without the last newline, an ``assert`` of the stated
board sizes, a ``server.h`` that leaves ``<iostream>`` to ``main.cpp``, a client written
to the template's first ``Execute(unsigned int, unsigned int)``, a client that includes
``"server.h"``, a client that forks.
"""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
import template_harness as course
from judge_helpers import ROOT, run_cli
from paths import TESTS

from minesweeper.judge.assignment import Kind, classify
from minesweeper.judge.grading import Found, discover
from minesweeper.judge.headers import STANDIN_NOTE
from minesweeper.judge.sandbox import missing
from minesweeper.topology.square import SquareTopology

CORRECT = TESTS / "headers" / "correct"
CASES = ROOT / "testcases"
NO_SANDBOX = ["--no-sandbox"] if missing() else []

pytestmark = [
    pytest.mark.slow,  # builds and grades a class of seven (tens of seconds)
    pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed"),
    pytest.mark.skipif(shutil.which("diff") is None, reason="GNU diff is not installed"),
    pytest.mark.usefixtures("no_child_left_behind"),
]


def edited(folder: Path, name: str, old: str, new: str) -> None:
    """``folder/name``, a copy of the correct student's, with ``old`` replaced by ``new``."""
    text = (CORRECT / name).read_text()
    assert old in text, old
    (folder / name).write_text(text.replace(old, new, 1))


def alice(folder: Path) -> None:
    """Both headers right."""
    for name in ("server.h", "client.h", "grid.h"):
        shutil.copy(CORRECT / name, folder)


def nora(folder: Path) -> None:
    """ExitGame prints ``visit_count step_count`` without the newline after it."""
    shutil.copy(CORRECT / "grid.h", folder)
    line = '  cout << visit_count << " " << step_count << endl;\n'
    edited(folder, "server.h", line, line.replace(" << endl", ""))


def asa(folder: Path) -> None:
    """A right server that asserts the board sizes the assignment states (1 < n, m < 31)."""
    shutil.copy(CORRECT / "grid.h", folder)
    read = "  cin >> rows >> columns;\n"
    edited(folder, "server.h", read, read + "  assert(rows > 1 && rows < 31 && columns > 1);\n")


def ian(folder: Path) -> None:
    """A right server.h that includes no <iostream>: the template's main.cpp did."""
    shutil.copy(CORRECT / "grid.h", folder)
    edited(
        folder, "server.h", "#include <bits/stdc++.h>\n", "#include <queue>\n#include <string>\n"
    )


def uma(folder: Path) -> None:
    """A client written to the template's first signature of Execute."""
    shutil.copy(CORRECT / "grid.h", folder)
    old = "void Execute(int row, int column);\n"
    edited(folder, "client.h", old, "void Execute(unsigned int row, unsigned int column);\n")


def inc(folder: Path) -> None:
    """A client that includes "server.h", beside its own (right) server.h."""
    alice(folder)
    edited(folder, "client.h", '#include "grid.h"\n', '#include "grid.h"\n#include "server.h"\n')


def fay(folder: Path) -> None:
    """A client that starts a process of its own in InitGame, waits for it, and plays."""
    shutil.copy(CORRECT / "grid.h", folder)
    start = "void InitGame() {\n"
    edited(
        folder,
        "client.h",
        start,
        "#include <sys/wait.h>\n#include <unistd.h>\n"
        + start
        + "  pid_t child = fork();\n  if (child == 0) _exit(0);\n"
        + "  if (child > 0) waitpid(child, nullptr, 0);\n",
    )


STUDENTS: dict[str, Callable[[Path], None]] = {
    "alice": alice,
    "asa": asa,
    "fay": fay,
    "ian": ian,
    "inc": inc,
    "nora": nora,
    "uma": uma,
}


def readable(path: Path) -> Path:
    for item in [path, *path.rglob("*")]:
        item.chmod(0o755)
    return path


def square(*paths: Path) -> list[Found]:
    return [case for case in discover(paths) if case.topology is SquareTopology]


def counted(case: Found) -> bool:
    return classify(case).kind is not Kind.EXTRA


def course_verdicts(folder: Path, scratch: Path) -> dict[str, object]:
    """The course's verdict on each case a student's headers meet: a basic case passed or
    not, an advanced game won or not; a header that does not build, its messages."""
    verdicts: dict[str, object] = {}
    cases = square(CASES)
    for role, build in (("server", course.build_server), ("client", course.build_client)):
        header = folder / f"{role}.h"
        if not header.exists():
            continue
        made = build(header, scratch / f"{folder.name}-{role}")
        if made.program is None:
            verdicts[role] = made.messages
            continue
        for case in cases:
            if case.basic == (role == "server") and counted(case):
                key = str(case.path.relative_to(CASES))
                if case.basic:
                    verdicts[key] = course.server_passes(made.program, case.path)
                else:
                    game = course.client_game(made.program, case.path)
                    verdicts[key] = game is not None and game[0]
    return verdicts


def project_verdicts(student: dict) -> dict[str, object]:  # type: ignore[type-arg]
    """The class report's verdicts on the cases the assignment poses, keyed as above."""
    return {
        result["case"].removeprefix("testcases/"): bool(result["runs"][0])
        for result in student["cases"]
        if result["kind"] != "extra"
    }


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict, dict]:  # type: ignore[type-arg]
    root = tmp_path_factory.mktemp("course")
    students = root / "class"
    for name, make in STUDENTS.items():
        (students / name).mkdir(parents=True)
        make(students / name)
    readable(students)
    report = root / "class.json"
    args = ["grade", "--submissions", str(students), "--jobs", "2", "--json", str(report)]
    result = run_cli([*args, "--csv", str(root / "class.csv"), *NO_SANDBOX])
    assert result.exit_code == 0, result.stdout + result.stderr
    (root / "stdout.txt").write_text(result.stdout + result.stderr)
    rows = {row["student"]: row for row in json.loads(report.read_text())["students"]}
    theirs = {name: course_verdicts(students / name, root / "ref") for name in STUDENTS}
    return root, rows, theirs


def test_every_case_gets_the_courses_verdict(graded: tuple[Path, dict, dict]) -> None:  # type: ignore[type-arg]
    _, rows, theirs = graded
    basic = sum(case.basic and counted(case) for case in square(CASES))
    advanced = sum(not case.basic and counted(case) for case in square(CASES))
    for name in STUDENTS:
        row, verdicts = rows[name], theirs[name]
        for role in ("server", "client"):
            # A header builds here exactly when it built at the course.
            built = row[f"{role}_build"]
            if (course_failed := role in verdicts) or built not in ("ok", "missing"):
                assert course_failed and built == "compile error", (name, role)
        cases = {key: value for key, value in verdicts.items() if key.endswith(".in")}
        assert len(cases) in (0, basic, advanced, basic + advanced), name
        ours = project_verdicts(row)
        assert {key: ours[key] for key in cases} == cases, name


def test_a_server_without_the_last_newline_passes_and_is_told(
    graded: tuple[Path, dict, dict],
) -> None:  # type: ignore[type-arg]
    _, rows, theirs = graded
    nora = rows["nora"]
    assert all(theirs["nora"][key] for key in theirs["nora"])  # the course passed every case
    assert nora["basic"]["course"] == {"passed": 5, "total": 5, "low": 5, "high": 5}
    assert nora["basic"]["project"]["passed"] == nora["basic"]["project"]["total"] > 0
    notes = [
        result["detail"]
        for result in nora["cases"]
        if result["role"] == "basic" and result["kind"] != "extra"
    ]
    assert len(notes) == 5 + nora["basic"]["project"]["total"] and all(
        note.startswith("passes; not byte-exact: line ") and note.endswith(" lacks its newline")
        for note in notes
    )


def test_a_case_that_ends_early_is_extra_and_the_template_cannot_pass_it(
    graded: tuple[Path, dict, dict],  # type: ignore[type-arg]
    tmp_path: Path,
) -> None:
    _, rows, _ = graded
    case = CASES / "basic" / "ends-early.in"
    [found] = discover([case])
    assert classify(found).reason == "the input ends before the game is decided"
    made = course.build_server(CORRECT / "server.h", tmp_path / "ref")
    assert made.program is not None
    assert course.run(made.program, case.read_bytes()) is None  # its last map, for ever
    [result] = [r for r in rows["alice"]["cases"] if r["case"].endswith("ends-early.in")]
    assert result["kind"] == "extra" and result["runs"] == [1]  # shown, not counted
    assert rows["alice"]["basic"]["extra"]["total"] == 4


def test_a_server_that_asserts_the_stated_sizes_loses_only_an_extra_case(
    graded: tuple[Path, dict, dict],  # type: ignore[type-arg]
) -> None:
    _, rows, _ = graded
    asa = rows["asa"]
    failed = [r["case"] for r in asa["cases"] if r["role"] == "basic" and not r["runs"][0]]
    assert failed == ["testcases/basic/at-map.in"]
    for kind in ("course", "project"):
        assert asa["basic"][kind]["passed"] == asa["basic"][kind]["total"]
    assert asa["basic"]["extra"]["passed"] == asa["basic"]["extra"]["total"] - 1
    assert any(
        note.startswith("testcases/basic/at-map.in (extra case, not counted)")
        for note in asa["notes"]
    )


def test_a_server_h_without_iostream_builds_as_at_the_course(
    graded: tuple[Path, dict, dict],  # type: ignore[type-arg]
    tmp_path: Path,
) -> None:
    _, rows, theirs = graded
    assert rows["ian"]["server_build"] == "ok" and "server" not in theirs["ian"]
    # Alone, the header does not compile: std::cin comes from main.cpp's <iostream>.
    ian(tmp_path)
    alone = subprocess.run(
        ["g++", "-std=c++17", "-fsyntax-only", "-x", "c++", str(tmp_path / "server.h")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert alone.returncode != 0 and "cin" in alone.stderr and "was not declared" in alone.stderr


def test_a_client_of_the_old_execute_signature_does_not_build(
    graded: tuple[Path, dict, dict],  # type: ignore[type-arg]
) -> None:
    _, rows, theirs = graded
    assert "undefined reference to `Execute(unsigned int, unsigned int)'" in theirs["uma"]["client"]
    uma = rows["uma"]
    assert uma["client_build"] == "compile error"
    assert uma["advanced"]["course"] == {"passed": 0, "total": 5, "low": 0, "high": 0}
    [note] = [note for note in uma["notes"] if note.startswith("client.h: ")]
    assert "undefined reference to `Execute(unsigned int, unsigned int)'" in note
    assert note.endswith(
        "(client.h calls Execute(unsigned int, unsigned int); the template's advanced.cpp "
        "defines only void Execute(int row, int column))"
    )


def test_a_client_that_includes_server_h_builds_and_is_told_what_it_sees(
    graded: tuple[Path, dict, dict],  # type: ignore[type-arg]
) -> None:
    _, rows, theirs = graded
    inc = rows["inc"]
    assert inc["client_build"] == "ok" and "client" not in theirs["inc"]
    assert f"client.h: {STANDIN_NOTE}" in inc["notes"]
    assert "redefinition" not in json.dumps(inc)
    # It plays as the correct student does, game for game.
    games = [r for r in inc["cases"] if r["role"] == "advanced"]
    assert games == [r for r in rows["alice"]["cases"] if r["role"] == "advanced"]


def test_the_csv_counts_each_kind_of_case_apart(graded: tuple[Path, dict, dict]) -> None:  # type: ignore[type-arg]
    root, rows, _ = graded
    with (root / "class.csv").open(newline="") as file:
        table = {row["student"]: row for row in csv.DictReader(file)}
    alice = table["alice"]
    assert (alice["basic_course_passed"], alice["basic_course_total"]) == ("5", "5")
    assert alice["basic_project_total"] == str(rows["alice"]["basic"]["project"]["total"])
    assert (alice["basic_extra_total"], alice["advanced_course_total"]) == ("4", "5")
    assert alice["advanced_project_total"] == "20" and alice["repeat"] == "1"


def test_the_class_report_fits_80_columns(graded: tuple[Path, dict, dict]) -> None:  # type: ignore[type-arg]
    root, _, _ = graded
    output = (root / "stdout.txt").read_text()
    assert "cases in testcases" in output and "ACM: 5 basic, 5 advanced" in output
    assert max(map(len, output.splitlines())) <= 80
