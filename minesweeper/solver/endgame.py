"""Exact endgame: the move with the highest chance to win, over every remaining layout.

When few layouts fit the position, each is listed, and the game tree is
searched: opening a cell loses in the layouts where it is a mine and splits
the others by the number it shows. A cell safe in every remaining layout is
opened for free (information never hurts), so the value of a set of layouts
depends on that set alone and is memoised. Zeros need no flood fill: their
neighbours become certain and are opened for free anyway.

When the layouts weigh alike (the mine count told), the compiled kernel counts the layouts
won exactly, as `perfect` does, pruned by what the best move so far wins (`_kernel.best_won`);
else, and under ``MINESWEEPER_ENGINE=python``, `_Search` plays the same tree, summing the
layouts' integer weights exactly: either way, of equal moves the first in order is taken.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from math import factorial
from typing import Any, cast

from minesweeper.solver.compiled import checkpoint
from minesweeper.solver.constraints import Constraint, InconsistentView, constraints
from minesweeper.solver.counting import engine
from minesweeper.solver.probability import (
    DEFAULT_BUDGET,
    UNIFORM,
    Budget,
    DensityPrior,
    MineCount,
    PartCache,
    solve,
)
from minesweeper.solver.subset import neighbour_table
from minesweeper.solver.unionfind import UnionFind
from minesweeper.solver.view import View

#: Give up (and let the caller guess otherwise) past this many layouts or tree nodes.
MAX_LAYOUTS = 2_000
MAX_NODES = 20_000


class _Budget(Exception):
    pass


def layouts(view: View, limit: int = MAX_LAYOUTS) -> list[frozenset[int]] | None:
    """Every mine layout of the unknown cells that fits ``view``; None past ``limit``."""
    return enumerate_layouts(view.unknown(), constraints(view), view.mines_left, limit)


def enumerate_layouts(
    cells: Sequence[int], rules: Sequence[Constraint], left: int | None, limit: int = MAX_LAYOUTS
) -> list[frozenset[int]] | None:
    """Every set of mines among ``cells`` meeting ``rules`` (and ``left`` mines in all, if given).

    None past ``limit`` layouts. Iterative backtracking with the constraints'
    remaining needs and room.
    """
    order = _placement_order(cells, rules)
    n = len(order)
    member: list[list[int]] = [[] for _ in range(n)]
    index = {cell: i for i, cell in enumerate(order)}
    for r, rule in enumerate(rules):
        for cell in rule.cells:
            member[index[cell]].append(r)
    need = [rule.mines for rule in rules]
    room = [len(rule.cells) for rule in rules]
    value = [0] * n
    tried = [0] * (n + 1)  # next value to try at each depth
    placed = 0
    found: list[frozenset[int]] = []
    pos = 0
    while pos >= 0:
        if pos == n:
            if left is None or placed == left:
                found.append(frozenset(order[i] for i in range(n) if value[i]))
                if len(found) > limit:
                    return None
            pos -= 1
            if pos >= 0:  # (no cells at all: the one empty layout)
                placed -= _undo(pos, value, member, need, room)
            continue
        v = tried[pos]
        if v > 1:
            tried[pos] = 0
            pos -= 1
            if pos >= 0:
                placed -= _undo(pos, value, member, need, room)
            continue
        tried[pos] = v + 1
        if left is not None and (placed + v > left or placed + v + (n - pos - 1) < left):
            continue
        if all(0 <= need[r] - v <= room[r] - 1 for r in member[pos]):
            for r in member[pos]:
                need[r] -= v
                room[r] -= 1
            value[pos] = v
            placed += v
            pos += 1
    return found


def _placement_order(cells: Sequence[int], rules: Sequence[Constraint]) -> list[int]:
    """``cells``, the constrained ones first, grouped by constraint, so that pruning bites
    early."""
    order: list[int] = []
    seen: set[int] = set()
    for rule in rules:
        for cell in sorted(rule.cells):
            if cell not in seen:
                seen.add(cell)
                order.append(cell)
    return order + [c for c in cells if c not in seen]


def _undo(
    pos: int, value: list[int], member: list[list[int]], need: list[int], room: list[int]
) -> int:
    v = value[pos]
    for r in member[pos]:
        need[r] += v
        room[r] += 1
    value[pos] = 0
    return v


def best_endgame_move(
    view: View,
    prior: DensityPrior = UNIFORM,
    max_nodes: int = MAX_NODES,
    max_layouts: int = MAX_LAYOUTS,
) -> int | None:
    """The cell with the highest chance to win, or None when the search is too big."""
    found = solve_endgame(view, prior, max_nodes, max_layouts)
    return None if found is None else found[0]


def solve_endgame(
    view: View,
    prior: DensityPrior = UNIFORM,
    max_nodes: int = MAX_NODES,
    max_layouts: int = MAX_LAYOUTS,
) -> tuple[int, float] | None:
    """The move with the highest chance to win and that chance, playing perfectly after it.

    None when there are more than ``max_layouts`` layouts or the search visits more than
    ``max_nodes`` positions.
    """
    found = layouts(view, max_layouts)
    if not found:
        return None
    return _search(
        view,
        view.unknown(),
        found,
        layout_weights(view, [len(layout) for layout in found], prior),
        max_nodes,
    )


def layout_weights(view: View, sizes: Sequence[int], prior: DensityPrior) -> list[int]:
    """Each layout's weight, an integer, given each one's number of mines (``sizes``): equal
    when the mine count is told, else under the density prior (a layout of ``k`` of the
    board's ``n`` mines weighs ``(k + a - 1)! (n - k + b - 1)!``, as the counting engine
    weighs it)."""
    if view.mine_count is not None:
        return [1] * len(sizes)
    n = view.topology.size
    weights = []
    for size in sizes:
        k = len(view.mines) + size
        weights.append(factorial(k + prior.a - 1) * factorial(n - k + prior.b - 1))
    return weights


def isolated_regions(view: View, linked: Iterable[frozenset[int]] | None = None) -> list[list[int]]:
    """Groups of frontier cells that nothing outside them can ever inform, nor they inform.

    A group is linked by shared numbers, and every unknown neighbour of its
    cells is in it: whatever is opened elsewhere shows nothing about it.
    ``linked``: the cell sets of the view's constraints, when the caller has them.
    """
    if linked is None:
        linked = [rule.cells for rule in constraints(view)]
    sets: UnionFind[int] = UnionFind()
    for members in linked:
        sets.join(sorted(members))
    neighbours = view.topology.neighbours
    isolated = []
    for cells in sets.groups(sorted(sets.items())):
        group = set(cells)
        if all(
            other in group or not view.is_unknown(other)
            for cell in cells
            for other in neighbours(cell)
        ):
            isolated.append(cells)
    return isolated


class RegionWatch:
    """The isolated regions that opening one cell of ``view`` creates, found near the change.

    ``rules`` are ``view``'s constraints (those `isolated_regions` links). Opening
    ``cell`` and learning the mines ``mines`` changes only the constraints that
    hold ``cell`` or one of ``mines``, adds one over ``around``, and unblocks
    the neighbours of ``cell`` and ``mines``; a region of the new position
    that holds none of those cells has the same constraints and neighbours as
    before, so it was isolated before. `created` therefore walks only the
    groups those cells are linked into, stopping at the first unknown cell no
    constraint holds, instead of linking the whole board per outcome.
    """

    def __init__(self, view: View, rules: Iterable[frozenset[int]]) -> None:
        self.view = view
        self.rules = list(rules)
        self.by_cell: dict[int, list[frozenset[int]]] = {}
        for members in self.rules:
            for cell in members:
                self.by_cell.setdefault(cell, []).append(members)
        # The kernel's twin (`_kernel.RegionTable`: the same regions), made when first asked.
        self._kernel = engine.kernel
        self._table: Any = None

    def created(self, cell: int, around: frozenset[int], mines: frozenset[int]) -> list[list[int]]:
        """`isolated_regions` of the view once ``cell`` is opened (its unknown neighbours:
        ``around``) and ``mines`` are known, but only those holding a changed cell (every
        region left out was isolated before), in the same order."""
        if self._kernel is not None:
            if self._table is None:
                starts, cells = neighbour_table(self.view.topology)
                self._table = self._kernel.RegionTable(
                    starts, cells, self.rules, self.view.revealed, self.view.mines
                )
            return cast(list[list[int]], self._table.created(cell, around, mines))
        by_cell = self.by_cell
        view = self.view
        neighbours = view.topology.neighbours
        revealed, known = view.revealed, view.mines

        def linked(x: int) -> bool:
            return x != cell and x not in mines and (x in by_cell or x in around)

        def unknown(x: int) -> bool:
            return x != cell and x not in mines and x not in revealed and x not in known

        owner: dict[int, int] = {}  # the walk that reached each cell
        found = []
        for walk, seed in enumerate(sorted(self._seeds(cell, around, mines))):
            if seed in owner or not linked(seed):
                continue
            group = self._walk(seed, walk, owner, cell, around, mines)
            if group is None:
                continue
            walled = set(group)
            if all(o in walled for x in group for o in neighbours(x) if unknown(o)):
                found.append(sorted(group))
        found.sort()
        return found

    def _seeds(self, cell: int, around: frozenset[int], mines: frozenset[int]) -> set[int]:
        """The cells a region the move creates must hold one of: ``cell``'s unknown
        neighbours, the cells of every rule of ``cell`` or of a new mine, and the new
        mines' neighbours."""
        by_cell = self.by_cell
        seeds = set(around)
        for changed in (cell, *mines):
            for members in by_cell.get(changed, ()):
                seeds.update(members)
        for mine in mines:
            seeds.update(self.view.topology.neighbours(mine))
        return seeds

    def _walk(
        self,
        seed: int,
        walk: int,
        owner: dict[int, int],
        cell: int,
        around: frozenset[int],
        mines: frozenset[int],
    ) -> list[int] | None:
        """The group of cells linked to ``seed`` by rules (``around`` as one more), walk
        number ``walk`` (``owner``: the walk that reached each cell), unless it turns out
        not isolated: next to a cell no rule holds, or joined to an earlier walk's group."""
        by_cell = self.by_cell
        neighbours = self.view.topology.neighbours
        revealed, known = self.view.revealed, self.view.mines
        group = [seed]
        owner[seed] = walk
        isolated = True
        i = 0
        while isolated and i < len(group):
            x = group[i]
            i += 1
            if any(  # `unknown(o) and not linked(o)`, written out: the walk's hot spot
                o not in by_cell
                and o not in around
                and o not in revealed
                and o not in known
                and o != cell
                and o not in mines
                for o in neighbours(x)
            ):
                isolated = False  # next to a cell no constraint holds
                break
            sets = by_cell.get(x, [])
            for members in [*sets, around] if x in around else sets:
                for y in members:
                    if y == cell or y in mines:
                        continue
                    other = owner.get(y)
                    if other is None:
                        owner[y] = walk
                        group.append(y)
                    elif other != walk:
                        isolated = False  # the group of an earlier walk, cut short
        return group if isolated else None


