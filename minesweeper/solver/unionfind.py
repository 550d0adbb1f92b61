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
        top = parent.setdefault(item, item)
        while top != item:  # path halving: each item on the way skips to its grandparent
            up = parent[item] = parent[top]
            item, top = up, parent[up]
        return item

    def union(self, first: T, second: T) -> None:
        """Join the sets of ``first`` and ``second``."""
        root, other = self.find(first), self.find(second)
        if root != other:
            self._parent[root] = other

    def join(self, items: Iterable[T]) -> None:
        """Join the sets of all ``items`` into one."""
        # `find` and `union` written out: a position's constraints are joined cell by cell.
        parent = self._parent
        root: T | None = None
        for item in items:
            top = parent.setdefault(item, item)
            while top != item:
                up = parent[item] = parent[top]
                item, top = up, parent[up]
            if root is None:
                root = item
            elif item != root:
                parent[item] = root

    def items(self) -> list[T]:
        """Every item seen, in the order it was first seen."""
        return list(self._parent)

    def groups(self, items: Iterable[T]) -> list[list[T]]:
        """``items`` split by set: the sets in the order of their first item, each set's
        items in the order given."""
        found: dict[T, list[T]] = {}
        find = self.find
        for item in items:
            root = find(item)
            group = found.get(root)
            if group is None:
                found[root] = [item]
            else:
                group.append(item)
        return list(found.values())
