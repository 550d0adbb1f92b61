"""Perfect play (`minesweeper.solver.perfect`) against brute force over the game itself."""

from __future__ import annotations

import itertools
import random
import time
from fractions import Fraction
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from positions import ENDGAME_71K

from minesweeper.board import Board
from minesweeper.boards.position import read_position
from minesweeper.game import Game
from minesweeper.solver.constraints import constraints
from minesweeper.solver.counting import engine
from minesweeper.solver.endgame import solve_endgame
from minesweeper.solver.listing import list_layouts
from minesweeper.solver.perfect import OutOfReach, Reach, first_click, perfect_play
from minesweeper.solver.view import View
from minesweeper.topology import HexTopology, SquareTopology
from minesweeper.topology.base import Topology


def laid(topology: Topology, mines: int, cell: int, opening: bool) -> list[frozenset[int]]:
    kept = {cell, *topology.neighbours(cell)} if opening else {cell}
    free = [c for c in topology.cells() if c not in kept]
    return [frozenset(mined) for mined in itertools.combinations(free, mines)]


@pytest.mark.parametrize(
    ("topology", "mines"),
    [
        (SquareTopology(1, 3), 1),
        (SquareTopology(2, 2), 1),
        (SquareTopology(2, 3), 1),
        (SquareTopology(2, 3), 2),
        (SquareTopology(3, 3), 2),
        (SquareTopology(3, 3), 3),
        (HexTopology(3, 3), 2),
    ],
    ids=str,
)
@pytest.mark.parametrize("kernel", [True, False], ids=["compiled", "python"])
def test_an_empty_boards_value_is_brute_forces(
    topology: Topology, mines: int, kernel: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not kernel:
        monkeypatch.setattr(engine, "kernel", None)
    elif engine.kernel is None:
        pytest.skip("no compiled kernel here")
    for opening in (False, True):
        for cell in topology.cells():
            layouts = laid(topology, mines, cell, opening)
            if not layouts:
                continue
            found = first_click(topology, mines, cell, opening)
            expected = brute_force(topology, layouts, frozenset(), cell)
            assert found.chance == expected, (opening, cell)


def test_known_values() -> None:
    # 2x2 with one mine, the first click only safe: the other three cells show 1 each; a
    # guess among the remaining three wins one time in three.
    assert first_click(SquareTopology(2, 2), 1, 0, opening=False).chance == Fraction(1, 3)
    # 3x3 with one mine: the corner's number, then its neighbours, always find it.
    assert first_click(SquareTopology(3, 3), 1, 0, opening=False).chance == 1


@st.composite
def positions(draw: st.DrawFn) -> tuple[Board, View]:
    # Up to 3x3 with 3 mines: the brute force plays every policy in Python.
    rows, cols = draw(st.integers(2, 3)), draw(st.integers(2, 3))
    topology = SquareTopology(rows, cols)
    cells = list(topology.cells())
    mines = draw(st.integers(1, min(3, len(cells) - 1)))
    rng = random.Random(draw(st.integers(0, 10**6)))
    board = Board(topology, rng.sample(cells, mines))
    game = Game(board)
    for cell in draw(st.lists(st.sampled_from(cells), max_size=3)):
        if not board.is_mine(cell) and not game.over:
            game.visit(cell)
    revealed = {c: board.count(c) for c in cells if game.is_revealed(c)}
    return board, View(topology, revealed, mine_count=mines)


@settings(max_examples=40, deadline=None)
@given(positions())
def test_a_positions_moves_are_valued_as_by_brute_force(position: tuple[Board, View]) -> None:
    board, view = position
    found = perfect_play(view)
    fits = [
        frozenset(mined)
        for mined in itertools.combinations(view.unknown(), board.mine_count)
        if all(
            sum(1 for o in view.topology.neighbours(c) if o in mined) == n
            for c, n in view.revealed.items()
        )
    ]
    assert found.layouts == len(fits)
    for move in found.moves[:2]:
        assert move.chance == brute_force(view.topology, fits, frozenset(view.revealed), move.cell)


def brute_force(
    topology: Topology, layouts: list[frozenset[int]], revealed: frozenset[int], start: int
) -> Fraction:
    """The chance to win from opening ``start`` when ``revealed`` is open and ``layouts``
    fit, all alike, by the game's own rules (floods included): every policy tried."""

    def count(layout: frozenset[int], c: int) -> int:
        return sum(1 for other in topology.neighbours(c) if other in layout)

    def opened(layout: frozenset[int], seen: frozenset[int], c: int) -> frozenset[int]:
        game = Game(Board(topology, layout))
        for done in seen:
            game.visit(done)
        game.visit(c)
        return frozenset(x for x in topology.cells() if game.is_revealed(x))

    @cache
    def value(seen: frozenset[int], alive: frozenset[frozenset[int]]) -> Fraction:
        closed = [c for c in topology.cells() if c not in seen]
        if all(set(closed) == layout for layout in alive):
            return Fraction(1)
        return max(step(seen, alive, c) for c in closed)

    def step(seen: frozenset[int], alive: frozenset[frozenset[int]], c: int) -> Fraction:
        groups: dict[tuple[frozenset[int], Any], set[frozenset[int]]] = {}
        for layout in alive:
            if c in layout:
                continue
            now = opened(layout, seen, c)
            key = (now, frozenset((x, count(layout, x)) for x in now))
            groups.setdefault(key, set()).add(layout)
        won = sum(
            (value(now, frozenset(group)) * len(group) for (now, _), group in groups.items()),
            Fraction(0),
        )
        return won / len(alive)

    return step(revealed, frozenset(layouts), start)


def test_the_float_endgame_agrees_with_the_exact_value() -> None:
    rng = random.Random(5)
    for _ in range(20):
        topology = SquareTopology(4, 4)
        board = Board(topology, rng.sample(list(topology.cells()), 4))
        game = Game(board)
        start = next(c for c in topology.cells() if not board.is_mine(c))
        game.visit(start)
        revealed = {c: board.count(c) for c in topology.cells() if game.is_revealed(c)}
        view = View(topology, revealed, mine_count=4)
        if game.over:
            continue
        exact = perfect_play(view)
        found = solve_endgame(view, max_nodes=10**6, max_layouts=10**6)
        assert found is not None
        cell, chance = found
        assert chance == pytest.approx(float(exact.chance), abs=1e-12)
        assert exact.of(cell).won == exact.moves[0].won  # its move is one of the best


def test_past_its_reach_it_says_how_far_it_got() -> None:
    view = View(SquareTopology(6, 6), {}, mine_count=8)
    with pytest.raises(OutOfReach, match=r"more than 1,000 layouts fit \(36 unknown cells\)"):
        perfect_play(view, reach=Reach(layouts=1000))
    view = View(SquareTopology(4, 4), {0: 1}, mine_count=4)
    with pytest.raises(OutOfReach, match=r"more than 10 positions (or 1,074 MB of them )?to"):
        perfect_play(view, reach=Reach(positions=10))
    with pytest.raises(OutOfReach, match=r"more than 5,000,000 positions or 0 MB of them to"):
        if engine.kernel is None:
            pytest.skip("the memo's bytes are counted in the compiled kernel")
        perfect_play(view, reach=Reach(memory=1000))


def test_playing_the_best_moves_wins_as_often_as_the_value_says() -> None:
    # The policy that always opens a best move, played on random layouts of one board:
    # its win rate lies within the 95% interval of the value it was promised.
    topology, mines, start = SquareTopology(3, 4), 3, 0
    rng = random.Random(11)
    promised = first_click(topology, mines, start, opening=False).chance
    games, wins = 300, 0
    for _ in range(games):
        free = [c for c in topology.cells() if c != start]
        board = Board(topology, rng.sample(free, mines))
        game = Game(board)
        game.visit(start)
        while not game.over:
            revealed = {c: board.count(c) for c in topology.cells() if game.is_revealed(c)}
            choice = perfect_play(View(topology, revealed, mine_count=mines)).best[0]
            game.visit(choice)
        wins += game.state.name == "WON"
    rate, p = wins / games, float(promised)
    spread = 1.96 * (p * (1 - p) / games) ** 0.5
    assert abs(rate - p) <= spread + 1 / games, (rate, p)


def partway_positions(
    count: int, seed: int, mines: tuple[int, int] = (4, 6), layouts: tuple[int, int] = (20, 400)
) -> list[View]:
    """``count`` positions of 5x5 boards of ``mines`` (at least, at most) mines two clicks in,
    whose layouts number ``layouts`` (at least, at most)."""
    rng = random.Random(seed)
    found: list[View] = []
    while len(found) < count:
        topology = SquareTopology(5, 5)
        laid = rng.randint(*mines)
        board = Board(topology, rng.sample(list(topology.cells()), laid))
        game = Game(board)
        for cell in rng.sample([c for c in topology.cells() if not board.is_mine(c)], 2):
            if not game.over:
                game.visit(cell)
        revealed = {c: board.count(c) for c in topology.cells() if game.is_revealed(c)}
        view = View(topology, revealed, mine_count=laid)
        listed = list_layouts(view.unknown(), constraints(view), laid, layouts[1])
        if not game.over and listed is not None and len(listed) >= layouts[0]:
            found.append(view)
    return found


@pytest.mark.skipif(engine.kernel is None, reason="no compiled kernel here")
def test_the_pruned_compiled_count_is_the_plain_python_one(monkeypatch: pytest.MonkeyPatch) -> None:
    # Positions of hundreds of layouts (sets over several machine words, deep trees where
    # the compiled count asks its positions for bounds): every move's value alike.
    for view in partway_positions(6, seed=7, mines=(3, 6), layouts=(65, 800)):
        compiled = perfect_play(view)
        with monkeypatch.context() as patch:
            patch.setattr(engine, "kernel", None)
            plain = perfect_play(view)
        assert compiled.moves == plain.moves


@pytest.mark.parametrize("kernel", [True, False], ids=["compiled", "python"])
def test_a_partial_answer_is_exact_where_it_says_and_bounds_the_rest(
    kernel: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every budget of positions: the answer is out of reach, or its chance and best moves
    # are perfect play's, each move it calls exact is, and each other's bound holds the
    # move's value under the best. Some budget leaves moves bounded, and without
    # ``partial`` that budget is out of reach.
    if not kernel:
        monkeypatch.setattr(engine, "kernel", None)
    partial_seen = 0
    for view in partway_positions(4, seed=3):
        full = perfect_play(view)
        assert full.complete
        for budget in range(1, full.positions + 2, max(1, full.positions // 30)):
            try:
                found = perfect_play(view, reach=Reach(positions=budget), partial=True)
            except OutOfReach:
                continue
            assert (found.chance, found.best) == (full.chance, full.best)
            for move in found.moves:
                value = full.of(move.cell).won
                if move.exact:
                    assert move.won == value
                else:
                    assert value <= move.won < full.moves[0].won
            if not found.complete:
                partial_seen += 1
                with pytest.raises(OutOfReach):
                    perfect_play(view, reach=Reach(positions=budget))
    assert partial_seen


def test_moves_asked_first_are_valued_first() -> None:
    # `analyze --optimal` asks for `best`'s move first: at some budget it is valued and the
    # same budget without asking leaves it bounded (the weakest move comes last).
    view = next(v for v in partway_positions(8, seed=5) if len(perfect_play(v).moves) > 4)
    full = perfect_play(view)
    worst = full.moves[-1].cell
    assert full.moves[-1].won < full.moves[0].won
    for budget in range(1, full.positions + 2, max(1, full.positions // 60)):
        try:
            asked = perfect_play(view, reach=Reach(positions=budget), partial=True, first=[worst])
            plain = perfect_play(view, reach=Reach(positions=budget), partial=True)
        except OutOfReach:
            continue
        if asked.of(worst).exact and not plain.of(worst).exact:
            assert asked.of(worst).won == full.of(worst).won
            return
    pytest.fail("no budget valued the move asked for before the others")


@pytest.mark.skipif(engine.kernel is None, reason="no compiled kernel here")
def test_the_compiled_search_stops_at_its_time_limit() -> None:
    # Its clock is read every few thousand positions; once past it, nothing more is
    # searched (every position unwinds at once: it once searched on, a second past 0.5 s).
    view = read_position(ENDGAME_71K.encode(), SquareTopology, 99)
    cells = view.unknown()
    found = list_layouts(cells, constraints(view), view.mines_left, 10**6)
    assert found is not None
    masks, shows = found.tables(view, cells)
    start = time.process_time()
    search = engine.kernel.Values(
        cells,
        [masks[c] for c in cells],
        [list(shows[c].values()) for c in cells],
        len(found),
        10**9,
        0.5,
        1 << 33,
    )
    results = [search.won(cell, 0) for cell in cells if masks[cell] != (1 << len(found)) - 1]
    assert None in results  # (more than 10 s to value them all)
    assert time.process_time() - start <= 0.5 + 0.2
