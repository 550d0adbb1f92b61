"""An opening book: the guess to make at a few common early positions, shipped as data.

On classic boards about half of all games start from one of a handful of positions
(the first click in a corner showing 1, 2 or 3), so a decision there can be worked
out once, by playing on from each candidate over many sampled layouts
(``scripts/opening_book.py``, seeded: a rerun writes the same book), and looked up.

A position is keyed by what a player sees, up to the square board's symmetries
(flips and half turns; on a square board transposes and quarter turns too): the
board's size, the mine count (or none), the revealed numbers and the known mines.
How the board was dealt does not enter: given the view, every consistent layout is
equally likely under either rule set, which is what the book was computed from.

The book file is JSON (``minesweeper/solver/data/opening_book.json``)::

    {"format": "minesweeper-opening-book", "version": 1,
     "entries": [{"rows": 16, "cols": 30, "mines": 99,
                  "revealed": [[0, 0, 1]], "known_mines": [], "cell": [15, 29],
                  "evidence": {...}}]}

``evidence`` records how the entry was found (not read here). A book that cannot be
read is a `BookError`; an entry whose cell is not an unknown, possibly safe cell of
the position is never played (`OpeningBook.move` leaves it to the caller's own
choice).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from minesweeper.errors import SolverError
from minesweeper.solver.view import View
from minesweeper.topology import SquareTopology

FORMAT = "minesweeper-opening-book"
VERSION = 1
#: The book `Best` plays from, shipped with the package.
DEFAULT_PATH = Path(__file__).parent / "data" / "opening_book.json"

#: A position as the book keys it: rows, cols, mine count, revealed
#: ``(row, col, number)`` and known mines ``(row, col)``, both sorted.
Key = tuple[int, int, int | None, tuple[tuple[int, int, int], ...], tuple[tuple[int, int], ...]]
#: A map of ``(row, col)`` on a ``rows x cols`` board.
Move = Callable[[int, int], tuple[int, int]]


class BookError(SolverError):
    """An opening book that cannot be read (missing, not JSON, or not of its format)."""


def symmetries(rows: int, cols: int) -> list[tuple[str, Move]]:
    """The maps of a ``rows x cols`` board onto itself, the identity first."""
    found: list[tuple[str, Move]] = [
        ("identity", lambda r, c: (r, c)),
        ("flip-rows", lambda r, c: (rows - 1 - r, c)),
        ("flip-cols", lambda r, c: (r, cols - 1 - c)),
        ("half-turn", lambda r, c: (rows - 1 - r, cols - 1 - c)),
    ]
    if rows == cols:
        found += [
            ("transpose", lambda r, c: (c, r)),
            ("anti-transpose", lambda r, c: (cols - 1 - c, rows - 1 - r)),
            ("turn", lambda r, c: (c, rows - 1 - r)),
            ("turn-back", lambda r, c: (cols - 1 - c, r)),
        ]
    return found


def key_of(
    rows: int,
    cols: int,
    mines: int | None,
    revealed: Iterable[tuple[int, int, int]],
    known: Iterable[tuple[int, int]],
    move: Move,
) -> Key:
    """The key of a position after ``move``."""
    shown = tuple(sorted((*move(r, c), n) for r, c, n in revealed))
    flagged = tuple(sorted(move(r, c) for r, c in known))
    return (rows, cols, mines, shown, flagged)


def canonical(
    rows: int,
    cols: int,
    mines: int | None,
    revealed: Iterable[tuple[int, int, int]],
    known: Iterable[tuple[int, int]],
) -> tuple[Key, Move]:
    """The least key of a position over the board's symmetries, and the map that gives it
    (the first such in `symmetries` order: the same position always maps the same way)."""
    revealed, known = list(revealed), list(known)
    best: tuple[Key, Move] | None = None
    for _, move in symmetries(rows, cols):
        key = key_of(rows, cols, mines, revealed, known, move)
        if best is None or key < best[0]:
            best = (key, move)
    assert best is not None
    return best


def inverse(rows: int, cols: int, move: Move) -> Move:
    """The map that undoes ``move`` (each symmetry's inverse is among them)."""
    probe = [(r, c) for r in range(min(rows, 2)) for c in range(min(cols, 3))]
    probe += [(rows - 1, cols - 1)]
    for _, other in symmetries(rows, cols):
        if all(other(*move(r, c)) == (r, c) for r, c in probe):
            return other
    raise AssertionError("a symmetry without an inverse")


def view_position(
    view: View,
) -> tuple[int, int, int | None, list[tuple[int, int, int]], list[tuple[int, int]]] | None:
    """``view`` as ``(rows, cols, mines, revealed, known)``; None off a square board."""
    topology = view.topology
    if type(topology) is not SquareTopology:
        return None
    rows, cols = topology.shape
    revealed = [(*divmod(cell, cols), n) for cell, n in view.revealed.items()]
    known = [divmod(cell, cols) for cell in view.mines]
    return rows, cols, view.mine_count, revealed, known


@dataclass(frozen=True)
class Entry:
    """One position of the book and the cell to open there, as the file gives them."""

    rows: int
    cols: int
    mines: int | None
    revealed: tuple[tuple[int, int, int], ...]
    known_mines: tuple[tuple[int, int], ...]
    cell: tuple[int, int]
    evidence: dict[str, Any]

    def as_json(self) -> dict[str, Any]:
        return {
            "rows": self.rows,
            "cols": self.cols,
            "mines": self.mines,
            "revealed": [list(x) for x in self.revealed],
            "known_mines": [list(x) for x in self.known_mines],
            "cell": list(self.cell),
            "evidence": self.evidence,
        }


def _entry(row: Any) -> Entry:
    """An entry from its JSON, checked (a `ValueError` names what is wrong)."""
    if not isinstance(row, dict):
        raise ValueError("an entry is not an object")
    rows, cols, mines = row["rows"], row["cols"], row["mines"]
    if not (isinstance(rows, int) and isinstance(cols, int) and rows > 0 and cols > 0):
        raise ValueError("rows and cols must be positive whole numbers")
    if mines is not None and not (isinstance(mines, int) and 0 <= mines < rows * cols):
        raise ValueError("mines must be a whole number below the cell count, or null")

    def inside(r: Any, c: Any) -> tuple[int, int]:
        if not (isinstance(r, int) and isinstance(c, int) and 0 <= r < rows and 0 <= c < cols):
            raise ValueError(f"cell {[r, c]} is off the {rows}x{cols} board")
        return r, c

    revealed = tuple((*inside(r, c), int(n)) for r, c, n in row["revealed"])
    known = tuple(inside(r, c) for r, c in row["known_mines"])
    cell = inside(*row["cell"])
    evidence = row.get("evidence", {})
    return Entry(rows, cols, mines, revealed, known, cell, evidence)


class OpeningBook:
    """Positions and the cell to open in each, looked up up to the board's symmetries."""

    def __init__(self, entries: Iterable[Entry]) -> None:
        self.entries = list(entries)
        self._cells: dict[Key, tuple[int, int]] = {}
        #: (rows, cols, mines, revealed count, known count): a cheap first filter.
        self._sizes: set[tuple[int, int, int | None, int, int]] = set()
        for e in self.entries:
            key, move = canonical(e.rows, e.cols, e.mines, e.revealed, e.known_mines)
            self._cells[key] = move(*e.cell)
            self._sizes.add((e.rows, e.cols, e.mines, len(e.revealed), len(e.known_mines)))

    def __len__(self) -> int:
        return len(self._cells)

    @classmethod
    def read(cls, path: Path) -> OpeningBook:
        """The book in the file ``path``; a `BookError` if it cannot be read."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as error:
            raise BookError(f"cannot read the opening book {path}: {error.strerror}") from None
        except (ValueError, UnicodeDecodeError) as error:
            raise BookError(f"the opening book {path} is not JSON: {error}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise BookError(f"{path} is not an opening book (no format {FORMAT!r})")
        if data.get("version") != VERSION:
            raise BookError(f"the opening book {path} has version {data.get('version')!r}")
        entries = []
        for number, row in enumerate(data.get("entries", []), 1):
            try:
                entries.append(_entry(row))
            except (ValueError, KeyError, TypeError) as error:
                raise BookError(f"the opening book {path}, entry {number}: {error}") from None
        return cls(entries)

    def write(self, path: Path) -> None:
        """Write the book to ``path`` (atomically: a reader sees the old or the new)."""
        head = json.dumps({"format": FORMAT, "version": VERSION})[:-1]
        lines = ",\n  ".join(json.dumps(e.as_json()) for e in self.entries)
        text = f'{head}, "entries": [\n  {lines}\n]}}\n' if lines else f'{head}, "entries": []}}\n'
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(path)

    def cell(self, view: View) -> int | None:
        """The book's cell for ``view``'s position, if the book has it."""
        if type(view.topology) is not SquareTopology:
            return None
        size = (*view.topology.shape, view.mine_count, len(view.revealed), len(view.mines))
        if size not in self._sizes:  # most positions: no list built
            return None
        position = view_position(view)
        assert position is not None
        rows, cols, mines, revealed, known = position
        key, move = canonical(rows, cols, mines, revealed, known)
        found = self._cells.get(key)
        if found is None:
            return None
        r, c = inverse(rows, cols, move)(*found)
        return r * cols + c

    def move(self, view: View, possible: Callable[[int], bool]) -> int | None:
        """`cell`, if it is an unknown cell of ``view`` that ``possible`` allows (a cell
        that may be safe); else None, so that the caller decides by itself."""
        cell = self.cell(view)
        if cell is None or cell in view.revealed or cell in view.mines or not possible(cell):
            return None
        return cell


@lru_cache(maxsize=4)
def load(path: Path = DEFAULT_PATH) -> OpeningBook:
    """The book at ``path``, read once per process."""
    return OpeningBook.read(path)
