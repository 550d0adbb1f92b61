"""Benchmarks: strategies side by side on the same seeded boards, over processes.

Every board is a pure function of ``(seed, deal name, game index)``, and every
strategy gets the same per-game seed, so each strategy plays exactly the same
games in every run, whatever the number of processes.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import math
import random
import signal
import statistics
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any

from minesweeper.board import Board
from minesweeper.cases import AdvancedCase
from minesweeper.client import GameRecord, play
from minesweeper.errors import MinesweeperError
from minesweeper.generate import PRESETS, FirstClick, Preset, random_board, start_cell
from minesweeper.solver.strategy import find_strategy
from minesweeper.topology import GridTopology, Topology, find_topology

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson_interval(wins: int, games: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a win rate (95% by default); ``(0, 1)`` for no games."""
    if games == 0:
        return 0.0, 1.0
    if not 0 <= wins <= games:
        raise ValueError(f"wins must lie in 0..{games}, got {wins}")
    rate = wins / games
    z2 = z * z
    denominator = 1 + z2 / games
    centre = (rate + z2 / (2 * games)) / denominator
    half = z / denominator * math.sqrt(rate * (1 - rate) / games + z2 / (4 * games * games))
    # At the ends the exact bound is 0 or 1; floating point would leave noise there.
    low = 0.0 if wins == 0 else centre - half
    high = 1.0 if wins == games else centre + half
    return low, high


class Rules(enum.Enum):
    """How a benchmark game starts and what the player is told.

    ``modern``: the first click, at the preset's start, is an opening; the
    mine count is told. ``classic``: the first click, at (0, 0), is only safe;
    the count is told. ``acm``: the first click, at the preset's start, is a
    zero; the count is not told (the ACM protocol).
    """

    MODERN = "modern"
    CLASSIC = "classic"
    ACM = "acm"

    @property
    def placement(self) -> FirstClick:
        return {
            Rules.MODERN: FirstClick.OPENING,
            Rules.CLASSIC: FirstClick.SAFE,
            Rules.ACM: FirstClick.ZERO,
        }[self]

    @property
    def tells_mine_count(self) -> bool:
        return self is not Rules.ACM

    def start(self, preset: Preset) -> tuple[int, int]:
        """The first click on ``preset`` under these rules."""
        return (0, 0) if self is Rules.CLASSIC else preset.start


def _acm_preset(density: float) -> Preset:
    return Preset(f"acm-{round(density * 100)}", 30, 30, round(900 * density), (15, 15))


#: Every preset the benchmark knows: the classic levels and the ACM 30x30 boards.
BENCH_PRESETS: dict[str, Preset] = {
    **PRESETS,
    **{preset.name: preset for preset in map(_acm_preset, (0.10, 0.15, 0.20))},
}
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
                raise MinesweeperError(f"unknown preset {name!r} (known: {known})")
            result[member] = BENCH_PRESETS[member]
    return list(result.values())


@dataclass(frozen=True)
class Deal:
    """One set of games every strategy plays: generated from a preset, or given boards.

    For generated games, ``start`` is the first click's printed position; given
    boards (``boards``) carry their own first clicks.
    """

    name: str
    rows: int
    cols: int
    mines: int
    rules: Rules
    games: int
    topology: str = "square"
    start: tuple[int, int] = (0, 0)
    boards: tuple[AdvancedCase, ...] = field(default=(), repr=False)

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
    def given(cls, name: str, boards: Sequence[AdvancedCase], rules: Rules) -> list[Deal]:
        """Deals of given boards, one per board size and mine count (in order of appearance)."""
        groups: dict[tuple[int, int, int], list[AdvancedCase]] = {}
        for case in boards:
            rows, cols = case.board.topology.shape
            groups.setdefault((rows, cols, case.board.mine_count), []).append(case)
        return [
            cls(
                name,
                rows,
                cols,
                mines,
                rules,
                len(cases),
                cases[0].board.topology.name,
                (0, 0),
                tuple(cases),
            )
            for (rows, cols, mines), cases in groups.items()
        ]

    def game(self, seed: int, index: int) -> tuple[Board, int]:
        """Board and first cell of game ``index``: the same in every run with ``seed``."""
        if self.boards:
            case = self.boards[index]
            return case.board, case.first
        rng = random.Random(f"{seed}:{self.name}:{index}")
        topology = _topology(self.topology, self.rows, self.cols, rng)
        first = start_cell(topology, self.start, self.cols)
        return random_board(topology, self.mines, rng, first, self.rules.placement), first


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


@dataclass(frozen=True)
class Task:
    """A chunk of games of one deal for one strategy: a unit of work for a process.

    Given boards travel with the task (only the chunk's), not with the deal.
    """

    deal_index: int
    deal: Deal
    strategy: str
    seed: int
    indices: tuple[int, ...]
    boards: tuple[AdvancedCase, ...] = ()


