"""What the sandbox hides whatever path leads to it: the graded cases reached through a
symlinked folder (issue 44 F3), and the judge's own installation (F4)."""

from __future__ import annotations

import json
import shlex
import shutil
import sys
import time
from pathlib import Path

import pytest
from judge_helpers import ROOT, run_cli

import minesweeper
from minesweeper.boards.cases import parse_case
from minesweeper.judge import sandbox as sandboxes
from minesweeper.judge.headers import Role, build
from minesweeper.judge.interactive import play_client
from minesweeper.judge.process import Child, Limits
from minesweeper.judge.sandbox import Sandbox, runs_the_judge

pytestmark = pytest.mark.skipif(
    bool(sandboxes.missing()), reason=f"no sandbox on this machine: {sandboxes.missing()}"
)
needs_compiler = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")
BOARD = "3 3\n...\n.X.\n...\n0 0\n"
PATIENCE = 120


def linked(tmp_path: Path) -> tuple[Path, Path]:
    """``real/`` holding ``cases/`` (a basic and an advanced case), and ``link`` -> ``real``;
    every folder open to the sandbox's user."""
    real = tmp_path / "real"
    for kind in ("basic", "advanced"):
        (real / "cases" / kind).mkdir(parents=True)
    (real / "cases" / "advanced" / "board.in").write_text(BOARD)
    for suffix in (".in", ".out"):
        shutil.copy(
            ROOT / "testcases" / "basic" / f"repeated-visits{suffix}", real / "cases" / "basic"
        )
    (tmp_path / "link").symlink_to(real)
    for path in [tmp_path, *tmp_path.rglob("*")]:
        if not path.is_symlink():
            path.chmod(0o755)
    return real, tmp_path / "link"


#: Lists, on stderr as JSON, the cases beside it (``cases``, ``cases/advanced``), and the
#: same by the folder's other name (``../real/cases``), then stops.
LISTER = """
import json, os, sys
here = os.path.dirname(sys.argv[0])
seen = {}
for path in ("cases", "cases/advanced", "../real/cases"):
    try:
        seen[path] = sorted(os.listdir(os.path.join(here, path)))
    except OSError as error:
        seen[path] = type(error).__name__
print(json.dumps(seen, sort_keys=True), file=sys.stderr)
sys.exit(1)
"""
#: What the lister sees when the cases are hidden: empty tmpfs, or nothing.
HIDDEN = {"../real/cases": [], "cases": [], "cases/advanced": "FileNotFoundError"}


def test_cases_reached_through_a_symlinked_folder_stay_hidden(tmp_path: Path) -> None:
    # Issue 44 F3: the hidden paths were resolved (real/cases), the shown ones were not
    # (link/, the program's folder): link/cases stayed visible beside the program.
    real, link = linked(tmp_path)
    (real / "lister.py").write_text(LISTER)
    command = [sys.executable, str(link / "lister.py")]
    for hidden in (link / "cases", real / "cases"):  # as given, or resolved
        with Child(command, Limits(), Sandbox(hidden=(hidden,))) as child:
            child.wait_exit(time.monotonic() + PATIENCE)
        seen = json.loads(child.stderr_tail.decode().splitlines()[-1])
        assert seen in (HIDDEN, {**HIDDEN, "../real/cases": "FileNotFoundError"}), seen
    unsandboxed = Child(command, Limits())
    with unsandboxed:
        unsandboxed.wait_exit(time.monotonic() + PATIENCE)
    seen = json.loads(unsandboxed.stderr_tail.decode().splitlines()[-1])
    assert seen["cases/advanced"] == ["board.in"]  # what there is to hide


def test_grade_client_through_a_symlinked_folder_lists_no_case(tmp_path: Path) -> None:
    # The command: grade --client "python3 $PWD/link/client.py" $PWD/link/cases/advanced
    real, link = linked(tmp_path)
    (real / "client.py").write_text(LISTER)
    client = shlex.join([sys.executable, str(link / "client.py")])
    result = run_cli(["grade", "--client", client, str(link / "cases" / "advanced")])
    assert result.exit_code == 1
    assert '"cases/advanced": []' in result.stdout, result.stdout  # the graded folder


#: A server.h that passes without playing: the expected output, pasted in by the assembler
#: from the .out beside it (PATH), printed whole.
INCBIN = r"""
#include <cstdio>
#include <cstdlib>
asm(".section .rodata\n.global answer\nanswer:\n.incbin \"PATH\"\n"
    ".global answer_end\nanswer_end:\n.byte 0\n.text\n");
extern "C" const char answer[], answer_end[];
int rows, columns, game_state;
void InitMap() {
  fwrite(answer, 1, answer_end - answer, stdout);
  fflush(stdout);
  exit(0);
}
void VisitBlock(int, int) {}
void PrintMap() {}
void ExitGame() { exit(0); }
"""


