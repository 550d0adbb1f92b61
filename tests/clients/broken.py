"""A client that breaks the protocol on purpose, one way per MODE (see `misbehave`).

Usage: broken.py MODE [MOVE] [PIDFILE]. It plays the first unknown cell of
each map until move MOVE (default 1), where it misbehaves as MODE says (see
`misbehave`). ``none`` never misbehaves; ``slow`` sleeps 0.2 s before every
move; ``linger`` and ``fail-after`` play the whole game, then never exit or
exit with status 4.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time


def misbehave(mode: str, pidfile: str) -> None:
    """Do what ``mode`` names instead of the next move."""
    if mode == "segfault":
        os.kill(os.getpid(), signal.SIGSEGV)
    elif mode == "exit3":
        sys.exit(3)
    elif mode == "hang":
        time.sleep(60)
    elif mode == "memory":
        bytearray(4 << 30)  # 4 GiB: more than any limit the tests set
    elif mode == "flood":
        sys.stdout.write("y" * 10_000_000)
        sys.stdout.flush()
    elif mode == "hello":
        print("hello", flush=True)
    elif mode == "off-board":
        print("99 0", flush=True)
    elif mode == "stop":
        sys.exit(0)
    elif mode == "close-stdout":
        os.close(1)
        time.sleep(60)
    elif mode == "fork-and-hang":
        sleeper = subprocess.Popen(["sleep", "60"])
        with open(pidfile, "w") as stream:
            stream.write(f"{os.getpgid(0)} {os.getpid()} {sleeper.pid}\n")
        time.sleep(60)
    else:
        raise SystemExit(f"unknown mode {mode!r}")


def main() -> None:
    mode = sys.argv[1]
    at = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    pidfile = sys.argv[3] if len(sys.argv) > 3 else ""
    rows, _ = map(int, sys.stdin.readline().split())
    move = 0
    while True:
        grid = [sys.stdin.readline().strip() for _ in range(rows)]
        if not all(grid) or any("X" in row or "@" in row for row in grid):
            break
        move += 1
        if move == at and mode not in ("none", "linger", "fail-after", "slow"):
            misbehave(mode, pidfile)
        if mode == "slow":
            time.sleep(0.2)
        row = next(r for r, text in enumerate(grid) if "?" in text)
        print(row, grid[row].index("?"), flush=True)
    sys.stdin.read()  # the result lines, up to the judge closing the pipe
    if mode == "linger":
        time.sleep(60)
    if mode == "fail-after":
        sys.exit(4)


if __name__ == "__main__":
    main()
