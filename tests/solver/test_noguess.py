"""No-guess boards and their provers: sound against brute force, boards replayed without a guess."""

from __future__ import annotations

import itertools
import random

import pytest
from brute import Position, determined, positions
from hypothesis import given, settings
from hypothesis import strategies as st

from minesweeper.board import Board
from minesweeper.boards.generate import random_board
from minesweeper.boards.noguess import NoGuessFailed, board_maker, no_guess_board, solvable
from minesweeper.game import Game, State
from minesweeper.play.autoplay import new_session
from minesweeper.play.session import Settings
from minesweeper.solver.probability import probabilities
from minesweeper.solver.prover import ExactProver, find_prover
from minesweeper.solver.subset import SubsetProver, prove
from minesweeper.solver.view import View
from minesweeper.topology import SquareTopology
from minesweeper.variant import PRESETS, FirstClick


def certain_with_count(view: View) -> tuple[set[int], set[int]]:
    """Unknown cells safe / mined in every layout with exactly ``view.mine_count`` mines."""
    assert view.mine_count is not None
    unknown = view.unknown()
    left = view.mine_count - len(view.mines)
    topology = view.topology
    fits = []
    for chosen in itertools.combinations(unknown, left):
        mines = set(chosen) | view.mines
        if all(
            sum(o in mines for o in topology.neighbours(c)) == n for c, n in view.revealed.items()
        ):
            fits.append(mines)
    safe = {c for c in unknown if all(c not in m for m in fits)}
    sure = {c for c in unknown if all(c in m for m in fits)}
    return safe, sure


@settings(max_examples=150, deadline=None)
@given(positions(max_side=4))
def test_subset_is_sound_without_the_count(position: Position) -> None:
    view = position.view
    proof = prove(view)
    safe, mines = determined(view)  # type: ignore[misc]
    assert proof.safe <= safe
    assert proof.mines <= mines


@settings(max_examples=100, deadline=None)
@given(positions(max_side=4))
def test_provers_with_the_count(position: Position) -> None:
    """Both provers are sound; exact finds a safe cell whenever one is certain, and when
    none is, it proves every certain mine."""
    board = position.board
    view = View(board.topology, position.view.revealed, position.view.mines, board.mine_count)
    safe, mines = certain_with_count(view)
    subset = prove(view)
    assert subset.safe <= safe and subset.mines <= mines
    exact = ExactProver.from_view(view).prove()
    assert exact.safe <= safe and exact.mines <= mines
    assert bool(exact.safe) == bool(safe)
    if not exact.safe:
        assert exact.mines == mines


def test_subset_rules_on_a_one_two_pattern() -> None:
    # 1 2 1    row 0 revealed; row 1 unknown, mines at (1, 0) and (1, 2):
    # ? ? ?    the 2 against either 1 proves the far corner a mine, then the rest follows.
    topology = SquareTopology(2, 3)
    board = Board(topology, [3, 5])
    view = View(topology, {c: board.count(c) for c in (0, 1, 2)})
    proof = prove(view)
    assert proof.mines == {3, 5} and proof.safe == {4}


@settings(max_examples=100, deadline=None)
@given(positions(max_side=4), st.booleans(), st.randoms(use_true_random=False))
def test_a_prover_fed_view_by_view_proves_what_the_last_view_alone_does(
    position: Position, told: bool, rng: random.Random
) -> None:
    """`follows` and `see`: the views of one game, taken in turn, end where the last one leads."""
    board = position.board
    count = board.mine_count if told else None
    final = View(board.topology, position.view.revealed, position.view.mines, count)
    cells = list(final.revealed)
    rng.shuffle(cells)
    prover = SubsetProver(board.topology, count)
    for size in [*sorted(rng.randint(0, len(cells)) for _ in range(3)), len(cells)]:
        shown = {c: final.revealed[c] for c in cells[:size]}
        step = View(board.topology, shown, final.mines, count)
        assert prover.follows(step)
        prover.see(step)
        prover.prove()
    whole = SubsetProver.from_view(final)
    whole.prove()
    assert (prover.safe, prover.mines) == (whole.safe, whole.mines)


def test_a_prover_follows_only_its_own_game() -> None:
    topology = SquareTopology(2, 3)
    board = Board(topology, [4])
    revealed = {c: board.count(c) for c in (0, 1, 2)}
    prover = SubsetProver.from_view(View(topology, revealed, mine_count=1))
    assert prover.follows(View(topology, {**revealed, 5: board.count(5)}, mine_count=1))
    assert not prover.follows(View(topology, {0: 1, 1: 1}, mine_count=1))  # a cell fewer
    assert not prover.follows(View(topology, {**revealed, 0: 2}, mine_count=1))  # a number changed
    assert not prover.follows(View(topology, revealed, mine_count=2))
    assert not prover.follows(View(SquareTopology(2, 3), revealed, mine_count=1))


