"""Random boards: first-click rules hold, draws are reproducible and uniform in support."""

from __future__ import annotations

import random
from pathlib import Path, PurePath

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from paths import ROOT

from minesweeper.board import Board
from minesweeper.boards.cases import distinct_names, format_case, load_cases, parse_cases
from minesweeper.boards.generate import random_board
from minesweeper.errors import InputError, MinesweeperError
from minesweeper.topology import SquareTopology, find_topology
from minesweeper.variant import PRESETS, FirstClick, fitting_size


@st.composite
def boards(draw: st.DrawFn) -> tuple[SquareTopology, int, int, FirstClick, int]:
    rows = draw(st.integers(1, 8))
    cols = draw(st.integers(1, 8))
    topology = SquareTopology(rows, cols)
    first = draw(st.integers(0, topology.size - 1))
    rule = draw(st.sampled_from(FirstClick))
    free = topology.size
    if rule is FirstClick.SAFE:
        free -= 1
    elif rule in (FirstClick.OPENING, FirstClick.ZERO):
        free -= 1 + len(topology.neighbours(first))
    mines = draw(st.integers(0, min(free, topology.size - 1)))
    return topology, mines, first, rule, draw(st.integers(0, 2**32))


@settings(max_examples=200, deadline=None)
@given(boards())
def test_rules_hold(args: tuple[SquareTopology, int, int, FirstClick, int]) -> None:
    topology, mines, first, rule, seed = args
    board = random_board(topology, mines, random.Random(seed), first, rule)
    assert board.mine_count == mines
    if rule is not FirstClick.ANY:
        assert not board.is_mine(first)
    if rule in (FirstClick.OPENING, FirstClick.ZERO):
        assert board.count(first) == 0
        assert not any(board.is_mine(cell) for cell in topology.neighbours(first))


@settings(max_examples=50, deadline=None)
@given(boards())
def test_reproducible(args: tuple[SquareTopology, int, int, FirstClick, int]) -> None:
    topology, mines, first, rule, seed = args
    one = random_board(topology, mines, random.Random(seed), first, rule)
    two = random_board(topology, mines, random.Random(seed), first, rule)
    assert one == two


def test_every_allowed_layout_occurs() -> None:
    # 3x3 with the centre an opening leaves no room; a 2x3 with a safe corner
    # leaves 5 free cells: C(5, 2) = 10 layouts, all of which must appear.
    topology = SquareTopology(2, 3)
    rng = random.Random(7)
    seen = {random_board(topology, 2, rng, 0, FirstClick.SAFE).mines for _ in range(2000)}
    assert len(seen) == 10
    assert all(0 not in mines for mines in seen)


@pytest.mark.parametrize(
    ("mines", "rule", "message"),
    [
        (9, FirstClick.ANY, "no safe cell"),
        (1, FirstClick.OPENING, "leaves only 0 cell"),
        (9, FirstClick.SAFE, "no safe cell"),
        (-1, FirstClick.ANY, "negative"),
    ],
)
def test_impossible_requests_are_clear_errors(mines: int, rule: FirstClick, message: str) -> None:
    with pytest.raises(MinesweeperError, match=message):
        random_board(SquareTopology(3, 3), mines, random.Random(0), 4, rule)


def test_rule_needs_a_first_cell() -> None:
    with pytest.raises(MinesweeperError, match="needs a first cell"):
        random_board(SquareTopology(3, 3), 1, random.Random(0), None, "safe")


def test_rule_names() -> None:
    assert FirstClick("zero") is FirstClick.ZERO
    assert FirstClick("none") is FirstClick.ANY


def test_presets() -> None:
    assert [(p.rows, p.cols, p.mines, p.start) for p in PRESETS.values()] == [
        (9, 9, 10, (2, 2)),
        (16, 16, 40, (2, 2)),
        (16, 30, 99, (3, 3)),
        (30, 30, 90, (15, 15)),
        (30, 30, 135, (15, 15)),
        (30, 30, 180, (15, 15)),
    ]


@pytest.mark.parametrize(
    ("name", "size"),
    [("square", (9, 9)), ("domino", (8, 9)), ("tromino", (9, 9)), ("tetromino", (8, 9))],
)
def test_fitting_size_is_the_nearest_that_tiles(name: str, size: tuple[int, int]) -> None:
    kind = find_topology(name)
    assert fitting_size(kind, 9, 9) == size
    kind.random(*size, random.Random(1))  # it does tile
    assert PRESETS["expert"].density == pytest.approx(99 / 480)


