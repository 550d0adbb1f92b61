"""Processes a foreign program left outside its process group: adopted, then killed and reaped.

A program that starts a session of its own (``setsid``, a double-forked
daemon) escapes the kill of its process group. On Linux the judging process
therefore makes itself a *child subreaper*: an orphaned descendant of a
program it started is re-parented to it instead of to init, so it is found
among its children, killed with its process group and reaped. Elsewhere
nothing is adopted and `Adoption.sweep` does nothing.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import os
import signal
import time
from collections.abc import Iterable
from dataclasses import dataclass

from minesweeper.resources import prctl

#: From <linux/prctl.h> (Linux 3.4); the standard library has no wrapper for prctl.
PR_SET_CHILD_SUBREAPER = 36
#: Each sweep kills every process it sees; more are needed only while some are still forking:
#: sweeps go on while they find any, at least this many, then for this many seconds (a
#: loaded machine may let a process that forks every millisecond win a few races).
_SWEEPS = 20
_SWEEP_SECONDS = 2.0


@dataclass(frozen=True)
class _Process:
    """A line of ``/proc/PID/stat``: the fields that say whose child it is and where it runs."""

    pid: int
    parent: int
    group: int
    session: int
    #: Clock ticks after boot; with the pid, names a process even when its pid is reused.
    start: int


def _family(root: int) -> list[_Process]:
    """The processes below process ``root`` (this one): its children and theirs, found
    through ``/proc/PID/task/*/children`` (a few small reads, quicker than a process that
    forks every millisecond), else every process in ``/proc``."""
    children = _listed_children(root)
    if children is None:  # the kernel does not list children
        return [process for name in os.listdir("/proc") if (process := _stat(name))]
    found: dict[int, _Process] = {}
    todo = list(children)
    while todo:
        pid = todo.pop()
        if pid not in found and (process := _stat(str(pid))) is not None:
            found[pid] = process
            todo += _listed_children(pid) or []
    return list(found.values())


def _stat(name: str) -> _Process | None:
    """Process ``name``'s line of ``/proc/PID/stat``; None if it is gone (or no process)."""
    if not name.isdigit():
        return None
    try:
        fd = os.open(f"/proc/{name}/stat", os.O_RDONLY)
    except OSError:  # ended since the listing
        return None
    try:
        line = os.read(fd, 4096)
    except OSError:
        return None
    finally:
        os.close(fd)
    # The command name, in parentheses, may hold spaces and parentheses itself.
    fields = line[line.rfind(b")") + 2 :].split()
    if len(fields) <= 19:
        return None
    return _Process(int(name), *map(int, (*fields[1:4], fields[19])))


def _children(processes: Iterable[_Process], parent: int) -> dict[int, _Process]:
    return {process.pid: process for process in processes if process.parent == parent}


@functools.cache
def _subreaper(pid: int) -> bool:
    """Make process ``pid`` (this one) a child subreaper, once; whether it is one.

    The attribute belongs to the whole process, every thread and every child,
    and no child inherits it (a worker of ``grade --jobs N`` sets its own).
    Cached by pid, so a forked copy of this process sets it again.
    """
    return prctl(PR_SET_CHILD_SUBREAPER, 1)


class Adoption:
    """Made before a foreign program starts: what `sweep` spares once the program has ended.

    Spared are this process's children now, and any child in this process's
    own session (a program runs in a new session, and nothing it starts can
    join ours). Children of other threads started meanwhile are not told
    apart: run one program at a time per process, as the judge does.
    """

    def __init__(self) -> None:
        self._pid = os.getpid()
        self._active = _subreaper(self._pid)
        self._session = os.getsid(0)
        children = _children(_family(self._pid), self._pid).values() if self._active else ()
        self._spared = {(child.pid, child.start) for child in children}

    def sweep(self) -> None:
        """Kill the adopted processes, all their descendants and their groups; reap them.

        Call it after the program itself is reaped: a process's children are
        re-parented before it can be reaped, so once a sweep sees no adopted
        process, none is left. Each sweep kills all it sees (a killed process
        forks no more); the bounded repeats catch what was forked meanwhile.
        One this process may not kill (another user's) is reaped only if it
        has ended, never waited for. Sweeps go on while they find any: at least
        `_SWEEPS`, and for `_SWEEP_SECONDS`.
        """
        if not self._active:
            return
        deadline = time.monotonic() + _SWEEP_SECONDS
        for sweep in itertools.count():
            if sweep >= _SWEEPS and time.monotonic() > deadline:
                return
            processes = _family(self._pid)
            adopted = [
                child
                for child in _children(processes, self._pid).values()
                if child.session != self._session and (child.pid, child.start) not in self._spared
            ]
            if not adopted:
                return
            for process in _descendants(processes, adopted):
                if process.session != self._session:
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.killpg(process.group, signal.SIGKILL)
            for child in adopted:
                self._reap(child)

    def _reap(self, child: _Process) -> None:
        try:
            os.kill(child.pid, signal.SIGKILL)
            flags = 0
        except PermissionError:
            flags = os.WNOHANG
        except ProcessLookupError:
            return
        try:
            if os.waitpid(child.pid, flags) == (0, 0):
                self._spared.add((child.pid, child.start))
        except ChildProcessError:
            pass


def _descendants(processes: list[_Process], roots: list[_Process]) -> list[_Process]:
    """``roots`` and every process below them."""
    below: dict[int, list[_Process]] = {}
    for process in processes:
        below.setdefault(process.parent, []).append(process)
    found: dict[int, _Process] = {}
    todo = list(roots)
    while todo:
        process = todo.pop()
        if process.pid not in found:  # a pid reused while listing could make a loop
            found[process.pid] = process
            todo.extend(below.get(process.pid, ()))
    return list(found.values())


def empty_sandbox(monitor: int) -> bool:
    """Kill every process of the sandbox bubblewrap ``monitor`` runs but its init, which
    then reaps them, reports and ends; whether that could be tried here.

    The init is bubblewrap's one child; the rest are the processes below it (an orphan
    in the sandbox becomes the init's child). Each is killed through a pidfd, and only
    while it is in the init's PID namespace, so a pid reused meanwhile is never hit.
    """
    found = _listed_children(monitor)
    if found is None or len(found) != 1:
        return False
    init = found[0]
    try:
        namespace = os.stat(f"/proc/{init}/ns/pid").st_ino
    except OSError:
        return False
    killed: set[int] = set()
    for _ in range(_SWEEPS):
        below = set(_below(init)) - killed
        if not below:
            break
        for pid in below:
            _kill_in(pid, namespace)
        killed |= below
    return True


def _listed_children(pid: int) -> list[int] | None:
    """The children of process ``pid`` (``/proc/PID/task/*/children``); None when the
    kernel does not list them."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return None
    children = []
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children", "rb") as file:
                children += [int(word) for word in file.read().split()]
        except FileNotFoundError:
            if task == str(pid):
                return None  # no CONFIG_PROC_CHILDREN
        except OSError:
            continue
    return children


def _below(root: int) -> list[int]:
    """Every process below ``root``."""
    found: list[int] = []
    todo = [root]
    while todo:
        children = _listed_children(todo.pop()) or []
        found += children
        todo += children
    return found


def _kill_in(pid: int, namespace: int) -> None:
    """SIGKILL to ``pid`` if it is a process of the PID namespace ``namespace``."""
    try:
        handle = os.pidfd_open(pid)
    except OSError:
        return
    try:
        if os.stat(f"/proc/{pid}/ns/pid").st_ino == namespace:
            signal.pidfd_send_signal(handle, signal.SIGKILL)
    except OSError:
        pass
    finally:
        os.close(handle)
