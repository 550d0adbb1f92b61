"""Seeded games of `best` and `exact-safest`, move by move, to hold that speed-ups keep the moves.

``python tests/solver_moves.py`` plays the games and writes
``tests/data/solver_moves.json``; `test_best.py` plays them again and compares.
Each game is recorded as its guesses (readable in a diff) and a digest of the
position at every guess (the revealed cells and their numbers) with the cell
guessed. Certain moves may come in other batches (a cheap prover opens what it
proves before the engine is asked), but a game reaches the same positions where
nothing is certain either way, and there it must guess the same cell.
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path

from minesweeper.boards.generate import random_board
from minesweeper.client import play
from minesweeper.solver.registry import find_strategy
from minesweeper.solver.strategy import Decision, Strategy
from minesweeper.solver.view import View
from minesweeper.topology import find_topology
from minesweeper.variant import PRESETS, FirstClick

FIXTURE = Path(__file__).parent / "data" / "solver_moves.json"

#: (topology, preset, first click rule, mine count told, games)
DEALS = (
    ("square", "expert", FirstClick.OPENING, True, 6),
    ("square", "expert", FirstClick.SAFE, True, 8),
    ("square", "expert", FirstClick.ZERO, False, 6),
    ("square", "intermediate", FirstClick.SAFE, True, 5),
    ("hex", "intermediate", FirstClick.OPENING, False, 3),
)
STRATEGIES = ("best", "exact-safest")
SEED = 2026


class Recorder(Strategy):
    """Passes decisions through from ``inner`` and keeps each guess with its position."""

    name = "recorder"

    def __init__(self, inner: Strategy) -> None:
        super().__init__(inner.seed)
        self.inner = inner
        self.guesses: list[tuple[int, list[tuple[int, int]]]] = []

    def decide(self, view: View) -> Decision:
        decision = self.inner.decide(view)
        if decision.guess:
            self.guesses.append((decision.opens[0], sorted(view.revealed.items())))
        return decision


def play_recorded(strategy: str, deal: tuple, index: int) -> dict:
    """One seeded game: its guesses, a digest of every decision, and the outcome."""
    topology_name, preset_name, rule, told, _ = deal
    preset = PRESETS[preset_name]
    rng = random.Random(f"{SEED}:{topology_name}:{preset_name}:{rule.value}:{index}")
    topology = find_topology(topology_name)(preset.rows, preset.cols)
    row, col = (0, 0) if rule is FirstClick.SAFE else preset.start
    first = topology.cell_at(row, col)
    board = random_board(topology, preset.mines, rng, first, rule)
    recorder = Recorder(find_strategy(strategy)(seed=index))
    record = play(board, first, recorder, told)
    text = repr(recorder.guesses)
    return {
        "won": record.won,
        "guesses": [cell for cell, _ in recorder.guesses],
        "digest": hashlib.sha256(text.encode()).hexdigest()[:16],
    }


def games() -> list[tuple[str, tuple, int]]:
    """Every (strategy, deal, index) recorded."""
    return [
        (strategy, deal, index)
        for strategy in STRATEGIES
        for deal in DEALS
        for index in range(deal[4])
    ]


def key(strategy: str, deal: tuple, index: int) -> str:
    topology_name, preset_name, rule, told, _ = deal
    count = "told" if told else "untold"
    return f"{strategy} {topology_name} {preset_name} {rule.value} {count} {index}"


def main() -> None:
    recorded = {key(*game): play_recorded(*game) for game in games()}
    FIXTURE.write_text(json.dumps(recorded, indent=1) + "\n")
    print(f"wrote {len(recorded)} games to {FIXTURE}")


if __name__ == "__main__":
    main()
