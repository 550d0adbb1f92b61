"""How a judge's output that differs from a case's expected output is shown.

The one home of that report, for the built-in judge (`grading.grade_basic`)
and for foreign servers (`judge.server`): a summary line naming the first line
that differs, the map and the move it belongs to (or the result lines), and an
excerpt with the expected and the actual lines of that map side by side.
"""

from __future__ import annotations

from dataclasses import dataclass

from minesweeper.errors import MinesweeperError
from minesweeper.judge.escape import printable
from minesweeper.protocol import LOSS_LINE, WIN_LINE, LineReader, read_board
from minesweeper.topology.base import Topology
from minesweeper.topology.square import SquareTopology

#: Lines of a map shown around its first differing line; a taller map shows a window.
EXCERPT_ROWS = 9
#: Characters of a line shown around its first difference; a wider map shows a window
#: (30, the assignment's widest board: two maps side by side fit 80 columns).
EXCERPT_COLS = 30
#: Lines shown on either side of a difference in output whose maps are unknown.
CONTEXT_LINES = 3


@dataclass(frozen=True)
class Difference:
    """Where an output first departs from the expected one (``summary``, one line) and
    the lines around it, expected beside actual (``excerpt``, several lines)."""

    summary: str
    excerpt: str


@dataclass(frozen=True)
class _Layout:
    """What the lines of a judge's output are: ``rows`` lines per map, a map after the
    board and after each move (``moves``: input line number and text), ``maps`` lines
    of maps before the result lines."""

    rows: int
    moves: list[tuple[int, str]]
    maps: int


def compare_output(
    actual: bytes,
    expected: bytes,
    given: bytes | str = b"",
    topology: type[Topology] = SquareTopology,
) -> Difference | None:
    """How ``actual`` differs from ``expected``, the judge's output for the input ``given``.

    None when they are equal. Without a readable board in ``given`` the excerpt
    shows the lines around the difference, without naming maps and moves.
    """
    if actual == expected:
        return None
    got, want = _lines(actual), _lines(expected)
    index = next((i for i in range(max(len(got), len(want))) if _at(got, i) != _at(want, i)), None)
    if index is None:  # the same lines: only the newline after the last one differs
        last = f"line {len(got)}: {got[-1]!r}"
        if actual.endswith(b"\n"):
            return Difference(f"{last} ends with a newline, expected none", "")
        return Difference(f"{last} lacks the newline that ends it, expected one", "")
    layout = _layout(given, topology, want, got)
    summary = f"line {index + 1}"
    if layout is not None:
        summary += f" ({_where(layout, index, len(want))})"
    summary += f": {_versus(_at(got, index), _at(want, index))}"
    return Difference(summary, _excerpt(layout, got, want, index))


def _lines(output: bytes) -> list[str]:
    """The lines of ``output``; a last line without its newline is a line too."""
    lines = output.decode(errors="replace").split("\n")
    return lines[:-1] if lines[-1] == "" else lines


def _at(lines: list[str], index: int) -> str | None:
    """Line ``index``, or None past the end of the output."""
    return lines[index] if index < len(lines) else None


def _versus(got: str | None, want: str | None) -> str:
    """The two lines quoted (windows of long ones, around their first difference)."""
    widest = max(len(got or ""), len(want or ""))
    start = _window(_first_column(got or "", want or ""), widest)
    columns = f" (columns {start + 1}-{start + EXCERPT_COLS})" if widest > EXCERPT_COLS else ""
    if got is None:
        return f"the output ends, expected {(want or '')[start : start + EXCERPT_COLS]!r}{columns}"
    got = got[start : start + EXCERPT_COLS]
    if want is None:
        return f"got {got!r}, expected the output to end{columns}"
    return f"got {got!r}, expected {want[start : start + EXCERPT_COLS]!r}{columns}"


