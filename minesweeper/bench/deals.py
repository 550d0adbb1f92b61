"""What a benchmark plays: deals of seeded boards of one `Variant`, or of given boards.

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
from minesweeper.boards.generate import random_board, start_cell
from minesweeper.errors import SettingsError
from minesweeper.limits import quote
from minesweeper.topology import GridTopology, SquareTopology, Topology
from minesweeper.variant import PRESETS, Preset, Rules, Variant

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
                raise SettingsError(f"unknown preset {quote(name)} (known: {known})")
            result[member] = BENCH_PRESETS[member]
    return list(result.values())


class GroupBy(enum.Enum):
    """How given boards form result rows: one per ``--boards`` path, per file, or per size."""

    PATH = "path"
    FILE = "file"
    SIZE = "size"


@dataclass(frozen=True)
class Deal:
    """One set of games every strategy plays: generated boards of one `Variant`, or given
    boards.

    ``name`` names the deal's row and seeds its boards. For generated games, ``start``
    is the first click's printed position; given boards (``boards``) carry their own
    first clicks, and ``numbers`` holds each one's index among all the boards of the
    run. Given boards of several sizes are ``mixed``: ``variant`` is then the first
    board's, and `rows`, `cols` and `mines` are None.
    """

    name: str
    variant: Variant
    games: int
    start: tuple[int, int] = (0, 0)
    boards: tuple[AdvancedCase, ...] = field(default=(), repr=False)
    numbers: tuple[int, ...] = field(default=(), repr=False)
    mixed: bool = False

    @classmethod
    def generated(
        cls, game: Variant, games: int, first: tuple[int, int] | None = None, name: str = ""
    ) -> Deal:
        """``games`` random boards of ``game``, first clicked at ``first`` (default: the
        variant's `Variant.start`); ``name`` defaults to the variant's text."""
        start = first if first is not None else game.start
        deal = cls(name or str(game), game, games, start)
        # Fail now, not in a worker, when the start or the mines do not fit.
        sample = _topology(game.topology, game.rows, game.cols, random.Random(0))
        first_cell = start_cell(sample, start, game.cols)
        random_board(sample, game.mines, random.Random(0), first_cell, game.rules.placement)
        return deal

    @classmethod
    def of_preset(
        cls,
        preset: Preset,
        rules: Rules,
        games: int,
        topology: type[Topology] = SquareTopology,
        first: tuple[int, int] | None = None,
    ) -> Deal:
        """``games`` boards of exactly ``preset``'s size and mines (on a tiling too, unlike
        a person's game), first clicked at the preset's start (classic: (0, 0))."""
        game = Variant(topology, preset.rows, preset.cols, preset.mines, rules)
        start = (0, 0) if rules is Rules.CLASSIC else preset.start
        return cls.generated(game, games, first if first is not None else start, preset.name)

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
            rows, cols, mines = dimensions(cases[0].board)
            title = group if group_by is GroupBy.FILE else name
            game = Variant(type(cases[0].board.topology), rows, cols, mines, rules)
            deals.append(
                cls(str(title), game, len(cases), (0, 0), cases, tuple(numbers), len(sizes) > 1)
            )
        return deals

    @property
    def rules(self) -> Rules:
        return self.variant.rules

    @property
    def topology(self) -> str:
        """The topology's name, as results and game logs record it."""
        return self.variant.name

    @property
    def rows(self) -> int | None:
        return None if self.mixed else self.variant.rows

    @property
    def cols(self) -> int | None:
        return None if self.mixed else self.variant.cols

    @property
    def mines(self) -> int | None:
        return None if self.mixed else self.variant.mines

    @property
    def size(self) -> str:
        """``rows x cols / mines``, or ``mixed`` for given boards of several sizes."""
        if self.mixed:
            return "mixed"
        return _size_text(self.variant.rows, self.variant.cols, self.variant.mines)

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
        game = self.variant
        rng = random.Random(f"{seed}:{self.name}:{index}")
        topology = _topology(game.topology, game.rows, game.cols, rng)
        first = start_cell(topology, self.start, game.cols)
        return random_board(topology, game.mines, rng, first, game.rules.placement), first

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


def _topology(kind: type[Topology], rows: int, cols: int, rng: random.Random) -> Topology:
    """The board shape of one game: drawn with ``rng`` where the topology varies."""
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
