"""The real processes: console script, ``python -m``, and a live pipe to a peer."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest


def test_python_dash_m_runs_the_same_program() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "minesweeper", "server"],
        input="1 2\n.X\n0 0\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0
    assert result.stdout == "??\n1@\nYOU WIN!\n1 1\n"


@pytest.mark.skipif(shutil.which("minesweeper") is None, reason="console script not on PATH")
def test_console_script_reports_bad_input_without_traceback() -> None:
    result = subprocess.run(
        ["minesweeper", "server"], input="2 2\n.X\n.\n", capture_output=True, text=True, check=False
    )
    assert result.returncode == 2
    assert result.stderr.strip() == "minesweeper: line 3: row 2 has 1 characters, expected 2"


def test_peer_sees_each_map_before_sending_the_next_move() -> None:
    """Maps are flushed at once and moves are read lazily, so a live conversation works."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "minesweeper", "server"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin and proc.stdout
    try:
        proc.stdin.write("2 3\n..X\n...\n")
        proc.stdin.flush()
        assert [proc.stdout.readline() for _ in range(2)] == ["???\n", "???\n"]
        proc.stdin.write("1 0\n")
        proc.stdin.flush()
        assert [proc.stdout.readline() for _ in range(2)] == ["01?\n", "01?\n"]
        proc.stdin.write("0 2\n")
        proc.stdin.flush()
        rest = [proc.stdout.readline() for _ in range(4)]
        assert rest == ["01X\n", "01?\n", "GAME OVER!\n", "4 2\n"]
    finally:
        proc.stdin.close()
        proc.wait(timeout=10)
    assert proc.returncode == 0
