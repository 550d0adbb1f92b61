"""The compiled counting kernel against the pure-Python engine, its reference: the same
exact numbers on random constraint systems (the kernel is `minesweeper.solver._kernel`,
built by setup.py; `counting.engine.kernel` is None when it is not built or not wanted)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal
from math import comb
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from minesweeper.solver import InconsistentView, probability
from minesweeper.solver.counting import engine as counting_engine
from minesweeper.solver.counting import programme as placement
from minesweeper.solver.counting.parts import Part
from minesweeper.solver.counting.polynomials import correlate, correlations
from minesweeper.solver.counting.programme import Programme, TooLarge, needed, order_of, width
from minesweeper.solver.counting.system import split
from minesweeper.solver.gauss import split_system
from minesweeper.solver.probability import (
    Budget,
    MineCount,
    Probabilities,
    solve,
    solve_outcomes,
)

KERNEL = counting_engine.kernel
needs_kernel = pytest.mark.skipif(KERNEL is None, reason="the compiled kernel is not built")
EXAMPLES = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

System = tuple[list[tuple[frozenset[int], int]], int, int | None]


@contextmanager
def engine(kernel: Any) -> Iterator[None]:
    """Count with ``kernel`` (None: the pure-Python engine) inside the block."""
    saved = counting_engine.kernel
    counting_engine.kernel = kernel
    try:
        yield
    finally:
        counting_engine.kernel = saved


@st.composite
def systems(draw: st.DrawFn, most: int = 80) -> System:
    """Constraints that some hidden layout meets: ``(rules, cells, mines or None)``."""
    cells = draw(st.integers(1, most))
    mines = draw(st.sets(st.integers(0, cells - 1)))
    rules = []
    width = draw(st.integers(2, 9))
    for _ in range(draw(st.integers(0, 40))):
        # Mostly neighbourhoods along a strip (a frontier), sometimes any cells.
        if draw(st.booleans()):
            start = draw(st.integers(0, cells - 1))
            members = frozenset(range(start, min(cells, start + width)))
        else:
            members = frozenset(draw(st.sets(st.integers(0, cells - 1), min_size=1, max_size=9)))
        rules.append((members, len(members & mines)))
    told = draw(st.booleans())
    return rules, cells, len(mines) if told else None


def answer(result: Probabilities) -> tuple[object, ...]:
    return (
        {cell: result[cell] for cell in result},
        result.weight,
        result.layouts,
        result.safe,
        result.mines,
        result.approximate,
    )


def both(count: Any) -> tuple[object, object]:
    """``count()`` by the kernel and by the pure-Python engine (an error counts as an answer)."""
    found = []
    for kernel in (KERNEL, None):
        with engine(kernel):
            try:
                found.append(count())
            except InconsistentView as error:
                found.append(str(error))
    return found[0], found[1]


@needs_kernel
@EXAMPLES
@given(systems())
def test_probabilities_are_the_pure_engines(system: System) -> None:
    rules, cells, mines = system

    def count() -> object:
        return answer(
            solve([_Rule(*r) for r in rules], range(cells), MineCount(mines, known_safe=3))
        )

    compiled, pure = both(count)
    assert compiled == pure


@needs_kernel
@EXAMPLES
@given(systems(), st.sets(st.integers(0, 79), max_size=8))
def test_outcomes_are_the_pure_engines(system: System, around: set[int]) -> None:
    rules, cells, mines = system
    near = {cell for cell in around if cell < cells}

    def count() -> object:
        found = solve_outcomes([_Rule(*r) for r in rules], near, range(cells), mines, cache={})
        return None if found is None else {n: answer(result) for n, result in found.items()}

    compiled, pure = both(count)
    assert compiled == pure


@needs_kernel
@EXAMPLES
@given(systems(most=60), st.integers(0, 2**200))
def test_a_programmes_counts_shares_and_memory_are_the_pure_ones(system: System, salt: int) -> None:
    rules, _, _ = system
    rules = [rule for rule in rules if rule[0]]
    if not rules:
        return
    parts = []
    for kernel in (KERNEL, None):
        with engine(kernel):
            parts.append(Part(rules, Budget()))
    for compiled, pure in zip(parts[0].programmes, parts[1].programmes, strict=True):
        assert compiled._counted is not None and pure._counted is None
        assert (compiled.poly, compiled.held) == (pure.poly, pure.held)
        rest = [(salt >> (7 * m)) % 10**30 + m for m in range(len(pure.poly))]
        assert compiled.shares(rest) == pure.shares(rest)
        assert compiled.layers == pure.layers  # counted again in Python when asked for
        assert compiled.moves == pure.moves


@needs_kernel
@EXAMPLES
@given(systems(most=60), st.sets(st.integers(0, 59), max_size=9), st.randoms())
def test_the_kernels_plan_is_the_python_plan(system: System, around: set[int], rng) -> None:
    """`_kernel.plan` gives `_Programme._plan`'s steps, tracking a rule or not, in any order."""
    rules, _, _ = system
    counted: list[tuple[frozenset[int], int | None]] = [rule for rule in rules if rule[0]]
    tracked = None
    if around:
        counted.append((frozenset(around), None))
        tracked = len(counted) - 1
    supers = _supers(counted)  # type: ignore[arg-type]
    if not supers:
        return
    rng.shuffle(supers)
    with engine(None):
        programme = Programme(supers, counted, Budget(), tracked)
    order = programme.order
    planned = KERNEL.plan(
        [supers[i][0] for i in order],
        [len(supers[i][1]) for i in order],
        [needed(rule) for rule in counted],
        -1 if tracked is None else tracked,
    )
    assert planned.steps() == programme._steps
    assert KERNEL.count(planned, 10**9, 10**9).poly(0) == KERNEL.count(
        programme._steps, 10**9, 10**9
    ).poly(0)


