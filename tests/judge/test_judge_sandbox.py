"""The sandbox every foreign program runs in: who it is, what it sees, what it gets."""

from __future__ import annotations

import contextlib
import json
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from judge_helpers import ROOT, run_cli

from minesweeper.judge import cgroups, uids
from minesweeper.judge import sandbox as sandboxes
from minesweeper.judge.process import Child, Limits
from minesweeper.judge.sandbox import Sandbox, program_files

needs_sandbox = pytest.mark.skipif(
    bool(sandboxes.missing()), reason=f"no sandbox on this machine: {sandboxes.missing()}"
)

#: Reports what the program is and sees, as JSON on one line.
LOOK = """
import json, os, sys
seen = {}
for path in json.load(open(os.path.join(os.path.dirname(sys.argv[0]), "paths.json"))):
    try:
        seen[path] = sorted(os.listdir(path)) if os.path.isdir(path) else open(path).read()
    except OSError as error:
        seen[path] = type(error).__name__
status = dict(line.split(":", 1) for line in open("/proc/self/status").read().splitlines())
print(json.dumps({
    "uid": os.getuid(), "gid": os.getgid(), "groups": os.getgroups(), "cwd": os.getcwd(),
    "env": dict(os.environ), "pids": sorted(int(p) for p in os.listdir("/proc") if p.isdigit()),
    "caps": status["CapEff"].strip(), "bounding": status["CapBnd"].strip(),
    "no_new_privs": status["NoNewPrivs"].strip(), "seen": seen,
    "cwd_files": os.listdir("."),
}), flush=True)
"""


def look(tmp_path: Path, sandbox: Sandbox, *paths: str) -> dict:
    """What the program sees; ``paths`` (not on its command line, which would show them)
    are listed or read."""
    program = tmp_path / "look.py"
    program.write_text(LOOK)
    (tmp_path / "paths.json").write_text(json.dumps(paths))
    tmp_path.chmod(0o755)
    with Child([sys.executable, str(program)], Limits(), sandbox) as child:
        output = child.read_all(time.monotonic() + 20, "time limit")
        child.close()
    assert output, child.stderr_tail.decode()
    return json.loads(output)


@needs_sandbox
def test_a_program_runs_as_its_own_user_without_privileges(tmp_path: Path) -> None:
    seen = look(tmp_path, Sandbox())
    if sandboxes.as_root():  # a user id of its own, leased from the range (judge/uids.py)
        assert uids.FIRST <= seen["uid"] < uids.FIRST + uids.COUNT
        assert (seen["gid"], seen["groups"]) == (seen["uid"], [])
    else:
        assert (seen["uid"], seen["gid"], seen["groups"]) == (65534, 65534, [])
    assert seen["caps"] == seen["bounding"] == "0000000000000000"
    assert seen["no_new_privs"] == "1"
    # Its own PID namespace: bubblewrap's init and the program, nothing of the judge's.
    assert os.getpid() not in seen["pids"] and len(seen["pids"]) <= 3


@needs_sandbox
def test_a_program_gets_a_clean_environment_and_an_empty_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("JUDGE_SECRET", "s3cret")
    monkeypatch.setenv("GIVEN", "yes")
    seen = look(tmp_path, Sandbox(pass_env=("GIVEN",)))
    assert seen["env"].pop("PWD") == "/tmp"  # bubblewrap's --chdir sets it
    assert seen["env"] == {**sandboxes.ENVIRONMENT, "GIVEN": "yes"}
    assert seen["cwd"] == seen["env"]["HOME"] == seen["env"]["TMPDIR"] == "/tmp"


@needs_sandbox
def test_a_program_sees_no_case_and_no_judge_file(tmp_path: Path) -> None:
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "board.in").write_text("1 1\n.\n0 0\n")
    paths = [str(cases), str(ROOT / "testcases"), str(Path.home())]
    seen = look(tmp_path, Sandbox(hidden=(cases,)), *paths)
    # The program's folder is visible (its own files), but a graded folder in it is
    # covered; the judge's test cases and home do not exist in its world.
    assert seen["seen"][str(cases)] == []
    assert seen["seen"][str(ROOT / "testcases")] == "FileNotFoundError"
    assert seen["seen"][str(Path.home())] in ("FileNotFoundError", "PermissionError")


def test_the_files_a_command_needs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "client.py").write_text("")
    (tmp_path / "minesweeper").mkdir()
    argv, files = program_files(["python3", "client.py", "-m", "minesweeper", "3"])
    # python3 is the sandbox's own (/usr/bin), a file argument is made absolute and its
    # folder shown, and a word that names a folder without a slash is left alone.
    assert argv == ["python3", str(tmp_path / "client.py"), "-m", "minesweeper", "3"]
    assert files == [tmp_path / "client.py", tmp_path]


