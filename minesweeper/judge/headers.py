"""Students' headers built into programs the judge can run: ``server.h`` and ``client.h``.

The assignment's deliverables are headers, not programs. A header is compiled
as the course's template compiles it, with the project's own harness
(``harness/``): ``server_main.cpp`` includes what the template's ``main.cpp``
includes, in its order, then the header; ``client_main.cpp`` what
``advanced.cpp`` includes, then the header and a stand-in ``server.h``, and
defines an ``Execute`` that speaks the judge's client protocol, so the client
runs apart from any server. The header is copied into the output folder under
its role's name (so ``#include "server.h"`` in a client finds the stand-in,
never the student's server); its own ``#include "..."`` lines find the files
beside the original. The system's ``g++`` runs in the same sandbox as every
judged program (`judge.sandbox`): it sees the system, the header's folder and the
harness, read-only, and writes only the output folder. A build that fails is a
verdict (`Build.problem`), never an exception.
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
#: In a client's command line, the game's first click as a move line ("r c").
FIRST = "{first}"
#: A compile's limits: wall (and CPU) seconds for the whole build, and memory.
COMPILE_LIMITS = Limits(move_seconds=60.0, game_seconds=60.0, memory_mib=2048)
#: How much of the compiler's messages a report shows: lines, and characters a line.
SHOWN_LINES = 12
SHOWN_WIDTH = 200

#: A compiler message line that names the error (a link error has no "error:").
_ERROR = re.compile(r"error:|undefined reference|multiple definition")
#: A client's own line that includes the server's header.
_INCLUDES_SERVER = re.compile(rb'^\s*#\s*include\s*[<"](?:[^">]*/)?server\.h[">]', re.MULTILINE)
#: What a client build that includes "server.h" is told (one line, naming the rule).
STANDIN_NOTE = (
    'includes "server.h": given the harness\'s stand-in, not your server, as a client may '
    "use no external variable but rows and columns (the template's client.h)"
)


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
    notes: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.program is not None

    @property
    def run(self) -> tuple[str, ...] | None:
        """The built program's command line, None if it did not build; a client is told each
        game's first click (``{first}``, `judge.interactive.play_client`) for its InitGame."""
        if self.program is None:
            return None
        return (str(self.program), FIRST) if self.role is Role.CLIENT else (str(self.program),)


def require_compiler() -> str:
    """The compiler's path; `CompilerMissing` (one line saying how to install it) if absent."""
    found = shutil.which(COMPILER)
    if found is None:
        raise CompilerMissing(
            f"cannot build headers: {COMPILER} is not installed (apt-get install g++)"
        )
    return found


def compile_command(role: Role, header: Path, program: Path) -> list[str]:
    """The compiler's command line for ``header`` built as ``program``.

    The harness's source includes ``server.h`` or ``client.h`` by name, found
    first in ``src/`` beside ``program`` (where `build` copies the header), then,
    for a client, in the stand-in's folder, then beside the original header.
    """
    folders = [copies(program)] + ([HARNESS / "standin"] if role is Role.CLIENT else [])
    folders.append(header.absolute().parent)
    included = [word for folder in folders for word in ("-iquote", str(folder.absolute()))]
    sources = [HARNESS / f"{role.value}_main.cpp"]
    if role is Role.CLIENT:
        sources.append(HARNESS / "client_pipes.cpp")
    return [COMPILER, *FLAGS, *included, *map(str, sources), "-o", str(program.absolute())]


def copies(program: Path) -> Path:
    """The folder of the header's copy, beside ``program``."""
    return program.parent / "src"


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
    try:
        copied = _copy(role, header, program)
    except OSError as error:
        made = Build(role, header, tuple(command))
        return dataclasses.replace(made, problem=f"cannot read: {error.strerror or error}")
    if sandbox is not None:
        shown = (sources or header.parent).absolute()
        sandbox = dataclasses.replace(
            sandbox,
            read_only=(*sandbox.read_only, shown, HARNESS),
            writable=(*sandbox.writable, folder.absolute()),
        )
    made = Build(role, header, tuple(command), notes=_notes(role, copied))
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
    messages = _readable(bytes(child.stderr_head), header.absolute().parent, copies(program))
    if code == 0 and program.is_file():
        return dataclasses.replace(made, program=program, seconds=seconds)
    ended = describe_exit(code, limits, bytes(child.stderr_tail))
    if code is None:
        problem = f"compile time limit ({limits.game_seconds:g} s)"
    elif code < 0 or ended.startswith("memory limit"):
        problem = f"compile {ended}"
    else:
        problem = f"compile error: {first_error(messages)}"
        if role is Role.CLIENT:
            problem += _link_hint(messages)
    return dataclasses.replace(made, problem=problem, diagnostics=_cut(messages), seconds=seconds)


def _copy(role: Role, header: Path, program: Path) -> bytes:
    """``header`` copied as ``src/server.h`` or ``src/client.h`` beside ``program``, readable
    by the sandbox's user; its bytes."""
    text = header.read_bytes()
    folder = copies(program)
    folder.mkdir(exist_ok=True)
    folder.chmod(0o755)
    (folder / role.header).write_bytes(text)
    (folder / role.header).chmod(0o644)
    return text


def _notes(role: Role, text: bytes) -> tuple[str, ...]:
    """What the build tells the student beyond its verdict."""
    if role is Role.CLIENT and _INCLUDES_SERVER.search(text):
        return (STANDIN_NOTE,)
    return ()


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


def _link_hint(messages: str) -> str:
    """Why a client did not link, when the reason is the template's rules: an ``Execute``
    of another signature than ``void Execute(int, int)`` (the one advanced.cpp defines), or
    a name of the server's, which a client may not use."""
    missing = re.findall(r"undefined reference to `([A-Za-z_]\w*)(\([^)]*\))?", messages)
    for name, arguments in missing:
        if name == "Execute" and arguments != "(int, int)":
            return (
                f" (client.h calls Execute{arguments}; the template's advanced.cpp defines "
                "only void Execute(int row, int column))"
            )
    if {name for name, _ in missing} - {"InitGame", "ReadMap", "Decide", "Execute"}:
        return (
            " (the client runs apart from the server: a client may use no external "
            "variable but rows and columns)"
        )
    return ""


def _readable(stderr: bytes, folder: Path, copied: Path) -> str:
    """The compiler's messages with the header's copy, its folder and the harness's named
    shortly."""
    text = stderr.decode(errors="replace")
    for long, short in ((copied, ""), (folder, ""), (HARNESS, "harness")):
        text = text.replace(f"{long}/", f"{short}/" if short else "")
    return text


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
