"""What a benchmark plays: presets, and deals of seeded or given boards.

Every generated board is a pure function of ``(seed, deal name, game index)``,
and every strategy gets the same per-game seed, so each strategy plays exactly
the same games in every run, whatever executes them.
"""

from __future__ import annotations

import enum
import functools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from minesweeper.board import Board
from minesweeper.boards.cases import AdvancedCase
from minesweeper.boards.generate import PRESETS, Preset, Rules, random_board, start_cell
from minesweeper.errors import MinesweeperError
from minesweeper.limits import quote
from minesweeper.topology import GridTopology, Topology, find_topology

#: Every preset the benchmark knows (the classic levels and the ACM 30x30 boards).
BENCH_PRESETS: dict[str, Preset] = PRESETS
#: Names that stand for several presets.
PRESET_GROUPS: dict[str, tuple[str, ...]] = {"acm": ("acm-10", "acm-15", "acm-20")}
DEFAULT_PRESETS = ("beginner", "intermediate", "expert")


def resolve_presets(names: Sequence[str]) -> list[Preset]:
    """The presets ``names`` stand for (groups expanded), each once, in order."""
    result: dict[str, Preset] = {}
    for name in names:
        for member in PRESET_GROUPS.get(name, (name,)):
            if member not in BENCH_PRESETS:
                known = ", ".join([*BENCH_PRESETS, *PRESET_GROUPS])
                raise MinesweeperError(f"unknown preset {quote(name)} (known: {known})")
            result[member] = BENCH_PRESETS[member]
    return list(result.values())


class GroupBy(enum.Enum):
    """How given boards form result rows: one per ``--boards`` path, per file, or per size."""

    PATH = "path"
    FILE = "file"
    SIZE = "size"


@dataclass(frozen=True)
class Deal:
    """One set of games every strategy plays: generated from a preset, or given boards.

    For generated games, ``start`` is the first click's printed position; given
    boards (``boards``) carry their own first clicks, and ``numbers`` holds each
    one's index among all the boards of the run. ``rows``, ``cols`` and
    ``mines`` are ``None`` for given boards of several sizes.
    """

    name: str
    rows: int | None
    cols: int | None
    mines: int | None
    rules: Rules
    games: int
    topology: str = "square"
    start: tuple[int, int] = (0, 0)
    boards: tuple[AdvancedCase, ...] = field(default=(), repr=False)
    numbers: tuple[int, ...] = field(default=(), repr=False)

    @classmethod
    def generated(
        cls,
        preset: Preset,
        rules: Rules,
        games: int,
        topology: str = "square",
        first: tuple[int, int] | None = None,
    ) -> Deal:
        """``games`` random boards of ``preset``; ``first`` overrides the rules' start."""
        start = first if first is not None else rules.start(preset)
        deal = cls(
            preset.name, preset.rows, preset.cols, preset.mines, rules, games, topology, start
        )
        # Fail now, not in a worker, when the start or the mines do not fit.
        sample = _topology(topology, preset.rows, preset.cols, random.Random(0))
        first_cell = start_cell(sample, start, preset.cols)
        random_board(sample, preset.mines, random.Random(0), first_cell, rules.placement)
        return deal

    @classmethod
    def given(
        cls,
        name: str,
        boards: Sequence[AdvancedCase],
        rules: Rules,
        group_by: GroupBy = GroupBy.PATH,
    ) -> list[Deal]:
        """Deals of given boards, one per group (in order of first appearance).

        ``name`` names the whole set (the ``--boards`` path); with `GroupBy.FILE`
        each file names its deal as it names its cases (`load_cases`: its name, or
        the end of its path that tells it from files of the same name elsewhere).
        """
        key: Callable[[AdvancedCase], object] = {
            GroupBy.PATH: lambda case: name,
            GroupBy.FILE: lambda case: case.source or case.name,
            GroupBy.SIZE: lambda case: dimensions(case.board),
        }[group_by]
        groups: dict[object, list[int]] = {}
        for number, case in enumerate(boards):
            groups.setdefault(key(case), []).append(number)
        deals = []
        for group, numbers in groups.items():
            cases = tuple(boards[number] for number in numbers)
            sizes = {dimensions(case.board) for case in cases}
            rows, cols, mines = sizes.pop() if len(sizes) == 1 else (None, None, None)
            title = group if group_by is GroupBy.FILE else name
            topology = cases[0].board.topology.name
            deals.append(
                cls(
                    str(title),
                    rows,
                    cols,
                    mines,
                    rules,
                    len(cases),
                    topology,
                    (0, 0),
                    cases,
                    tuple(numbers),
                )
            )
        return deals

    @property
    def size(self) -> str:
        """``rows x cols / mines``, or ``mixed`` for given boards of several sizes."""
        if self.rows is None:
            return "mixed"
        return _size_text(self.rows, self.cols, self.mines)

    def game_size(self, index: int) -> str:
        """``rows x cols / mines`` of game ``index`` (of its own board, for given boards)."""
        if not self.boards:
            return self.size
        return _size_text(*dimensions(self.boards[index].board))

    def number(self, index: int) -> int:
        """The run-wide number of game ``index``: the same in every run of the same boards."""
        return self.numbers[index] if self.numbers else index

    def board_name(self, index: int) -> str | None:
        """The name of given board ``index`` (file and case number); None when generated."""
        return self.boards[index].name if self.boards else None

    def game(self, seed: int, index: int) -> tuple[Board, int]:
        """Board and first cell of game ``index``: the same in every run with ``seed``."""
        if self.boards:
            case = self.boards[index]
            return case.board, case.first
        rng = random.Random(f"{seed}:{self.name}:{index}")
        topology = _topology(self.topology, self.rows or 0, self.cols or 0, rng)
        first = start_cell(topology, self.start, self.cols or 0)
        return random_board(topology, self.mines or 0, rng, first, self.rules.placement), first

    def player_seed(self, seed: int, index: int) -> int:
        """The seed every strategy gets for game ``index``.

        Given boards are seeded by their run-wide number, so that how they are
        grouped into rows does not change how they are played.
        """
        if self.numbers:
            return strategy_seed(seed, "boards", self.number(index))
        return strategy_seed(seed, self.name, index)


def dimensions(board: Board) -> tuple[int, int, int]:
    """A board's printed rows and columns, and its mine count."""
    rows, cols = board.topology.shape
    return rows, cols, board.mine_count


def _size_text(rows: int | None, cols: int | None, mines: int | None) -> str:
    return f"{rows}x{cols}/{mines}"


def _topology(name: str, rows: int, cols: int, rng: random.Random) -> Topology:
    """The board shape of one game: drawn with ``rng`` where the topology varies."""
    kind = find_topology(name)
    if issubclass(kind, GridTopology):
        # Grids do not vary: share one per process so neighbour lists are built once.
        return _grid(kind, rows, cols)
    return kind.random(rows, cols, rng)


@functools.lru_cache(maxsize=16)
def _grid(kind: type[GridTopology], rows: int, cols: int) -> Topology:
    return kind(rows, cols)


def strategy_seed(seed: int, deal: str, index: int) -> int:
    """The seed every strategy gets for one game."""
    return random.Random(f"{seed}:{deal}:{index}:strategy").getrandbits(63)
