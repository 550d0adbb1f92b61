"""How often, and at what cost, a larger exact endgame would run in plain best's games.

    python scripts/research/endgame_probe.py classic 300 223 > probe.jsonl   # rules, games, seed
    python scripts/research/endgame_probe.py classic 300 223 150 2000 500 20000   # from game 150,
        # layouts up to 2000, `best` playing with the old limits (500 layouts, 20,000 nodes)

`best` plays (with the endgame limits given, else its defaults). At each guess with at
most ``top`` layouts (counted exactly), the exact endgame is run again here, at each node
budget of ``NODES``: its CPU, the process's peak resident memory during it (VmHWM, reset
before each search), whether it finished within the budget, and whether its move is the
move `best` plays. One JSON line per such guess, then a
summary line per game. Nothing here changes a move.

``win - played_win`` at a guess is what the exact move adds to the chance to win there
(perfect play after either move): summed over guesses, the games a larger endgame gains,
without the noise of the rest of each game that a paired bench run carries.
"""

from __future__ import annotations

import json
import sys
import time

from minesweeper.bench import Deal, resolve_presets, strategy_seed
from minesweeper.client import play
from minesweeper.solver.best import Best, certain
from minesweeper.solver.constraints import constraints
from minesweeper.solver.endgame import _search, enumerate_layouts
from minesweeper.solver.strategy import Decision
from minesweeper.solver.view import View
from minesweeper.variant import Rules

TOP = 20_000
NODES = (100_000, 400_000)


def _peak_kb() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM"):
                return int(line.split()[1])
    return 0


def _reset_peak() -> int:
    with open("/proc/self/clear_refs", "w") as refs:
        refs.write("5")
    return _peak_kb()


class Probe(Best):
    def __init__(self, seed: int, game: int, top: int = TOP) -> None:
        super().__init__(seed)
        self.game = game
        self.top = top
        self.extra = 0.0  # CPU of the probe's own searches, left out of the game's

    def decide(self, view: View) -> Decision:
        if self.proved(view) is not None:
            return super().decide(view)
        result = self.solve(view)
        if certain(view, result) is not None or result.approximate or result.layouts > self.top:
            return super().decide(view)
        start = time.process_time()
        played = super().decide(view)
        decide_cpu = time.process_time() - start
        known = view.with_mines(result.mines)
        row: dict[str, object] = {
            "game": self.game,
            "layouts": result.layouts,
            "method": played.method,
            "decide_cpu": round(decide_cpu, 4),
        }
        probe_start = time.process_time()
        start = probe_start
        found = enumerate_layouts(known.unknown(), constraints(known), known.mines_left, self.top)
        row["list_cpu"] = round(time.process_time() - start, 4)
        assert found is not None and len(found) == result.layouts
        row["unknown"] = len(known.unknown())
        for budget in NODES:
            if budget > 100_000 and result.layouts > 10_000:
                break
            before = _reset_peak()
            start = time.process_time()
            move = _search(known, known.unknown(), found, [1] * len(found), budget)
            row[f"cpu_{budget}"] = round(time.process_time() - start, 4)
            row[f"mem_{budget}"] = _peak_kb() - before  # peak above the RSS at the start
            row[f"peak_{budget}"] = _peak_kb()
            row[f"done_{budget}"] = move is not None
            if move is not None:
                row["same"] = move[0] == played.opens[0]
                row["win"] = round(move[1], 6)
                row["played_win"] = round(self.value_of(known, found, played.opens[0], budget), 6)
                break
        self.extra += time.process_time() - probe_start
        print(json.dumps(row), flush=True)
        return played

    @staticmethod
    def value_of(known: View, found: list[frozenset[int]], cell: int, budget: int) -> float:
        """The chance to win after opening ``cell``, playing perfectly from then on: each
        number it may show is a smaller exact search (the same compiled tree)."""
        if all(cell in layout for layout in found):
            return 0.0
        safe = [layout for layout in found if cell not in layout]
        around = known.topology.neighbours(cell)
        parts: dict[int, list[frozenset[int]]] = {}
        for layout in safe:
            parts.setdefault(sum(1 for o in around if o in layout), []).append(layout)
        total = 0.0
        for part in parts.values():
            if len(part) == 1:
                total += 1 / len(found)
                continue
            shown = _search(known, known.unknown(), part, [1] * len(part), budget)
            total += len(part) / len(found) * (shown[1] if shown else float("nan"))
        return total


def main(
    rules: str,
    games: int,
    seed: int,
    first: int = 0,
    top: int = TOP,
    played_layouts: int = Best.endgame_layouts.default,
    played_nodes: int = Best.endgame_nodes.default,
) -> None:
    (spec,) = resolve_presets(["expert"])
    played = {"played_layouts": played_layouts, "played_nodes": played_nodes}
    head = {"rules": rules, "games": games, "seed": seed, "first": first, "top": top}
    print(json.dumps({**head, **played}), flush=True)
    deal = Deal.of_preset(spec, Rules(rules), first + games)
    for index in range(first, first + games):
        board, click = deal.game(seed, index)
        probe = Probe(strategy_seed(seed, deal.name, index), index, top)
        probe.endgame_layouts, probe.endgame_nodes = played_layouts, played_nodes
        start = time.process_time()
        record = play(board, click, probe, deal.rules.tells_mine_count)
        cpu = round(time.process_time() - start - probe.extra, 4)
        print(
            json.dumps(
                {
                    "game": index,
                    "summary": True,
                    "cpu": cpu,
                    "won": record.won,
                    "guesses": record.guesses,
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main(sys.argv[1], *map(int, sys.argv[2:]))
