"""The unit of work: a chunk of games of one deal for one strategy, and how each game ended."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from minesweeper.boards.cases import AdvancedCase
from minesweeper.client import GameRecord, GuessObserver, play
from minesweeper.solver.registry import StrategySpec
from minesweeper.solver.strategy import Decision
from minesweeper.solver.view import View

from .deals import Deal
from .decisions import Seen, guess_rows


@dataclass(frozen=True)
class GameOutcome:
    """How one game ended: its record, or the error that stopped it (``record`` is None).

    Per-game statistics (3BV) live in the `GameRecord`, which the per-game log
    writes field by field.
    """

    record: GameRecord | None
    error: str | None = None
    #: The game's guesses as decision log lines, when asked for (`Chunk.decisions`).
    decisions: tuple[dict[str, Any], ...] = ()


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
    decisions: bool = False
    #: The run-wide number of each game (what the decision log names it by).
    numbers: tuple[int, ...] = ()

    @classmethod
    def of(
        cls,
        deal_index: int,
        deal: Deal,
        strategy: StrategySpec,
        seed: int,
        indices: tuple[int, ...],
        decisions: bool = False,
    ) -> Chunk:
        """Games ``indices`` of ``deal``: its boards and player seeds cut out for them;
        ``decisions``: log every guess."""
        boards = tuple(deal.boards[i] for i in indices) if deal.boards else ()
        seeds = tuple(deal.player_seed(seed, i) for i in indices)
        bare = dataclasses.replace(deal, boards=(), numbers=())
        numbers = tuple(deal.number(i) for i in indices)
        return cls(deal_index, bare, strategy, seed, indices, seeds, boards, decisions, numbers)


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
        seen: list[Seen] = []
        try:
            strategy = chunk.strategy.build(player_seed)
            record = play(
                board,
                first,
                strategy,
                deal.rules.tells_mine_count,
                on_guess=_recorder(seen) if chunk.decisions else None,
            )
        except Exception as error:  # any bug of a strategy must cost only its game
            outcomes.append(GameOutcome(None, f"{type(error).__name__}: {error}"))
        else:
            number = chunk.numbers[position] if chunk.numbers else index
            rows = guess_rows(number, board, seen) if seen else ()
            outcomes.append(GameOutcome(record, None, rows))
    return outcomes


def _recorder(seen: list[Seen]) -> GuessObserver:
    """An observer that keeps each guess in ``seen`` (logged once the game is over)."""

    def observe(view: View, decision: Decision, move: int) -> None:
        seen.append((view, decision, move))

    return observe
