"""A judge server with one deliberate fault, per MODE: the real server, then the fault.

Usage: bad_server.py MODE [LINE]. ``wrong-line`` replaces output line LINE
with ``!!!``; ``segfault`` prints the first map, then dies of SIGSEGV;
``hang`` reads its input and never answers.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import sys
import time

from minesweeper.errors import MinesweeperError
from minesweeper.server import serve


def main() -> None:
    mode = sys.argv[1]
    given = sys.stdin.read()
    if mode == "hang":
        time.sleep(60)
    output = io.StringIO()
    with contextlib.suppress(MinesweeperError):
        serve(io.StringIO(given), output)
    lines = output.getvalue().split("\n")
    if mode == "wrong-line":
        lines[int(sys.argv[2]) - 1] = "!!!"
    if mode == "segfault":
        sys.stdout.write("\n".join(lines[:3]) + "\n")
        sys.stdout.flush()
        os.kill(os.getpid(), signal.SIGSEGV)
    sys.stdout.write("\n".join(lines))


if __name__ == "__main__":
    main()
