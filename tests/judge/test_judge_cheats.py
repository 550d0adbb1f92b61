"""Every cheat of issue 21 (rows C1-C8), tried by a hostile program through the CLI.

Each hostile mode (`tests/clients/hostile.py`) runs sandboxed through `grade
--jobs 1`, `grade --jobs 2` (with the slow tests) and `judge`; where it can,
once unsandboxed too, to show the attack works when nothing stops it. The judge runs as a
subprocess: the attacks write to its file descriptors and signal it.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import secrets
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from judge_helpers import ROOT

from minesweeper.judge import sandbox as sandboxes

pytestmark = pytest.mark.skipif(
    bool(sandboxes.missing()), reason=f"no sandbox on this machine: {sandboxes.missing()}"
)

HOSTILE = ROOT / "tests" / "clients" / "hostile.py"
#: The runs every client attack goes through: (command, --jobs). --jobs 2 (the same sandbox,
#: from a worker process) runs with the slow tests: it costs the most, and CI runs it.
RUNS = [
    pytest.param(("grade", "1"), id="run0"),
    pytest.param(("grade", "2"), id="run1", marks=pytest.mark.slow),
    pytest.param(("judge", ""), id="run2"),
]
GRADE_ALONE: tuple[str, str] = ("grade", "1")
GRADE = [sys.executable, "-m", "minesweeper", "grade"]


@dataclass
class World:
    """A grading folder: expert boards under a folder with a secret name, the program."""

    root: Path
    cases: Path
    program: Path
    token: str

    def reversed(self) -> str:
        return str(self.root)[::-1]


def expert_board(seed: int) -> str:
    """A 16x30 board with 99 mines and a first click on a cell with no mine around it."""
    rng = random.Random(seed)
    while True:
        mines = set(rng.sample(range(16 * 30), 99))
        rows = ["".join("X" if r * 30 + c in mines else "." for c in range(30)) for r in range(16)]
        zeros = [
            (r, c)
            for r in range(16)
            for c in range(30)
            if all(
                not (0 <= r + dr < 16 and 0 <= c + dc < 30) or rows[r + dr][c + dc] == "."
                for dr in (-1, 0, 1)
                for dc in (-1, 0, 1)
            )
        ]
        if zeros:
            first = rng.choice(zeros)
            return "16 30\n" + "\n".join(rows) + f"\n{first[0]} {first[1]}\n"


@pytest.fixture
def world(tmp_path: Path) -> World:
    token = secrets.token_hex(8)
    cases = tmp_path / f"secret-{token}"
    cases.mkdir()
    for seed in (1, 2):
        (cases / f"expert-{seed}.in").write_text(expert_board(seed))
    for name in ("at-map", "repeated-visits"):
        for suffix in (".in", ".out"):
            shutil.copy(ROOT / "testcases" / "basic" / f"{name}{suffix}", cases / f"{name}{suffix}")
    program = tmp_path / "program"
    program.mkdir()
    shutil.copy(HOSTILE, program / "hostile.py")
    for folder in (tmp_path, program):  # the sandbox's user reads the program
        folder.chmod(0o755)
    return World(tmp_path, cases, program / "hostile.py", token)


@dataclass
class Attack:
    outcomes: list[str]
    said: str  # what the hostile program wrote on stderr
    stdout: str
    stderr: str
    returncode: int


def attack(
    world: World,
    mode: str,
    arg: str,
    run: tuple[str, str],
    *options: str,
    env: dict[str, str] | None = None,
) -> Attack:
    """Play the expert boards with ``hostile.py MODE ARG`` through ``run``."""
    command, jobs = run
    client = f"{sys.executable} {world.program} {mode} {arg}".strip()
    if command == "grade":
        report = world.root / "report.json"
        args = [
            "grade",
            "--client",
            client,
            "--jobs",
            jobs,
            "--json",
            str(report),
            str(world.cases),
        ]
    else:
        report = None
        args = ["judge", "--client", client, "--trace", str(world.cases / "expert-1.in")]
    done = subprocess.run(
        [sys.executable, "-m", "minesweeper", *args, *options],
        capture_output=True,
        text=True,
        errors="replace",  # an attack may write any bytes there
        timeout=180,
        cwd=world.root,
        env={**os.environ, **(env or {})},
    )
    if report is not None:
        games = json.loads(report.read_text())["advanced"]
        outcomes = [game["outcome"] for game in games]
        said = "".join(game["stderr"] for game in games)
    else:
        outcomes = [
            {"YOU WIN!": "won", "GAME OVER!": "lost"}[line]
            for line in done.stdout.splitlines()
            if line in ("YOU WIN!", "GAME OVER!")
        ]
        said = "".join(line for line in done.stderr.splitlines(True) if line.startswith("stderr:"))
    return Attack(outcomes, said, done.stdout, done.stderr, done.returncode)


def boards(run: tuple[str, str]) -> int:
    return 2 if run[0] == "grade" else 1


@pytest.mark.parametrize("run", RUNS)
def test_c1_a_client_finds_no_case_file(world: World, run: tuple[str, str]) -> None:
    result = attack(world, "c1", world.reversed(), run)
    assert result.said.count("learnt the board: False") == boards(run), result.stderr
    assert result.outcomes == ["lost"] * boards(run)  # clicking blind on expert boards


def test_c1_unsandboxed_the_same_client_wins_every_board(world: World) -> None:
    result = attack(world, "c1", world.reversed(), GRADE_ALONE, "--no-sandbox")
    assert result.outcomes == ["won", "won"] and result.stdout.startswith("unsandboxed")


@pytest.mark.parametrize("run", RUNS)
def test_c2_a_client_reads_no_memory_of_the_judge(world: World, run: tuple[str, str]) -> None:
    result = attack(world, "c2", world.token[::-1], run)
    # At most the sandbox's own init, a shell of the program's user that knows nothing.
    assert result.said.count("found the secret: False") == boards(run), result.stderr
    assert set(re.findall(r"read the memory of \[(.*?)\]", result.said)) <= {"", "'sh'"}


def test_c2_unsandboxed_the_client_finds_the_case_in_the_judges_memory(world: World) -> None:
    result = attack(world, "c2", world.token[::-1], GRADE_ALONE, "--no-sandbox")
    assert result.said.count("found the secret: True") == 2


def digests(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("jobs", ["1", pytest.param("2", marks=pytest.mark.slow)])
def test_c3_c4_a_server_finds_no_expected_output_and_destroys_none(world: World, jobs: str) -> None:
    before = digests(world.cases)
    for mode, said in (("c3", "found nothing"), ("c4", "overwrote 0 .out files")):
        server = f"{sys.executable} {world.program} {mode} {world.reversed()}"
        report = world.root / f"{mode}.json"
        subprocess.run(
            [*GRADE, "--server", server, "--jobs", jobs, "--json", str(report), str(world.cases)],
            capture_output=True,
            timeout=180,
            cwd=world.root,
        )
        grades = json.loads(report.read_text())["basic"]
        assert [grade["passed"] for grade in grades] == [False, False]
        assert all(said in grade["stderr"] for grade in grades)
    assert digests(world.cases) == before


def test_c3_c4_unsandboxed_the_server_passes_by_copying_and_then_destroys(world: World) -> None:
    for mode, passed in (("c3", [True, True]), ("c4", [False, False])):
        server = f"{sys.executable} {world.program} {mode} {world.reversed()}"
        report = world.root / f"{mode}.json"
        subprocess.run(
            [*GRADE, "--server", server, "--no-sandbox", "--json", str(report), str(world.cases)],
            capture_output=True,
            timeout=180,
            cwd=world.root,
        )
        assert [grade["passed"] for grade in json.loads(report.read_text())["basic"]] == passed
    assert (world.cases / "at-map.out").read_text() == "pwned\n"


@pytest.mark.parametrize("run", RUNS)
@pytest.mark.parametrize("sandboxed", [True, False], ids=["sandboxed", "unsandboxed"])
def test_c5_code_written_into_the_judges_pipes_never_runs(
    world: World, run: tuple[str, str], sandboxed: bool
) -> None:
    # Unsandboxed too: results come back from --jobs workers as JSON, never as a pickle.
    marker = world.root / "injected"
    result = attack(world, "c5", str(marker), run, *([] if sandboxed else ["--no-sandbox"]))
    assert "wrote a pickle into" in result.said, result.stderr
    assert not marker.exists()
    if sandboxed:  # unsandboxed, it may spoil its own game (its pipes are the judge's too)
        assert result.said.count("wrote a pickle into 0 pipes") == boards(run)
        assert len(result.outcomes) == boards(run)


@pytest.mark.parametrize("run", RUNS)
def test_c6_a_forged_line_never_reaches_the_report(world: World, run: tuple[str, str]) -> None:
    result = attack(world, "c6", "", run)
    assert result.said.count("forged 0 lines") == boards(run), result.stderr
    assert "FORGED" not in result.stdout + result.stderr.replace("stderr: hostile", "")


def test_c6_unsandboxed_the_forged_line_appears(world: World) -> None:
    result = attack(world, "c6", "", GRADE_ALONE, "--no-sandbox")
    assert "FORGED advanced: 99/99 won" in result.stdout + result.stderr


@pytest.mark.parametrize("run", RUNS)
def test_c7_a_client_that_signals_the_judge_gets_its_own_verdicts(
    world: World, run: tuple[str, str]
) -> None:
    honest = attack(world, "plain", "", run)
    result = attack(world, "c7", "", run)
    # Its signals reach at most the sandbox's init, which ignores them.
    assert result.said.count("signals") == boards(run), result.stderr
    assert result.outcomes == honest.outcomes and len(result.outcomes) == boards(run)
    assert result.returncode == honest.returncode


@pytest.mark.parametrize("run", RUNS)
def test_c8_no_secret_reaches_the_program_and_the_judges_home_is_untouched(
    world: World, run: tuple[str, str]
) -> None:
    home = world.root / "home"
    home.mkdir()
    (home / ".bashrc").write_text("# the judge's\n")
    env = {"JUDGE_SECRET": "hunter2", "HOME": str(home)}
    result = attack(world, "c8", "", run, env=env)
    assert result.said.count("secret: ''; spoilt homes: ['/tmp']") == boards(run), result.stderr
    assert "hunter2" not in result.stdout + result.stderr
    assert (home / ".bashrc").read_text() == "# the judge's\n"
    passed = attack(world, "c8", "", run, "--pass-env", "JUDGE_SECRET", env=env)
    assert passed.said.count("secret: 'hunter2'") == boards(run)


def test_c8_unsandboxed_the_program_reads_the_secret_and_spoils_the_home(world: World) -> None:
    home = world.root / "home"
    home.mkdir()
    (home / ".bashrc").write_text("# the judge's\n")
    env = {"JUDGE_SECRET": "hunter2", "HOME": str(home)}
    result = attack(world, "c8", "", GRADE_ALONE, "--no-sandbox", env=env)
    assert "secret: 'hunter2'" in result.said
    assert "pwned" in (home / ".bashrc").read_text()
