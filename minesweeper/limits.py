"""The largest inputs and boards any command accepts, each with the reason for its size.

Every reader checks these before allocating anything that grows with the input,
so a huge header, an endless line or a device named as a file gives a one-line
refusal (`minesweeper.errors.TooLargeError`) instead of exhausting memory or time.
"""

from __future__ import annotations

from minesweeper.errors import TooLargeError

#: Cells of a grid board (square, hex, triangle, parquet): their neighbours are computed,
#: not stored, so the judge plays a 1000x1000 board in about 2 s and 70 MB.
MAX_CELLS = 1_000_000
#: Cells of a board held as an explicit graph (graph boards, tilings, and any board exported
#: with `topology export`): neighbour lists take about 1.3 KB per cell (130 MB here), and
#: drawing a random tiling of this many squares takes about 20 s.
MAX_GRAPH_CELLS = 100_000
#: Edges of a graph board: ten per node of the largest graph, far above a planar graph's three.
MAX_EDGES = 10 * MAX_GRAPH_CELLS
#: Cells of a game the computer plays or proves (autoplay, no-guess boards): the solver's
#: work grows faster than the board, and an expert board has 480 cells.
MAX_SOLVED_CELLS = 10_000
#: Seconds spent searching for one no-guess board before giving up: a candidate board of
#: 10,000 cells takes the exact prover 2-5 s, and most candidates at high density fail.
NO_GUESS_SECONDS = 30.0
#: One input line: a row of the widest grid board (one byte per cell), with room to spare
#: for surrounding whitespace and for a row of piece ids of the largest tiling.
MAX_LINE_BYTES = 2 * 1024 * 1024
#: A file read whole (an advanced case, a position, a records file): several cases of the
#: largest board; a 1000x1000 case is 1 MB.
MAX_FILE_BYTES = 64 * 1024 * 1024
#: A replay file read whole: an expert game's replay takes a few kilobytes.
MAX_REPLAY_BYTES = 16 * 1024 * 1024
#: Digits of an integer in the protocol: more than any size or cell id can need.
MAX_DIGITS = 18
#: Characters of a bad line or value quoted in an error message.
QUOTE_CHARS = 40
#: Digits of an integer in a JSON file (records, replays, per-game logs): a 64-bit number has 20.
MAX_JSON_DIGITS = 20


def check_cells(cells: int, text_format: str = "grid", line: int | None = None) -> None:
    """Refuse a board of ``cells`` cells (squares, for tilings) in ``text_format``.

    ``text_format`` is the topology's (`Topology.text_format`): ``"grid"`` boards
    may have up to `MAX_CELLS` cells, tilings and graphs `MAX_GRAPH_CELLS`.
    """
    limit = MAX_CELLS if text_format == "grid" else MAX_GRAPH_CELLS
    if cells > limit:
        kind = "a board" if text_format == "grid" else f"a {text_format} board"
        unit = "squares" if text_format == "tiling" else "cells"
        raise TooLargeError(line, f"{kind} of {cells:,} {unit} is too large (at most {limit:,})")


def check_solved_cells(cells: int, what: str) -> None:
    """Refuse to let the computer play or prove (``what``) more than `MAX_SOLVED_CELLS` cells."""
    if cells > MAX_SOLVED_CELLS:
        raise TooLargeError(
            None, f"{what} plays boards of at most {MAX_SOLVED_CELLS:,} cells, not {cells:,}"
        )


def quote(value: object) -> str:
    """``value`` for an error message: its repr, cut to its first `QUOTE_CHARS` characters.

    Every message that shows a value read from input quotes it with this, so no
    error line grows with the input.
    """
    try:
        text = repr(value)
    except (ValueError, RecursionError):  # an integer past Python's digit limit, deep nesting
        return f"a {type(value).__name__} too large to show"
    if isinstance(value, str):
        if len(value) <= QUOTE_CHARS:
            return text
        return f"{value[:QUOTE_CHARS]!r}... ({len(value):,} characters)"
    if len(text) <= QUOTE_CHARS:
        return text
    return f"{text[:QUOTE_CHARS]}... ({len(text):,} characters)"


def human_bytes(count: int) -> str:
    """``count`` bytes in MiB or KiB, for messages."""
    if count >= 1 << 20:
        return f"{count / (1 << 20):g} MiB"
    return f"{count / (1 << 10):g} KiB"
