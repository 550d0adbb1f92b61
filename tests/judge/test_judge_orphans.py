"""What a foreign program leaves outside its process group is killed and reaped (Linux).

These run real processes: a program (tests/clients/escape.py) that
double-forks daemons into sessions of their own, which a group kill misses.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from judge_helpers import ROOT, run_cli
from paths import TESTS

from minesweeper.judge.process import Child, Limits

ESCAPE = TESTS / "clients" / "escape.py"
LIMITS = Limits(move_seconds=5.0, game_seconds=10.0, memory_mib=256)
#: Seconds that only bound a hang (a loaded machine is slow to start processes).
PATIENCE = 120
pytestmark = [
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a subreaper needs Linux"),
    pytest.mark.usefixtures("no_child_left_behind"),
]


def gone(pid: int) -> bool:
    """True once ``pid`` no longer exists at all: not running, and not a zombie left unreaped."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def escape(pidfile: Path, depth: int) -> list[int]:
    """Run the escaping program as a `Child` until it is ready, close it; the daemons' pids."""
    with Child([sys.executable, str(ESCAPE), str(pidfile), str(depth)], LIMITS) as child:
        assert child.read_line(time.monotonic() + PATIENCE, "ready") == b"ready"
        pids = read_pids(pidfile)
        assert len(pids) == depth and not any(gone(pid) for pid in pids)
    return pids


def read_pids(pidfile: Path) -> list[int]:
    """The pids the daemons of every program run with ``pidfile`` wrote (``pidfile.N``)."""
    files = sorted(pidfile.parent.glob(f"{pidfile.name}.*"))
    return [int(pid) for file in files for pid in file.read_text().split()]


def test_a_double_forked_daemon_is_killed_and_reaped(tmp_path: Path) -> None:
    [daemon] = escape(tmp_path / "pids", 1)
    assert gone(daemon)


def test_daemons_that_start_daemons_are_all_killed(tmp_path: Path) -> None:
    # The first daemon lives on as the parent of the second, in another session again.
    pids = escape(tmp_path / "pids", 3)
    assert [pid for pid in pids if not gone(pid)] == []


def test_a_daemon_always_moving_to_a_new_process_is_caught(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    with Child([sys.executable, str(ESCAPE), str(pidfile), "hop"], LIMITS) as child:
        assert child.read_line(time.monotonic() + PATIENCE, "ready") == b"ready"
    pids = read_pids(pidfile)
    time.sleep(0.05)  # fifty hops, were it still running
    assert read_pids(pidfile) == pids
    assert [pid for pid in pids if not gone(pid)] == []


@pytest.fixture
def sleepers() -> Iterator[list[subprocess.Popen[bytes]]]:
    """Children this process had before the judge ran: one in its session, one in a new one."""
    started = [
        subprocess.Popen(["sleep", "30"]),
        subprocess.Popen(["sleep", "30"], start_new_session=True),
    ]
    yield started
    for process in started:
        process.kill()
        process.wait()


def test_children_started_before_the_program_are_spared(
    tmp_path: Path, sleepers: list[subprocess.Popen[bytes]]
) -> None:
    [daemon] = escape(tmp_path / "pids", 1)
    assert gone(daemon)
    assert [process.poll() for process in sleepers] == [None, None]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_grade_server_leaves_no_daemon_behind(tmp_path: Path, jobs: str) -> None:
    # With --jobs 2 the cases run in worker processes, each its own subreaper. Unsandboxed:
    # the sweep is what fences a program then, and the daemons write their pids here.
    cases = tmp_path / "cases"
    cases.mkdir()
    for name in ("one", "two"):
        for suffix in (".in", ".out"):
            shutil.copy(ROOT / "testcases" / "basic" / f"at-map{suffix}", cases / f"{name}{suffix}")
    pidfile = tmp_path / "pids"
    server = f"{sys.executable} {ESCAPE} {pidfile} 2 {cases / 'one.out'}"
    result = run_cli(["grade", "--server", server, "--jobs", jobs, "--no-sandbox", str(cases)])
    assert result.exit_code == 0, result.stdout + result.stderr
    assert "basic: 2/2 passed" in result.stdout
    pids = read_pids(pidfile)
    assert len(pids) == 4
    assert [pid for pid in pids if not gone(pid)] == []
