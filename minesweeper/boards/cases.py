"""Advanced test cases: a board and the first click made on the client's behalf.

The text format is the ACM assignment's advanced ``.in``: the server's board
input (on squares, ``n m`` then the ``.``/``X`` rows; other topologies use
their own board format) followed by one move line, the first click. Several
cases may follow one another in one file.

Board files (`load_board`) are a board in any topology's text format, with or
without its first-click line, or an MBF file (`minesweeper.boards.mbf`, ``.mbf``).
Where a file names no first click, `default_first` chooses one.
"""

from __future__ import annotations

import collections
import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePath

from minesweeper.board import Board
from minesweeper.boards.generate import middle_cell
from minesweeper.boards.mbf import SUFFIX as MBF_SUFFIX
from minesweeper.boards.mbf import MbfError, read_mbf
from minesweeper.errors import EncodingError, InputError, NotAFileError, PathError
from minesweeper.inputs import find_files, read_regular
from minesweeper.limits import quote
from minesweeper.protocol import (
    LineReader,
    format_board,
    format_move,
    parse_move,
    read_board,
)
from minesweeper.topology.base import Topology
from minesweeper.topology.square import SquareTopology


@dataclass(frozen=True)
class AdvancedCase:
    """A board and its first click (a cell id).

    ``name`` names the case; ``source`` names what it was read from (a file), the
    same for every case read from it.
    """

    board: Board
    first: int
    name: str = ""
    source: str = ""


def format_case(board: Board, first: int) -> str:
    """The advanced ``.in`` text of ``board`` with first click ``first``, newline-terminated."""
    return format_board(board) + format_move(board.topology, first) + "\n"


def read_case(
    reader: LineReader, topology: type[Topology] = SquareTopology, name: str = ""
) -> AdvancedCase:
    """Read one case: the board, then the first-click line."""
    board = read_board(reader, topology)
    line_no, text = reader.require("the first click")
    return AdvancedCase(board, parse_move(line_no, text, board.topology), name)


def parse_case(
    text: bytes | str, topology: type[Topology] = SquareTopology, name: str = ""
) -> AdvancedCase:
    """The one case in ``text``; anything after its first-click line is an `InputError`."""
    reader = LineReader(text)
    try:
        case = read_case(reader, topology, name)
        extra = reader.next()
        if extra is not None:
            message = f"unexpected text after the first click: {quote(extra[1])}"
            raise InputError(extra[0], message + _what_follows(reader))
    except InputError as error:
        raise error.found_in(name) if name else error from None
    return case


def _what_follows(reader: LineReader) -> str:
    """A hint at what a file with more than one case holds: moves (a basic case) or cases."""
    following = reader.next()
    if following is not None and set(following[1].strip()) <= {".", "X"}:
        return " (another case follows: this command plays one case a file)"
    return " (moves follow: a basic case, which `minesweeper server` plays)"


def parse_cases(
    text: bytes | str, topology: type[Topology] = SquareTopology, name: str = ""
) -> list[AdvancedCase]:
    """Every case in ``text``, one after another; at least one.

    Cases after the first are named ``name#2``, ``name#3``, ...; every case's
    ``source`` is ``name``.
    """
    reader = LineReader(text)
    cases: list[AdvancedCase] = []
    while True:
        label = name if not cases else f"{name}#{len(cases) + 1}"
        cases.append(dataclasses.replace(read_case(reader, topology, label), source=name))
        if reader.at_end():
            return cases


def read_cases_file(
    path: Path, topology: type[Topology] = SquareTopology, name: str | None = None
) -> list[AdvancedCase]:
    """The cases in one regular file (at most `MAX_FILE_BYTES`), named ``name`` (by default
    the file's name); errors name the file."""
    data = read_regular(path)
    try:
        return parse_cases(data, topology, path.name if name is None else name)
    except InputError as error:
        raise error.found_in(str(path)) from None