@needs_kernel
@EXAMPLES
@given(systems(most=60), st.randoms(), st.integers(-1, 80))
def test_the_kernels_order_is_the_python_order(system: System, rng, start: int) -> None:
    """`_kernel.order` is `_order_of` from any start, also where the supercells fall apart,
    and `_kernel.width` is `_width` along it, to the last bit."""
    rules, _, _ = system
    supers = _supers([rule for rule in rules if rule[0]])
    if not supers:
        return
    rng.shuffle(supers)
    if rng.random() < 0.3:  # dropped constraints may split a component: several roots
        supers = [(tuple(r for r in sig if r % 3), cells) for sig, cells in supers]
    begin = None if start < 0 else start % len(supers)
    sigs = [sig for sig, _ in supers]
    order = KERNEL.order(sigs, -1 if begin is None else begin)
    assert order == order_of(supers, begin)
    counted = [rule for rule in rules if rule[0]]
    needs = [needed(rule) for rule in counted]
    assert KERNEL.width(order, sigs, needs) == width(order, supers, counted)


@needs_kernel
@EXAMPLES
@given(systems(most=60), st.lists(st.integers(0, 2**700), max_size=70), st.randoms())
def test_the_kernels_shares_are_exact_dot_products(system: System, rest: list[int], rng) -> None:
    """`Counted.shares` (limbs in C) is ``sum(S[k][M] * rest[M])`` over `weights`, for
    outside weights of any size, zeros, and lengths short of the polynomial or past it."""
    rules, _, _ = system
    rules = [rule for rule in rules if rule[0]]
    if not rules:
        return
    for programme in Part(rules, Budget()).programmes:
        counted = programme._counted
        assert counted is not None
        for end in range(len(counted.ends())):
            weights = counted.weights(end)
            if rng.random() < 0.3:  # the largest weights a dot product may meet
                rest = [2**700 - 1] * len(counted.poly(end))
            want = [sum(w * r for w, r in zip(mines, rest)) for mines in weights]  # noqa: B905
            assert counted.shares(end, rest) == want
    assert counted.shares(0, [Decimal(1)]) is None  # not an int: left to Python
    assert counted.shares(0, [-1]) is None


@needs_kernel
@EXAMPLES
@given(
    st.lists(st.integers(0, 2**300) | st.just(0), max_size=40),
    st.lists(st.lists(st.integers(0, 2**64 - 1) | st.just(0), max_size=30), max_size=3),
    st.integers(0, 45),
)
def test_the_kernels_correlations_are_exact(
    outside: list[int], polys: list[list[int]], n: int
) -> None:
    """`_kernel.correlate` (limbs in C) is `polynomials.correlate`, poly by poly, for any
    lengths (``outside`` short of the sums or past them) and numbers of any size."""
    want = [correlate(outside, poly, n) for poly in polys]
    assert KERNEL.correlate(outside, polys, n) == want
    assert correlations(outside, polys, n) == want
    assert KERNEL.correlate([*outside, 1], [[1, 2**64]], 1) is None  # past a machine word
    assert KERNEL.correlate([-1, *outside], [[1]], 1) is None  # not a count: left to Python
    assert KERNEL.correlate([Decimal(1)], [[1]], 1) is None