def solve_region(
    view: View,
    region: Sequence[int],
    prior: DensityPrior = UNIFORM,
    max_nodes: int = MAX_NODES,
    *,
    budget: Budget = DEFAULT_BUDGET,
    cache: PartCache | None = None,
    rules: Sequence[Constraint] | None = None,
) -> tuple[int, float] | None:
    """The best move and the chance to clear an isolated ``region`` (see `isolated_regions`).

    Each local layout is weighted by the number of ways (under the prior) to
    lay the other mines outside the region, so the odds are exact; only the
    last few moves of a game, where the mine count may tell the region
    something, are not foreseen. ``budget`` and ``cache`` go to the count of
    the rest of the board (see `solve`). ``rules``: ``view``'s constraints, if known.
    """
    members = set(region)
    if rules is None:
        rules = constraints(view)
    inside = [rule for rule in rules if rule.cells & members]
    outside_rules = [rule for rule in rules if not rule.cells & members]
    found = enumerate_layouts(sorted(region), inside, None)
    if not found:
        return None
    outside = [cell for cell in view.unknown() if cell not in members]
    known_mines = len(view.mines)
    known_safe = len(view.revealed)
    left = view.mines_left
    by_count: dict[int, int] = {}
    for m in sorted({len(layout) for layout in found}):
        try:
            if left is None:
                # The rest of the board knows the region's layout: m mines, the others safe.
                count = MineCount(None, prior, known_mines + m, known_safe + len(region) - m)
                rest = solve(outside_rules, outside, count, budget=budget, cache=cache)
                # Undo the engine's constant factor, which depends on m here.
                by_count[m] = (
                    rest.weight
                    * factorial(known_mines + m + prior.a - 1)
                    * factorial(known_safe + len(region) - m + prior.b - 1)
                )
            else:
                by_count[m] = (
                    solve(outside_rules, outside, left - m, budget=budget, cache=cache).layouts
                    if m <= left
                    else 0
                )
        except InconsistentView:
            by_count[m] = 0
    weights = [by_count[len(layout)] for layout in found]
    kept = [i for i, w in enumerate(weights) if w]
    if not kept:
        return None
    return _search(
        view, sorted(region), [found[i] for i in kept], [weights[i] for i in kept], max_nodes
    )


