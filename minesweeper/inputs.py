"""Reading input files safely: bounded sizes, regular files only where files are searched for.

A file named on the command line may be any stream (a pipe, ``/dev/stdin``); it
is read up to `MAX_FILE_BYTES`. A file found by searching a folder must be a
regular file: a FIFO would block for ever and a device would never end, so
`find_files` reports them, with broken links, link loops and unreadable folders,
instead of opening them.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from minesweeper.errors import NotAFileError, TooLargeError
from minesweeper.limits import MAX_FILE_BYTES, human_bytes

_CHUNK = 1 << 16


def read_limited(stream: BinaryIO, name: str, limit: int | None = None) -> bytes:
    """All of ``stream``'s bytes; `TooLargeError` once they pass ``limit``, before reading on.

    ``limit`` defaults to `MAX_FILE_BYTES`.
    """
    limit = MAX_FILE_BYTES if limit is None else limit
    chunks: list[bytes] = []
    total = 0
    while chunk := stream.read(min(_CHUNK, limit + 1 - total)):
        chunks.append(chunk)
        total += len(chunk)
        if total > limit:
            raise TooLargeError(None, f"{name} is larger than {human_bytes(limit)}")
    return b"".join(chunks)


def file_kind(mode: int) -> str:
    """What a file of ``mode`` (``st_mode``) is, in words."""
    kinds = (
        (stat.S_ISREG, "a regular file"),
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    )
    return next((word for test, word in kinds if test(mode)), "not a regular file")


def open_regular(path: Path) -> BinaryIO:
    """``path`` opened for reading; `NotAFileError` unless it is a regular file.

    The file is opened without blocking and checked through its descriptor, so
    a FIFO put in its place after a search cannot hang the reader.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        raise NotAFileError(f"cannot read {path}: {error.strerror}") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise NotAFileError(f"{path} is {file_kind(mode)}, not a regular file: not read")
    if hasattr(os, "set_blocking"):
        os.set_blocking(fd, True)
    return os.fdopen(fd, "rb")


def read_regular(path: Path, limit: int | None = None) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` (`MAX_FILE_BYTES`) of them."""
    with open_regular(path) as stream:
        return read_limited(stream, str(path), limit)


@dataclass
class Found:
    """What a search of folders found: files to read, and the paths that were left out, why."""

    files: list[Path] = field(default_factory=list)
    problems: list[tuple[Path, str]] = field(default_factory=list)


def find_files(root: Path, suffixes: str | tuple[str, ...] = ".in") -> Found:
    """Every regular file whose name ends with one of ``suffixes`` under the folder ``root``.

    Links to folders are not followed (so a loop of links cannot recur); links to
    files are. A match that is not a regular file (a FIFO, a device, a broken
    link, a link loop) and a folder that cannot be listed go to ``problems``.
    """
    found = Found()

    def unreadable(error: OSError) -> None:
        found.problems.append((Path(error.filename), f"cannot list: {error.strerror}"))

    for folder, _, names in os.walk(root, onerror=unreadable):
        for name in names:
            if not name.endswith(suffixes):
                continue
            path = Path(folder, name)
            try:
                mode = path.stat().st_mode
            except OSError as error:
                found.problems.append((path, f"cannot read: {error.strerror or error}"))
                continue
            if stat.S_ISREG(mode):
                found.files.append(path)
            else:
                found.problems.append((path, f"{file_kind(mode)}, not a regular file"))
    found.files.sort()  # sorted by path
    found.problems.sort()
    return found