def load_cases(path: Path, topology: type[Topology] = SquareTopology) -> list[AdvancedCase]:
    """The cases of a file, or of every ``.in`` and ``.mbf`` file under a directory (by path).

    Cases are named after their file (`parse_cases`): by its name, or, where files
    in different folders share a name, by the shortest end of its path below the
    directory that no other file shares (``basic/1.in``, ``advanced/1.in``), so
    every file's cases have names of their own. An MBF board's first click is
    `default_first`. A folder holding something that
    cannot be read as a case file (a FIFO, a device, a broken link, an unreadable
    sub-folder) is refused, naming it.
    """
    if path.is_dir():
        found = find_files(path, (".in", MBF_SUFFIX))
        if found.problems:
            where, problem = found.problems[0]
            raise NotAFileError(f"{where}: {problem}")
        if not found.files:
            raise PathError(f"no .in or {MBF_SUFFIX} files under {path}")
        names = distinct_names([file.relative_to(path) for file in found.files])
        return [
            case
            for file, name in zip(found.files, names, strict=True)
            for case in _file_cases(file, topology, name)
        ]
    return _file_cases(path, topology, path.name)


def distinct_names(paths: Sequence[PurePath]) -> list[str]:
    """A name for each of ``paths`` (distinct relative paths) that no other one gets.

    A path's name is its file name, lengthened by its folders, from the nearest
    out, only while another path's name is the same: ``a/x.in``, ``b/x.in`` and
    ``c/y.in`` are named ``a/x.in``, ``b/x.in`` and ``y.in``.
    """
    parts = [PurePath(path).parts for path in paths]
    depth = [1] * len(parts)
    while True:
        names = ["/".join(whole[-depth[i] :]) for i, whole in enumerate(parts)]
        shared = collections.Counter(names)
        longer = [
            i for i, name in enumerate(names) if shared[name] > 1 and depth[i] < len(parts[i])
        ]
        if not longer:
            return names
        for i in longer:
            depth[i] += 1


def _file_cases(path: Path, topology: type[Topology], name: str) -> list[AdvancedCase]:
    if path.suffix.lower() == MBF_SUFFIX:
        board = read_mbf_file(path)
        return [AdvancedCase(board, default_first(board), name, name)]
    return read_cases_file(path, topology, name)


def read_mbf_file(path: Path) -> Board:
    """The board in the MBF file ``path``; errors name the file."""
    data = read_regular(path)
    try:
        return read_mbf(data)
    except MbfError as error:
        raise MbfError(None, f"{path}: {error}") from None


def load_board(path: Path, topology: type[Topology] = SquareTopology) -> tuple[Board, int | None]:
    """The board in file ``path`` and the first click it names (None if it names none).

    ``.mbf`` files are MBF; others hold a board in ``topology``'s text format,
    optionally followed by one first-click line. Errors name the file and line.
    """
    if path.suffix.lower() == MBF_SUFFIX:
        return read_mbf_file(path), None
    reader = LineReader(read_regular(path))
    try:
        board = read_board(reader, topology)
        first = None
        line = reader.next()
        if line is not None:
            first = parse_move(line[0], line[1], board.topology)
            extra = reader.next()
            if extra is not None:
                raise InputError(
                    extra[0], f"unexpected text after the first click: {quote(extra[1])}"
                )
    except InputError as error:
        message = error.message
        if isinstance(error, EncodingError):
            message += f" (not a text board, nor a {MBF_SUFFIX} file)"
        raise type(error)(error.line, message, source=str(path)) from None
    return board, first


def default_first(board: Board) -> int:
    """A first click for a board that names none: the zero nearest the middle of the map.

    Without a zero, the safe cell nearest the middle. "Nearest" counts printed
    rows and columns; ties go to the lower cell id.
    """
    topology = board.topology
    cols = topology.shape[1]
    middle = divmod(topology.printed_positions(middle_cell(topology))[0], cols)

    def distance(cell: int) -> tuple[int, int]:
        row, col = divmod(topology.printed_positions(cell)[0], cols)
        return max(abs(row - middle[0]), abs(col - middle[1])), cell

    safe = [cell for cell in topology.cells() if not board.is_mine(cell)]
    zeros = [cell for cell in safe if board.count(cell) == 0]
    return min(zeros or safe, key=distance)
