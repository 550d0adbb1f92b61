"""A judge server with one deliberate fault, per MODE: the real server, then the fault.

Usage: bad_server.py MODE [LINE [OUT]]. ``wrong-line`` replaces output line LINE
with ``!!!``; ``segfault`` prints the first map, then dies of SIGSEGV;
``hang`` reads its input and never answers. The right output is the project's
server's, or the file OUT's: a sandboxed program does not see the judge's package.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import sys
import time
from pathlib import Path


def served(given: str) -> str:
    """The project's server's output for ``given``."""
    from minesweeper.errors import MinesweeperError
    from minesweeper.server import serve

    output = io.StringIO()
    with contextlib.suppress(MinesweeperError):
        serve(io.StringIO(given), output)
    return output.getvalue()


def main() -> None:
    mode = sys.argv[1]
    given = sys.stdin.read()
    if mode == "hang":
        time.sleep(60)
    right = Path(sys.argv[3]).read_text() if len(sys.argv) > 3 else served(given)
    lines = right.split("\n")
    if mode == "wrong-line":
        lines[int(sys.argv[2]) - 1] = "!!!"
    if mode == "segfault":
        sys.stdout.write("\n".join(lines[:3]) + "\n")
        sys.stdout.flush()
        os.kill(os.getpid(), signal.SIGSEGV)
    sys.stdout.write("\n".join(lines))


if __name__ == "__main__":
    main()
