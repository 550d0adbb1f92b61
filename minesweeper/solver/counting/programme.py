"""`Programme`: the dynamic programme that counts one component of supercells.

Supercells are placed one at a time, in an order that keeps few rules open (`best_order`);
a state after some placements is the tuple of the partial sums of the rules still open,
and holds the number of partial layouts reaching it by mines placed so far. The kernel
(`minesweeper.solver._kernel`) plans and counts it in C++ where it can; `Programme._count`
is the reference in Python. A walk back over the same states gives every supercell its
share of the mines (`Programme.shares`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import chain
from math import comb, log2
from operator import mul
from typing import Any, NamedTuple

from minesweeper.solver.compiled import checkpoint
from minesweeper.solver.counting import engine
from minesweeper.solver.counting.system import BYTES_PER_COUNT, SPENT_COUNTS, Budget, Cell

#: A supercell: the indices of its rules (its signature) and its cells.
Super = tuple[tuple[int, ...], list[Cell]]
#: A rule a programme counts: ``(cells, mines)``, mines None for the tracked rule, whose
#: mines are followed rather than required.
CountedRule = tuple[frozenset[Cell], int | None]

#: Components of more supercells than this are ordered from several starts.
MANY_STARTS_ABOVE = 40


def best_order(supers: list[Super], rules: Sequence[CountedRule]) -> list[int]:
    """The `order` from the start that keeps the programme narrowest.

    A large component is ordered from several starts: the default one, the
    far end of that order (an end of a longest path), the far end of the
    order from there, and a few more spread over the component; the order
    whose widest point holds the fewest states (estimated from the needs of
    the rules open there) wins.
    """
    first = order(supers)
    if len(supers) < MANY_STARTS_ABOVE:  # a global read here: a test may set it
        return first
    far = order(supers, first[-1])
    orders = [first, far]
    for start in dict.fromkeys([far[-1], *far[:: max(1, len(far) // 6)]]):
        if start != far[0]:
            orders.append(order(supers, start))
    kernel = engine.kernel
    if kernel is not None:
        sigs = [sig for sig, _ in supers]
        needs = [needed(rule) for rule in rules]
        return min(orders, key=lambda placed: kernel.width(placed, sigs, needs))
    return min(orders, key=lambda placed: width(placed, supers, rules))


def needed(rule: CountedRule) -> int:
    """A rule's mines; for a tracked rule (None), the most it may hold."""
    return len(rule[0]) if rule[1] is None else rule[1]


def width(placed: list[int], supers: list[Super], rules: Sequence[CountedRule]) -> float:
    """The log of the most states the programme could hold at one point along ``placed``."""
    last: dict[int, int] = {}
    for k, i in enumerate(placed):
        for rule in supers[i][0]:
            last[rule] = k
    opened: set[int] = set()
    now = widest = 0.0
    for k, i in enumerate(placed):
        for rule in supers[i][0]:
            if rule not in opened:
                opened.add(rule)
                now += log2(needed(rules[rule]) + 2)
            if last[rule] == k:
                now -= log2(needed(rules[rule]) + 2)
        widest = max(widest, now)
    return widest


def order(supers: list[Super], start: int | None = None) -> list[int]:
    """`order_of`, by the kernel when it is built (`_kernel.order`, the same order)."""
    kernel = engine.kernel
    if kernel is not None:
        found: list[int] = kernel.order([sig for sig, _ in supers], -1 if start is None else start)
        return found
    return order_of(supers, start)


def order_of(supers: list[Super], start: int | None = None) -> list[int]:
    """A placement order that keeps the set of open constraints small.

    Breadth-first over supercells that share a constraint, from ``start`` or a
    supercell with the fewest constraints: along a frontier, the constraints
    open at any point are those of one cross-section. (It kept fewer states
    than a greedy choice of the supercell opening the fewest constraints, at
    a fraction of the cost.)
    """
    users: dict[int, list[int]] = {}
    for i, (sig, _) in enumerate(supers):
        for rule in sig:
            users.setdefault(rule, []).append(i)
    placed = [False] * len(supers)
    if start is None:
        start = min(range(len(supers)), key=lambda i: len(supers[i][0]), default=0)
    found: list[int] = []
    for root in chain((start,), range(len(supers))):
        # More than one root only where dropped constraints split the component.
        if placed[root]:
            continue
        placed[root] = True
        k = len(found)
        found.append(root)
        while k < len(found):
            for rule in supers[found[k]][0]:
                for other in users.pop(rule, ()):
                    if not placed[other]:
                        placed[other] = True
                        found.append(other)
            k += 1
        if len(found) == len(supers):
            break
    return found


