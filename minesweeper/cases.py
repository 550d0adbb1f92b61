"""Advanced test cases: a board and the first click made on the client's behalf.

The text format is the ACM assignment's advanced ``.in``: the server's board
input (on squares, ``n m`` then the ``.``/``X`` rows; other topologies use
their own board format) followed by one move line, the first click. Several
cases may follow one another in one file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from minesweeper.board import Board
from minesweeper.errors import InputError, MinesweeperError, NotAFileError
from minesweeper.inputs import find_files, read_regular
from minesweeper.protocol import (
    LineReader,
    format_board,
    format_move,
    parse_move,
    quote,
    read_board,
)


@dataclass(frozen=True)
class AdvancedCase:
    """A board and its first click (a cell id)."""

    board: Board
    first: int
    name: str = ""


def format_case(board: Board, first: int) -> str:
    """The advanced ``.in`` text of ``board`` with first click ``first``, newline-terminated."""
    return format_board(board) + format_move(board.topology, first) + "\n"


def read_case(reader: LineReader, topology: str = "square", name: str = "") -> AdvancedCase:
    """Read one case: the board, then the first-click line."""
    board = read_board(reader, topology)
    line_no, text = reader.require("the first click")
    return AdvancedCase(board, parse_move(line_no, text, board.topology), name)


def parse_case(text: bytes | str, topology: str = "square", name: str = "") -> AdvancedCase:
    """The one case in ``text``; anything after its first-click line is an `InputError`."""
    reader = LineReader(text)
    case = read_case(reader, topology, name)
    extra = reader.next()
    if extra is not None:
        raise InputError(extra[0], f"unexpected text after the first click: {quote(extra[1])}")
    return case


def parse_cases(text: bytes | str, topology: str = "square", name: str = "") -> list[AdvancedCase]:
    """Every case in ``text``, one after another; at least one.

    Cases after the first are named ``name#2``, ``name#3``, ...
    """
    reader = LineReader(text)
    cases: list[AdvancedCase] = []
    while True:
        label = name if not cases else f"{name}#{len(cases) + 1}"
        cases.append(read_case(reader, topology, label))
        if reader.at_end():
            return cases


def read_cases_file(path: Path, topology: str = "square") -> list[AdvancedCase]:
    """The cases in one regular file (at most `MAX_FILE_BYTES`); errors name the file."""
    data = read_regular(path)
    try:
        return parse_cases(data, topology, path.name)
    except InputError as error:
        raise type(error)(error.line, f"{path}: {error.message}") from None


def load_cases(path: Path, topology: str = "square") -> list[AdvancedCase]:
    """The cases of a file, or of every ``.in`` file under a directory (sorted by path).

    A folder holding something that cannot be read as a case file (a FIFO, a
    device, a broken link, an unreadable sub-folder) is refused, naming it.
    """
    if path.is_dir():
        found = find_files(path)
        if found.problems:
            where, problem = found.problems[0]
            raise NotAFileError(f"{where}: {problem}")
        if not found.files:
            raise MinesweeperError(f"no .in files under {path}")
        return [case for file in found.files for case in read_cases_file(file, topology)]
    return read_cases_file(path, topology)
