"""Two class runs at once on one machine give the rows each gives alone, even when one
student's client forks to its process limit (issues 39 and 44 F2: every program was uid
65534 and they shared one limit of 256 processes, so the other run's compiler and
programs could not fork: `compile error: sh: 1: Cannot fork`)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from judge_helpers import ROOT
from paths import TESTS

from minesweeper.judge import sandbox as sandboxes
from minesweeper.judge import uids

pytestmark = pytest.mark.skipif(
    bool(sandboxes.missing()) or not sandboxes.as_root() or shutil.which("g++") is None,
    reason="a user id per program is the sandbox's as root, and headers need g++",
)
#: The advanced cases graded.
GAMES = ("adv-05x05-001", "adv-08x08-006")
#: Seconds the forking client holds its processes before its move's time limit ends it:
#: longer than the other run's builds with their retries (at 10 s, with every program
#: uid 65534, the other run's build was retried after the hold and the test passed).
HOLD = 30
PATIENCE = 300


def student(root: Path, name: str, header: str) -> None:
    folder = root / name
    folder.mkdir(parents=True)
    shutil.copy(TESTS / "headers" / header / "client.h", folder / "client.h")


def opened(root: Path) -> Path:
    for path in [root, *root.rglob("*")]:
        path.chmod(0o755)
    return root


def grade(students: Path, report: Path, cases: Path) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "minesweeper", "grade", "--submissions", str(students)]
    command += ["--move-seconds", str(HOLD), "--json", str(report), str(cases)]
    return subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def rows(report: Path) -> list[dict[str, object]]:
    """The students' rows without their times."""
    students = json.loads(report.read_text())["students"]
    return [{k: v for k, v in row.items() if "seconds" not in k} for row in students]


def holding() -> int:
    """How many processes named ``client`` run as a uid of the sandbox's range (or as
    nobody, every sandboxed program's uid before: the test then shows the attack's effect)."""
    count = 0
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                status = (entry / "status").read_text()
            except OSError:
                continue
            fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
            uid = int(fields["Uid"].split()[0])
            sandboxed = uids.FIRST <= uid < uids.FIRST + uids.COUNT or uid == sandboxes.NOBODY
            if fields["Name"].strip() == "client" and sandboxed:
                count += 1
    return count


@pytest.mark.slow
def test_two_class_runs_at_once_give_the_rows_of_each_alone(tmp_path: Path) -> None:
    cases = tmp_path / "cases"
    cases.mkdir()
    for name in GAMES:
        shutil.copy(ROOT / "testcases" / "advanced" / f"{name}.in", cases)
    forking, plain = tmp_path / "forking", tmp_path / "plain"
    student(forking, "zed", "forking")
    student(plain, "alice", "plain")
    student(plain, "bob", "plain")
    opened(tmp_path)

    alone = grade(plain, tmp_path / "alone.json", cases)
    output, _ = alone.communicate(timeout=PATIENCE)
    assert alone.returncode == 0, output
    expected = rows(tmp_path / "alone.json")
    assert [row["client_build"] for row in expected] == ["ok", "ok"]

    # The forking student's run first; once its client holds its processes, the other run.
    bomb = grade(forking, tmp_path / "bomb.json", cases)
    try:
        deadline = time.monotonic() + PATIENCE
        while holding() < 100 and bomb.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert holding() >= 100, "the forking client never held its processes"
        other = grade(plain, tmp_path / "other.json", cases)
        output, _ = other.communicate(timeout=PATIENCE)
        assert other.returncode == 0, output
        assert rows(tmp_path / "other.json") == expected
        bombed, _ = bomb.communicate(timeout=PATIENCE)
        assert bomb.returncode == 0, bombed
    finally:
        bomb.kill()
        bomb.wait()
    (zed,) = rows(tmp_path / "bomb.json")
    assert zed["client_build"] == "ok"
    assert zed["notes"] == [f"cases/{case}.in: time limit (move 1)" for case in GAMES]