#: What a programme's walk back gives a supercell: ``(cells, mines, spread)``.
Share = tuple[list[Cell], int, int]
#: Once the time budget is spent, a programme keeps at most this many constraints open.
SPENT_OPEN = 4
#: A cap no count reaches: that of a step after which no rule is open (it always fits).
NO_CAP = float("inf")


class Step(NamedTuple):
    """The plan of one placement of a `Programme`: the supercell's ``size``; where the
    open constraints' sums go (``carried``: the indices kept, all of them when
    ``kept_all``; ``hit_at``: those the supercell adds to; ``fresh``: constraints it
    opens, each starting at its mines); ``bounds`` ``(index, need, room left)`` and
    ``low``/``high`` on its mines; ``opened``: whether any constraint is open after it."""

    size: int
    carried: list[int]
    kept_all: bool
    bounds: list[tuple[int, int, int]]
    low: int
    high: int
    hit_at: list[int]
    fresh: int
    opened: bool


class TooLarge(Exception):
    def __init__(self, rules: set[int]) -> None:
        self.rules = rules


class Programme:
    """The counting programme of one component.

    Supercells are placed one at a time in an order that keeps few constraints
    open at once. A state after ``k`` placements is the tuple of partial sums
    of the open constraints; its value maps the mines placed so far to the
    number of partial layouts reaching it. ``dropped``: the constraints the
    component was relaxed of (none are in ``supers`` any more). Raises
    `TooLarge` past the budget (see `parts.programmes`).
    """

    def __init__(
        self,
        supers: list[Super],
        rules: Sequence[CountedRule],
        budget: Budget,
        tracked: int | None = None,
        dropped: frozenset[int] = frozenset(),
        counted: tuple[list[int], bool, Any] | None = None,
    ) -> None:
        self.dropped = dropped
        self.tracked = tracked
        if counted is None:
            self._build(supers, rules, budget)
        else:  # ordered and counted by the kernel (`parts.Part`)
            self._start(supers, rules, counted[0])
            self.tracking = counted[1]
            self._counted_by(counted[2])

    def _build(self, supers: list[Super], rules: Sequence[CountedRule], budget: Budget) -> None:
        order = best_order(supers, rules)
        self._start(supers, rules, order)
        cap = budget.cap()
        sigs = [supers[i][0] for i in order]
        tracked = self.tracked
        counted = None
        kernel = engine.kernel
        if kernel is not None and sum(len(supers[i][1]) for i in order) <= kernel.MAX_CELLS:
            # The kernel plans (`_plan` in C++) and counts; the plan in Python only if
            # it leaves the count to this engine.
            self.tracking = tracked is not None and any(tracked in sig for sig in sigs)
            sizes = [len(supers[i][1]) for i in order]
            needs = [needed(rule) for rule in rules]
            plan = kernel.plan(sigs, sizes, needs, -1 if tracked is None else tracked)
            counted = kernel.count(plan, cap, cap * BYTES_PER_COUNT)
        if counted is not None:
            self._counted_by(counted)
        else:
            self._plan(rules)
            self._count(budget)
            self.poly = self.poly_at(())  # layouts of this component by mine count

    def _start(self, supers: list[Super], rules: Sequence[CountedRule], order: list[int]) -> None:
        self.supers = supers
        self.order = order
        self._counted = None
        self._layers: list[dict[tuple[int, ...], dict[int, int]]] | None = None
        self._steps: list[Step] | None = None  # the plan in Python (`_plan`), if made
        self._last_first: list[list[Cell]] | None = None  # the supercells' cells, last first
        self._sizes: list[int] | None = None
        self._rules = rules

    def _counted_by(self, counted: Any) -> None:
        """Take the kernel's count (a `_kernel.Counted`)."""
        self._counted = counted
        self.held = counted.held
        self._ends = {end: i for i, end in enumerate(counted.ends())}
        self.poly = self.poly_at(())  # layouts of this component by mine count

    def _plan(self, rules: Sequence[CountedRule]) -> None:
        """Each placement's `Step`, and the constraints open after it (``_open``)."""
        sigs = [self.supers[i][0] for i in self.order]
        sizes = [len(self.supers[i][1]) for i in self.order]
        first: dict[int, int] = {}
        last: dict[int, int] = {}
        room: dict[int, int] = {}  # cells of each rule not placed yet
        for k, sig in enumerate(sigs):
            for rule in sig:
                first.setdefault(rule, k)
                last[rule] = k
                room[rule] = room.get(rule, 0) + sizes[k]
        tracked = self.tracked
        self.tracking = tracked in last
        if tracked is not None and self.tracking:
            last[tracked] = len(sigs)  # never closes: the last states tell its sum
        self._first, self._last = first, last
        self._steps = []
        self._open: list[list[int]] = []
        open_rules: list[int] = []
        for k, sig in enumerate(sigs):
            size = sizes[k]
            # A state holds the partial sums of the open rules. A rule this
            # supercell misses keeps its sum (it was checked when it last
            # grew); one it meets bounds its mines x by what the rule still
            # needs and the room left after it (none when it closes here).
            carried = []  # where each rule that stays open was in the state
            now_open = []
            for j, rule in enumerate(open_rules):
                if last[rule] > k:
                    carried.append(j)
                    now_open.append(rule)
            low0, high0 = 0, size
            bounds = []
            opening = []
            for rule in sig:
                room[rule] -= size
                if rule == tracked:
                    if first[rule] == k:
                        opening.append(rule)
                    continue
                need, left = needed(rules[rule]), room[rule]
                if first[rule] == k:
                    if need < high0:
                        high0 = need
                    if need - left > low0:
                        low0 = need - left
                    if left:
                        opening.append(rule)
                else:
                    bounds.append((open_rules.index(rule), need, left))
            hit_at = [j for j, rule in enumerate(now_open) if rule in sig]
            fresh = len(opening)
            now_open += opening
            kept_all = len(carried) == len(open_rules)  # then a state's sums stay in place
            self._steps.append(
                Step(size, carried, kept_all, bounds, low0, high0, hit_at, fresh, bool(now_open))
            )
            self._open.append(now_open)
            open_rules = now_open

    def _count(self, budget: Budget) -> None:
        """Run the plan over every state in Python: the reference engine (`_kernel` is its
        compiled twin)."""
        ways_by_size: dict[int, list[int]] = {}
        layers: list[dict[tuple[int, ...], dict[int, int]]] = [{(): {0: 1}}]
        held = 0  # partial counts and moves kept so far: the memory in use
        moves: list[list[tuple[tuple[int, ...], int, int, tuple[int, ...]]]] = []
        assert self._steps is not None  # planned (`_plan`)
        for k, (size, carried, kept_all, bounds, low0, high0, hit_at, fresh, opened) in enumerate(
            self._steps
        ):
            zeros = (0,) * fresh
            ways_of = _ways(size, ways_by_size)
            cap = budget.cap() if opened else NO_CAP  # no rule open: the last layers fit
            step: list[tuple[tuple[int, ...], int, int, tuple[int, ...]]] = []
            layer: dict[tuple[int, ...], dict[int, int]] = {}
            added = 0  # at most this many counts and moves added by this layer
            for i, (state, poly) in enumerate(layers[-1].items()):
                if not i & 63:  # a layer can take seconds: a guard's stop lands here (`compiled`)
                    checkpoint()
                low, high = low0, high0
                for src, need, left in bounds:
                    need -= state[src]
                    if need < high:
                        high = need
                    if need - left > low:
                        low = need - left
                if low > high:
                    continue
                sums = state if kept_all else tuple([state[j] for j in carried])
                for x in range(low, high + 1):
                    if x:
                        new = list(sums)
                        for j in hit_at:
                            new[j] += x
                        key = tuple(new) + (x,) * fresh if fresh else tuple(new)
                    else:
                        key = sums + zeros if fresh else sums
                    ways = ways_of[x]
                    target = layer.get(key)
                    if target is None:
                        if not x:
                            layer[key] = poly.copy()  # ways_of[0] == 1
                        elif ways == 1:
                            layer[key] = {m + x: count for m, count in poly.items()}
                        else:
                            layer[key] = {m + x: count * ways for m, count in poly.items()}
                    else:
                        for m, count in poly.items():
                            m += x
                            target[m] = target.get(m, 0) + count * ways
                    step.append((state, x, ways, key))
                    added += len(poly) + 1
                if held + added > cap:
                    raise self._too_large(k, budget)
            held += len(step) + sum(map(len, layer.values()))
            if held > cap:
                raise self._too_large(k, budget)
            layers.append(layer)
            moves.append(step)
        self._layers = layers
        self.held = held
        self._moves = moves

    def _too_large(self, k: int, budget: Budget) -> TooLarge:
        """The error that relaxes the rules open after placement ``k`` (`to_drop`)."""
        return TooLarge(to_drop(self._open[k], self._first, self._last, budget.spent()))

    @property
    def layers(self) -> list[dict[tuple[int, ...], dict[int, int]]]:
        """Each layer's states and their partial counts by mines (counted in Python when
        the kernel counted the programme: for the layout sampler's walks)."""
        if self._layers is None:
            if self._steps is None:
                self._plan(self._rules)
            self._count(Budget(counts=1 << 62))  # counted once already: it fits
        assert self._layers is not None
        return self._layers

    @property
    def moves(self) -> list[list[tuple[tuple[int, ...], int, int, tuple[int, ...]]]]:
        """Each placement's moves ``(state, x, ways, key)``: ``x`` mines, from ``state``."""
        self.layers  # noqa: B018 (counts them if the kernel did)
        return self._moves

    def ends(self, end: tuple[int, ...]) -> bool:
        """Whether some layout ends in state ``end`` (see `poly_at`)."""
        if self._counted is not None:
            return end in self._ends
        return end in self.layers[-1]

    def poly_at(self, end: tuple[int, ...]) -> list[int]:
        """Layouts by mine count that end in state ``end``: ``()``, or the tracked rule's sum."""
        if self._counted is not None:
            index = self._ends.get(end)
            return [0] if index is None else list(self._counted.poly(index))
        poly = [0] * (sum(len(cells) for _, cells in self.supers) + 1)
        for m, count in self.layers[-1].get(end, {}).items():
            poly[m] += count
        while len(poly) > 1 and poly[-1] == 0:
            poly.pop()
        return poly

    def shares(
        self, rest: list[int], late: Callable[[], bool] | None = None, end: tuple[int, ...] = ()
    ) -> tuple[list[tuple[list[Cell], int, int]], bool]:
        """Each supercell's cells and their summed weight of mines, and whether all is exact.

        ``rest[m]`` is the weight of everything outside this component given
        that it holds ``m`` mines; a supercell's share divided by ``spread``,
        its size and the total weight is the probability of each of its cells.
        ``end``: only the layouts that end in this state (see `poly_at`).
        Once ``late()``, the supercells not reached yet share the component's
        remaining expected mines evenly (``spread``: their number of cells),
        unless the programme is no larger than a hurried count (`SPENT_COUNTS`):
        walking that back costs as little as counting it did.
        """
        if self._counted is not None:  # one dot product per supercell (`_kernel`)
            index = self._ends.get(end)
            if index is None:
                return self._named([0] * len(self.order)), True
            found = self._counted.shares(index, rest)  # in limbs; None: not plain ints
            if found is None:
                found = [sum(map(mul, mines, rest)) for mines in self._counted.weights(index)]
            return self._named(found), True
        # back[state][m]: weight of completing ``state``, reached with m mines.
        back: dict[tuple[int, ...], dict[int, int]] = {end: {m: w for m, w in enumerate(rest) if w}}
        shares: list[tuple[list[Cell], int, int]] = []
        if self.held <= SPENT_COUNTS:
            late = None
        for k in range(len(self.order) - 1, -1, -1):
            if late is not None and late():
                return shares + self._spread(rest, end, k, shares), False
            layer = self.layers[k]
            new_back: dict[tuple[int, ...], dict[int, int]] = {}
            mines = 0
            for i, (state, x, ways, key) in enumerate(self.moves[k]):
                if not i & 63:
                    checkpoint()
                later = back.get(key)
                if not later:
                    continue
                target = new_back.get(state)
                if target is None:
                    target = new_back[state] = {}
                weight = 0
                for m, count in layer[state].items():
                    w = later.get(m + x)
                    if w:
                        w *= ways
                        target[m] = target.get(m, 0) + w
                        weight += count * w
                if x:
                    mines += x * weight
            back = new_back
            shares.append((self.supers[self.order[k]][1], mines, 1))
        return shares, True

    @property
    def last_first(self) -> list[list[Cell]]:
        """The supercells' cells, the last placed first (the order of `shares`)."""
        if self._last_first is None:
            self._last_first = [self.supers[i][1] for i in reversed(self.order)]
        return self._last_first

    @property
    def sizes(self) -> list[int]:
        """The sizes of `last_first`."""
        if self._sizes is None:
            self._sizes = [len(cells) for cells in self.last_first]
        return self._sizes

    def shares_each(self, ends: list[tuple[int, ...]], rest: list[int]) -> list[list[int]] | None:
        """For each end (one some layout reaches), the shares `shares` gives with ``rest``
        (spread 1, cells `last_first`), in one kernel pass; None when the kernel did not
        count this programme or ``rest`` is not plain ints (then ask `shares`)."""
        if self._counted is None:
            return None
        found = self._counted.shares_at([self._ends[end] for end in ends], rest)
        return None if found is None else [shares[::-1] for shares in found]

    def shares_correlated(
        self, outside: list[int], polys: list[list[int]]
    ) -> list[list[int]] | None:
        """For each poly, the shares `shares` gives with ``_correlate(outside, poly,
        len(self.poly))`` (spread 1, cells `last_first`), in one kernel pass, the
        correlations too; None as in `shares_each`, or when a ``poly`` holds numbers past
        machine words."""
        if self._counted is None:
            return None
        index = self._ends.get(())
        if index is None:  # no layout ends here: every share is 0
            return [[0] * len(self.order) for _ in polys]
        found = self._counted.shares_correlated(index, outside, polys)
        return None if found is None else [shares[::-1] for shares in found]

    def _named(self, found: list[int]) -> list[Share]:
        """The kernel's shares (placement by placement) with their supercells' cells."""
        return [
            (cells, share, 1) for cells, share in zip(self.last_first, reversed(found), strict=True)
        ]

    def _spread(
        self, rest: list[int], end: tuple[int, ...], k: int, done: list[Share]
    ) -> list[Share]:
        """The shares of the supercells ``order[k::-1]``: the mines the others leave, evenly."""
        ends = self.layers[-1].get(end, {})
        mines = sum(m * count * rest[m] for m, count in ends.items() if m < len(rest))
        mines -= sum(share for _, share, _ in done)
        left = [self.supers[i][1] for i in self.order[k::-1]]
        spread = sum(map(len, left))
        return [(cells, len(cells) * mines, spread) for cells in left]


def to_drop(
    now_open: list[int], first: dict[int, int], last: dict[int, int], hurry: bool
) -> set[int]:
    """The constraints to drop when a programme grows too large.

    Normally the half of those open now that stay open longest. In a hurry
    (the time is spent), every constraint open where more than `SPENT_OPEN`
    are open along the whole order: the next count is then quick.
    """
    if not hurry:
        spans = sorted(now_open, key=lambda r: last[r], reverse=True)
        return set(spans[: max(1, len(spans) // 2)])
    drop = set(now_open)
    spanning = [r for r in first if first[r] < last[r]]
    events = sorted([(first[r], 1, r) for r in spanning] + [(last[r], -1, r) for r in spanning])
    current: set[int] = set()
    for _, kind, rule in events:
        if kind == 1:
            current.add(rule)
            if len(current) > SPENT_OPEN:
                drop |= current
        else:
            current.discard(rule)
    return drop


def _ways(size: int, known: dict[int, list[int]]) -> list[int]:
    """``[comb(size, x) for x in range(size + 1)]``, from ``known`` (kept there)."""
    ways = known.get(size)
    if ways is None:
        ways = known[size] = [comb(size, x) for x in range(size + 1)]
    return ways
