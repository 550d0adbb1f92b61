"""What the research scripts share. Each runs as ``python scripts/research/NAME.py``, which
puts this folder first on the import path, so ``from common import ...`` finds this
module and no script imports another. Intervals come from `minesweeper.intervals`, boards
from bench's deals, so that a script's game ``i`` is ``minesweeper bench``'s game ``i``.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import resource
import statistics
import sys
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import ModuleType
from typing import IO, Any

from minesweeper.bench import Deal, resolve_presets
from minesweeper.board import Board
from minesweeper.intervals import mcnemar_exact, median_interval, wilson_interval
from minesweeper.solver import View, frontier
from minesweeper.variant import Rules

#: The repository's test suite, whose helper modules some measurements borrow.
TESTS = Path(__file__).resolve().parents[2] / "tests"


def from_tests(name: str) -> ModuleType:
    """The test suite's helper module ``tests/NAME.py`` (the ladder's server processes,
    say), loaded from its file."""
    path = TESTS / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


# -- bench's boards ----------------------------------------------------------------------------


def preset_boards(
    preset: str, rules: Rules, games: int, seed: int, offset: int = 0
) -> Iterator[tuple[int, Board, int]]:
    """Games ``offset`` to ``offset + games - 1`` of ``minesweeper bench --preset PRESET
    --rules RULES --seed SEED``: each game's index, board and first click."""
    (spec,) = resolve_presets([preset])
    deal = Deal.of_preset(spec, rules, offset + games)
    for index in range(offset, offset + games):
        board, first = deal.game(seed, index)
        yield index, board, first


# -- games of several variants, one JSON line each ----------------------------------------------


def game_rows(paths: Iterable[Path]) -> dict[str, dict[int, dict[str, Any]]]:
    """The lines ``{"variant", "index", "won", "seconds"}`` of ``paths`` by variant and game
    index (a line cut short, as a killed run leaves the last one, is skipped)."""
    games: dict[str, dict[int, dict[str, Any]]] = {}
    for path in paths:
        if not path.exists():
            continue
        for line in path.read_text().splitlines():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue
            games.setdefault(row["variant"], {})[row["index"]] = row
    return games


def write_row(sink: IO[str], variant: str, index: int, won: bool, seconds: float) -> None:
    """One game's line (flushed: a killed run keeps what it played)."""
    row = {"variant": variant, "index": index, "won": won, "seconds": round(seconds, 4)}
    sink.write(json.dumps(row) + "\n")
    sink.flush()


def paired_report(games: dict[str, dict[int, dict[str, Any]]]) -> str:
    """Each variant's win rate with its 95% Wilson interval and median CPU seconds per game,
    then each against the first, on the games both played: the games only one of the two
    won, and McNemar's exact p on those."""
    lines = []
    for name, rows in games.items():
        wins, played = sum(r["won"] for r in rows.values()), len(rows)
        low, high = wilson_interval(wins, played)
        median = statistics.median(r["seconds"] for r in rows.values())
        lines.append(
            f"{name:40} {wins:5}/{played:<5} {wins / played:6.1%} "
            f"[{low:.1%}, {high:.1%}]  median {median:.3f} s/game"
        )
    names = list(games)
    first = games[names[0]] if names else {}
    for name in names[1:]:
        shared = sorted(first.keys() & games[name].keys())
        only_first = sum(first[i]["won"] and not games[name][i]["won"] for i in shared)
        only_this = sum(games[name][i]["won"] and not first[i]["won"] for i in shared)
        p = mcnemar_exact(only_this, only_first)
        lines.append(
            f"{name} vs {names[0]} on {len(shared)} games: won only by {name}: {only_this}, "
            f"only by {names[0]}: {only_first}, McNemar p = {p:.3g}"
        )
    return "\n".join(lines)


# -- timings ----------------------------------------------------------------------------------


def show(label: str, values: list[float], unit: str = "ms", scale: float = 1000) -> None:
    """One line: ``label``'s median of ``values`` and its 95% interval, in ``unit``."""
    low, high = median_interval(values)
    median = statistics.median(values)
    print(
        f"  {label:38} {median * scale:8.3f} {unit}  (95% {low * scale:.3f} to {high * scale:.3f})"
    )


def children_cpu() -> float:
    """The CPU seconds of this process's finished children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


# -- the judge's paired games -------------------------------------------------------------------

#: ``python -m minesweeper``, the package as this interpreter has it.
PYTHON = [sys.executable, "-m", "minesweeper"]


def piped(case: Any, sandbox: Any = None) -> tuple[str, float, float]:
    """This process judging ``minesweeper client`` on ``case`` (an `AdvancedCase`; in
    ``sandbox``, a `Sandbox`, unless None): the result lines, CPU (both) and wall."""
    from minesweeper.judge.interactive import play_client
    from minesweeper.judge.process import Limits
    from minesweeper.protocol import format_result

    cpu, wall = time.process_time(), time.perf_counter()
    limits = Limits(move_seconds=30, game_seconds=120)
    run = play_client(case, [*PYTHON, "client"], limits, sandbox=sandbox)
    wall = time.perf_counter() - wall
    if run.problem:
        sys.exit(f"{case.name}: {run.problem}")
    return format_result(run.game), time.process_time() - cpu + run.cpu_seconds, wall


def game_options(
    parser: argparse.ArgumentParser, games: int = 20, size: tuple[int, int, int] = (30, 30, 135)
) -> None:
    """The options of the paired games: how many, their seed, and the boards' rows, columns
    and mines."""
    parser.add_argument("--games", type=int, default=games)
    parser.add_argument("--seed", type=int, default=1)
    for name, default in zip(("--rows", "--cols", "--mines"), size, strict=True):
        parser.add_argument(name, type=int, default=default)


# -- positions ---------------------------------------------------------------------------------


def largest_component(view: View) -> int:
    """Cells in the largest connected piece of the frontier (linked through shared numbers)."""
    cells = frontier(view)
    neighbours = view.topology.neighbours
    seen: set[int] = set()
    largest = 0
    for start in cells:
        if start in seen:
            continue
        seen.add(start)
        stack, size = [start], 0
        while stack:
            cell = stack.pop()
            size += 1
            for number in neighbours(cell):
                if number in view.revealed:
                    for other in neighbours(number):
                        if other in cells and other not in seen:
                            seen.add(other)
                            stack.append(other)
        largest = max(largest, size)
    return largest
