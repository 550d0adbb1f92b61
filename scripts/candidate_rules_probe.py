"""How often best's candidate-rule settings change its look-ahead guess in plain best's games.

    python scripts/candidate_rules_probe.py classic 500 163   # rules, games, seed

Plain `best` plays; at each look-ahead guess (no certain cell, no exact endgame, no
unavoidable 50/50) the move is chosen again with each setting on, and the guesses and games
where it differs are counted. ``high_density``: his rule of threshold 1 (only the safest
cells) when mines left * 5 > unknown cells * 2 (off in his solver at commit 0806bb8).
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

from minesweeper.bench import Deal, resolve_presets, strategy_seed
from minesweeper.client import play
from minesweeper.solver.best import Best, certain
from minesweeper.solver.probability import Probabilities
from minesweeper.solver.strategy import Decision
from minesweeper.solver.view import View
from minesweeper.variant import Rules

VARIANTS: dict[str, dict[str, Any]] = {
    "living_cutoff": {"living_cutoff": True},
    "dominated": {"dominated": True},
    "high_density": {"cutoff": 1.0},
}


class Probe(Best):
    """`best`, counting where each of `VARIANTS` would guess another cell."""

    def __init__(self, seed: int, stats: dict[str, int]) -> None:
        super().__init__(seed)
        self.stats = stats
        self.changed: set[str] = set()

    def choose(self, view: View, result: Probabilities, **over: Any) -> int:
        old = {k: getattr(self, k) for k in over}
        try:
            for k, v in over.items():
                setattr(self, k, v)
            looks = self._outlooks(view, result, True)
            return max(looks, key=lambda o: (o.score, -o.cell)).cell
        finally:
            for k, v in old.items():
                setattr(self, k, v)

    def decide(self, view: View) -> Decision:
        if self.proved(view) is not None:
            return super().decide(view)
        result = self.solve(view)
        endgame = result.layouts <= self.endgame_layouts and not result.approximate
        known = view.with_mines(result.mines)
        if certain(view, result) or endgame or self.fifty_fifty_move(known) is not None:
            return super().decide(view)
        stats = self.stats
        stats["lookahead"] += 1
        base = self.choose(known, result)
        stats["safest_dead"] += 1 - result.lowest() != self.living_best(known, result)
        left = known.mines_left
        dense = left is not None and left * 5 > len(known.unknown()) * 2
        stats["dense"] += dense
        for name, over in VARIANTS.items():
            if (name != "high_density" or dense) and self.choose(known, result, **over) != base:
                stats["differ_" + name] += 1
                self.changed.add(name)
        return super().decide(view)


def main(rules: str, games: int, seed: int) -> None:
    (spec,) = resolve_presets(["expert"])
    deal = Deal.of_preset(spec, Rules(rules), games)
    stats = dict.fromkeys(["lookahead", "safest_dead", "dense"], 0)
    stats.update({"differ_" + name: 0 for name in VARIANTS})
    changed = dict.fromkeys(VARIANTS, 0)
    start = time.process_time()
    for index in range(games):
        board, first = deal.game(seed, index)
        probe = Probe(strategy_seed(seed, deal.name, index), stats)
        play(board, first, probe, deal.rules.tells_mine_count)
        for name in probe.changed:
            changed[name] += 1
    cpu = round(time.process_time() - start, 1)
    row = {"rules": rules, "games": games, "cpu": cpu, **stats, "games_changed": changed}
    print(json.dumps(row))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
