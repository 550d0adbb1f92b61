"""Every mine layout of a position, listed fast enough for perfect play's hundreds of
thousands: a matrix of bits, one row per unknown cell, one column per layout.

The cells that share numbers form independent parts; each part's layouts are listed by
backtracking (`endgame.enumerate_layouts`) and grouped by their mines, and the position's
layouts are the products of the parts' groups with the ways to lay the remaining mines
among the cells no number touches. Only groups that can still reach the mine count are
multiplied, so nothing is built that is thrown away.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from math import comb
from typing import cast

import numpy as np

from minesweeper.solver.constraints import Constraint
from minesweeper.solver.endgame import enumerate_layouts, layout_tables_of_masks
from minesweeper.solver.unionfind import UnionFind
from minesweeper.solver.view import View

#: A part's layouts by their number of mines: each a matrix, one row per layout.
_Groups = dict[int, np.ndarray]


@dataclass(frozen=True, eq=False)
class Listing:
    """The layouts: ``mines[i, j]`` is True when ``cells[i]`` is a mine in layout ``j``."""

    cells: tuple[int, ...]
    mines: np.ndarray

    def __len__(self) -> int:
        return int(self.mines.shape[1])

    def sizes(self) -> list[int]:
        """Each layout's number of mines."""
        return [int(k) for k in self.mines.sum(axis=0)]

    def layouts(self) -> list[frozenset[int]]:
        """Each layout as its set of mines."""
        rows, columns = np.nonzero(self.mines.T)
        found: list[set[int]] = [set() for _ in range(len(self))]
        for layout, row in zip(rows.tolist(), columns.tolist(), strict=True):
            found[layout].add(self.cells[row])
        return [frozenset(layout) for layout in found]

    def mine_masks(self) -> dict[int, int]:
        """Per cell, the layouts (bit ``j``: layout ``j``) where it is a mine."""
        packed = np.packbits(self.mines, axis=1, bitorder="little")
        return {
            cell: int.from_bytes(row.tobytes(), "little")
            for cell, row in zip(self.cells, packed, strict=True)
        }

    def tables(
        self, view: View, cells: Sequence[int]
    ) -> tuple[dict[int, int], dict[int, dict[int, int]]]:
        """`endgame.layout_tables` of these layouts."""
        return layout_tables_of_masks(view, cells, self.mine_masks(), len(self))


def list_layouts(
    cells: Sequence[int], rules: Sequence[Constraint], left: int | None, limit: int
) -> Listing | None:
    """Every set of mines among ``cells`` meeting ``rules`` (and ``left`` mines in all, if
    given); None past ``limit`` layouts."""
    parts = _parts(cells, rules)
    touched = {cell for part, _ in parts for cell in part}
    loose = [cell for cell in cells if cell not in touched]
    groups = _listed_parts(parts, left, len(loose), limit)
    if groups is None:
        return None
    order = tuple(cell for part, _ in parts for cell in part) + tuple(loose)
    counts = _loose_counts(len(loose), left)
    if _total(groups, len(loose), left) > limit:
        return None
    merged = _merged(groups, left, len(loose))
    blocks = [
        _product(matrix, _combinations(len(loose), left_over))
        for k, matrix in merged.items()
        for left_over in counts
        if (left is None or k + left_over == left) and len(matrix)
    ]
    if not blocks:
        return Listing(order, np.zeros((len(order), 0), dtype=bool))
    return Listing(order, np.ascontiguousarray(np.vstack(blocks).T))


def _listed_parts(
    parts: Sequence[tuple[list[int], list[Constraint]]], left: int | None, loose: int, limit: int
) -> list[_Groups] | None:
    """Each part's layouts by mines; None when the position has more than ``limit``.

    A part is listed whole if it has at most ``limit`` layouts of its own; else only the
    mine counts it can have beside the other parts and the loose cells, each at most
    ``limit`` layouts (a count past that is more than ``limit`` layouts of the position).
    """
    listed: list[_Groups | None] = []
    for part, inside in parts:
        found = enumerate_layouts(part, inside, None, limit)
        listed.append(None if found is None else _grouped(part, found))
    if left is None or all(group is not None for group in listed):
        return None if None in listed else cast(list[_Groups], listed)
    holds = [  # the mine counts each part can have
        set(group) if group is not None else _counts(part, inside)
        for group, (part, inside) in zip(listed, parts, strict=True)
    ]
    for i, (part, inside) in enumerate(parts):
        if listed[i] is not None:
            continue
        others = {0}
        for j, counts in enumerate(holds):
            if j != i:
                others = {k + m for k in others for m in counts}
        group: _Groups = {}
        for k in sorted(holds[i]):
            if any(0 <= left - k - r <= loose for r in others):
                found = enumerate_layouts(part, inside, k, limit)
                if found is None:
                    return None
                group.update(_grouped(part, found))
        listed[i] = group
    return cast(list[_Groups], listed)


