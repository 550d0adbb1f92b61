"""A cgroup v2 of its own for each sandboxed program: memory and pids of its whole tree.

``RLIMIT_AS`` bounds each process of a program, not all of them together, and
``RLIMIT_NPROC`` counts every process of the sandbox's user. Where the machine
has a cgroup v2 hierarchy with the memory and pids controllers delegated to the
judge's cgroup, each program gets a child cgroup with ``memory.max``
(``--memory``, for the whole tree, swap included) and ``pids.max``; the child
joins it before ``exec`` and the cgroup is killed and removed with the case.
`missing` says why there is none (on a hybrid layout the controllers are
cgroup v1's).
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import signal
import subprocess
from pathlib import Path

#: The controllers a program's cgroup needs.
CONTROLLERS = ("memory", "pids")
_MIB = 1024 * 1024
_names = itertools.count()


def _mount_point() -> Path | None:
    """Where the cgroup v2 hierarchy is mounted (``/sys/fs/cgroup``, or ``.../unified``)."""
    try:
        lines = Path("/proc/self/mountinfo").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        before, _, after = line.partition(" - ")
        if after.split()[:1] == ["cgroup2"]:
            return Path(before.split()[4])
    return None


def _own() -> Path | None:
    """This process's cgroup v2 folder."""
    mount = _mount_point()
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    path = next((line[3:] for line in lines if line.startswith("0::")), None)
    if mount is None or path is None:
        return None
    return mount / path.lstrip("/")


@functools.cache
def parent() -> tuple[Path | None, str]:
    """The cgroup under which programs' cgroups are made, or None and why there is none.

    Found once per process, with a trial: ``/bin/true`` run in such a cgroup.
    """
    own = _own()
    if own is None:
        return None, "no cgroup v2 hierarchy"
    try:
        available = (own / "cgroup.controllers").read_text().split()
        enabled = (own / "cgroup.subtree_control").read_text().split()
    except OSError as error:
        return None, f"cgroup v2 unreadable ({error.strerror})"
    lacking = [name for name in CONTROLLERS if name not in available]
    if lacking:
        return None, f"no {' and '.join(lacking)} controller in cgroup v2 (hybrid layout?)"
    if any(name not in enabled for name in CONTROLLERS):
        try:  # only where this cgroup holds no process, or is the root of its hierarchy
            (own / "cgroup.subtree_control").write_text(" ".join(f"+{n}" for n in CONTROLLERS))
        except OSError as error:
            return None, f"cgroup v2 controllers not delegated here ({error.strerror})"
    if not os.access(own, os.W_OK):
        return None, "cgroup v2 not writable by the judge"
    problem = _trial(own)
    return (None, problem) if problem else (own, "")


def _trial(under: Path) -> str:
    """Why a program could not run in a cgroup made under ``under``; "" when one did."""
    try:
        cgroup = Cgroup(under, 64, 8)
    except OSError as error:
        return f"cannot make a cgroup ({error.strerror})"
    try:
        subprocess.run(["/bin/true"], check=True, preexec_fn=lambda: join(cgroup.procs))
    except (OSError, subprocess.SubprocessError) as error:
        return f"cannot join a cgroup ({error})"
    finally:
        cgroup.remove()
    return ""


def missing() -> str:
    """Why programs get no cgroup of their own here; "" when they do."""
    return parent()[1]


class Cgroup:
    """One program's cgroup; `procs` is the file its first process writes ``0`` to."""

    def __init__(self, under: Path, memory_mib: int, processes: int) -> None:
        self.path = under / f"minesweeper-{os.getpid()}-{next(_names)}"
        self.path.mkdir()
        try:
            (self.path / "memory.max").write_text(str(memory_mib * _MIB))
            with contextlib.suppress(OSError):  # without swap accounting there is none
                (self.path / "memory.swap.max").write_text("0")
            (self.path / "pids.max").write_text(str(processes))
        except OSError:
            self.remove()
            raise
        self.procs = str(self.path / "cgroup.procs")

    def remove(self) -> None:
        """Kill what is left in it and remove it."""
        with contextlib.suppress(OSError):
            (self.path / "cgroup.kill").write_text("1")  # Linux 5.14
        for _ in range(100):
            try:
                self.path.rmdir()
                return
            except FileNotFoundError:
                return
            except OSError:
                self._kill_listed()

    def _kill_listed(self) -> None:
        with contextlib.suppress(OSError):
            for pid in (self.path / "cgroup.procs").read_text().split():
                with contextlib.suppress(OSError):
                    os.kill(int(pid), signal.SIGKILL)
        os.sched_yield()


def join(procs: str) -> None:
    """In the child before ``exec``: move this process into the cgroup (system calls only)."""
    fd = os.open(procs, os.O_WRONLY)
    try:
        os.write(fd, b"0")
    finally:
        os.close(fd)


def make(memory_mib: int, processes: int) -> Cgroup | None:
    """A cgroup for one program where the machine allows one, else None."""
    under, _ = parent()
    if under is None:
        return None
    try:
        return Cgroup(under, memory_mib, processes)
    except OSError:
        return None
