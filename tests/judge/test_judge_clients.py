"""The judge against foreign clients: every way a client can misbehave, with its exact result.

Each broken client is a real process (tests/clients/broken.py MODE MOVE); the
limits are short so the suite stays quick.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from paths import TESTS

from minesweeper.boards.cases import parse_case
from minesweeper.game import State
from minesweeper.judge.interactive import ClientRun, play_client, quote
from minesweeper.judge.process import Limits, describe_exit

BROKEN = TESTS / "clients" / "broken.py"
#: Row 0 is all numbers (no flood); the first-unknown client opens it, then the mine at (1, 0).
BOARD = "2 10\n..........\nX.X.X.X.X.\n0 1\n"
#: A second and a half per move: enough for Python to start on a loaded machine.
LIMITS = Limits(move_seconds=1.5, game_seconds=5.0, memory_mib=256, output_bytes=10_000)
pytestmark = pytest.mark.usefixtures("no_child_left_behind")


def run(mode: str, at: int = 1, limits: Limits = LIMITS, *extra: str) -> ClientRun:
    command = [sys.executable, str(BROKEN), mode, str(at), *extra]
    return play_client(parse_case(BOARD, name="board"), command, limits)


def test_a_client_that_keeps_to_the_protocol_plays_to_the_end() -> None:
    result = run("linger", 99)
    # linger plays the whole game, then never exits: the game counts, the hang does not pass.
    assert (result.game.state, result.game.visit_count, result.game.step_count) == (
        State.LOST,
        10,
        11,
    )
    assert result.moves == 10
    assert result.problem == "did not exit after the game"


@pytest.mark.parametrize(
    ("mode", "at", "problem", "steps"),
    [
        ("segfault", 3, "crashed (signal 11)", 3),
        ("exit3", 2, "exited with status 3", 2),
        ("hang", 3, "time limit (move 3)", 3),
        ("memory", 2, "memory limit (256 MiB)", 2),
        ("flood", 2, "output limit (10000 bytes)", 2),
        ("hello", 3, 'bad output line 3: "hello"', 3),
        ("off-board", 2, 'move off the board at line 2: "99 0"', 2),
        ("stop", 4, "stopped early after 3 move(s)", 4),
        ("close-stdout", 2, "stopped early after 1 move(s)", 2),
        ("fail-after", 99, "exited with status 4 after the game", 11),
    ],
)
def test_each_failure_kind_has_its_result(mode: str, at: int, problem: str, steps: int) -> None:
    result = run(mode, at)
    assert result.problem == problem
    assert result.game.step_count == steps  # the first click and the moves before the fault


def test_the_game_time_limit() -> None:
    # slow sleeps 0.2 s before each of its 10 moves: over the game's 1.5 s, which ends
    # before any move's 2 s would.
    result = run("slow", 1, Limits(move_seconds=2.0, game_seconds=1.5))
    assert result.problem == "time limit (game, 1.5 s)"
    assert result.moves < 10


def test_a_program_that_does_not_exist() -> None:
    result = play_client(parse_case(BOARD), ["/nonexistent/client"], LIMITS)
    assert result.problem == "cannot run '/nonexistent/client': No such file or directory"


def test_the_whole_process_group_is_killed(tmp_path: Path) -> None:
    pidfile = tmp_path / "pids"
    result = run("fork-and-hang", 1, Limits(move_seconds=0.5, game_seconds=5.0), str(pidfile))
    assert result.problem == "time limit (move 1)"
    group, *pids = map(int, pidfile.read_text().split())
    assert group == pids[0]  # the client leads its own process group
    deadline = time.monotonic() + 5
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in pids if alive(pid)]


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting for its reaper is not running)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.parametrize(
    ("code", "stderr", "text"),
    [
        (-24, b"", "time limit (CPU)"),  # SIGXCPU: the CPU backstop
        (1, b"Traceback ...\nMemoryError\n", "memory limit (256 MiB)"),
        (
            -6,
            b"terminate called after throwing an instance of 'std::bad_alloc'",
            "memory limit (256 MiB)",
        ),
        (-6, b"", "crashed (signal 6)"),
        (2, b"oops", "exited with status 2"),
        (None, b"", "did not exit"),
    ],
)
def test_how_an_exit_is_described(code: int | None, stderr: bytes, text: str) -> None:
    assert describe_exit(code, LIMITS, stderr) == text


def test_quote_escapes_and_cuts() -> None:
    assert quote(b"hello") == '"hello"'
    assert quote(b'a"b\t\xff') == '"a\\"b\\t\\xff"'
    assert quote(b"x" * 50) == '"' + "x" * 40 + '"...'


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=200))
def test_whatever_a_client_writes_the_judge_gives_a_result(output: bytes) -> None:
    code = f"import sys; sys.stdout.buffer.write({output!r})"
    result = play_client(
        parse_case(BOARD), [sys.executable, "-c", code], Limits(move_seconds=1.0, output_bytes=100)
    )
    # Random bytes end in a result: a problem, or (if they happen to be moves) a decided game.
    assert result.problem or result.game.over