def test_case_text_round_trip() -> None:
    topology = SquareTopology(4, 6)
    board = random_board(topology, 5, random.Random(3), topology.cell_at(1, 2), "zero")
    text = format_case(board, topology.cell_at(1, 2))
    assert text.splitlines()[0] == "4 6"
    assert text.splitlines()[-1] == "1 2"
    [case] = parse_cases(text)
    assert case.board == board
    assert case.first == topology.cell_at(1, 2)


def test_several_cases_in_one_text() -> None:
    one = Board(SquareTopology(2, 2), [3])
    two = Board(SquareTopology(3, 2), [0, 5])
    text = format_case(one, 0) + "\n" + format_case(two, 2)
    cases = parse_cases(text, name="pair.in")
    assert [(c.board, c.first, c.name) for c in cases] == [
        (one, 0, "pair.in"),
        (two, 2, "pair.in#2"),
    ]


def test_missing_first_click_is_an_input_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.in"
    path.write_text("2 2\n..\n.X\n")
    with pytest.raises(InputError, match=r"bad\.in: line 4: input ended where the first click"):
        load_cases(path)


def test_load_directory(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.in").write_text("1 2\n.X\n0 0\n")
    (tmp_path / "a.in").write_text("1 2\nX.\n0 1\n")
    cases = load_cases(tmp_path)
    assert [(c.name, c.first) for c in cases] == [("a.in", 1), ("b.in", 0)]


def test_files_of_one_name_are_told_apart_by_their_folders(tmp_path: Path) -> None:
    for folder in ("basic", "advanced", "advanced/more"):
        (tmp_path / folder).mkdir()
    for path in ("basic/1.in", "advanced/1.in", "advanced/more/1.in", "2.in", "advanced/2.in"):
        (tmp_path / path).write_text("1 2\n.X\n0 0\n1 2\nX.\n0 1\n")
    (tmp_path / "advanced" / "3.in").write_text("1 2\n.X\n0 0\n")
    cases = load_cases(tmp_path)
    assert [(case.name, case.source) for case in cases] == [
        ("2.in", "2.in"),
        ("2.in#2", "2.in"),
        ("advanced/1.in", "advanced/1.in"),
        ("advanced/1.in#2", "advanced/1.in"),
        ("advanced/2.in", "advanced/2.in"),
        ("advanced/2.in#2", "advanced/2.in"),
        ("3.in", "3.in"),
        ("more/1.in", "more/1.in"),
        ("more/1.in#2", "more/1.in"),
        ("basic/1.in", "basic/1.in"),
        ("basic/1.in#2", "basic/1.in"),
    ]


@given(
    st.sets(
        st.lists(st.sampled_from("abc"), min_size=1, max_size=4).map(tuple),
        min_size=1,
        max_size=12,
    ).map(sorted)
)
def test_distinct_names_are_the_shortest_ends_of_paths_that_no_other_shares(
    paths: list[tuple[str, ...]],
) -> None:
    names = distinct_names([PurePath(*path) for path in paths])
    assert len(set(names)) == len(names)
    for i, (path, name) in enumerate(zip(paths, names, strict=True)):
        depth = name.count("/") + 1
        assert tuple(name.split("/")) == path[-depth:]
        others = [other for j, other in enumerate(paths) if j != i]
        if all(other[-1] != path[-1] for other in others):
            assert depth == 1
        else:
            # One folder fewer would name another path's end too.
            shorter = depth - 1
            assert depth == 1 or any(other[-shorter:] == path[-shorter:] for other in others)


def test_committed_advanced_cases_meet_the_spec() -> None:
    directory = ROOT / "testcases" / "advanced"
    cases = load_cases(directory)
    assert len(cases) >= 15
    sizes = set()
    for case in cases:
        board = case.board
        rows, cols = board.topology.shape
        sizes.add((rows, cols))
        assert 5 <= rows <= 30 and 5 <= cols <= 30
        assert 0.04 <= board.mine_count / board.size <= 0.26
        assert not board.is_mine(case.first) and board.count(case.first) == 0
    assert (5, 5) in sizes and (30, 30) in sizes
