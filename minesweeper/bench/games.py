"""The unit of work: a chunk of games of one deal for one strategy, and how each game ended."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from minesweeper.boards.cases import AdvancedCase
from minesweeper.client import GameRecord, play
from minesweeper.solver.registry import StrategySpec

from .deals import Deal


@dataclass(frozen=True)
class GameOutcome:
    """How one game ended: its record, or the error that stopped it (``record`` is None).

    Per-game statistics (3BV) live in the `GameRecord`, which the per-game log
    writes field by field.
    """

    record: GameRecord | None
    error: str | None = None


@dataclass(frozen=True)
class Chunk:
    """Games ``indices`` of deal number ``deal_index``, for one strategy with its settings.

    The strategy travels as a `StrategySpec`, so that a worker builds it with the
    settings given (``--think``), not with its defaults. The deal travels without
    its given boards; the chunk carries only its own, and each game's player seed,
    so that its size never grows with the deal's.
    """

    deal_index: int
    deal: Deal
    strategy: StrategySpec
    seed: int
    indices: tuple[int, ...]
    player_seeds: tuple[int, ...]
    boards: tuple[AdvancedCase, ...] = ()

    @classmethod
    def of(
        cls,
        deal_index: int,
        deal: Deal,
        strategy: StrategySpec,
        seed: int,
        indices: tuple[int, ...],
    ) -> Chunk:
        """Games ``indices`` of ``deal``: its boards and player seeds cut out for them."""
        boards = tuple(deal.boards[i] for i in indices) if deal.boards else ()
        seeds = tuple(deal.player_seed(seed, i) for i in indices)
        bare = dataclasses.replace(deal, boards=(), numbers=())
        return cls(deal_index, bare, strategy, seed, indices, seeds, boards)


def play_chunk(chunk: Chunk) -> list[GameOutcome]:
    """Play the games of ``chunk`` (in a worker or in this process), one outcome each.

    A game whose strategy raises is reported as that game's error; the chunk goes on.
    """
    deal, outcomes = chunk.deal, []
    for position, (index, player_seed) in enumerate(
        zip(chunk.indices, chunk.player_seeds, strict=True)
    ):
        if chunk.boards:
            board, first = chunk.boards[position].board, chunk.boards[position].first
        else:
            board, first = deal.game(chunk.seed, index)
        try:
            strategy = chunk.strategy.build(player_seed)
            record = play(board, first, strategy, deal.rules.tells_mine_count)
        except Exception as error:  # any bug of a strategy must cost only its game
            outcomes.append(GameOutcome(None, f"{type(error).__name__}: {error}"))
        else:
            outcomes.append(GameOutcome(record))
    return outcomes
