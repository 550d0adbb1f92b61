"""A class's report beyond the verdicts: the cases graded by default wherever the package
is, games played several times (--repeat), CSV cells no spreadsheet runs, 80 columns."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from judge_helpers import ACM, ROOT, run_cli
from paths import TESTS

import minesweeper.cli.submissions as class_cli
from minesweeper.judge.assignment import CASES, COURSE_FOLDER
from minesweeper.judge.sandbox import missing
from minesweeper.judge.submissions import FORMULA_STARTS, cell

CORRECT = TESTS / "headers" / "correct"
NO_SANDBOX = ["--no-sandbox"] if missing() else []
needs_gpp = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")


def readable(path: Path) -> Path:
    for item in [path, *path.rglob("*")]:
        item.chmod(0o755)
    return path


def test_the_packaged_cases_are_the_repositorys_with_the_courses() -> None:
    # In a checkout the package's folder is a link to testcases/; a wheel holds a copy.
    assert CASES.resolve() == (ROOT / "testcases").resolve()
    assert sorted(p.name for p in (CASES / COURSE_FOLDER).rglob("*.in")) == sorted(
        p.name for p in ACM.rglob("*.in")
    )
    assert "MIT License" in (CASES / COURSE_FOLDER / "LICENSE").read_text()


def test_a_wheel_carries_the_cases_and_the_harness(tmp_path: Path) -> None:
    # setuptools' build_py, as `pip install .` runs it: the link is copied as a folder.
    script = (
        "import sys; from setuptools import setup; "
        "sys.argv[1:] = ['-q', 'build_py', '--build-lib', sys.argv[1]]; setup()"
    )
    subprocess.run(
        [sys.executable, "-c", script, str(tmp_path)], cwd=ROOT, check=True, capture_output=True
    )
    built = tmp_path / "minesweeper" / "judge"
    assert not (built / "testcases").is_symlink()
    shipped = sorted(
        str(p.relative_to(built / "testcases"))
        for p in (built / "testcases").rglob("*")
        if p.is_file()
    )
    source = sorted(
        str(p.relative_to(ROOT / "testcases"))
        for p in (ROOT / "testcases").rglob("*")
        if p.is_file()
    )
    assert shipped == source
    assert (built / "harness" / "standin" / "server.h").is_file()


def test_from_any_folder_a_class_is_graded_on_the_packaged_cases(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    students = tmp_path / "class"
    (students / "erin").mkdir(parents=True)  # hands nothing in: no build, every case counted
    monkeypatch.chdir(tmp_path)
    report = tmp_path / "class.json"
    result = run_cli(["grade", "--submissions", str(students), "--json", str(report), *NO_SANDBOX])
    assert result.exit_code == 0, result.stdout + result.stderr
    assert f"cases in testcases ({CASES.resolve()}):" in result.stdout
    [erin] = json.loads(report.read_text())["students"]
    assert erin["basic"]["course"]["total"] == 5 and erin["advanced"]["course"]["total"] == 5
    assert all(result["case"].startswith("testcases/") for result in erin["cases"])
    assert max(map(len, result.stdout.splitlines())) <= 80


def test_missing_packaged_cases_are_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "class" / "erin").mkdir(parents=True)
    monkeypatch.setattr(class_cli, "CASES", tmp_path / "gone")
    result = run_cli(["grade", "--submissions", str(tmp_path / "class"), *NO_SANDBOX])
    assert result.exit_code == 2
    assert f"the package's cases are missing ({tmp_path / 'gone'})" in result.stderr
    (tmp_path / "gone").mkdir()
    result = run_cli(["grade", "--submissions", str(tmp_path / "class"), *NO_SANDBOX])
    assert (
        f"the course's public cases are missing ({tmp_path / 'gone' / COURSE_FOLDER})"
        in result.stderr
    )


def test_csv_cells_a_spreadsheet_would_run_are_text(tmp_path: Path) -> None:
    students = tmp_path / "class"
    names = ["=cmd|' -C calc'!A0", "+1", "-2+3", "@SUM(A1)", "plain, with a comma"]
    for name in names:
        (students / name).mkdir(parents=True)
    report = tmp_path / "class.csv"
    cases = tmp_path / "cases"
    cases.mkdir()
    shutil.copy(ROOT / "testcases" / "basic" / "two-rows.in", cases)
    shutil.copy(ROOT / "testcases" / "basic" / "two-rows.out", cases)
    result = run_cli(
        ["grade", "--submissions", str(students), "--csv", str(report), *NO_SANDBOX, str(cases)]
    )
    assert result.exit_code == 0, result.stdout + result.stderr
    with report.open(newline="") as file:
        cells = [row[0] for row in csv.reader(file)][1:]
    assert sorted(cells) == sorted(f"'{name}" if name[0] in "=+-@" else name for name in names)
    for start in FORMULA_STARTS:
        assert cell(f"{start}x") == f"'{start}x"
    assert cell(3) == 3 and cell("a=b") == "a=b"


def random_client(folder: Path) -> None:
    """The correct client, guessing a random unknown cell where it cannot deduce one."""
    shutil.copy(CORRECT / "grid.h", folder)
    text = (CORRECT / "client.h").read_text()
    fallback = (
        "  for (int r = 0; r < rows; ++r)\n"
        "    for (int c = 0; c < columns; ++c)\n"
        "      if (seen[r][c] == '?' && !marked.count({r, c})) {\n"
        "        row = r, column = c;\n"
        "        return true;\n"
        "      }\n"
    )
    guess = (
        "  static std::mt19937 draw(std::random_device{}());\n"
        "  std::vector<std::pair<int, int>> open;\n"
        "  for (int r = 0; r < rows; ++r)\n"
        "    for (int c = 0; c < columns; ++c)\n"
        "      if (seen[r][c] == '?' && !marked.count({r, c})) open.push_back({r, c});\n"
        "  if (!open.empty()) {\n"
        "    auto cell = open[draw() % open.size()];\n"
        "    row = cell.first, column = cell.second;\n"
        "    return true;\n"
        "  }\n"
    )
    assert fallback in text
    (folder / "client.h").write_text(text.replace(fallback, guess))


@pytest.mark.slow  # 2.5 s or more end to end
@needs_gpp
def test_repeat_plays_each_game_n_times_and_reports_the_mean_and_range(tmp_path: Path) -> None:
    students = tmp_path / "class"
    (students / "rand").mkdir(parents=True)
    random_client(students / "rand")
    cases = tmp_path / "cases"
    cases.mkdir()
    for name in ("adv-10x10-015", "adv-16x16-040", "adv-30x30-180"):
        shutil.copy(ROOT / "testcases" / "advanced" / f"{name}.in", cases)
    readable(tmp_path)
    report, table = tmp_path / "class.json", tmp_path / "class.csv"
    args = ["grade", "--submissions", str(students), "--repeat", "4", "--json", str(report)]
    result = run_cli([*args, "--csv", str(table), *NO_SANDBOX, str(cases)])
    assert result.exit_code == 0, result.stdout + result.stderr
    [rand] = json.loads(report.read_text())["students"]
    runs = [result["runs"] for result in rand["cases"]]
    assert len(runs) == 3 and all(len(games) == 4 for games in runs)
    per_run = [sum(games[run] for games in runs) for run in range(4)]
    score = rand["advanced"]["project"]
    assert score == {
        "passed": sum(per_run) / 4,
        "total": 3,
        "low": min(per_run),
        "high": max(per_run),
    }
    with table.open(newline="") as file:
        [row] = list(csv.DictReader(file))
    assert row["repeat"] == "4"
    assert float(row["advanced_project_won"]) == pytest.approx(sum(per_run) / 4, abs=1e-3)
    assert f"rand: games won in a run: ours {min(per_run)}-{max(per_run)}" in result.stdout
