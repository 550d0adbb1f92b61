"""The research scripts' answers to bad input: one line on stderr, a non-zero exit."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(
    ("content", "says"),
    [(None, "cannot read"), ('{"board": 0,\n', "line 1: not a decision log line")],
)
def test_compare_decisions_names_a_bad_log(tmp_path: Path, content: str | None, says: str) -> None:
    log = tmp_path / "his.jsonl"
    if content is not None:
        log.write_text(content)
    done = run(str(SCRIPTS / "compare_decisions.py"), str(log), "--strategy", "best")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.startswith("compare_decisions: ") and says in done.stderr
    assert len(done.stderr.splitlines()) == 1


def test_time_hill_names_a_missing_board_file(tmp_path: Path) -> None:
    missing = tmp_path / "boards.txt"
    done = run(
        str(SCRIPTS / "hill" / "time_hill.py"),
        *("--hill", str(tmp_path), "decisions", "--boards", str(missing), "--out", "x.jsonl"),
    )
    assert done.returncode == 1
    assert done.stderr == f"time_hill: --boards {missing}: no such file\n"
