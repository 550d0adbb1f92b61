"""A program that leaves daemons behind, escaping its process group.

Usage: escape.py PIDFILE DEPTH [OUTPUT]. It double-forks a daemon (a new
session, its parent gone) that writes its pid to PIDFILE.N (N: this
program's pid) and sleeps; with
DEPTH above 1 that daemon first starts the next one the same way and lives
on as its parent. With DEPTH ``hop`` the daemon moves on instead: every
millisecond it forks, the parent exits and the child starts a new session,
so some process is always being re-parented. Once DEPTH pids (3 for hop)
are written, the program prints the file OUTPUT (as a server would print
its answer), or ``ready``, and exits.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path


def daemon(pidfile: str, depth: int | None) -> None:
    """Start a daemon through a parent that exits at once; return in the caller."""
    middle = os.fork()
    if middle:
        os.waitpid(middle, 0)
        return
    os.setsid()
    if os.fork():
        os._exit(0)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    write_pid(pidfile)
    if depth is None:
        hop(pidfile)
    if depth > 1:
        daemon(pidfile, depth - 1)
    time.sleep(600)
    os._exit(0)


def hop(pidfile: str) -> None:
    """Move to a new process and session every millisecond, for ten minutes at most."""
    for _ in range(600_000):
        time.sleep(0.001)
        if os.fork():
            os._exit(0)
        os.setsid()
        write_pid(pidfile)
    os._exit(0)


def write_pid(pidfile: str) -> None:
    fd = os.open(pidfile, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    os.write(fd, f"{os.getpid()}\n".encode())
    os.close(fd)


def main() -> None:
    # Each program has a file of its own (PIDFILE.PID), so that programs run at the
    # same time, or one after another, each wait for their own daemons.
    pidfile = f"{sys.argv[1]}.{os.getpid()}"
    depth = None if sys.argv[2] == "hop" else int(sys.argv[2])
    daemon(pidfile, depth)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if os.path.exists(pidfile) and len(Path(pidfile).read_text().split()) >= (depth or 3):
            break
        time.sleep(0.005)
    if len(sys.argv) > 3:
        sys.stdout.write(Path(sys.argv[3]).read_text())
    else:
        print("ready")


if __name__ == "__main__":
    main()