def _window(column: int, width: int) -> int:
    """The first column of `EXCERPT_COLS` shown of lines ``width`` wide, around ``column``."""
    return max(0, min(column - EXCERPT_COLS // 2, width - EXCERPT_COLS))


def _layout(
    given: bytes | str, topology: type[Topology], want: list[str], got: list[str]
) -> _Layout | None:
    """The maps and moves of the judge's output for ``given``; None without a readable board.

    The maps end at the expected output's verdict; where it has none (a game the
    moves do not decide, or a damaged verdict), at the actual output's.
    """
    reader = LineReader(given)
    try:
        board = read_board(reader, topology)
        moves = []
        while (line := reader.next()) is not None:
            moves.append(line)
    except MinesweeperError:
        return None
    verdicts = [no for no, text in enumerate(want) if text in (WIN_LINE, LOSS_LINE)]
    verdicts += [no for no, text in enumerate(got) if text in (WIN_LINE, LOSS_LINE)]
    return _Layout(board.topology.shape[0], moves, verdicts[0] if verdicts else len(want))


def _move(layout: _Layout, number: int) -> str:
    """Move ``number`` (from 1) as the input gave it."""
    line_no, text = layout.moves[number - 1]
    return f"move {number} '{text}' (input line {line_no})"


def _map(layout: _Layout, index: int) -> str:
    """Which map of the output map ``index`` (from 0) is."""
    if index == 0:
        return "the board as read"
    if index <= len(layout.moves):
        return f"after {_move(layout, index)}"
    return f"map {index + 1}, after the input's last move"


def _map_title(layout: _Layout, index: int) -> str:
    """`_map` as the title of the whole map."""
    if index > len(layout.moves):
        return _map(layout, index)
    return f"the map {'of ' if index == 0 else ''}{_map(layout, index)}"


def _result(layout: _Layout) -> str:
    """The result lines, and the move that decided the game when it is known."""
    deciding = layout.maps // layout.rows - 1
    if layout.maps % layout.rows or not 1 <= deciding <= len(layout.moves):
        return "the result lines"
    return f"the result lines, after {_move(layout, deciding)}"


def _where(layout: _Layout, index: int, expected: int) -> str:
    """What output line ``index`` is, in the expected output of ``expected`` lines."""
    if index >= expected:
        return "past the end of the expected output"
    if index >= layout.maps:
        return _result(layout)
    number, row = divmod(index, layout.rows)
    return f"{_map(layout, number)}, map row {row + 1}"


def _section(
    layout: _Layout | None, index: int, expected: int, actual: int
) -> tuple[int, int, str]:
    """The lines ``[first, end)`` around line ``index`` that belong together, and their name."""
    if layout is None:
        return (
            max(0, index - CONTEXT_LINES),
            min(max(expected, actual), index + CONTEXT_LINES + 1),
            "",
        )
    if index >= expected:
        return (
            max(0, expected - CONTEXT_LINES),
            min(actual, index + CONTEXT_LINES + 1),
            "the end of the expected output",
        )
    if index >= layout.maps:
        return layout.maps, expected, _result(layout)
    number = index // layout.rows
    first = number * layout.rows
    return first, min(first + layout.rows, layout.maps), _map_title(layout, number)


def _excerpt(layout: _Layout | None, got: list[str], want: list[str], index: int) -> str:
    """The expected and the actual lines of the section around line ``index``, side by side.

    A section taller than `EXCERPT_ROWS` or wider than `EXCERPT_COLS` shows a window
    around the first difference; differing lines are marked ``<-``.
    """
    top, bottom, name = _section(layout, index, len(want), len(got))
    first = max(top, min(index - EXCERPT_ROWS // 2, bottom - EXCERPT_ROWS))
    end = min(bottom, first + EXCERPT_ROWS)
    numbers = range(first, end)
    widest = max(len(line or "") for i in numbers for line in (_at(got, i), _at(want, i)))
    start = _window(_first_column(_at(got, index) or "", _at(want, index) or ""), widest)
    where = f"output lines {first + 1}-{end}" if end - first > 1 else f"output line {end}"
    heading = f"{name}, {where}" if name else where
    if (first, end) != (top, bottom):
        heading += f" of {top + 1}-{bottom}"
    if widest > EXCERPT_COLS:
        heading += f", columns {start + 1}-{start + EXCERPT_COLS} of {widest}"
    cells = [
        (_shown(_at(want, i), start), _shown(_at(got, i), start), _at(got, i) != _at(want, i))
        for i in numbers
    ]
    left = max(len("expected"), *(len(expected) for expected, _, _ in cells))
    digits = len(str(end))
    lines = [heading + ":", f"{'':>{digits}}  {'expected':<{left}}  got"]
    for i, (expected, actual, differs) in zip(numbers, cells, strict=True):
        mark = "  <-" if differs else ""
        lines.append(f"{i + 1:>{digits}}  {expected:<{left}}  {actual}{mark}".rstrip())
    return "\n".join(lines)


def _first_column(got: str, want: str) -> int:
    """Where two lines first differ: a column both have, or the end of the shorter."""
    pairs = enumerate(zip(got, want, strict=False))
    return next((i for i, (a, b) in pairs if a != b), min(len(got), len(want)))


def _shown(line: str | None, start: int) -> str:
    """A line as the excerpt prints it: its window, with characters a terminal would
    act on written as escapes; ``(no line)`` past the end of its output."""
    if line is None:
        return "(no line)"
    return printable(line[start : start + EXCERPT_COLS])
