"""Issue 27: no bench run loses its work, and its pool workers die with it.

Ctrl-C or SIGTERM prints the usual table over the games played (marked partial) and
keeps them in the per-game log, or in an autosaved one named in the message with the
``--resume`` command that goes on; ``kill -9`` of the main process takes its workers along.
Each test runs ``python -m minesweeper bench`` as a real process and signals it.
"""

from __future__ import annotations

import os
import re
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

#: Games enough that a run is still going when it is signalled, on any machine.
RUN = ["bench", "--preset", "intermediate", "--games", "3000", "--strategy", "best"]


def start(args: list[str], env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "minesweeper", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **env},
    )


def wait_for(condition, seconds: float = 60.0) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.05)


def lines(path: Path) -> int:
    return len(path.read_text().splitlines()) if path.exists() else 0


def games_in_table(stdout: str) -> int:
    (row,) = [line for line in stdout.splitlines() if line.startswith("intermediate")]
    return int(row.split()[3])


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_run_keeps_its_games_in_its_log(tmp_path: Path, signum: int) -> None:
    log = tmp_path / "games.jsonl"
    bench = start([*RUN, "--jobs", "2", "--per-game", str(log)], {})
    wait_for(lambda: lines(log) >= 20)
    bench.send_signal(signum)
    out, err = bench.communicate(timeout=60)
    assert bench.returncode == 130, err
    assert "partial" in out
    (message,) = [line for line in err.splitlines() if line.startswith("minesweeper:")]
    played = games_in_table(out)
    assert f"interrupted after {played} of 3000 games: they are in {log}" in message
    assert f"--resume {log}" in message and "--per-game" not in message
    assert lines(log) == played  # every game in the table is in the log, and only those


def test_a_stopped_run_without_a_log_autosaves_one_that_resumes(tmp_path: Path) -> None:
    bench = start([*RUN, "--jobs", "1"], {"MINESWEEPER_DATA_DIR": str(tmp_path)})
    folder = tmp_path / "bench"
    time.sleep(3)  # some games played (no log to watch)
    bench.send_signal(signal.SIGINT)
    out, err = bench.communicate(timeout=60)
    assert bench.returncode == 130, err
    played = games_in_table(out)
    assert played > 0
    (saved,) = folder.glob("interrupted-seed0-*.jsonl")
    assert lines(saved) == played
    command = re.search(r"`([^`]+)`", err.splitlines()[-1])
    assert command is not None, err
    args = shlex.split(command.group(1))
    assert args[:2] == ["minesweeper", "bench"] and args[-2:] == ["--resume", str(saved)]
    # Go on with 5 games more than were played, so that the test stays short: the
    # games kept are this run's (same seed, deals, strategy), and only 5 are played.
    args[args.index("3000")] = str(played + 5)
    done = subprocess.run(
        [sys.executable, "-m", "minesweeper", *args[1:]], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert games_in_table(done.stdout) == played + 5
    assert lines(saved) == played + 5


def children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(child) for child in (task / "children").read_text().split()}
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state not in ("Z", "X")  # a zombie has died; only its parent's wait is due


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc")
def test_pool_workers_die_with_their_parent_killed_by_sigkill() -> None:
    bench = start([*RUN, "--jobs", "2"], {})
    wait_for(lambda: len(children(bench.pid)) >= 2)
    workers = children(bench.pid)
    bench.kill()
    bench.communicate(timeout=60)
    wait_for(lambda: not any(alive(pid) for pid in workers), seconds=10)