@needs_compiler
def test_a_server_header_cannot_incbin_the_cases_through_a_link(tmp_path: Path) -> None:
    real, link = linked(tmp_path)
    expected = link / "cases" / "basic" / "repeated-visits.out"
    (real / "server.h").write_text(INCBIN.replace("PATH", str(expected)))
    (real / "server.h").chmod(0o644)
    header, cases = str(link / "server.h"), str(link / "cases" / "basic")
    unsandboxed = run_cli(["grade", "--server-header", header, "--no-sandbox", cases])
    assert "basic: 1/1 passed" in unsandboxed.stdout  # the cheat, where nothing is hidden
    result = run_cli(["grade", "--server-header", header, cases])
    assert result.exit_code == 1
    assert "compile error" in result.stderr and "repeated-visits.out" in result.stdout


def test_only_the_judges_own_programs_run_the_judge() -> None:
    python = sys.executable
    assert runs_the_judge([python, "-m", "minesweeper", "client"])
    assert runs_the_judge([python, "-u", "-mminesweeper", "server"])
    assert not runs_the_judge([python, "client.py", "-m", "minesweeper"])
    assert not runs_the_judge([python, "-m", "my_client"])
    assert not runs_the_judge(["/tmp/build/client"])
    script = shutil.which("minesweeper")
    if script is not None and Path(script).resolve().parent.parent == Path(sys.prefix):
        assert runs_the_judge([script, "client"])


#: A client.h whose static constructor looks for the judge's Python in the mount table and
#: at the path it knows (JUDGE), to play the judge's own client; it says what it saw on
#: stderr and exits with 42 when nothing ran.
THIEF = r"""
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>
extern int rows, columns;
void Execute(int row, int column);
static void Become(const std::string& python) {
  fprintf(stderr, "exec %s\n", python.c_str());
  fflush(stderr);
  execl(python.c_str(), python.c_str(), "-m", "minesweeper", "client", "--strategy=best",
        (char*)nullptr);
}
static int stolen = [] {
  FILE* mounts = fopen("/proc/self/mountinfo", "r");
  char line[4096], point[4096];
  while (mounts && fgets(line, sizeof line, mounts)) {
    if (sscanf(line, "%*s %*s %*s %*s %4095s", point) != 1) continue;
    fprintf(stderr, "mount %s\n", point);
    std::string here = point;
    bool system = here == "/" || here.rfind("/usr", 0) == 0 || here.rfind("/proc", 0) == 0 ||
                  here.rfind("/dev", 0) == 0 || here.rfind("/etc", 0) == 0 || here == "/tmp";
    std::string python = here + "/bin/python3";
    if (!system && access(python.c_str(), X_OK) == 0) Become(python);
  }
  Become(JUDGE);
  fprintf(stderr, "nothing ran\n");
  exit(42);
  return 0;
}();
void InitGame() {}
void ReadMap() {}
void Decide() { Execute(0, 0); }
"""


@needs_compiler
def test_a_header_cannot_run_the_judges_python(tmp_path: Path) -> None:
    # Issue 44 F4: the judge's venv was visible to every program, so a header could exec
    # `python -m minesweeper client --strategy=best` and win its games.
    folder = tmp_path / "thief"
    folder.mkdir()
    (folder / "client.h").write_text(THIEF.replace("JUDGE", json.dumps(sys.executable)))
    (tmp_path / "out").mkdir()
    for path in (tmp_path, folder, folder / "client.h", tmp_path / "out"):
        path.chmod(0o755)
    made = build(Role.CLIENT, folder / "client.h", tmp_path / "out", sandbox=Sandbox())
    assert made.program is not None, made.diagnostics
    case = parse_case(BOARD)
    unsandboxed = play_client(case, [str(made.program)], Limits())
    assert unsandboxed.problem == "" and unsandboxed.won  # the judge's client played
    run = play_client(case, [str(made.program)], Limits(), sandbox=Sandbox())
    assert run.problem == "exited with status 42", run.stderr
    package = Path(minesweeper.__file__).resolve().parent
    judges = {Path(sys.prefix), Path(sys.base_prefix), package, Path(sys.executable).parent}
    mounts = [
        line.split(" ", 1)[1] for line in run.stderr.splitlines() if line.startswith("mount ")
    ]
    assert mounts and not any(
        Path(point) == judge or judge in Path(point).parents or Path(point) in judge.parents
        for point in mounts
        for judge in judges
        if point not in ("/", "/usr", "/tmp")
    ), mounts
    assert f"exec {sys.executable}" in run.stderr  # tried, and found nothing there


def test_the_judges_own_client_still_runs_in_the_sandbox() -> None:
    command = [sys.executable, "-m", "minesweeper", "client"]
    run = play_client(parse_case(BOARD), command, Limits(), sandbox=Sandbox())
    assert run.problem == "" and run.won, run.stderr