def layout_tables(
    view: View, cells: Sequence[int], found: Sequence[frozenset[int]]
) -> tuple[dict[int, int], dict[int, dict[int, int]]]:
    """Per cell, the layouts (bit i: ``found[i]``) where it is a mine, and those where it is
    safe by the number it shows."""
    masks: dict[int, int] = {}  # cell -> the layouts where it is a mine
    for i, layout in enumerate(found):
        bit = 1 << i
        for cell in layout:
            masks[cell] = masks.get(cell, 0) | bit
    return layout_tables_of_masks(view, cells, masks, len(found))


def layout_tables_of_masks(
    view: View, cells: Sequence[int], masks: dict[int, int], size: int
) -> tuple[dict[int, int], dict[int, dict[int, int]]]:
    """`layout_tables` of ``size`` layouts given as each cell's mine set (``masks``; a cell
    missing is a mine in none).

    A number is the known mines around plus the layout's mines among the neighbours: the
    neighbours' mine sets are added bit-sliced (bit plane j holds bit j of every layout's
    count), so each cell costs a few operations on whole sets instead of a pass per layout.
    """
    known, neighbours = view.mines, view.topology.neighbours
    everything = (1 << size) - 1  # ``size`` a name: compiled, a ``len()`` shifts in 64 bits
    mine_masks: dict[int, int] = {}
    shows: dict[int, dict[int, int]] = {}  # cell -> number shown -> layouts
    for cell in cells:
        around = neighbours(cell)
        base = sum(1 for o in around if o in known)
        planes: list[int] = []
        for other in around:
            carry = masks.get(other, 0)
            for j, plane in enumerate(planes):
                if not carry:
                    break
                planes[j], carry = plane ^ carry, plane & carry
            if carry:
                planes.append(carry)
        mine_mask = masks.get(cell, 0)
        safe = everything & ~mine_mask
        by_number: dict[int, int] = {}
        for count in range(1 << len(planes)):
            exact = safe
            for j, plane in enumerate(planes):
                exact &= plane if count >> j & 1 else ~plane
                if not exact:
                    break
            if exact:
                by_number[base + count] = exact
        mine_masks[cell] = mine_mask
        shows[cell] = by_number
    return mine_masks, shows


