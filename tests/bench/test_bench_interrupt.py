"""Issue 27: no bench run loses its work, and its pool workers die with it.

Ctrl-C or SIGTERM prints the usual table over the games played (marked partial) and
keeps them in the per-game log, or in an autosaved one named in the message with the
``--resume`` command that goes on; ``kill -9`` of the main process takes its workers along.
Each test runs ``python -m minesweeper bench`` as a real process and signals it.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from ctrl_c import reached_by_ctrl_c

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

#: Games enough that a run is still going when it is signalled, on any machine: an
#: intermediate game of `best` takes about a millisecond, so 3000 could end first.
GAMES = 100_000
RUN = ["bench", "--preset", "intermediate", "--games", str(GAMES), "--strategy", "best"]


def start(
    args: list[str], env: dict[str, str], started: list[subprocess.Popen[str]]
) -> subprocess.Popen[str]:
    process = subprocess.Popen(
        reached_by_ctrl_c([sys.executable, "-m", "minesweeper", *args]),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **env},
    )
    started.append(process)
    return process


#: Seconds that only bound a hang: on a loaded machine a run may take minutes to get there.
PATIENCE = 300.0


def wait_for(condition, seconds: float = PATIENCE) -> None:
    end = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.05)


def wait_for_work(process: subprocess.Popen[str], seconds: float) -> None:
    """Until ``process`` has had ``seconds`` of CPU time (or has ended): the same work done
    whatever the machine's load. Without /proc (not Linux), ``seconds`` of wall time."""
    stat = Path(f"/proc/{process.pid}/stat")
    if not stat.exists():
        time.sleep(seconds)
        return

    def cpu() -> float:
        user, system = stat.read_text().rsplit(")", 1)[1].split()[11:13]
        return (int(user) + int(system)) / os.sysconf("SC_CLK_TCK")

    wait_for(lambda: process.poll() is not None or cpu() >= seconds)


@pytest.fixture
def started() -> Iterator[list[subprocess.Popen[str]]]:
    """The processes a test starts: killed and reaped at its end, whatever happened."""
    processes: list[subprocess.Popen[str]] = []
    yield processes
    for process in processes:
        if process.poll() is None:
            process.kill()
            process.communicate()


def lines(path: Path) -> int:
    return len(path.read_text().splitlines()) if path.exists() else 0


def games_in_table(stdout: str) -> int:
    (row,) = [line for line in stdout.splitlines() if line.startswith("intermediate")]
    return int(row.split()[3])


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_stopped_run_keeps_its_games_in_its_log(
    tmp_path: Path, signum: int, started: list[subprocess.Popen[str]]
) -> None:
    log = tmp_path / "games.jsonl"
    bench = start([*RUN, "--jobs", "2", "--per-game", str(log)], {}, started)
    wait_for(lambda: lines(log) >= 20)
    bench.send_signal(signum)
    out, err = bench.communicate(timeout=PATIENCE)
    assert bench.returncode == 130, err
    assert "partial" in out
    (message,) = [line for line in err.splitlines() if line.startswith("minesweeper:")]
    played = games_in_table(out)
    assert f"interrupted after {played} of {GAMES} games: they are in {log}" in message
    assert f"--resume {log}" in message and "--per-game" not in message
    assert lines(log) == played  # every game in the table is in the log, and only those


@pytest.mark.slow  # 2.5 s or more end to end
def test_a_stopped_run_without_a_log_autosaves_one_that_resumes(
    tmp_path: Path, started: list[subprocess.Popen[str]]
) -> None:
    bench = start([*RUN, "--jobs", "1"], {"MINESWEEPER_DATA_DIR": str(tmp_path)}, started)
    folder = tmp_path / "bench"
    # Some games played, with no log to watch: the start takes under a CPU second, a game
    # about a millisecond, and the whole run far more than 2 s.
    wait_for_work(bench, 2.0)
    bench.send_signal(signal.SIGINT)
    out, err = bench.communicate(timeout=PATIENCE)
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
    args[args.index(str(GAMES))] = str(played + 5)
    done = subprocess.run(
        [sys.executable, "-m", "minesweeper", *args[1:]],
        capture_output=True,
        text=True,
        timeout=PATIENCE,
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
def test_pool_workers_die_with_their_parent_killed_by_sigkill(
    started: list[subprocess.Popen[str]],
) -> None:
    bench = start([*RUN, "--jobs", "2"], {}, started)
    wait_for(lambda: len(children(bench.pid)) >= 2)
    workers = children(bench.pid)
    bench.kill()
    bench.communicate(timeout=PATIENCE)
    try:
        wait_for(lambda: not any(alive(pid) for pid in workers), seconds=60)
    finally:
        for pid in workers:  # should the test fail, it still leaves nothing running
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
