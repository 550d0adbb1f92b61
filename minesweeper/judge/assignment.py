"""Which cases the ACM Class 2023 assignment poses, read from each case's own content.

A header is graded as the course graded it only on cases the course could have
posed. The course's ten public cases are recognised by their bytes (SHA-256:
wherever they lie, in the package, ``../shared/acm-2023`` or a TA's copy of the
template). Another case is the project's, within the assignment's guarantees
(its README's "数据范围" and format) when it keeps all of them: ``n m`` then
``n`` rows of ``m`` characters ``.``/``X`` with ``1 < n, m < 31`` and ``0 < mines
< n*m``, lines ended by ``\\n`` alone with no other white space; a basic case's
moves ``r c`` on the board, at most 1000, deciding the game (the template's
``main.cpp`` stops reading there); an advanced case's one first click, on a safe
cell. Anything else is an extra case: graded and shown, never counted against a
header, with the reason it is extra.
"""

from __future__ import annotations

import enum
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

from minesweeper.board import Board
from minesweeper.errors import MinesweeperError
from minesweeper.game import Game
from minesweeper.inputs import read_regular
from minesweeper.judge.grading import Found
from minesweeper.topology.square import SquareTopology

#: The cases that travel with the package: the project's ``testcases/``, with the course's
#: public ones in `COURSE_FOLDER` (in a checkout, a link to the repository's testcases/).
CASES = Path(__file__).resolve().parent / "testcases"
COURSE_FOLDER = "acm-2023"
#: The assignment's sides (1 < n, m < 31) and its longest move sequence.
SIDES = range(2, 31)
MAX_MOVES = 1000
#: SHA-256 of the course's public cases: each basic ``.in`` with its ``.out``, each advanced
#: ``.in`` (testcases/acm-2023/, from the course's template repository).
COURSE_BASIC = frozenset(
    {
        ("033ea4ea130a0f70d009dc61c6ca254bf76572617ff5bbf9cb71dacb0c03e34d",
         "a12d5cb988414cf59985e5a931d838106a2d6dcb367b7b53c516b7c169366729"),
        ("8b86aecc9f0c2f2ed49bab6ecadd201cf65a56d72e67b86778fe8f6ceaf0862e",
         "8b5b1a87c6e75237591878f84b70a0ae3b68b688c129d25e48ae53a017c3ba81"),
        ("114b18bb3aa618060d4544abc799c38db3477d09b8b4a96f0cce337fb60ec944",
         "ebf2c091fc6d9f216715190bfc01b88c243c2de2c57930521f2e89762746749f"),
        ("d7502e59865da566511a3a447b618dc37b043b83875256b3e995b7c8fbaf0153",
         "7288c5cfee52b7fbfd730b74bf64a3b3fe21ba163d1b5b845e74a0fad21ab193"),
        ("f84138fa4c76b5ef9b2ed9682423df9dde14500ed7854e718f48d361912da787",
         "bcb28b56583a61d2f8d432e804cc41151d8f78db1111b75f949da538d9f77dc5"),
    }
)  # fmt: skip
COURSE_ADVANCED = frozenset(
    {
        "34a8bcbce0494ce6ddd4efb2954b20e26e26b1509fa8c3225e0f06e12e9b50cd",
        "476620e6320907b45e78655fa9f1c3bfe81edae127f5e504584e2994de6e89f6",
        "bfd72fd9bb62f05115c450758222e67335a9c05f1f4ba44934527f2708ca7004",
        "dfa766fbe3f903eaeb541ee2ff70355a1926cc216c3b5befbf7806f3c702b728",
        "512d4867091c44b2de881cfb81a4a7731c49f71c6771cf1337d47298eebf12f6",
    }
)

_PAIR = re.compile(r"(\d+) (\d+)")
_ROW = re.compile(r"[.X]*")


class Kind(enum.StrEnum):
    """Where a case stands with the assignment."""

    COURSE = "course"  # one of the course's public cases
    PROJECT = "project"  # the project's, within the assignment's guarantees
    EXTRA = "extra"  # outside them: not counted against a header

    @property
    def heading(self) -> str:
        """The column's name in a report."""
        return {"course": "ACM", "project": "ours", "extra": "extra"}[self.value]


