"""A program the machine would not start is the judge's failure, never the program's:
tried again, then reported as a judge error, and the run exits with status 3."""

from __future__ import annotations

import dataclasses
import errno
import json
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from judge_helpers import ROOT, run_cli
from paths import TESTS

from minesweeper.errors import MachineError
from minesweeper.judge import headers, process
from minesweeper.judge import sandbox as sandboxes
from minesweeper.judge.headers import Build, Role, build, driver_failure
from minesweeper.judge.process import Child, Limits
from minesweeper.judge.sandbox import Sandbox

needs_sandbox = pytest.mark.skipif(
    bool(sandboxes.missing()), reason=f"no sandbox on this machine: {sandboxes.missing()}"
)
CLIENT = shlex.join([sys.executable, str(ROOT / "examples" / "client.py")])
CASE = ROOT / "testcases" / "advanced" / "adv-05x05-006.in"


@pytest.fixture(autouse=True)
def no_pauses(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(process, "RETRY_PAUSES", (0.0, 0.0, 0.0))
    monkeypatch.setattr(headers, "RETRY_PAUSES", (0.0, 0.0, 0.0))


def refusing(monkeypatch: pytest.MonkeyPatch, times: int) -> list[int]:
    """``subprocess.Popen`` refuses to fork (EAGAIN) its first ``times`` calls; the list
    counts the calls."""
    calls: list[int] = []
    real = subprocess.Popen

    def popen(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        calls.append(1)
        if len(calls) <= times:
            raise OSError(errno.EAGAIN, "Resource temporarily unavailable")
        return real(*args, **kwargs)

    monkeypatch.setattr(process.subprocess, "Popen", popen)
    return calls


@pytest.mark.parametrize("sandbox", [None, Sandbox()], ids=["unsandboxed", "sandboxed"])
def test_a_refused_fork_is_tried_again(
    monkeypatch: pytest.MonkeyPatch, sandbox: Sandbox | None
) -> None:
    if sandbox is not None and sandboxes.missing():
        pytest.skip(f"no sandbox here: {sandboxes.missing()}")
    calls = refusing(monkeypatch, 2)
    with Child(["/bin/true"], Limits(), sandbox) as child:
        assert child.wait_exit(time.monotonic() + 60) == 0
    assert len(calls) == 3


def test_a_fork_refused_every_time_is_a_machine_error(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = refusing(monkeypatch, 100)
    with pytest.raises(MachineError) as error:
        Child(["/bin/true"], Limits())
    assert str(error.value) == (
        "could not start '/bin/true' (4 tries): Resource temporarily unavailable"
    )
    assert len(calls) == 4


def test_a_missing_program_is_the_programs_own_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = refusing(monkeypatch, 0)
    with pytest.raises(FileNotFoundError):
        Child(["/nonexistent/program"], Limits())
    assert len(calls) == 1  # not the machine's: not tried again


@needs_sandbox
def test_a_sandbox_that_is_not_made_is_a_machine_error(tmp_path: Path) -> None:
    # bubblewrap fails before the program starts (here: a folder to show is missing), so
    # the sandbox's init never says the program starts; whatever the program would print.
    sandbox = Sandbox(read_only=(tmp_path / "gone",))
    with pytest.raises(MachineError) as error:
        Child(["/bin/echo", "hello"], Limits(), sandbox)
    assert str(error.value).startswith(
        "could not start '/bin/echo' (4 tries): the sandbox did not start: bwrap: "
    )
    assert str(tmp_path / "gone") in str(error.value)


@pytest.mark.parametrize("option", ["--client", "--server"])
def test_grade_reports_a_judge_error_and_exits_3(
    monkeypatch: pytest.MonkeyPatch, option: str
) -> None:
    refusing(monkeypatch, 100)
    case = CASE if option == "--client" else ROOT / "testcases" / "basic" / "repeated-visits.in"
    result = run_cli(["grade", option, CLIENT, "--no-sandbox", str(case)])
    assert result.exit_code == 3, result.stdout
    assert "judge error: could not start" in " ".join(result.stdout.split())  # folded at 80
    assert result.stderr == (
        "minesweeper: 1 case(s) not graded: the machine failed (judge error); grade again\n"
    )


def test_the_drivers_own_failure_is_told_from_the_students_code() -> None:
    alone = (
        "g++: fatal error: cannot execute 'cc1plus': vfork: Resource temporarily unavailable\n"
        "compilation terminated.\n"
    )
    assert driver_failure(alone) == alone.splitlines()[0]
    # A student's message may say the same, but comes with a line naming its file.
    forged = "server.h:1:15: error: static assertion failed: x\n" + alone
    assert driver_failure(forged) == ""
    assert driver_failure("server.h:6:1: error: expected initializer before 'void'\n") == ""
    limit = (
        "g++: internal compiler error: CPU time limit exceeded signal terminated program cc1plus"
    )
    assert driver_failure(limit) == ""  # the compile's own time limit, not the machine


@pytest.mark.slow
@needs_sandbox
@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")
def test_a_compiler_that_cannot_start_its_parts_is_a_judge_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # One process for the compiler's user: g++ runs, but cannot fork cc1plus (it tries for
    # 15 s of sleep on its own, so once here; `build`'s tries are counted below).
    if not sandboxes.as_root():
        pytest.skip("the process limit is set per program only as root")
    monkeypatch.setattr(headers, "RETRY_PAUSES", ())
    header = tmp_path / "server.h"
    shutil.copy(TESTS / "headers" / "correct" / "server.h", header)
    folder = tmp_path / "out"
    folder.mkdir()
    for path in (tmp_path, header, folder):
        path.chmod(0o755)
    limits = Limits(move_seconds=60, game_seconds=60, memory_mib=2048, processes=1)
    made = build(Role.SERVER, header, folder, limits, Sandbox())
    assert made.problem.startswith("judge error: g++: fatal error: cannot execute"), made.problem
    assert made.program is None


def test_a_build_the_driver_failed_is_tried_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    failed = Build(
        Role.SERVER,
        tmp_path / "server.h",
        ("g++",),
        problem="compile error: g++: fatal error: cannot execute 'as': vfork: ...",
        diagnostics="g++: fatal error: cannot execute 'as': vfork: ...\ncompilation terminated.",
    )
    done = dataclasses.replace(failed, problem="", diagnostics="", program=tmp_path / "server")
    tries = [failed, failed, done]
    monkeypatch.setattr(headers, "_build_once", lambda *args: tries.pop(0))
    assert build(Role.SERVER, tmp_path / "server.h", tmp_path) == done
    tries = [failed] * 4
    made = build(Role.SERVER, tmp_path / "server.h", tmp_path)
    assert made.problem == "judge error: g++: fatal error: cannot execute 'as': vfork: ..."
    assert tries == []


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")
def test_a_class_run_names_the_students_the_machine_failed_and_exits_3(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    refusing(monkeypatch, 100)
    student = tmp_path / "class" / "alice"
    student.mkdir(parents=True)
    shutil.copy(TESTS / "headers" / "correct" / "server.h", student / "server.h")
    report = tmp_path / "class.json"
    cases = str(ROOT / "testcases" / "basic")
    result = run_cli(
        [
            "grade",
            "--submissions",
            str(tmp_path / "class"),
            "--no-sandbox",
            "--json",
            str(report),
            cases,
        ]
    )
    assert result.exit_code == 3, result.stdout
    row = json.loads(report.read_text())["students"][0]
    assert row["server_build"] == "judge error"
    assert row["notes"][0].startswith("server.h: judge error: could not start 'g++' (4 tries)")
    assert result.stderr.endswith(
        "1 student(s) with a judge error (the machine failed, not their code): alice; "
        "grade them again\n"
    )


def test_judge_reports_a_judge_error_and_exits_3(monkeypatch: pytest.MonkeyPatch) -> None:
    refusing(monkeypatch, 100)
    result = run_cli(["judge", "--client", CLIENT, "--no-sandbox", str(CASE)])
    assert result.exit_code == 3
    assert result.stderr.splitlines()[-1].startswith(
        f"minesweeper: {CASE.name}: judge error: could not start"
    )