def run_task(task: Task) -> list[GameRecord]:
    """Play the games of ``task`` (in a worker process or in this one)."""
    deal, records = task.deal, []
    strategy_class = find_strategy(task.strategy)
    for position, index in enumerate(task.indices):
        if task.boards:
            board, first = task.boards[position].board, task.boards[position].first
        else:
            board, first = deal.game(task.seed, index)
        strategy = strategy_class(strategy_seed(task.seed, deal.name, index))
        records.append(play(board, first, strategy, deal.rules.tells_mine_count))
    return records


@dataclass(frozen=True)
class Result:
    """One deal played by one strategy."""

    deal: Deal
    strategy: str
    records: tuple[GameRecord, ...]

    @property
    def games(self) -> int:
        return len(self.records)

    @property
    def wins(self) -> int:
        return sum(record.won for record in self.records)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.games)

    @property
    def median_seconds(self) -> float:
        return statistics.median(r.seconds for r in self.records) if self.records else 0.0

    @property
    def avg_safe_share(self) -> float:
        return statistics.fmean(r.safe_share for r in self.records) if self.records else 0.0

    def as_json(self) -> dict[str, Any]:
        deal = self.deal
        low, high = self.ci95
        return {
            "preset": deal.name,
            "rows": deal.rows,
            "cols": deal.cols,
            "mines": deal.mines,
            "rules": deal.rules.value,
            "strategy": self.strategy,
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate,
            "ci95": [low, high],
            "median_seconds": self.median_seconds,
            "topology": deal.topology,
            "avg_safe_share": self.avg_safe_share,
        }

    def game_rows(self) -> list[dict[str, Any]]:
        """One row per game, for comparing strategies (or other solvers) game by game."""
        names = [case.name for case in self.deal.boards]
        return [
            {
                "preset": self.deal.name,
                "rules": self.deal.rules.value,
                "strategy": self.strategy,
                "game": index,
                **({"board": names[index]} if names else {}),
                "won": record.won,
                "bbbv": record.bbbv,
                "visit_count": record.visit_count,
                "steps": record.steps,
                "guesses": record.guesses,
                "seconds": record.seconds,
            }
            for index, record in enumerate(self.records)
        ]


#: Called after each finished chunk with the deal, the strategy and its records so far.
Progress = Callable[[Deal, str, list[GameRecord]], None]


def chunk_size(games: int, jobs: int) -> int:
    """Games per task: enough tasks to keep every process busy and the progress smooth."""
    return max(1, min(50, games // (jobs * 8) or 1))


def run_bench(
    deals: Sequence[Deal],
    strategies: Sequence[str],
    seed: int = 0,
    jobs: int = 1,
    progress: Progress | None = None,
) -> list[Result]:
    """Play every deal with every strategy; one `Result` per pair, deals first.

    The records do not depend on ``jobs`` (only their CPU seconds may vary).
    """
    strategies = list(dict.fromkeys(strategies))  # each once, in order
    for name in strategies:
        find_strategy(name)  # an unknown name fails before any work starts
    tasks = []
    for deal_index, deal in enumerate(deals):
        bare = dataclasses.replace(deal, boards=())
        size = chunk_size(deal.games, jobs)
        for start in range(0, deal.games, size):
            indices = tuple(range(start, min(start + size, deal.games)))
            boards = deal.boards[start : start + size]
            # Interleave strategies so that each one's running rate moves together.
            tasks.extend(Task(deal_index, bare, name, seed, indices, boards) for name in strategies)
    collected: dict[tuple[int, str], dict[int, GameRecord]] = {
        (i, name): {} for i in range(len(deals)) for name in strategies
    }

    def collect(task: Task, records: list[GameRecord]) -> None:
        found = collected[task.deal_index, task.strategy]
        found.update(zip(task.indices, records, strict=True))
        if progress is not None:
            progress(deals[task.deal_index], task.strategy, list(found.values()))

    if jobs <= 1:
        for task in tasks:
            collect(task, run_task(task))
    else:
        with ProcessPoolExecutor(max_workers=jobs, initializer=_ignore_interrupts) as pool:
            futures = {pool.submit(run_task, task): task for task in tasks}
            try:
                for future in as_completed(futures):
                    collect(futures[future], future.result())
            except KeyboardInterrupt:
                # Drop the queued chunks; the running ones end within a chunk.
                pool.shutdown(wait=True, cancel_futures=True)
                raise
    return [
        Result(deal, name, tuple(found[index] for index in sorted(found)))
        for i, deal in enumerate(deals)
        for name in strategies
        for found in [collected[i, name]]
    ]


def _ignore_interrupts() -> None:
    # Ctrl-C is the parent's to handle: workers would only print tracebacks.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