def _search(
    view: View,
    cells: Sequence[int],
    found: Sequence[frozenset[int]],
    weights: Sequence[int],
    max_nodes: int,
) -> tuple[int, float] | None:
    mine_masks, shows = layout_tables(view, cells, found)
    kernel = engine.kernel  # read here, so that MINESWEEPER_ENGINE and tests choose
    if kernel is not None and len(set(weights)) <= 1:
        # Equal weights: counted exactly in layouts won, pruned (`perfect`'s count).
        counted = kernel.best_won(
            list(cells),
            [mine_masks[cell] for cell in cells],
            [list(shows[cell].values()) for cell in cells],
            len(found),
            max_nodes,
        )
        return None if counted is None else (counted[0], counted[1] / len(found))
    search = _Search(cells, mine_masks, shows, weights, max_nodes)
    size = len(found)  # as in `layout_tables`
    try:
        return search.best((1 << size) - 1)
    except _Budget:
        return None


class _Search:
    """The game tree over sets of layouts, as bit sets (Python ints), valued exactly: the
    weight of the layouts a set wins, playing perfectly (integers, so that equal moves tie
    exactly and the first in order is taken, as `_kernel.best_won` takes it)."""

    def __init__(
        self,
        cells: Sequence[int],
        mine_masks: dict[int, int],
        shows: dict[int, dict[int, int]],
        weights: Sequence[int],
        max_nodes: int,
    ) -> None:
        self.cells = cells
        self.mine_masks = mine_masks
        self.shows = shows
        self.weights = weights
        self.uniform = len(set(weights)) <= 1
        self.memo: dict[int, int] = {}
        self.nodes = 0
        self.max_nodes = max_nodes

    def split(self, alive: int, cell: int) -> list[int]:
        """The layouts where ``cell`` is safe, grouped by the number it shows."""
        return [alive & layouts for layouts in self.shows[cell].values() if alive & layouts]

    def options(self, alive: int) -> tuple[int | None, list[tuple[int, int]]]:
        """The first free informative cell, else the risky cells with the weight of the
        layouts where each is safe, safest first (a free cell is always taken, so the risky
        ones are weighed only without one)."""
        mine_masks, shows = self.mine_masks, self.shows
        risky = []
        for cell in self.cells:
            mine = alive & mine_masks[cell]
            if mine == alive:
                continue  # a mine in every layout left
            if mine:
                risky.append((mine, cell))
                continue
            numbers = 0
            for layouts in shows[cell].values():
                if alive & layouts:
                    numbers += 1
                    if numbers > 1:
                        return cell, []
        safe = [(self._weight(alive & ~mine), cell) for mine, cell in risky]
        safe.sort(key=lambda sc: (-sc[0], sc[1]))
        return None, safe

    def won(self, alive: int) -> int:
        """The weight of the layouts ``alive`` that perfect play wins."""
        if not alive & (alive - 1):
            return self._weight(alive)
        known = self.memo.get(alive)
        if known is not None:
            return known
        self.nodes += 1
        if self.nodes > self.max_nodes:
            raise _Budget
        checkpoint()  # where a guard's stop lands in a long search, compiled (`compiled`)
        free, risky = self.options(alive)
        if free is not None:
            result = sum(self.won(p) for p in self.split(alive, free))
        else:
            result = 0
            for safe, cell in risky:
                if safe <= result:
                    break  # cannot win more than where it is safe
                result = max(result, sum(self.won(p) for p in self.split(alive, cell)))
        self.memo[alive] = result
        return result

    def _weight(self, part: int) -> int:
        if self.uniform:
            return part.bit_count() * (self.weights[0] if self.weights else 1)
        weights, total = self.weights, 0
        while part:
            low = part & -part
            total += weights[low.bit_length() - 1]
            part ^= low
        return total

    def best(self, alive: int) -> tuple[int, float] | None:
        """The first move of the most won weight in ``alive``, and its chance to win."""
        total = self._weight(alive)
        free, risky = self.options(alive)
        if free is not None:
            return free, self.won(alive) / total
        best_cell, best_won = None, -1
        for safe, cell in risky:
            if safe <= best_won:
                break
            won = sum(self.won(p) for p in self.split(alive, cell))
            if won > best_won:
                best_cell, best_won = cell, won
        return None if best_cell is None else (best_cell, best_won / total)