def test_without_a_sandbox_grading_refuses_in_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(sandboxes, "missing", lambda: "bubblewrap is not installed (apt-get ...)")
    client = shlex.join([sys.executable, str(ROOT / "examples" / "client.py")])
    case = ROOT / "testcases" / "advanced" / "adv-05x05-006.in"
    for command in (
        ["grade", "--client", client, str(case)],
        ["judge", "--client", client, str(case)],
    ):
        result = run_cli(command)
        assert result.exit_code == 2
        assert result.stderr == (
            "minesweeper: cannot sandbox the program: bubblewrap is not installed (apt-get ...);"
            " or give --no-sandbox\n"
        )
    result = run_cli(
        ["grade", "--client", client, "--no-sandbox", "--json", str(tmp_path / "r"), str(case)]
    )
    assert result.exit_code == 0
    assert result.stdout.startswith("unsandboxed")
    assert json.loads((tmp_path / "r").read_text())["sandbox"].startswith("unsandboxed")
    result = run_cli(["judge", "--client", client, "--no-sandbox", str(case)])
    assert result.stderr.startswith("minesweeper: unsandboxed")


@needs_sandbox
def test_a_sandboxed_grade_says_so_first(tmp_path: Path) -> None:
    client = shlex.join([sys.executable, str(ROOT / "examples" / "client.py")])
    case = ROOT / "testcases" / "advanced" / "adv-05x05-006.in"
    result = run_cli(["grade", "--client", client, "--pass-env", "TERM", str(case)])
    assert result.exit_code == 0, result.stdout
    assert result.stdout.splitlines()[0].startswith("sandboxed (bubblewrap")
    assert "passed environment: TERM" in " ".join(result.stdout.splitlines()[:2])  # folded


#: Starts a double-forked daemon in a session of its own, its last argument naming it, says
#: "ready" once the daemon says it runs, then stays until its case ends it (were it to end
#: first, the sandbox's init would take the daemon along: the test is that the case's end
#: does).
DAEMON = """
import os, subprocess, sys, time
code = "import os, sys, time\\nif os.fork(): os._exit(0)\\nos.setsid()\\nprint('up', flush=True)\\n"
code += "sys.stdout.close()\\ntime.sleep(600)"
daemon = subprocess.Popen([sys.executable, "-c", code, sys.argv[1] + "-daemon"],
                          start_new_session=True, stdin=subprocess.DEVNULL,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
daemon.stdout.readline()
print("ready", flush=True)
time.sleep(600)
"""
#: Seconds that only bound a hang (a loaded machine is slow to start processes).
PATIENCE = 120


