"""Students' headers built into programs the judge can run: ``server.h`` and ``client.h``.

The assignment's deliverables are headers, not programs. A header is compiled
with the project's own harness (``harness/``: a ``main`` for ``server.h``, and
for ``client.h`` an ``Execute`` that speaks the judge's client protocol, so the
client runs apart from any server) by the system's ``g++``, in the same
sandbox as every judged program (`judge.sandbox`): it sees the system, the
header's folder and the harness, read-only, and writes only the output folder.
A build that fails is a verdict (`Build.problem`), never an exception.
"""

from __future__ import annotations

import dataclasses
import enum
import re
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from minesweeper.errors import JudgeError, MachineError
from minesweeper.judge.escape import printable
from minesweeper.judge.process import (
    JUDGE_ERROR,
    RETRY_PAUSES,
    Child,
    ChildProblem,
    Limits,
    describe_exit,
    judge_error,
)
from minesweeper.judge.sandbox import Sandbox

#: The harness sources, shipped as package data.
HARNESS = Path(__file__).resolve().parent / "harness"
#: The compiler and its flags: the standard the course's judge uses, optimised.
COMPILER = "g++"
FLAGS = ("-std=c++17", "-O2", "-pipe", "-fmax-errors=5", "-fdiagnostics-color=never")
#: A compile's limits: wall (and CPU) seconds for the whole build, and memory.
COMPILE_LIMITS = Limits(move_seconds=60.0, game_seconds=60.0, memory_mib=2048)
#: How much of the compiler's messages a report shows: lines, and characters a line.
SHOWN_LINES = 12
SHOWN_WIDTH = 200

#: A compiler message line that names the error (a link error has no "error:").
_ERROR = re.compile(r"error:|undefined reference|multiple definition")


class Role(enum.StrEnum):
    """What a header is: the judge's server, or a client that plays it."""

    SERVER = "server"
    CLIENT = "client"

    @property
    def header(self) -> str:
        return f"{self.value}.h"


class CompilerMissing(JudgeError):
    """There is no ``g++`` to build headers with."""


@dataclass(frozen=True)
class Build:
    """One header's build: the program, or the one-line ``problem`` and the compiler's first
    ``diagnostics`` lines (escaped, cut); ``command`` is the compiler's command line."""

    role: Role
    header: Path
    command: tuple[str, ...]
    program: Path | None = None
    problem: str = ""
    diagnostics: str = ""
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.program is not None


def require_compiler() -> str:
    """The compiler's path; `CompilerMissing` (one line saying how to install it) if absent."""
    found = shutil.which(COMPILER)
    if found is None:
        raise CompilerMissing(
            f"cannot build headers: {COMPILER} is not installed (apt-get install g++)"
        )
    return found


def compile_command(role: Role, header: Path, program: Path) -> list[str]:
    """The compiler's command line: the harness's source with ``header`` included first.

    ``-include`` puts the header, whatever its name, before the harness's code,
    and its own ``#include "..."`` lines find the files beside it.
    """
    header = header.absolute()
    included = ["-include", str(header)]
    if role is Role.CLIENT:
        included = ["-include", str(HARNESS / "client_prelude.h"), *included]
    source = HARNESS / f"{role.value}_main.cpp"
    return [COMPILER, *FLAGS, *included, str(source), "-o", str(program.absolute())]


def build(
    role: Role,
    header: Path,
    folder: Path,
    limits: Limits = COMPILE_LIMITS,
    sandbox: Sandbox | None = None,
    sources: Path | None = None,
) -> Build:
    """Compile ``header`` as a ``role`` into the empty folder ``folder``, under ``limits``
    (``game_seconds`` for the whole build), in ``sandbox`` unless None, which shows the
    compiler the folder ``sources`` (default: the header's own) and writes only ``folder``.

    A compiler the machine would not start, or that could not start its own programs
    (`driver_failure`), is tried again after each of `RETRY_PAUSES`, and then the build's
    problem is a judge error (``judge error: ...``), not the student's."""
    for pause in (*RETRY_PAUSES, None):
        made = _build_once(role, header, folder, limits, sandbox, sources)
        failure = (
            driver_failure(made.diagnostics) if made.problem.startswith("compile error") else ""
        )
        if failure:
            made = dataclasses.replace(made, problem=f"{JUDGE_ERROR}: {failure}")
        if not failure or pause is None:
            return made
        time.sleep(pause)
    raise AssertionError("unreachable")


