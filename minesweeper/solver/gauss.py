"""Exact deduction by Gauss-Jordan elimination over the frontier.

Every frontier cell is a 0/1 unknown and every revealed number an equation:
its unknown neighbours sum to the number minus the mines already known around
it. Each connected component of that system is brought to reduced row echelon
form in exact integer arithmetic. A reduced row ``sum(a_i x_i) = b`` decides
cells when ``b`` is at an end of its range: if ``b`` equals the sum of the
positive coefficients, the positive-coefficient cells are mines and the others
safe; if it equals the sum of the negative ones, the reverse. What is learnt is
substituted back and the component eliminated again until nothing changes.

Before each elimination the same test runs on every row and on the difference
of every two overlapping rows: this is the single-number and subset rule, cheap,
and it settles most cells without any elimination at all.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, MutableMapping
from heapq import heapify, heappop, heappush
from math import gcd
from typing import TypeVar

from minesweeper.solver.compiled import checkpoint
from minesweeper.solver.constraints import Deduction, InconsistentView, constraints
from minesweeper.solver.view import View

#: A cell: a view's cell id, or any label the probability engine's callers use.
C = TypeVar("C", bound=Hashable)

#: A row: coefficients by cell and the right-hand side.
_Row = tuple[dict[int, int], int]

#: A component's constraints as (cells, mines) pairs: the cache key.
SystemKey = frozenset[tuple[frozenset[int], int]]


def deduce(view: View, cache: MutableMapping[SystemKey, Deduction] | None = None) -> Deduction:
    """Every frontier cell the view's equations decide.

    ``cache`` (kept by a caller across the moves of one game) remembers each
    component's result, so components the last move did not touch are not
    eliminated again. Raises `InconsistentView` when no layout fits the view.
    """
    safe: set[int] = set()
    mines: set[int] = set()
    for system in split_system((c.cells, c.mines) for c in constraints(view)):
        key = frozenset(system)
        found = cache.get(key) if cache is not None else None
        if found is None:
            found = solve_system(system)
            if cache is not None:
                cache[key] = found
        safe |= found.safe
        mines |= found.mines
    return Deduction(frozenset(safe), frozenset(mines))


def solve_system(
    system: Iterable[tuple[frozenset[int], int]], stop: Callable[[], bool] | None = None
) -> Deduction:
    """What ``sum(x_c for c in cells) == mines`` for every pair decides, x in {0, 1}.

    Once ``stop()`` says so, what is decided so far (still sound, maybe not all).
    """
    rows: list[_Row] = [(dict.fromkeys(cells, 1), mines) for cells, mines in system]
    values: dict[int, int] = {}
    while rows and not (stop and stop()):
        checkpoint()
        found = _pair_rules(rows)
        if not found:
            rows = _gauss_jordan(rows, stop)
            found = _row_rules(rows)
            if not found:
                break
        values.update(found)
        rows = _substitute(rows, found)
    return Deduction(
        frozenset(c for c, v in values.items() if v == 0),
        frozenset(c for c, v in values.items() if v == 1),
    )


def split_system(
    system: Iterable[tuple[frozenset[C], int]],
) -> list[list[tuple[frozenset[C], int]]]:
    """Split the equations into groups that share no cell: the groups in the order of their
    first equation, each group's equations in the order given."""
    equations = list(system)
    # Equations joined by index (a list), through the first equation that names each cell.
    parent = list(range(len(equations)))
    first: dict[C, int] = {}
    claim = first.setdefault
    for i, (cells, _) in enumerate(equations):
        root = i
        for cell in cells:
            j = claim(cell, i)
            if j == i:
                continue
            while parent[j] != j:  # path halving
                parent[j] = j = parent[parent[j]]
            if j < root:
                parent[root] = root = j
            elif j != root:
                parent[j] = root
    groups: dict[int, list[tuple[frozenset[C], int]]] = {}
    for i, equation in enumerate(equations):
        j = i
        while parent[j] != j:
            parent[j] = j = parent[parent[j]]
        group = groups.get(j)
        if group is None:
            groups[j] = [equation]
        else:
            group.append(equation)
    return list(groups.values())


def _decide(coeffs: dict[int, int], b: int) -> dict[int, int] | None:
    """The cells a row settles, if ``b`` is at an end of its range; raises if out of range."""
    low = sum(a for a in coeffs.values() if a < 0)
    high = sum(a for a in coeffs.values() if a > 0)
    if not low <= b <= high:
        raise InconsistentView("the revealed numbers contradict each other")
    if b == high:
        return {c: 1 if a > 0 else 0 for c, a in coeffs.items()}
    if b == low:
        return {c: 0 if a > 0 else 1 for c, a in coeffs.items()}
    return None


def _merge(into: dict[int, int], found: dict[int, int]) -> None:
    for cell, value in found.items():
        if into.setdefault(cell, value) != value:
            raise InconsistentView(f"cell {cell} would be both safe and a mine")


