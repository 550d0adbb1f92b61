"""A person's game: safe first click, flags, chords, timer, restart and what cells show."""

from __future__ import annotations

import random

import pytest
from doubles import FakeClock
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from minesweeper.board import Board
from minesweeper.errors import MinesweeperError, TopologyError
from minesweeper.game import Game, State
from minesweeper.play.session import CellState, FirstClick, GameSession, Settings, SettingsError
from minesweeper.topology import TOPOLOGIES, SquareTopology
from minesweeper.variant import Rules, Variant


@st.composite
def first_clicks(draw: st.DrawFn) -> tuple[Settings, int, int]:
    """Settings on any registered topology, a first cell and a seed."""
    name = draw(st.sampled_from(sorted(TOPOLOGIES)))
    rows, cols = draw(st.integers(2, 9)), draw(st.integers(2, 9))
    rules = draw(st.sampled_from([Rules.CLASSIC, Rules.MODERN]))
    seed = draw(st.integers(0, 2**32))
    try:
        # What the session draws first with this seed.
        topology = Variant(TOPOLOGIES[name], rows, cols, 0).make_topology(random.Random(seed))
    except SettingsError:  # no such board of this size (e.g. an odd area in dominoes)
        assume(False)
    mines = draw(st.integers(0, topology.size - 1))
    first = draw(st.integers(0, topology.size - 1))
    return Settings(Variant(TOPOLOGIES[name], rows, cols, mines, rules)), first, seed


@settings(max_examples=150, deadline=None)
@given(first_clicks())
def test_first_open_is_safe(args: tuple[Settings, int, int]) -> None:
    options, first, seed = args
    game = options.variant
    session = GameSession(options, seed=seed)
    drawn = game.replace(mines=0).make_topology(random.Random(seed))
    assert session.topology == drawn  # the same seed, the same board shape
    assert session.board is None and not session.started
    session.open(first)
    board = session.board
    assert board is not None and board.mine_count == game.mines
    assert not board.is_mine(first)
    assert session.started and not session.lost
    neighbours = session.topology.neighbours(first)
    room = session.topology.size - 1 - len(neighbours)
    if game.first_click is FirstClick.OPENING and game.mines <= room:
        assert not any(board.is_mine(cell) for cell in neighbours)
        assert session.count(first) == 0


def test_opening_falls_back_to_safe_when_mines_do_not_fit() -> None:
    session = GameSession(Settings(Variant(rows=3, cols=3, mines=8)), seed=0)
    session.open(4)
    assert session.board is not None and session.board.mines == set(range(9)) - {4}
    assert session.won


@st.composite
def positions(draw: st.DrawFn) -> tuple[Board, list[int], set[int]]:
    """A board of any registered topology, cells to open and cells to flag."""
    rows, cols = draw(st.integers(1, 7)), draw(st.integers(1, 7))
    kind = TOPOLOGIES[draw(st.sampled_from(sorted(TOPOLOGIES)))]
    try:
        topology = kind.random(rows, cols, random.Random(draw(st.integers(0, 2**32))))
    except TopologyError:
        topology = SquareTopology(rows, cols)
    cells = st.integers(0, topology.size - 1)
    mines = draw(st.sets(cells, max_size=topology.size - 1))
    opens = draw(st.lists(cells, max_size=8))
    flags = draw(st.sets(cells, max_size=6))
    return Board(topology, mines), opens, flags


@settings(max_examples=200, deadline=None)
@given(positions())
def test_flags_only_protect_cells(args: tuple[Board, list[int], set[int]]) -> None:
    """Opening with flags down reveals what the judge's game reveals for the unflagged opens."""
    board, opens, flags = args
    session = GameSession.from_board(board)
    for cell in flags:
        assert session.toggle_flag(cell)
    assert session.mines_left == board.mine_count - len(flags)
    judge = Game(board)
    for cell in opens:
        if judge.over:
            break
        if cell not in session.flags:
            judge.visit(cell)
        session.open(cell)
    assert session.state is judge.state
    assert set(session.opened()) == {
        cell for cell in board.topology.cells() if judge.revealed[cell] and cell != judge.exploded
    }
    # A flag the flood opened was wrong and is gone; the others stay (a win flags every mine).
    kept = {cell for cell in flags if not session.is_opened(cell)}
    assert session.flags == (kept | board.mines if session.won else kept)


@settings(max_examples=300, deadline=None)
@given(positions(), st.data())
def test_chord_rules(args: tuple[Board, list[int], set[int]], data: st.DataObject) -> None:
    board, opens, flags = args
    topology = board.topology
    session = GameSession.from_board(board)
    for cell in opens:
        if not board.is_mine(cell):
            session.open(cell)
    for cell in flags:
        session.toggle_flag(cell)
    target = data.draw(st.integers(0, topology.size - 1))
    before_opened, before_flags, points = set(session.opened()), session.flags, session.points
    was_over = session.over
    result = session.chord(target)
    around = topology.neighbours(target)
    flagged = [cell for cell in around if cell in before_flags]
    closed = [c for c in around if c not in before_flags and c not in before_opened]
    applies = (
        not was_over
        and target in before_opened
        and board.count(target) > 0
        and len(flagged) == board.count(target)
    )
    if not applies:
        assert result == []
        assert set(session.opened()) == before_opened and session.points == points
    elif any(board.is_mine(cell) for cell in closed):
        # N flags around N mines, one of them misplaced: a mine is among the cells opened.
        assert any(not board.is_mine(cell) for cell in flagged)
        assert session.lost
        assert set(result) == session.exploded == {c for c in closed if board.is_mine(c)}
        assert set(session.opened()) == before_opened
    else:
        assert set(closed) <= set(session.opened())
        assert set(result) == set(session.opened()) - before_opened
        assert session.points > points or not closed


