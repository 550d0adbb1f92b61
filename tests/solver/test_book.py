"""The opening book: positions keyed up to the board's symmetries, `best` playing from it,
and a book that cannot be read."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from minesweeper.solver import View
from minesweeper.solver.best import Best
from minesweeper.solver.book import (
    DEFAULT_PATH,
    BookError,
    Entry,
    OpeningBook,
    canonical,
    inverse,
    symmetries,
)
from minesweeper.topology import SquareTopology


def corner_view(rows: int, cols: int, mines: int, r: int, c: int, shown: int) -> View:
    topology = SquareTopology(rows, cols)
    return View(topology, {topology.cell_at(r, c): shown}, frozenset(), mines)


def book_of(tmp_path: Path, *entries: Entry) -> Path:
    path = tmp_path / "book.json"
    OpeningBook(entries).write(path)
    return path


def entry(cell: tuple[int, int], shown: int = 1) -> Entry:
    return Entry(6, 9, 10, ((0, 0, shown),), (), cell, {})


def player(path: Path | None) -> Best:
    best = Best(0)
    if path is None:
        best.book = False
    else:
        best.book_path = path
    return best


@pytest.mark.parametrize("rows, cols, count", [(6, 9, 4), (7, 7, 8)])
def test_each_symmetry_maps_the_board_onto_itself_and_has_its_inverse_among_them(
    rows: int, cols: int, count: int
) -> None:
    cells = {(r, c) for r in range(rows) for c in range(cols)}
    found = symmetries(rows, cols)
    assert len(found) == count
    images = set()
    for _, move in found:
        assert {move(r, c) for r, c in cells} == cells
        back = inverse(rows, cols, move)
        assert all(back(*move(r, c)) == (r, c) for r, c in cells)
        images.add(tuple(move(r, c) for r, c in sorted(cells)))
    assert len(images) == count  # all different


def test_a_position_and_its_mirror_images_have_one_key() -> None:
    shown = [(0, 0, 1), (0, 1, 2), (1, 0, 1)]
    key, _ = canonical(6, 9, 10, shown, [(1, 1)])
    for _, move in symmetries(6, 9):
        moved = [(*move(r, c), n) for r, c, n in shown]
        assert canonical(6, 9, 10, moved, [move(1, 1)])[0] == key
    assert canonical(6, 9, 11, shown, [(1, 1)])[0] != key  # another mine count
    assert canonical(6, 9, 10, shown, [])[0] != key


@pytest.mark.parametrize(
    "corner, expected", [((0, 0), (3, 8)), ((0, 8), (3, 0)), ((5, 0), (2, 8)), ((5, 8), (2, 0))]
)
def test_best_plays_the_books_cell_in_each_mirror_image_of_its_position(
    tmp_path: Path, corner: tuple[int, int], expected: tuple[int, int]
) -> None:
    path = book_of(tmp_path, entry((3, 8)))  # an edge cell the look-ahead would not pick
    view = corner_view(6, 9, 10, *corner, 1)
    decision = player(path).decide(view)
    assert decision.opens == (view.topology.cell_at(*expected),)
    assert decision.method == "book" and decision.guess
    # Without the book (or with the shipped one, empty of 6x9 boards) the look-ahead
    # picks another cell there.
    assert player(None).decide(view).opens != decision.opens
    assert player(DEFAULT_PATH).decide(view).opens == player(None).decide(view).opens


def test_a_position_outside_the_book_falls_back_to_the_look_ahead(tmp_path: Path) -> None:
    path = book_of(tmp_path, entry((5, 8), shown=1))
    for view in (corner_view(6, 9, 10, 0, 0, 2), corner_view(6, 9, 11, 0, 0, 1)):
        assert player(path).decide(view) == player(None).decide(view)
        assert player(path).decide(view).method != "book"


def test_a_book_cell_that_is_not_possibly_safe_is_never_played(tmp_path: Path) -> None:
    # The corner shows 3: its three neighbours are proved mines; a book naming one of
    # them, or the revealed corner itself, is not followed.
    view = corner_view(6, 9, 10, 0, 0, 3)
    for bad in ((1, 1), (0, 0)):
        path = book_of(tmp_path, Entry(6, 9, 10, ((0, 0, 3),), (), bad, {}))
        decision = player(path).decide(view)
        assert decision.method != "book"
        assert decision.opens == player(None).decide(view).opens


def test_search_and_rollout_play_without_the_book() -> None:
    from minesweeper.solver.rollout import Rollout
    from minesweeper.solver.search import Search

    assert Best.book and not Search.book and not Rollout.book


def test_the_shipped_book_reads_and_holds_only_guesses_best_would_face(tmp_path: Path) -> None:
    book = OpeningBook.read(DEFAULT_PATH)
    for e in book.entries:
        topology = SquareTopology(e.rows, e.cols)
        view = View(
            topology,
            {topology.cell_at(r, c): n for r, c, n in e.revealed},
            frozenset(topology.cell_at(r, c) for r, c in e.known_mines),
            e.mines,
        )
        assert book.cell(view) == topology.cell_at(*e.cell)
        without = player(None).decide(view)
        assert without.guess  # a position with a certain move would never be looked up
        assert without.opens != (topology.cell_at(*e.cell),)  # only where it differs


@pytest.mark.parametrize(
    "text, says",
    [
        ("{not json", "not JSON"),
        ('{"format": "something", "version": 1, "entries": []}', "not an opening book"),
        ('{"format": "minesweeper-opening-book", "version": 2, "entries": []}', "version 2"),
        (
            '{"format": "minesweeper-opening-book", "version": 1, "entries": '
            '[{"rows": 6, "cols": 9, "mines": 10, "revealed": [[0, 0, 1]], '
            '"known_mines": [], "cell": [6, 0]}]}',
            "entry 1: cell [6, 0] is off the 6x9 board",
        ),
        (
            '{"format": "minesweeper-opening-book", "version": 1, "entries": '
            '[{"rows": 6, "cols": 9, "revealed": [[0, 0, 1]], "known_mines": [], '
            '"cell": [5, 0]}]}',
            "entry 1: 'mines'",
        ),
    ],
)
def test_a_book_that_cannot_be_read_is_a_clear_error(tmp_path: Path, text: str, says: str) -> None:
    path = tmp_path / "book.json"
    path.write_text(text)
    with pytest.raises(BookError, match=r"opening book|not an opening book") as error:
        OpeningBook.read(path)
    assert says in str(error.value)
    view = corner_view(6, 9, 10, 0, 0, 1)
    with pytest.raises(BookError):  # never a move from a book it could not read
        player(path).decide(view)


def test_a_missing_book_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(BookError, match="cannot read the opening book"):
        OpeningBook.read(tmp_path / "nowhere.json")


def test_a_book_written_reads_back_the_same(tmp_path: Path) -> None:
    entries = (entry((5, 8)), Entry(7, 7, None, ((3, 3, 2),), ((2, 2),), (0, 6), {"seed": 4}))
    path = book_of(tmp_path, *entries)
    assert OpeningBook.read(path).entries == list(entries)
    assert json.loads(path.read_text())["format"] == "minesweeper-opening-book"