def running(marker: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


@needs_sandbox
def test_nothing_a_sandboxed_program_starts_outlives_its_case(tmp_path: Path) -> None:
    marker = f"daemon-{os.getpid()}-{time.monotonic_ns()}"
    try:
        with Child([sys.executable, "-c", DAEMON, marker], Limits(), Sandbox()) as child:
            assert child.read_line(time.monotonic() + PATIENCE, "time limit") == b"ready"
            # The daemon runs, in a session of its own (it said so before "ready", so it was
            # there before the listing of /proc: a process that forks meanwhile is missed).
            assert running(f"{marker}-daemon")
        assert running(marker) == []  # the case is over: the program, the daemon, the sandbox
    finally:
        for pid in running(marker):  # had the judge missed one, the test still ends it
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


@needs_sandbox
def test_a_program_its_user_may_not_read_is_refused_with_the_fix(tmp_path: Path) -> None:
    if not sandboxes.as_root():
        pytest.skip("as another user, the program runs as the judge's uid")
    (tmp_path / "client.py").write_text("print('0 0')\n")
    tmp_path.chmod(0o700)
    with pytest.raises(PermissionError) as error:
        Child([sys.executable, str(tmp_path / "client.py")], Limits(), Sandbox())
    assert error.value.strerror == (
        f"{tmp_path} is not open to the sandbox's user (chmod -R o+rX {tmp_path})"
    )


@needs_sandbox
def test_a_judge_that_is_not_root_sandboxes_in_a_user_namespace(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if not sandboxes.as_root() or not Path("/usr/bin/python3").exists():
        pytest.skip("plays a judge of uid 65534 with setpriv, as root, on the system's Python")
    # Not pytest's tmp_path: that judge must reach the program itself (its parents are 0700).
    with tempfile.TemporaryDirectory() as folder:
        _not_root(Path(folder), monkeypatch)


def _not_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    program = tmp_path / "look.py"
    program.write_text(LOOK)
    (tmp_path / "paths.json").write_text(json.dumps([str(ROOT), "/root"]))
    tmp_path.chmod(0o755)
    monkeypatch.setattr(sandboxes.os, "geteuid", lambda: 65534)
    jail = Sandbox(own=()).wrap(["/usr/bin/python3", str(program)])
    assert "setpriv" not in jail.argv and "--unshare-user" in jail.argv
    become = ["setpriv", "--reuid", "65534", "--regid", "65534", "--clear-groups", "--"]
    done = subprocess.run(
        [*become, *jail.argv], env=jail.env, cwd="/", capture_output=True, text=True, timeout=30
    )
    seen = json.loads(done.stdout)
    assert (seen["uid"], seen["gid"], seen["caps"], seen["no_new_privs"]) == (
        65534,
        65534,
        "0000000000000000",
        "1",
    )
    assert set(seen["seen"].values()) <= {"FileNotFoundError", "PermissionError"}


def run_in_sandbox(command: list[str]) -> tuple[int | None, bytes, bytes]:
    """``command`` run in a sandbox with no input: its exit code, output and errors."""
    with Child(command, Limits(), Sandbox()) as child:
        child.close_input(time.monotonic() + PATIENCE, "time limit")
        output = child.read_all(time.monotonic() + PATIENCE, "time limit")
        code = child.wait_exit(time.monotonic() + PATIENCE)
    return code, output, bytes(child.stderr_tail)


@needs_sandbox
@pytest.mark.parametrize(
    ("command", "said"),
    [
        (["awk", "BEGIN { print 6 * 7 }"], b"42\n"),
        (["c++", "--version"], b"c++ "),
        # Found by a program in the sandbox, not by the judge (which follows the links
        # itself): as a build's make or a student's script would.
        (["sh", "-c", "awk 'BEGIN { print 6 * 7 }'"], b"42\n"),
        (["sh", "-c", "c++ --version"], b"c++ "),
    ],
    ids=["awk", "c++", "awk-from-a-shell", "c++-from-a-shell"],
)
def test_system_tools_run_in_the_sandbox(command: list[str], said: bytes) -> None:
    # Issue 44 F13: as root, bubblewrap made /etc 0700, and /usr/bin/awk, c++ and java are
    # links through /etc/alternatives: "Permission denied".
    tool = command[-1].split()[0] if command[0] == "sh" else command[0]
    if shutil.which(tool) is None:
        pytest.skip(f"no {tool} here")
    code, output, errors = run_in_sandbox(command)
    assert (code, errors) == (0, b"")
    assert output.startswith(said)


@needs_sandbox
def test_java_cp_dot_server_is_graded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # docs/judge.md's example: `--server "java -cp . Server"` (the JVM reads /etc/java-*).
    if shutil.which("java") is None or shutil.which("javac") is None:
        pytest.skip("no java here")
    program, cases = tmp_path / "program", tmp_path / "cases"
    program.mkdir()
    cases.mkdir()
    (program / "Server.java").write_text(ECHO_JAVA)
    subprocess.run(["javac", "Server.java"], cwd=program, check=True, timeout=PATIENCE)
    (cases / "echo.in").write_text("1 1\n.\n")
    (cases / "echo.out").write_text("1 1\n.\n")
    for path in (tmp_path, program, program / "Server.class"):
        path.chmod(0o755)
    monkeypatch.chdir(program)
    # The JVM reserves much address space up front: --memory 4096 (docs/judge.md).
    result = run_cli(["grade", "--server", "java -cp . Server", "--memory", "4096", str(cases)])
    assert result.exit_code == 0, result.stdout
    assert "basic: 1/1 passed" in result.stdout


#: Copies its standard input to its standard output.
ECHO_JAVA = """
import java.io.*;
public class Server {
    public static void main(String[] args) throws IOException {
        System.in.transferTo(System.out);
        System.out.flush();
    }
}
"""


@needs_sandbox
def test_a_judge_with_a_low_process_limit_still_starts_programs() -> None:
    # Issue 44 F13: under a hard process limit below the sandbox's 256, raising it failed in
    # the child before exec: "Exception occurred in preexec_fn", every build failed.
    code = (
        "import resource, time\n"
        "from minesweeper.judge.process import Child, Limits\n"
        "from minesweeper.judge.sandbox import Sandbox\n"
        "resource.setrlimit(resource.RLIMIT_NPROC, (100, 100))\n"
        "with Child(['/bin/true'], Limits(), Sandbox()) as child:\n"
        "    print(child.wait_exit(time.monotonic() + 60))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=PATIENCE
    )
    assert (done.stdout, done.stderr) == ("0\n", "")


def test_the_reports_first_line_fits_80_columns_and_says_what_the_limit_covers() -> None:
    # Issue 41, rough edge 4: a line of 129 columns about cgroups read like a warning.
    for line in (sandboxes.describe(None), sandboxes.describe(Sandbox())):
        assert len(line) <= 80, line
    covered = "per process" if cgroups.missing() else "per program"
    assert sandboxes.describe(Sandbox()).endswith(f"no network, memory limit {covered}")
