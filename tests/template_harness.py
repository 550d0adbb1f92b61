"""The course's own way of building and judging the headers, as a reference for the tests.

The ACM Class 2023 template (MIT; github.com/ACMClassCourse-2023/Minesweeper-2023)
builds ``server.h`` with its ``src/main.cpp`` and ``client.h`` with its
``src/advanced.cpp`` (linked with the course's server in one program), and its
online judge compared a server's output with ``diff -qZB``. The two C++ files
below are written here, in our own words, to behave as those do; checked
against the template (HEAD 62adbe6, "feat(README.md): add final bonus!") line
by line: the same includes in the same order, the same loop (``main.cpp`` reads
``x y`` into uninitialised ints and never checks the stream, so a case that
ends before its game is decided prints its last map for ever), and the same
``Execute`` (``VisitBlock``, then ``ExitGame`` once ``game_state`` is set, else
``PrintMap`` captured in a string and handed to ``ReadMap`` on ``std::cin``).
``InitGame`` reads the case's real first click from the input after
``InitMap`` read the board.

The course's server for the advanced task is not public: `COURSE_SERVER` is our
correct fake student's, with its helper header inlined (one file, as the
online judge took one file).
"""

from __future__ import annotations

import resource
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from paths import TESTS

#: The template's main.cpp, restated.
MAIN_CPP = """\
#include <iostream>

#include "server.h"

int main() {
  InitMap();
  PrintMap();
  for (;;) {
    int x;
    int y;
    std::cin >> x >> y;
    VisitBlock(x, y);
    PrintMap();
    if (game_state != 0) ExitGame();
  }
}
"""

#: The template's advanced.cpp, restated.
ADVANCED_CPP = """\
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <string>

#include "client.h"
#include "server.h"

void Execute(int row, int column) {
  VisitBlock(row, column);
  if (game_state != 0) ExitGame();
  std::ostringstream printed;
  std::streambuf *out = std::cout.rdbuf(printed.rdbuf());
  PrintMap();
  std::cout.rdbuf(out);
  std::istringstream map(printed.str());
  std::streambuf *in = std::cin.rdbuf(map.rdbuf());
  ReadMap();
  std::cin.rdbuf(in);
}

int main() {
  InitMap();
  InitGame();
  for (;;) Decide();
}
"""

#: What the course compiled with (C++17, optimised), as the project's harness does.
FLAGS = ("-std=c++17", "-O2")
#: A run's limits: the course's judge stopped a program that printed or ran for ever.
SECONDS = 10.0
OUTPUT_BYTES = 4 * 1024 * 1024


def course_server() -> str:
    """The server the course linked clients with: our correct one, in one file."""
    server = (TESTS / "headers" / "correct" / "server.h").read_text()
    grid = (TESTS / "headers" / "correct" / "grid.h").read_text()
    return server.replace('#include "grid.h"\n', grid)


COURSE_SERVER = course_server()


@dataclass(frozen=True)
class Built:
    """A program built by the template's way, or the compiler's messages."""

    program: Path | None
    messages: str = ""


def build_server(header: Path, out: Path) -> Built:
    """``header`` (a student's server.h, with the files beside it) built with main.cpp."""
    source = _sources(header.parent, out, skip=())
    (source / "server.h").write_bytes(header.read_bytes())
    (source / "main.cpp").write_text(MAIN_CPP)
    return _compile(source / "main.cpp", out / "server")


def build_client(header: Path, out: Path) -> Built:
    """``header`` (a student's client.h) built with advanced.cpp and the course's server:
    the student's own server.h is not used, as the online judge took client.h alone."""
    source = _sources(header.parent, out, skip=("server.h",))
    (source / "client.h").write_bytes(header.read_bytes())
    (source / "server.h").write_text(COURSE_SERVER)
    (source / "advanced.cpp").write_text(ADVANCED_CPP)
    return _compile(source / "advanced.cpp", out / "client")


def _sources(folder: Path, out: Path, skip: tuple[str, ...]) -> Path:
    """A copy of the headers beside the student's header (its helpers), in ``out/src``."""
    source = out / "src"
    source.mkdir(parents=True)
    for path in folder.iterdir():
        if path.is_file() and path.suffix in (".h", ".hpp") and path.name not in skip:
            shutil.copy(path, source / path.name)
    return source


def _compile(main: Path, program: Path) -> Built:
    done = subprocess.run(
        ["g++", *FLAGS, str(main), "-o", str(program)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    if done.returncode != 0:
        return Built(None, done.stderr)
    return Built(program)


def _limit_output() -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (OUTPUT_BYTES, OUTPUT_BYTES))


def run(program: Path, given: bytes) -> bytes | None:
    """What ``program`` prints for the input ``given``; None if it ran or printed for ever
    (past `SECONDS` or `OUTPUT_BYTES`)."""
    with tempfile.TemporaryFile() as output:
        try:
            done = subprocess.run(
                [str(program)],
                input=given,
                stdout=output,
                stderr=subprocess.DEVNULL,
                timeout=SECONDS,
                preexec_fn=_limit_output,
                check=False,
            )
        except subprocess.TimeoutExpired:
            return None
        if done.returncode < 0:
            return None  # killed: the output limit (SIGXFSZ), or a crash
        output.seek(0)
        return output.read()


def diff_zb(actual: bytes, expected: bytes) -> bool:
    """Whether the course's judge passed ``actual``: ``diff -qZB`` finds no difference."""
    with tempfile.TemporaryDirectory() as folder:
        got, want = Path(folder, "actual"), Path(folder, "expected")
        got.write_bytes(actual)
        want.write_bytes(expected)
        return subprocess.run(["diff", "-qZB", str(want), str(got)], check=False).returncode == 0


def server_passes(program: Path, case: Path) -> bool:
    """The course's verdict on a basic case."""
    actual = run(program, case.read_bytes())
    return actual is not None and diff_zb(actual, case.with_suffix(".out").read_bytes())


def client_game(program: Path, case: Path) -> tuple[bool, int, int] | None:
    """The course's result of an advanced case: won, visits, steps (the last two lines the
    course's ExitGame prints); None if the program did not end with them."""
    output = run(program, case.read_bytes())
    lines = (output or b"").decode(errors="replace").split()
    if output is None or len(lines) < 4 or lines[-4:-2] not in (["YOU", "WIN!"], ["GAME", "OVER!"]):
        return None
    return lines[-4] == "YOU", int(lines[-2]), int(lines[-1])
