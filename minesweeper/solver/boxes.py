"""Potential box 50/50s: four mutually neighbouring cells whose two diagonals swap unseen.

Four unknown cells that all neighbour one another (a 2x2 block on a square
board) split into two pairs ``A`` and ``B``, the split that needs the fewest
enablers (its diagonals). When ``A`` holds
two mines and ``B`` none, swapping them changes what a cell sees only for the
cells next to more of one pair than of the other: the *enablers* (the block's
four outer corners on a square board). Once every enabler is a mine, nothing
opened elsewhere can tell the two layouts apart and the block is a 50/50 left
for later. D. Hill's solver looks for these 2x2 boxes beside its 2x1 pairs
(`minesweeper.solver.pairs`); the rule here is the same on any graph of cells.

A box's risk is the chance that it becomes such a 50/50 with ``A`` mined, which
is the chance with ``B`` mined too (the swap keeps every constraint, since no
revealed cell is an enabler): half the chance it becomes one. It is credited to
the four cells and to the missing enablers, as a pair's risk is.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from minesweeper.solver.pairs import Fifties, rule
from minesweeper.solver.view import View
from minesweeper.topology.base import Topology


@dataclass(frozen=True)
class Box:
    """Two pairs of cells ``mined`` and ``clear`` (all four neighbours of one another), the
    cells that see more of one pair than of the other, and the four ``cells``."""

    mined: tuple[int, int]
    clear: tuple[int, int]
    walls: tuple[int, ...]
    cells: frozenset[int]


@lru_cache(maxsize=16)
def box_index(topology: Topology, max_walls: int = 4) -> tuple[Box, ...]:
    """The splits of each four-cell clique of ``topology`` into two pairs that need the
    fewest enablers, if at most ``max_walls`` (built once per board shape): on a square
    board, each 2x2 block's two diagonals."""
    around = {c: frozenset(topology.neighbours(c)) for c in topology.cells()}
    found: list[Box] = []
    for a in topology.cells():
        for b in sorted(o for o in around[a] if o > a):
            ab = around[a] & around[b]
            for c in sorted(o for o in ab if o > b):
                for d in sorted(o for o in ab & around[c] if o > c):
                    cells = {a, b, c, d}
                    seen = {o for x in cells for o in around[x]} - cells
                    splits = []
                    for mined, clear in (((a, d), (b, c)), ((a, c), (b, d)), ((a, b), (c, d))):
                        walls = tuple(
                            sorted(
                                o
                                for o in seen
                                if len(around[o] & set(mined)) != len(around[o] & set(clear))
                            )
                        )
                        splits.append(Box(mined, clear, walls, frozenset(cells)))
                    fewest = min(len(box.walls) for box in splits)
                    if fewest <= max_walls:
                        found.extend(box for box in splits if len(box.walls) == fewest)
    return tuple(found)


def box_credit(
    view: View,
    fifties: Fifties,
    max_missing: int = 3,
    least: float = 1e-3,
    enabler_missing: int = 3,
    enabler_least: float = 0.0,
) -> dict[int, float]:
    """Each unknown cell's summed risk from the potential box 50/50s it lies in or enables.

    Counted exactly (one count per box) when a number touches one of its cells;
    a box of unconstrained cells only takes the chances as if independent.
    Boxes whose chance so guessed is under ``least`` are left out. Not capped:
    `Best` adds it to the pairs' influence and caps the sum. The missing
    enablers are credited as `Fifties.influence` credits them.
    """
    blocked = view.mines | view.revealed.keys()
    opened = view.revealed.keys()
    mines = view.mines
    chances = fifties.result.floats()
    constrained = {c for r in fifties.rules for c in r.cells}
    credit: dict[int, float] = {}
    total = 0
    for box in box_index(view.topology):
        if not blocked.isdisjoint(box.cells) or not opened.isdisjoint(box.walls):
            continue
        missing = [w for w in box.walls if w not in mines]
        if len(missing) > max_missing:
            continue
        (a, d), (b, c) = box.mined, box.clear
        pa, pd, pb, pc = chances[a], chances[d], chances[b], chances[c]
        guess = pa * pd * (1 - pb) * (1 - pc) + pb * pc * (1 - pa) * (1 - pd)
        for w in missing:
            guess *= chances[w]
        if guess < least:
            continue
        if constrained.isdisjoint(box.cells) and constrained.isdisjoint(missing):
            risk = guess / 2
        else:
            total = total or fifties.weight()
            extra = [rule(box.mined, 2), rule(box.clear, 0)]
            if missing:
                extra.append(rule(missing, len(missing)))
            risk = fifties.weight(*extra) / total
        if not risk:
            continue
        cells: tuple[int, ...] = (a, d, b, c)
        if len(missing) <= enabler_missing and risk > enabler_least:
            cells = (*cells, *missing)
        for x in cells:
            credit[x] = credit.get(x, 0.0) + risk
    return credit