@dataclass(frozen=True)
class Standing:
    """A case's kind and, for an extra case, why it is one."""

    kind: Kind
    reason: str = ""


class _Outside(Exception):
    """The case leaves the assignment's guarantees (the message says how)."""


def classify(case: Found) -> Standing:
    """Whether ``case`` is the course's, within the assignment's guarantees, or extra."""
    if case.topology is not SquareTopology:
        return Standing(Kind.EXTRA, f"a {case.topology.name} board: the course's are squares")
    try:
        given = read_regular(case.path)
        expected = read_regular(case.path.with_suffix(".out")) if case.basic else b""
    except (MinesweeperError, OSError):
        return Standing(Kind.EXTRA, "cannot be read")
    if _course(given, expected, case.basic):
        return Standing(Kind.COURSE)
    try:
        (_basic if case.basic else _advanced)(given)
    except _Outside as outside:
        return Standing(Kind.EXTRA, str(outside))
    return Standing(Kind.PROJECT)


def _course(given: bytes, expected: bytes, basic: bool) -> bool:
    digest = hashlib.sha256(given).hexdigest()
    if basic:
        return (digest, hashlib.sha256(expected).hexdigest()) in COURSE_BASIC
    return digest in COURSE_ADVANCED


def _lines(given: bytes) -> list[str]:
    """The lines of a case the assignment could pose: ASCII, ``\\n`` ends, no trailing white
    space or blank line (the last line may lack its newline, as the course's own do)."""
    if b"\r" in given:
        raise _Outside("CRLF line ends")
    try:
        text = given.decode("ascii")
    except UnicodeDecodeError:
        raise _Outside("characters that are not ASCII") from None
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    for number, line in enumerate(lines, 1):
        if line != line.strip() or not line or "\t" in line:
            raise _Outside(f"line {number}: white space the assignment's format does not have")
    return lines


def _board(lines: list[str]) -> Board:
    """The board of the first lines, within the assignment's sides and mine counts."""
    first = _PAIR.fullmatch(lines[0]) if lines else None
    if first is None:
        raise _Outside("line 1 is not 'n m'")
    rows, cols = int(first[1]), int(first[2])
    if rows not in SIDES or cols not in SIDES:
        raise _Outside(f"a side outside 2..30 ({rows}x{cols})")
    grid = lines[1 : 1 + rows]
    if len(grid) < rows or any(len(row) != cols or not _ROW.fullmatch(row) for row in grid):
        raise _Outside(f"the board is not {rows} rows of {cols} '.' or 'X'")
    topology = SquareTopology(rows, cols)
    mines = [
        topology.cell_at(r, c)
        for r, row in enumerate(grid)
        for c, ch in enumerate(row)
        if ch == "X"
    ]
    if not 0 < len(mines) < rows * cols:
        raise _Outside("no mine" if not mines else "no safe cell")
    return Board(topology, mines)


def _move(board: Board, line: str, number: int) -> int:
    """The cell a move line names; `_Outside` unless it is ``r c`` on the board."""
    pair = _PAIR.fullmatch(line)
    rows, cols = board.topology.shape
    if pair is None or int(pair[1]) >= rows or int(pair[2]) >= cols:
        raise _Outside(f"line {number} is not a move 'r c' on the board")
    return board.topology.cell_at(int(pair[1]), int(pair[2]))


def _basic(given: bytes) -> None:
    """`_Outside` unless the input is the assignment's: its moves decide the game within
    1000 moves (what follows the deciding move is never read by the template)."""
    lines = _lines(given)
    board = _board(lines)
    game = Game(board)
    first = 1 + board.topology.shape[0]
    for index, line in enumerate(lines[first:]):
        if index == MAX_MOVES:
            raise _Outside(f"more than {MAX_MOVES} moves")
        game.visit(_move(board, line, first + index + 1))
        if game.over:
            return
    raise _Outside("the input ends before the game is decided")


def _advanced(given: bytes) -> None:
    """`_Outside` unless the file is one board and its first click, on a safe cell."""
    lines = _lines(given)
    board = _board(lines)
    click = 1 + board.topology.shape[0]
    if len(lines) != click + 1:
        raise _Outside("not one board and one first click")
    if board.is_mine(_move(board, lines[click], click + 1)):
        raise _Outside("the first click is on a mine")
