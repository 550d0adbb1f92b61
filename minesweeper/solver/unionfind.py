"""`UnionFind`: disjoint sets of cells (or of any hashable items), for splitting a
position into parts that share no constraint."""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from typing import Generic, TypeVar

T = TypeVar("T", bound=Hashable)


class UnionFind(Generic[T]):
    """Disjoint sets with path halving; an item is a set of its own until joined."""

    def __init__(self) -> None:
        self._parent: dict[T, T] = {}

    def find(self, item: T) -> T:
        """The representative of ``item``'s set (``item`` itself when it is new)."""
        parent = self._parent
        parent.setdefault(item, item)
        while parent[item] != item:
            parent[item] = parent[parent[item]]
            item = parent[item]
        return item

    def union(self, first: T, second: T) -> None:
        """Join the sets of ``first`` and ``second``."""
        root, other = self.find(first), self.find(second)
        if root != other:
            self._parent[root] = other

    def join(self, items: Iterable[T]) -> None:
        """Join the sets of all ``items`` into one."""
        iterator = iter(items)
        first = next(iterator, None)
        if first is None:
            return
        self.find(first)
        for item in iterator:
            self.union(item, first)

    def items(self) -> list[T]:
        """Every item seen, in the order it was first seen."""
        return list(self._parent)

    def groups(self, items: Iterable[T]) -> list[list[T]]:
        """``items`` split by set: the sets in the order of their first item, each set's
        items in the order given."""
        found: dict[T, list[T]] = {}
        for item in items:
            found.setdefault(self.find(item), []).append(item)
        return list(found.values())