def test_chord_with_a_wrong_flag_explodes() -> None:
    # .X.
    # ...     the 1 at (1, 1) with a flag on (0, 0) instead of (0, 1)
    board = Board(SquareTopology(2, 3), [1])
    session = GameSession.from_board(board)
    session.open(4)
    session.toggle_flag(0)
    assert session.chord(4) == [1]
    assert session.lost
    assert session.cell_state(1) is CellState.EXPLODED
    assert session.cell_state(0) is CellState.WRONG_FLAG
    assert session.cell_state(2) is CellState.CLOSED


def test_chord_opens_the_rest() -> None:
    board = Board(SquareTopology(2, 3), [1])
    session = GameSession.from_board(board)
    session.open(4)
    session.toggle_flag(1)
    assert sorted(session.chord(4)) == [0, 2, 3, 5]
    assert session.won
    assert session.cell_state(1) is CellState.FLAGGED


def test_flag_and_open_do_nothing_where_they_do_not_apply() -> None:
    board = Board(SquareTopology(3, 3), [8])
    session = GameSession.from_board(board)
    session.toggle_flag(0)
    assert session.open(0) == []
    assert not session.started
    assert session.toggle_flag(0) is False
    session.open(0)
    assert session.toggle_flag(0) is False  # opened cells take no flag
    assert session.cell_state(0) is CellState.OPENED
    with pytest.raises(MinesweeperError):
        session.open(9)


def test_loss_reveals_every_mine_and_wrong_flag() -> None:
    board = Board(SquareTopology(3, 3), [0, 8])
    session = GameSession.from_board(board)
    session.open(4)
    session.toggle_flag(0)
    session.toggle_flag(2)
    session.open(8)
    assert session.lost and session.over
    states = {cell: session.cell_state(cell) for cell in range(9)}
    assert states[8] is CellState.EXPLODED
    assert states[0] is CellState.FLAGGED
    assert states[2] is CellState.WRONG_FLAG
    assert states[4] is CellState.OPENED
    assert states[1] is CellState.CLOSED
    assert session.open(1) == [] and session.toggle_flag(1) is False


def test_timer_starts_at_the_first_open_and_stops_at_the_end() -> None:
    clock = FakeClock(100.0)
    board = Board(SquareTopology(1, 3), [1])
    session = GameSession.from_board(board, clock=clock)
    clock.now += 50
    assert session.elapsed == 0
    session.open(0)
    clock.now += 7.5
    assert session.elapsed == 7.5 and session.seconds == 7
    session.open(2)
    assert session.won
    clock.now += 100
    assert session.seconds == 7


def test_restart_keeps_the_layout_and_new_game_draws_another() -> None:
    session = GameSession(Settings.preset("intermediate"), seed=3)
    session.open(0)
    session.toggle_flag(255)
    layout = session.board
    session.restart()
    assert session.board == layout and not session.started
    assert session.points == 0 and session.flags == frozenset() and not session.opened()
    session.open(100)  # the layout stays even where the first click was not protected
    assert session.board == layout
    session.new_game()
    assert session.board is None
    session.open(0)
    assert session.board != layout


def test_same_seed_same_layouts() -> None:
    def layouts(seed: int) -> list[frozenset[int]]:
        session = GameSession(Settings.preset("beginner"), seed=seed)
        found = []
        for _ in range(3):
            session.open(40)
            assert session.board is not None
            found.append(session.board.mines)
            session.new_game()
        return found

    assert layouts(5) == layouts(5)
    assert layouts(5) != layouts(6)


def test_flags_before_the_first_open_stay() -> None:
    session = GameSession(Settings.preset("beginner"), seed=1)
    session.toggle_flag(0)
    session.open(40)
    assert 0 in session.flags or session.is_opened(0)


def test_settings() -> None:
    assert Settings.preset("expert") == Settings(Variant(rows=16, cols=30, mines=99))
    assert Settings.preset("expert").preset_name == "expert"
    assert Settings(Variant(rows=5, cols=5, mines=3)).preset_name is None
    assert Variant(rules=Rules.CLASSIC).first_click is FirstClick.SAFE
    for bad in (
        lambda: Rules.of(FirstClick.ANY, True),
        lambda: Variant(rows=0, cols=5, mines=1),
        lambda: Variant(mines=-1),
        lambda: Settings.preset("impossible"),
        lambda: GameSession(Settings(Variant(rows=2, cols=2, mines=4))),
        lambda: GameSession(Settings(no_guess=True)),
    ):
        with pytest.raises(SettingsError):
            bad()
    category = Settings.preset("beginner", no_guess=True).category()
    assert category.no_guess and category.variant.first_click is FirstClick.OPENING
    assert category != Settings.preset("beginner").category()


def test_entry_of_a_finished_game() -> None:
    board = Board(SquareTopology(1, 3), [2])
    session = GameSession.from_board(board)
    with pytest.raises(MinesweeperError):
        session.entry("Ann")
    session.open(2)
    entry = session.entry("Ann")
    assert entry.name == "Ann" and not entry.won and entry.points == 0
    assert session.state is State.LOST