def _counts(part: Sequence[int], inside: Sequence[Constraint]) -> set[int]:
    """The numbers of mines ``part`` can hold (a listing stopped at its first layout)."""
    return {k for k in range(len(part) + 1) if enumerate_layouts(part, inside, k, 0) is None}


def _parts(
    cells: Sequence[int], rules: Sequence[Constraint]
) -> list[tuple[list[int], list[Constraint]]]:
    """The cells linked by shared numbers, each part with its numbers."""
    sets: UnionFind[int] = UnionFind()
    for rule in rules:
        sets.join(sorted(rule.cells))
    wanted = set(cells)
    parts = [sorted(c for c in group if c in wanted) for group in sets.groups(sorted(sets.items()))]
    where = {cell: i for i, part in enumerate(parts) for cell in part}
    inside: list[list[Constraint]] = [[] for _ in parts]
    for rule in rules:
        inside[where[min(rule.cells)]].append(rule)
    return [(part, rules_of) for part, rules_of in zip(parts, inside, strict=True) if part]


def _grouped(part: Sequence[int], found: Iterable[frozenset[int]]) -> _Groups:
    rows: dict[int, list[list[bool]]] = {}
    for layout in found:
        rows.setdefault(len(layout), []).append([cell in layout for cell in part])
    return {
        k: np.array(matrix, dtype=bool).reshape(len(matrix), len(part))
        for k, matrix in rows.items()
    }


def _loose_counts(loose: int, left: int | None) -> list[int]:
    """How many mines the cells no number touches may hold."""
    if left is None:
        return list(range(loose + 1))
    return [k for k in range(loose + 1) if k <= left]


def _total(groups: Sequence[_Groups], loose: int, left: int | None) -> int:
    """How many layouts the product makes, counted before any is built."""
    ways = {0: 1}  # mines -> layouts of the parts so far
    for group in groups:
        grown: dict[int, int] = {}
        for k, n in ways.items():
            for m, matrix in group.items():
                grown[k + m] = grown.get(k + m, 0) + n * len(matrix)
        ways = grown
    if left is None:
        return sum(ways.values()) << loose
    return sum(n * comb(loose, left - k) for k, n in ways.items() if 0 <= left - k <= loose)


def _merged(groups: Sequence[_Groups], left: int | None, loose: int) -> _Groups:
    """The parts' layouts multiplied together, by mines, keeping only those that can still
    meet ``left`` with the parts after them and the loose cells."""
    reach: list[set[int]] = [{0}]  # the mines the parts from i on can hold
    for group in reversed(groups):
        reach.append({k + m for k in reach[-1] for m in group})
    reach.reverse()
    merged: _Groups = {0: np.zeros((1, 0), dtype=bool)}
    for i, group in enumerate(groups):
        grown: dict[int, list[np.ndarray]] = {}
        for k, matrix in merged.items():
            for m, rows in group.items():
                if left is not None and not any(
                    0 <= left - k - m - r <= loose for r in reach[i + 1]
                ):
                    continue
                grown.setdefault(k + m, []).append(_product(matrix, rows))
        merged = {k: np.vstack(blocks) for k, blocks in grown.items()}
    return merged


def _product(first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """Every row of ``first`` beside every row of ``second``."""
    return np.hstack([np.repeat(first, len(second), axis=0), np.tile(second, (len(first), 1))])


def _combinations(cells: int, mines: int) -> np.ndarray:
    """Every way to lay ``mines`` among ``cells``, one row each."""
    matrix = np.zeros((comb(cells, mines), cells), dtype=bool)
    if mines:
        chosen = np.fromiter(
            itertools.chain.from_iterable(itertools.combinations(range(cells), mines)),
            dtype=np.intp,
            count=comb(cells, mines) * mines,
        ).reshape(-1, mines)
        matrix[np.arange(len(matrix))[:, None], chosen] = True
    return matrix
