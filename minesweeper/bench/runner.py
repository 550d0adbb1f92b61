"""Running a benchmark: every deal with every strategy, in chunks, on any executor."""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence

from minesweeper.solver.strategy import find_strategy

from .deals import Deal
from .executors import open_executor
from .gamelog import GameKey, GameLog
from .games import Chunk, GameOutcome
from .results import GameFailure, Result

#: Called after each finished chunk: the deal, the strategy, and its outcomes so far by index.
Progress = Callable[[Deal, str, Mapping[int, GameOutcome]], None]


def chunk_size(games: int, workers: int, most: int = 50) -> int:
    """Games per chunk: about 8 chunks per worker (busy to the end, smooth progress), at most
    ``most`` (the executor's limit)."""
    return max(1, min(most, games // (workers * 8) or 1))


def run_bench(
    deals: Sequence[Deal],
    strategies: Sequence[str],
    seed: int = 0,
    jobs: int = 1,
    progress: Progress | None = None,
    *,
    cluster: str | None = None,
    log: GameLog | None = None,
    done: Mapping[GameKey, GameOutcome] | None = None,
) -> list[Result]:
    """Play every deal with every strategy; one `Result` per pair, deals first.

    ``jobs`` processes play at once, or the Dask cluster at ``cluster`` (see
    `open_executor`); games in ``done`` (read from a log) are not played again;
    each finished game is appended to ``log``. The outcomes depend only on the
    seed, the deals and the strategies (only their CPU seconds vary).
    """
    strategies = list(dict.fromkeys(strategies))  # each once, in order
    for name in strategies:
        find_strategy(name)  # an unknown name fails before any work starts
    known = done or {}
    found: dict[tuple[int, str], dict[int, GameOutcome]] = {}
    for (deal_index, deal), name in itertools.product(enumerate(deals), strategies):
        keys = {index: (deal.name, name, deal.number(index)) for index in range(deal.games)}
        found[deal_index, name] = {i: known[key] for i, key in keys.items() if key in known}
    to_play = sum(deal.games for deal in deals) * len(strategies) - sum(map(len, found.values()))
    if to_play:
        with open_executor(min(jobs, to_play), cluster) as executor:
            chunks = list(
                _chunks(deals, strategies, seed, found, executor.workers, executor.max_chunk)
            )
            for chunk, outcomes in executor.run(chunks):
                deal = deals[chunk.deal_index]
                pair = found[chunk.deal_index, chunk.strategy]
                # A chunk that ran twice (its worker died after finishing) counts once.
                new = {i: o for i, o in zip(chunk.indices, outcomes, strict=True) if i not in pair}
                pair.update(new)
                if log is not None and new:
                    log.write(deal, chunk.strategy, new)
                if progress is not None:
                    progress(deal, chunk.strategy, pair)
    return [
        _result(deal, name, found[deal_index, name])
        for deal_index, deal in enumerate(deals)
        for name in strategies
    ]


def _chunks(
    deals: Sequence[Deal],
    strategies: Sequence[str],
    seed: int,
    found: Mapping[tuple[int, str], Mapping[int, GameOutcome]],
    workers: int,
    most: int,
) -> Iterator[Chunk]:
    """The games still to play, in chunks; strategies interleaved so their rates move together."""
    for deal_index, deal in enumerate(deals):
        bare = dataclasses.replace(deal, boards=())
        per_strategy = []
        for name in strategies:
            left = [i for i in range(deal.games) if i not in found[deal_index, name]]
            size = chunk_size(len(left), workers, most)
            per_strategy.append(
                [
                    Chunk(
                        deal_index,
                        bare,
                        name,
                        seed,
                        tuple(left[start : start + size]),
                        tuple(deal.boards[i] for i in left[start : start + size])
                        if deal.boards
                        else (),
                    )
                    for start in range(0, len(left), size)
                ]
            )
        for row in itertools.zip_longest(*per_strategy):
            yield from (chunk for chunk in row if chunk is not None)


def _result(deal: Deal, strategy: str, outcomes: Mapping[int, GameOutcome]) -> Result:
    ordered = sorted(outcomes.items())
    return Result(
        deal,
        strategy,
        tuple(outcome.record for _, outcome in ordered if outcome.record is not None),
        tuple(
            GameFailure(deal.number(index), deal.board_name(index), outcome.error or "")
            for index, outcome in ordered
            if outcome.record is None
        ),
    )