def _build_once(
    role: Role,
    header: Path,
    folder: Path,
    limits: Limits,
    sandbox: Sandbox | None,
    sources: Path | None,
) -> Build:
    program = folder / role.value
    command = compile_command(role, header, program)
    if sandbox is not None:
        shown = (sources or header.parent).absolute()
        sandbox = dataclasses.replace(
            sandbox,
            read_only=(*sandbox.read_only, shown, HARNESS),
            writable=(*sandbox.writable, folder.absolute()),
        )
    made = Build(role, header, tuple(command))
    start = time.monotonic()
    try:
        child = Child(command, limits, sandbox)
    except MachineError as error:
        return dataclasses.replace(made, problem=judge_error(error))
    except OSError as error:
        reason = error.strerror or str(error)
        return dataclasses.replace(made, problem=f"cannot run {COMPILER}: {reason}")
    with child:
        deadline = child.game_deadline
        try:
            child.close_input(deadline, "")
            child.read_all(deadline, f"compile time limit ({limits.game_seconds:g} s)")
        except ChildProblem as limit:
            return dataclasses.replace(made, problem=str(limit), seconds=_since(start))
        code = child.wait_exit(deadline)
    seconds = _since(start)
    messages = _readable(bytes(child.stderr_head), header.absolute().parent)
    if code == 0 and program.is_file():
        return dataclasses.replace(made, program=program, seconds=seconds)
    ended = describe_exit(code, limits, bytes(child.stderr_tail))
    if code is None:
        problem = f"compile time limit ({limits.game_seconds:g} s)"
    elif code < 0 or ended.startswith("memory limit"):
        problem = f"compile {ended}"
    else:
        problem = f"compile error: {first_error(messages)}"
        if role is Role.CLIENT and _borrowed(messages):
            problem += " (the client runs apart from the server: only rows and columns are given)"
    return dataclasses.replace(made, problem=problem, diagnostics=_cut(messages), seconds=seconds)


def driver_failure(messages: str) -> str:
    """The compiler driver's line when it alone spoke and failed: it could not start one
    of its own programs (``g++: fatal error: cannot execute 'cc1plus': vfork: Resource
    temporarily unavailable``, or one killed by the machine); "" otherwise. A message of
    the student's code always comes with a line of its own naming a file."""
    lines = [line for line in messages.splitlines() if line.strip()]
    driver = f"{COMPILER}: "
    if not lines or any(not line.startswith(driver) and line != _TERMINATED for line in lines):
        return ""
    failed = [line for line in lines if line.startswith(driver) and "CPU time limit" not in line]
    return _line(failed[0]) if failed else ""


#: The driver's last line after a fatal error.
_TERMINATED = "compilation terminated."


def first_error(messages: str) -> str:
    """The compiler's first line that names an error (else its first line), escaped and cut."""
    lines = messages.splitlines()
    chosen = next((line for line in lines if _ERROR.search(line)), lines[0] if lines else "")
    return _line(chosen.strip()) or "no message"


def _borrowed(messages: str) -> bool:
    """Whether the link failed on a name that is not the client's own: the server's, most
    likely, which advanced.cpp would have linked in."""
    missing = set(re.findall(r"undefined reference to `([A-Za-z_]\w*)", messages))
    return bool(missing - {"InitGame", "ReadMap", "Decide"})


def _readable(stderr: bytes, folder: Path) -> str:
    """The compiler's messages with the header's folder and the harness's named shortly."""
    text = stderr.decode(errors="replace")
    return text.replace(f"{folder}/", "").replace(f"{HARNESS}/", "harness/")


def _cut(messages: str) -> str:
    lines = messages.splitlines()
    shown = [_line(line) for line in lines[:SHOWN_LINES]]
    if len(lines) > SHOWN_LINES:
        shown.append(f"... ({len(lines) - SHOWN_LINES} more lines)")
    return "\n".join(shown)


def _line(text: str) -> str:
    text = printable(text)
    return text if len(text) <= SHOWN_WIDTH else text[:SHOWN_WIDTH] + "..."


def _since(start: float) -> float:
    return time.monotonic() - start