def _row_rules(rows: list[_Row]) -> dict[int, int]:
    """Cells decided by one row alone."""
    found: dict[int, int] = {}
    for index, (coeffs, b) in enumerate(rows):
        if not index % 64:
            checkpoint()
        decided = _decide(coeffs, b)
        if decided:
            _merge(found, decided)
    return found


def _pair_rules(rows: list[_Row]) -> dict[int, int]:
    """Cells decided by one row, or by the difference of two rows sharing a cell."""
    found = _row_rules(rows)
    if found:
        return found
    by_cell: dict[int, list[int]] = {}
    for index, (coeffs, _) in enumerate(rows):
        for cell in coeffs:
            by_cell.setdefault(cell, []).append(index)
    for index, (coeffs, b) in enumerate(rows):
        checkpoint()  # compiled, a guard's stop or Ctrl-C lands only at a Python call
        partners = {j for cell in coeffs for j in by_cell[cell] if j > index}
        for j in partners:
            other, c = rows[j]
            diff = dict(coeffs)
            for cell, a in other.items():
                value = diff.get(cell, 0) - a
                if value:
                    diff[cell] = value
                else:
                    del diff[cell]
            decided = _decide(diff, b - c)
            if decided:
                _merge(found, decided)
    return found


def _substitute(rows: list[_Row], values: dict[int, int]) -> list[_Row]:
    """The rows with known cells replaced by their values; empty rows dropped."""
    result = []
    for index, (coeffs, b) in enumerate(rows):
        if not index % 64:
            checkpoint()
        if values.keys() & coeffs.keys():
            coeffs = dict(coeffs)
            for cell in values.keys() & coeffs.keys():
                b -= coeffs.pop(cell) * values[cell]
        if coeffs:
            result.append((coeffs, b))
        elif b:
            raise InconsistentView("the revealed numbers contradict each other")
    return result


def _holders(coeffs_of: list[dict[int, int]]) -> dict[int, set[int]]:
    """The rows (by index) that hold each cell."""
    holders: dict[int, set[int]] = {}
    for index, coeffs in enumerate(coeffs_of):
        for cell in coeffs:
            holders.setdefault(cell, set()).add(index)
    return holders


def _gauss_jordan(rows: list[_Row], stop: Callable[[], bool] | None = None) -> list[_Row]:
    """Reduced row echelon form, fraction-free: each row kept primitive (gcd 1).

    Pivots are chosen sparse-first (shortest row, then its least shared column)
    to limit fill-in; any pivot order gives an equivalent reduced system. Once
    ``stop()``, the system as far as it got (equivalent, only less reduced).
    """
    coeffs_of = [dict(c) for c, _ in rows]
    rhs = [b for _, b in rows]
    holders = _holders(coeffs_of)
    waiting = set(range(len(rows)))
    # The shortest waiting row, from a heap of (length, row) with stale entries skipped:
    # a scan of every waiting row per pivot took most of the time on a wide board.
    queue = [(len(coeffs), index) for index, coeffs in enumerate(coeffs_of)]
    heapify(queue)
    while waiting and not (stop and stop()):
        checkpoint()  # compiled, a guard's stop or Ctrl-C lands here (`compiled`)
        size, pivot_row = heappop(queue)
        if pivot_row not in waiting or size != len(coeffs_of[pivot_row]):
            continue
        waiting.discard(pivot_row)
        pivot_coeffs = coeffs_of[pivot_row]
        if not pivot_coeffs:
            if rhs[pivot_row]:
                raise InconsistentView("the revealed numbers contradict each other")
            continue
        column = min(pivot_coeffs, key=lambda cell: (len(holders[cell]), cell))
        p = pivot_coeffs[column]
        pb = rhs[pivot_row]
        for index in list(holders[column]):
            if index == pivot_row:
                continue
            coeffs = coeffs_of[index]
            e = coeffs[column]
            # row = p * row - e * pivot, keeping every coefficient an integer
            b = p * rhs[index] - e * pb
            for cell in coeffs:
                coeffs[cell] *= p
            for cell, a in pivot_coeffs.items():
                value = coeffs.get(cell, 0) - e * a
                if value:
                    if cell not in coeffs:
                        holders[cell].add(index)
                    coeffs[cell] = value
                elif cell in coeffs:
                    del coeffs[cell]
                    holders[cell].discard(index)
            divisor = gcd(b, *coeffs.values())
            if divisor > 1:
                for cell in coeffs:
                    coeffs[cell] //= divisor
                b //= divisor
            rhs[index] = b
            if not coeffs and b:
                raise InconsistentView("the revealed numbers contradict each other")
            if index in waiting:
                heappush(queue, (len(coeffs), index))
    return [(c, b) for c, b in zip(coeffs_of, rhs, strict=True) if c]
