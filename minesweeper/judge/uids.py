"""A user id of its own for each sandboxed program, leased from a range every judge shares.

As isolate does: when the judge runs as root, each program runs as a uid that no
other process on the machine has while it runs, so what the kernel keys on the uid
alone is the program's own: ``RLIMIT_NPROC`` (one student's fork bomb cannot starve
another's program, or another grading's), the user's keyrings, and whom it may signal.

A uid is leased with a lock file per uid (`filelock`: ``flock``) in `FOLDER`, which
every judge on the machine shares, so two gradings at once never lease the same uid.
The kernel drops a lock when its holder dies, even by ``kill -9``; the lease then
leaves its mark (``UID.busy``) behind, and whoever leases the uid next first kills
every process left running as it. Before a program gets a uid, whatever the uid's
keyrings hold (its user, user-session and persistent keyrings, which outlive its
processes) is thrown away, so nothing passes from one program to the next that way.
"""

from __future__ import annotations

import contextlib
import grp
import os
import pwd
import signal
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

import filelock

from minesweeper.errors import MachineError
from minesweeper.judge import keyrings

#: The range leased from (isolate's default is 60000-60999: another range, so that both
#: can run on one machine). Ids that name a user or group of the machine are skipped.
FIRST = 61000
COUNT = 1000
#: Where the lock files are: a folder of root's, on a tmpfs emptied at boot.
FOLDER = Path("/run/minesweeper-judge/uids")


@dataclass
class Lease:
    """One uid, this process's until `release`; its group id is the same number."""

    uid: int
    _lock: filelock.BaseFileLock
    _mark: Path

    def release(self) -> None:
        """Give the uid back (call once its program and all it started have ended)."""
        with contextlib.suppress(FileNotFoundError):
            self._mark.unlink()
        self._lock.release()


def lease() -> Lease:
    """The first free uid of the range, made clean (nothing running as it, empty keyrings).

    Raises `MachineError` when every uid of the range is leased or the lock folder
    cannot be used.
    """
    folder = _folder()
    for uid in range(FIRST, FIRST + COUNT):
        if _taken(uid):
            continue
        lock = filelock.FileLock(folder / f"{uid}.lock")
        try:
            lock.acquire(timeout=0)
        except filelock.Timeout:
            continue
        mark = folder / f"{uid}.busy"
        try:
            _clean(uid, stale=mark.exists())
            mark.write_text(f"{os.getpid()}\n")
        except BaseException:
            lock.release()
            raise
        return Lease(uid, lock, mark)
    raise MachineError(f"every sandbox user id of {FIRST}-{FIRST + COUNT - 1} is in use")


def _taken(uid: int) -> bool:
    """Whether the machine has a user or a group of this id (never leased)."""
    try:
        pwd.getpwuid(uid)
        return True
    except KeyError:
        pass
    try:
        grp.getgrgid(uid)
        return True
    except KeyError:
        return False


def _folder() -> Path:
    """`FOLDER`, made if need be (root's alone); a folder of the temporary folder's where
    there is no ``/run``."""
    folder = FOLDER if FOLDER.parent.parent.is_dir() else _fallback()
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        status = folder.lstat()
    except OSError as error:
        raise MachineError(f"cannot make the sandbox's lock folder {folder}: {error}") from error
    group_or_others = stat.S_IWGRP | stat.S_IWOTH
    if not stat.S_ISDIR(status.st_mode) or status.st_uid != 0 or status.st_mode & group_or_others:
        raise MachineError(f"{folder} is not a folder of root's alone: not used for locks")
    return folder


def _fallback() -> Path:
    return Path(tempfile.gettempdir()) / "minesweeper-judge-uids"


def _clean(uid: int, stale: bool) -> None:
    """Kill what runs as ``uid`` (when its last lease ended uncleanly) and empty its
    keyrings (when it has any), as ``uid`` itself: no one else may."""
    if not stale and not _has_keys(uid):
        return
    try:
        pid = os.fork()
    except OSError as error:
        raise MachineError(f"cannot clean user id {uid}: {error.strerror}") from error
    if pid == 0:  # only system calls here, then out
        code = 1
        try:
            os.setgroups([])
            os.setresgid(uid, uid, uid)
            os.setresuid(uid, uid, uid)
            with contextlib.suppress(ProcessLookupError):
                os.kill(-1, signal.SIGKILL)  # every process of this uid but this one
            keyrings.forget()
            code = 0
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise MachineError(f"cannot clean user id {uid}")


def _has_keys(uid: int) -> bool:
    """Whether ``uid`` owns any key or keyring now (``/proc/key-users``)."""
    try:
        lines = Path("/proc/key-users").read_text().splitlines()
    except OSError:
        return True  # cannot tell: clean
    return any(line.split(":", 1)[0].strip() == str(uid) for line in lines)
