"""The unit of work: a chunk of games of one deal for one strategy, and how each game ended."""

from __future__ import annotations

from dataclasses import dataclass

from minesweeper.cases import AdvancedCase
from minesweeper.client import GameRecord, play
from minesweeper.solver.strategy import find_strategy

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
    """Games ``indices`` of deal number ``deal_index``, for one strategy.

    The deal travels without its given boards; the chunk carries only its own.
    """

    deal_index: int
    deal: Deal
    strategy: str
    seed: int
    indices: tuple[int, ...]
    boards: tuple[AdvancedCase, ...] = ()


def play_chunk(chunk: Chunk) -> list[GameOutcome]:
    """Play the games of ``chunk`` (in a worker or in this process), one outcome each.

    A game whose strategy raises is reported as that game's error; the chunk goes on.
    """
    deal, outcomes = chunk.deal, []
    strategy_class = find_strategy(chunk.strategy)
    for position, index in enumerate(chunk.indices):
        if chunk.boards:
            board, first = chunk.boards[position].board, chunk.boards[position].first
        else:
            board, first = deal.game(chunk.seed, index)
        try:
            strategy = strategy_class(deal.player_seed(chunk.seed, index))
            record = play(board, first, strategy, deal.rules.tells_mine_count)
        except Exception as error:  # any bug of a strategy must cost only its game
            outcomes.append(GameOutcome(None, f"{type(error).__name__}: {error}"))
        else:
            outcomes.append(GameOutcome(record))
    return outcomes
