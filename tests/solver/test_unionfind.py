"""`UnionFind` against a naive partition: sets merged by hand, one join at a time."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from minesweeper.solver.unionfind import UnionFind

joins = st.lists(st.lists(st.integers(0, 30), max_size=6), max_size=25)


def naive_groups(steps: list[list[int]], items: list[int]) -> list[list[int]]:
    sets: list[set[int]] = []
    for step in steps:
        merged = set(step)
        for other in [s for s in sets if s & merged]:
            merged |= other
            sets.remove(other)
        if merged:
            sets.append(merged)
    found: dict[int, list[int]] = {}
    for item in items:
        owner = next((min(s) for s in sets if item in s), item)
        found.setdefault(owner, []).append(item)
    return list(found.values())


@given(joins, st.lists(st.integers(0, 30), max_size=40))
def test_groups_are_the_naive_partition(steps: list[list[int]], items: list[int]) -> None:
    sets: UnionFind[int] = UnionFind()
    for step in steps:
        sets.join(step)
    assert sets.groups(items) == naive_groups(steps, items)
    seen = list(dict.fromkeys(item for step in steps for item in step))
    assert sets.items()[: len(seen)] == seen  # first seen first (groups may add the rest)


@given(joins)
def test_find_names_one_member_per_set(steps: list[list[int]]) -> None:
    sets: UnionFind[int] = UnionFind()
    for step in steps:
        sets.join(step)
    for step in steps:
        assert len({sets.find(item) for item in step}) <= 1
        for item in step:
            assert sets.find(sets.find(item)) == sets.find(item)
