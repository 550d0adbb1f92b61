"""Writing output files where the user said, and nowhere else.

A file is written whole under a temporary name in its folder, then put in
place; a symbolic link at the destination is refused rather than followed, so
output never lands outside the folder it was sent to, and an existing file is
replaced only when the caller says so.
"""

from __future__ import annotations

import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from minesweeper.errors import PathError


class OutputError(PathError):
    """An output file or folder that cannot or must not be written."""


def prepare_folder(folder: Path) -> None:
    """Check that files can be created in ``folder``, or in the folder that would hold it.

    Nothing is made yet: `write_file` makes the folder with the first file, so a
    command that fails before writing leaves no empty folder behind.
    """
    existing = folder
    while not existing.exists() and existing != existing.parent:
        if existing.is_symlink():  # a dangling link: mkdir would fail on it
            raise OutputError(f"{existing} is a broken symbolic link")
        existing = existing.parent
    if not existing.is_dir():
        raise OutputError(f"{existing} is not a folder")
    try:
        fd, probe = tempfile.mkstemp(dir=existing, prefix=".probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as error:
        raise OutputError(f"cannot write in {existing}: {error.strerror or error}") from None


def check_writable(path: Path, option: str, *, replaced: bool) -> None:
    """Fail before any work when the file ``path`` (given as ``option``) could not be written.

    ``replaced``: it will be replaced whole, so never through a link or onto a
    device (see `check_destination`); else it is appended to.
    """
    folder = path.absolute().parent
    if not folder.is_dir():
        raise OutputError(f"{option} {path}: no folder {folder}")
    if path.is_dir():
        raise OutputError(f"{option} {path}: is a folder")
    if replaced:
        check_destination(path, overwrite=True)
    if not os.access(folder, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise OutputError(f"{option} {path}: not writable")


def check_destination(path: Path, overwrite: bool) -> None:
    """Refuse ``path`` when it is a link, a folder, or (unless ``overwrite``) any existing entry."""
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        return
    except OSError as error:
        raise OutputError(f"cannot write {path}: {error.strerror or error}") from None
    if stat.S_ISLNK(mode):
        raise OutputError(f"{path} is a symbolic link: not written through (remove it first)")
    if not overwrite:
        raise OutputError(f"{path} already exists; use --force to overwrite it")
    if not stat.S_ISREG(mode):
        raise OutputError(f"{path} exists and is not a regular file: not overwritten")


@contextmanager
def written_aside(
    folder: Path, data: bytes, prefix: str, sync: bool = False, private: bool = True
) -> Iterator[Path]:
    """A new file in ``folder`` holding ``data``, removed on leaving.

    The caller puts it in place inside the block (``os.replace`` or ``os.link``),
    so the destination appears whole or not at all. With ``sync`` the data reach
    the disk first, so a crash cannot leave an empty file in its place. A
    ``private`` file has mode 0600; otherwise the mode a new file gets from the umask.

    The temporary name carries the writer's process id, so the next write
    with the same ``prefix`` removes what a writer killed mid-write left behind.
    """
    remove_stale(folder, prefix)
    fd, temp = tempfile.mkstemp(dir=folder, prefix=f"{prefix}@{os.getpid()}-", suffix=".tmp")
    try:
        if not private:
            os.fchmod(fd, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as file:
            file.write(data)
            if sync:
                file.flush()
                os.fsync(file.fileno())
        yield Path(temp)
    finally:
        Path(temp).unlink(missing_ok=True)


def remove_stale(folder: Path, prefix: str) -> None:
    """Delete ``folder``'s temporary files of ``prefix`` whose writing process is gone."""
    try:
        names = [entry.name for entry in os.scandir(folder) if entry.name.startswith(prefix)]
    except OSError:
        return  # mkstemp will report the folder
    for name in names:
        writer, dash, _ = name[len(prefix) :].partition("-")
        stale = name.endswith(".tmp") and dash and writer[:1] == "@" and writer[1:].isdigit()
        if stale and not _alive(int(writer[1:])):
            Path(folder, name).unlink(missing_ok=True)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, ValueError):
        return True  # another user's process, or not a pid at all: leave it
    return True


def _umask() -> int:
    """The process's umask (reading it means setting it, so it is set back at once)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` by a file of ``data``, whole or not at all, synced to disk."""
    with written_aside(path.parent, data, f".{path.stem}-", sync=True) as temp:
        os.replace(temp, path)


def write_file(path: Path, data: bytes, overwrite: bool = False) -> None:
    """Write ``data`` to ``path`` atomically, never through a symbolic link.

    Without ``overwrite`` an existing entry at ``path`` (even a dangling link)
    is an `OutputError`, checked again at the moment the file is put in place.
    """
    check_destination(path, overwrite)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise OutputError(f"cannot write {path}: {error.strerror or error}") from None
    try:
        with written_aside(path.parent, data, f".{path.name}-", private=False) as temp:
            if overwrite:
                os.replace(temp, path)  # replaces a link itself, never its target
            else:
                os.link(temp, path, follow_symlinks=False)  # fails on any existing entry
    except FileExistsError:
        raise OutputError(f"{path} already exists; use --force to overwrite it") from None
    except OSError as error:
        raise OutputError(f"cannot write {path}: {error.strerror or error}") from None
