"""The system a count solves: its cells, its rules (checked, split into groups that share
no cell, settled by deduction where they are large), and the `Budget` of work it may
spend before it approximates."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from time import process_time
from typing import Protocol, cast

from minesweeper.solver.compiled import checkpoint
from minesweeper.solver.constraints import InconsistentView
from minesweeper.solver.counting import engine
from minesweeper.solver.gauss import solve_system, split_system

#: A cell: a view's cell id (the engine only hashes cells, so tests may label them otherwise).
Cell = int
#: A rule: exactly ``mines`` of ``cells``, as ``(cells, mines)``.
Rule = tuple[frozenset[Cell], int]


class ConstraintLike(Protocol):
    """Exactly ``mines`` of ``cells`` are mines (`Constraint` is one)."""

    @property
    def cells(self) -> Iterable[Cell]: ...

    @property
    def mines(self) -> int: ...


def rules_of(constraints: Iterable[ConstraintLike]) -> list[Rule]:
    """``constraints`` as the engine's rules."""
    return [(frozenset(rule.cells), rule.mines) for rule in constraints]


class UnknownCells:
    """A position's unknown cells, each once, in order, with their set: made once for the
    `solve_outcomes` of every cell a look-ahead opens in one position, which then need
    not go over every cell each (``cells``: the list; ``members``: the set)."""

    __slots__ = ("cells", "members")

    def __init__(self, cells: Iterable[Cell], distinct: bool = False) -> None:
        """``distinct``: ``cells`` is a list that holds each cell once (`View.unknown`)."""
        self.cells = cast(list[Cell], cells) if distinct else list(dict.fromkeys(cells))
        self.members = frozenset(self.cells)

    def __iter__(self) -> Iterator[Cell]:
        return iter(self.cells)

    def __len__(self) -> int:
        return len(self.cells)


def check_within(present: frozenset[Cell], opened: Cell | None, rules: list[Rule]) -> None:
    """That every rule names cells of ``present`` but ``opened`` (else `ValueError`) and
    needs a number of mines its cells can hold (else `InconsistentView`)."""
    for members, need in rules:
        if not members <= present or opened in members:
            raise ValueError("a constraint names a cell that is not unknown")
        if not 0 <= need <= len(members):
            raise InconsistentView(f"a constraint needs {need} mine(s) among {len(members)} cells")


def check(cells: list[Cell], rules: list[Rule]) -> None:
    """`check_within` of ``rules`` over ``cells``."""
    check_within(frozenset(cells), None, rules)


def split(system: list[Rule]) -> list[list[Rule]]:
    """`split_system` (the same groups in the same order), by the kernel when it is built
    and the cells are ints."""
    kernel = engine.kernel
    labels = None if kernel is None else kernel.split([members for members, _ in system])
    if labels is None:
        return split_system(system)
    groups: list[list[Rule]] = [[] for _ in range(max(labels, default=-1) + 1)]
    for rule, label in zip(system, labels, strict=True):
        groups[label].append(rule)
    return groups


def settle(
    system: list[Rule], late: Callable[[], bool] | None
) -> tuple[list[Rule], dict[Cell, int]]:
    """What deduction decides in ``system`` (until ``late()``), and the rules left on the
    other cells."""
    found = solve_system(system, late)
    if not found:
        return system, {}
    settled = dict.fromkeys(found.safe, 0) | dict.fromkeys(found.mines, 1)
    left: list[Rule] = []
    for members, need in system:
        rest = members - found.safe - found.mines
        need -= len(members & found.mines)
        if not 0 <= need <= len(rest):
            raise InconsistentView("the revealed numbers contradict each other")
        if rest:
            left.append((rest, need))
    return left, settled


#: Once the time budget is spent, the rest is counted within this many partial counts.
SPENT_COUNTS = 20_000
#: Memory a partial count takes, roughly (measured on large positions; for `Budget.megabytes`).
BYTES_PER_COUNT = 150


@dataclass(frozen=True)
class Budget:
    """How much work exact counting may take before the engine approximates.

    ``counts`` bounds the memory: the most partial counts (one per state of a
    component's programme and mine count, and per move between states) one
    programme keeps, about `BYTES_PER_COUNT` bytes each. ``deadline`` bounds
    the time of counting: a `time.process_time` value past which every
    programme is held to `SPENT_COUNTS` (one budget can serve several counts,
    such as a position and its look-ahead). Past either, constraints are
    dropped and the result says ``approximate``. ``due`` bounds the whole
    answer: past it, deduction stops where it is and the walk back from a
    count larger than `SPENT_COUNTS` to the probabilities spreads the
    component's expected mines evenly over the cells it has not reached (also
    ``approximate``). `Budget.within` sets both from a number of seconds.
    """

    counts: int = 6_000_000
    deadline: float | None = None
    due: float | None = None

    @classmethod
    def within(
        cls, seconds: float | None, megabytes: float | None = None, counting: float = 1.0
    ) -> Budget:
        """``seconds`` of CPU time from now for the answer (None: unbounded), the share
        ``counting`` of them for exact counting; about ``megabytes`` of memory."""
        now = process_time()
        deadline = None if seconds is None else now + seconds * counting
        due = None if seconds is None else now + seconds
        if megabytes is None:
            return cls(deadline=deadline, due=due)
        return cls(max(1, int(megabytes * 1e6 / BYTES_PER_COUNT)), deadline, due)

    def spent(self) -> bool:
        """Whether the counting deadline is past."""
        checkpoint()  # where a long count, compiled, takes a guard's stop (`compiled`)
        return self.deadline is not None and process_time() > self.deadline

    def late(self) -> bool:
        """Whether the whole answer is overdue."""
        checkpoint()
        return self.due is not None and process_time() > self.due

    def late_check(self) -> Callable[[], bool] | None:
        """`late`, or None when nothing is due (no clock to read)."""
        return self.late if self.due is not None else None

    def cap(self) -> int:
        """The most partial counts a programme may hold now (fewer once the deadline is past)."""
        return min(self.counts, SPENT_COUNTS) if self.spent() else self.counts

    def timeless(self) -> bool:
        """Whether no clock bounds it (no deadline, nothing due): then a count depends on
        its rules alone, and may serve again."""
        return self.deadline is None and self.due is None


#: Enough for every position up to 30x30 met in play, and for ms-toollib's hard ones.
DEFAULT_BUDGET = Budget()