@pytest.mark.parametrize(
    ("mines", "safe", "mined"),
    [
        ([4], {2, 5}, set()),  # the 1 holds every mine left: the cells beyond it are safe
        ([2, 4, 5], set(), {2, 5}),  # the two mines it lacks fill the cells beyond it
    ],
)
def test_the_mine_count_pairs_with_a_number(mines: list[int], safe: set, mined: set) -> None:
    # 1 ? ?    the corner shows 1 among its three unknown neighbours;
    # ? ? ?    nothing else is revealed.
    topology = SquareTopology(2, 3)
    board = Board(topology, mines)
    view = View(topology, {0: board.count(0)}, mine_count=len(mines))
    assert board.count(0) == 1
    assert not prove(View(topology, view.revealed))
    proof = prove(view)
    assert proof.safe == safe and proof.mines == mined


def replay_without_guess(board: Board, first: int, certain) -> bool:
    """Replay with a stateless oracle ``certain(view) -> safe cells``: never guess."""
    game = Game(board)
    game.visit(first)
    while not game.over:
        view = View(
            board.topology,
            {c: board.count(c) for c in board.topology.cells() if game.revealed[c]},
            mine_count=board.mine_count,
        )
        safe = certain(view)
        if not safe:
            return False
        for cell in safe:
            assert not board.is_mine(cell)
            if not game.is_revealed(cell):
                game.visit(cell)
    return game.state is State.WON


def exact_safe(view: View) -> set[int]:
    return set(probabilities(view).safe)


@pytest.mark.parametrize("prover", ["subset", "exact"])
def test_boards_replay_from_the_first_click_without_a_guess(prover: str) -> None:
    preset = PRESETS["intermediate"]
    topology = SquareTopology(preset.rows, preset.cols)
    rng = random.Random(7)
    for _ in range(3):
        first = rng.randrange(topology.size)
        board = no_guess_board(
            topology, preset.mines, first, FirstClick.OPENING, rng, find_prover(prover)
        )
        assert replay_without_guess(board, first, exact_safe)
        if prover == "subset":
            assert replay_without_guess(board, first, lambda v: prove(v).safe)


def test_exact_accepts_every_board_subset_accepts_and_more() -> None:
    preset = PRESETS["intermediate"]
    topology = SquareTopology(preset.rows, preset.cols)
    first = topology.cell_at(*preset.start)
    rng = random.Random(3)
    boards = [random_board(topology, preset.mines, rng, first, "opening") for _ in range(60)]
    by_subset = {i for i, b in enumerate(boards) if solvable(b, first, SubsetProver)}
    by_exact = {i for i, b in enumerate(boards) if solvable(b, first, ExactProver)}
    assert by_subset <= by_exact
    assert len(by_exact) > len(by_subset)


def test_giving_up_says_to_start_again() -> None:
    # 2x2 with 2 mines around a safe first click: the other two cells can never be told apart.
    with pytest.raises(NoGuessFailed, match="start again"):
        no_guess_board(SquareTopology(2, 2), 2, 0, FirstClick.SAFE, random.Random(0), attempts=20)


def test_unknown_prover() -> None:
    with pytest.raises(Exception, match="unknown prover"):
        find_prover("oracle")
    assert find_prover("SUBSET") is SubsetProver


def test_no_guess_sessions() -> None:
    options = Settings.preset("beginner", no_guess=True, prover="exact")
    session = new_session(options, seed=4)
    first = session.topology.cell_at(0, 8)
    session.open(first)
    assert session.board is not None
    assert replay_without_guess(session.board, first, exact_safe)
    assert options.category().no_guess
    maker = board_maker(SubsetProver, attempts=5)
    with pytest.raises(NoGuessFailed):
        maker(SquareTopology(2, 2), 2, 0, FirstClick.SAFE, random.Random(0))


def naive_subset(view: View) -> tuple[set[int], set[int]]:
    """The subset rules as plainly as possible: every number against every other, to a fixpoint."""
    topology, count = view.topology, view.mine_count
    safe: set[int] = set()
    mines: set[int] = set(view.mines)
    while True:
        unknown = [c for c in view.unknown() if c not in safe and c not in mines]
        rules = []
        for cell, number in view.revealed.items():
            around = topology.neighbours(cell)
            cells = frozenset(c for c in around if c in unknown)
            if cells:
                rules.append((cells, number - sum(c in mines for c in around)))
        if count is not None and unknown:
            rules.append((frozenset(unknown), count - len(mines)))
        new_safe: set[int] = set()
        new_mines: set[int] = set()
        for cells, need in rules:
            if need == 0:
                new_safe |= cells
            elif need == len(cells):
                new_mines |= cells
        for (a_cells, a), (b_cells, b) in itertools.permutations(rules, 2):
            a_only, b_only = a_cells - b_cells, b_cells - a_cells
            if a - b == len(a_only):
                new_mines |= a_only
                new_safe |= b_only
        if not new_safe and not new_mines:
            return safe, mines - view.mines
        safe |= new_safe
        mines |= new_mines


@settings(max_examples=200, deadline=None)
@given(positions(max_side=6), st.booleans())
def test_subset_prover_finds_what_the_plain_rules_find(position: Position, count: bool) -> None:
    board = position.board
    view = View(
        board.topology,
        position.view.revealed,
        position.view.mines,
        board.mine_count if count else None,
    )
    proof = prove(view)
    assert (set(proof.safe), set(proof.mines)) == naive_subset(view)