@needs_kernel
@EXAMPLES
@given(systems())
def test_the_kernels_split_is_split_system(system: System) -> None:
    """`_kernel.split`'s labels give `split_system`'s groups, in the same order."""
    rules = [rule for rule in system[0] if rule[0]]
    assert split(rules) == split_system(rules)
    assert KERNEL.split([frozenset({1}), frozenset()]) is None  # an empty rule: as Python does
    assert KERNEL.split([frozenset({"a"})]) is None  # cells that are not ints
    assert split([(frozenset({"a", "b"}), 1), (frozenset({"c"}), 0)]) == [
        [(frozenset({"a", "b"}), 1)],
        [(frozenset({"c"}), 0)],
    ]


@needs_kernel
@EXAMPLES
@given(
    systems(most=60),
    st.sets(st.integers(0, 59), max_size=9),
    st.lists(st.integers(0, 2**300), max_size=70),
    st.lists(st.lists(st.integers(0, 2**63), max_size=40), max_size=3),
)
def test_a_programmes_batched_shares_are_its_shares(
    system: System, around: set[int], rest: list[int], polys: list[list[int]]
) -> None:
    """`shares_each` (several ends, one ``rest``) and `shares_correlated` (``rest``
    correlated with each poly first) give what `shares` gives, one by one."""
    rules, cells, _ = system
    rules = [rule for rule in rules if rule[0]]
    near = frozenset(cell for cell in around if cell < cells)
    if not rules:
        return
    try:
        part = Part(rules, Budget(), near or None)
    except InconsistentView:
        return
    for programme in part.programmes:
        ends = list(programme._ends)
        want = [[share for _, share, _ in programme.shares(rest, end=end)[0]] for end in ends]
        assert programme.shares_each(ends, rest) == want
        size = len(programme.poly)
        want = [
            [share for _, share, _ in programme.shares(correlate(rest, p, size))[0]] for p in polys
        ]
        assert programme.shares_correlated(rest, polys) == want
        if () in ends:  # else every share is 0, whatever the weights
            assert programme.shares_correlated([Decimal(1)] * 3, [[1]]) is None  # to Python
            assert programme.shares_correlated(rest, [[2**64]]) is None


@EXAMPLES
@given(systems(), st.sets(st.integers(0, 79), max_size=8))
def test_outcomes_from_a_cached_tracked_part_are_the_same(system: System, around: set[int]) -> None:
    """The tracked part a look-ahead counted serves the same question again from the cache
    (its key holds the tracked cells as a rule of -1 mines): the same answers, cell order too."""
    rules, cells, mines = system
    near = {cell for cell in around if cell < cells}
    cache: dict[Any, Any] = {}

    def count() -> object:
        found = solve_outcomes([_Rule(*r) for r in rules], near, range(cells), mines, cache=cache)
        if found is None:
            return None
        return {n: (answer(result), tuple(result)) for n, result in found.items()}

    first = count()
    tracked = [key for key in cache if any(mines == -1 for _, mines in key)]
    assert len(tracked) <= 1
    assert count() == first
    if tracked:  # served from the cache, not counted again
        assert [key for key in cache if any(mines == -1 for _, mines in key)] == tracked


@needs_kernel
@EXAMPLES
@given(systems(most=90), st.sets(st.integers(0, 89), max_size=9), st.sampled_from([3, 40]))
def test_the_kernels_part_has_the_python_supercells_and_order(
    system: System, around: set[int], starts: int
) -> None:
    """`_kernel.part` (`_Part._count` in one call) makes the supercells, the order (from
    several starts past ``starts`` supercells), the tracking and the count Python makes."""
    rules, cells, _ = system
    rules = [rule for rule in rules if rule[0]]
    near = frozenset(cell for cell in around if cell < cells) or None
    if not rules:
        return
    found = []
    saved = placement.MANY_STARTS_ABOVE
    placement.MANY_STARTS_ABOVE = starts
    try:
        for kernel in (KERNEL, None):
            with engine(kernel):
                try:
                    part = Part(rules, Budget(), near)
                except InconsistentView as error:
                    found.append(str(error))
                    continue
                found.append(
                    [(p.supers, p.order, p.tracking, p.poly, p.held) for p in part.programmes]
                )
    finally:
        placement.MANY_STARTS_ABOVE = saved
    assert found[0] == found[1]


