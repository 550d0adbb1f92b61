"""Benchmarks: strategies side by side on the same seeded boards, on any executor.

- `deals`: rules, presets and `Deal`, the games every strategy plays;
- `games`: `Chunk`, the unit of work, and `play_chunk`, which plays one;
- `executors`: where chunks run (this process, a process pool; `cluster`: Dask);
- `runner`: `run_bench`, which hands out chunks and collects outcomes by game;
- `gamelog`: the per-game JSON lines log, written as games finish and resumable;
- `results`: `Result` per deal and strategy, with Wilson intervals.
"""

from __future__ import annotations

from .deals import (
    BENCH_PRESETS,
    DEFAULT_PRESETS,
    PRESET_GROUPS,
    Deal,
    GroupBy,
    resolve_presets,
    strategy_seed,
)
from .executors import WorkerError, max_jobs
from .gamelog import GameLog, game_row
from .games import Chunk, GameOutcome, play_chunk
from .results import GameFailure, Result, wilson_interval
from .runner import Dealer, Progress, games_left, open_executor, run_bench

__all__ = [
    "BENCH_PRESETS",
    "DEFAULT_PRESETS",
    "PRESET_GROUPS",
    "Chunk",
    "Deal",
    "Dealer",
    "GameFailure",
    "GameLog",
    "GameOutcome",
    "GroupBy",
    "Progress",
    "Result",
    "Rules",
    "WorkerError",
    "game_row",
    "games_left",
    "max_jobs",
    "open_executor",
    "play_chunk",
    "resolve_presets",
    "run_bench",
    "strategy_seed",
    "wilson_interval",
]