@needs_kernel
def test_a_component_past_machine_words_is_left_to_python() -> None:
    cells = KERNEL.MAX_CELLS + 1
    rules = [(frozenset(range(cells)), cells // 2)]
    (programme,) = Part(rules, Budget()).programmes
    assert programme._counted is None  # counted in Python, exactly
    assert programme.poly == [0] * (cells // 2) + [comb(cells, cells // 2)]


@needs_kernel
def test_counts_past_the_kernels_memory_are_left_to_python() -> None:
    rules = [(frozenset(range(i, i + 3)), 1) for i in range(0, 30, 2)]
    programme = Programme(_supers(rules), rules, Budget())
    assert programme._counted is not None
    programme._plan(rules)  # the plan in Python, as the kernel takes it too
    assert KERNEL.count(programme._steps, 10**6, 10**6) is not None
    assert KERNEL.count(programme._steps, 10**6, 100) is None  # a few hundred bytes


@needs_kernel
def test_a_plan_past_the_memory_budget_is_left_to_python() -> None:
    rules = [(frozenset(range(i, i + 3)), 1) for i in range(0, 30, 2)]
    with pytest.raises(TooLarge):
        Programme(_supers(rules), rules, Budget(counts=10))


def test_the_kernel_is_built_where_a_compiler_is() -> None:
    """The package build compiles the kernel wherever a C++ compiler is found (CI: g++)."""
    if os.environ.get("MINESWEEPER_ENGINE", "").strip().lower() == "python":
        assert counting_engine.ENGINE == "python" and KERNEL is None
    elif shutil.which("g++") or shutil.which("c++"):
        assert counting_engine.ENGINE == "compiled"


class _Rule:
    def __init__(self, cells: frozenset[int], mines: int) -> None:
        self.cells = cells
        self.mines = mines


def _supers(rules: list[tuple[frozenset[int], int]]) -> list[tuple[tuple[int, ...], list[int]]]:
    signature: dict[int, list[int]] = {}
    for index, (members, _) in enumerate(rules):
        for cell in sorted(members):
            signature.setdefault(cell, []).append(index)
    by_signature: dict[tuple[int, ...], list[int]] = {}
    for cell, sig in signature.items():
        by_signature.setdefault(tuple(sig), []).append(cell)
    return list(by_signature.items())


@needs_kernel
@EXAMPLES
@given(st.integers(0, 2**32 - 1), st.sampled_from(["square", "hex", "graph"]), st.booleans())
def test_new_regions_are_the_pure_walks(seed: int, kind: str, proved: bool) -> None:
    """`RegionWatch.created` by the kernel's table: the same regions, in the same order, as
    the pure-Python walk, on boards where openings wall regions off (most of the board
    revealed) and mines are learnt anywhere."""
    import random

    from minesweeper.board import Board
    from minesweeper.solver import View
    from minesweeper.solver.constraints import Opening, constraints
    from minesweeper.solver.endgame import RegionWatch
    from minesweeper.topology import HexTopology, SquareTopology
    from minesweeper.topology.graph import GraphTopology

    rng = random.Random(seed)
    if kind == "square":
        topology: Any = SquareTopology(rng.randint(2, 7), rng.randint(2, 9))
    elif kind == "hex":
        topology = HexTopology(rng.randint(2, 6), rng.randint(2, 7))
    else:
        size = rng.randint(4, 30)
        edges = [(a, b) for a in range(size) for b in range(a + 1, size) if rng.random() < 0.2]
        topology = GraphTopology(size, edges)
    size = topology.size
    mines = set(rng.sample(range(size), rng.randint(1, max(1, size // 4))))
    board = Board(topology, mines)
    share = rng.choice((0.3, 0.6, 0.85))
    revealed = {c: board.count(c) for c in range(size) if c not in mines and rng.random() < share}
    flagged = frozenset(c for c in mines if rng.random() < 0.3)
    view = View(topology, revealed, flagged, len(mines))
    try:
        rules = constraints(view)
        if proved:
            view = view.with_mines(probability.probabilities(view).mines)
            rules = constraints(view)
    except InconsistentView:
        return
    unknown = view.unknown()
    if not unknown:
        return
    watch = RegionWatch(view, [r.cells for r in rules])
    with engine(None):
        reference = RegionWatch(view, [r.cells for r in rules])
    assert watch._kernel is not None and reference._kernel is None
    for _ in range(6):
        cell = rng.choice(unknown)
        others = [c for c in unknown if c != cell]
        learnt = frozenset(rng.sample(others, rng.randint(0, min(3, len(others)))))
        around = Opening.of(view, rules, cell).around
        assert watch.created(cell, around, learnt) == reference.created(cell, around, learnt)
