"""What a far stronger chooser would gain at one guess: heavy play-on among `best`'s top cells.

    minesweeper bench --boards F --rules modern --strategy best --jobs 1 --decisions ours.jsonl
    python scripts/research/headroom.py ours.jsonl --guess 1 --boards 0 299 --out hr.jsonl
    python scripts/research/headroom.py ours.jsonl --report hr.jsonl

At the ``--guess``-th guess of each game of a ``bench --decisions`` log (where `best`
guessed by its look-ahead), `best`'s own cell and the next best of its look-ahead's
candidates (``--candidates`` in all) are played on over ``--layouts`` layouts
(`minesweeper.solver.rollout.play_on_layouts`, `best` playing on). The cell that wins
most there is the stronger chooser's; where it is not `best`'s, a second, independent
draw of as many layouts values it against `best`'s, so that the gain is not the first
draw's luck in picking a winner. The report gives the mean gain per position (0 where
the two choose alike) with its 95% interval: an estimate of what choosing by play-on
would add at that guess, and so a bound on what the look-ahead leaves there.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path
from typing import Any

from minesweeper.bench.choices import Logged, read_log
from minesweeper.errors import InputError, MinesweeperError
from minesweeper.intervals import Z95
from minesweeper.solver.best import Best
from minesweeper.solver.layouts import ApproximateCount
from minesweeper.solver.rollout import play_on_layouts


def chosen(logged: Logged, candidates: int, layouts: int) -> dict[str, Any] | None:
    """The position's line: whether the heavy chooser switches and, if so, its gain."""
    best = Best(0)
    looks = sorted(best.outlooks(logged.view, best.solve(logged.view)), key=lambda o: -o.score)
    ours = best.decide(logged.view).opens[0]
    cells = [ours, *[o.cell for o in looks if o.cell != ours][: candidates - 1]]
    row: dict[str, Any] = {"board": logged.board, "guess": logged.guess, "cells": cells}
    row.update(switched=False, gain=0.0, error=0.0)
    if len(cells) < 2:
        return row
    where = f"{logged.board}:{logged.guess}"
    try:
        first = play_on_layouts(
            logged.view, cells, lambda: Best(0), layouts, random.Random(f"A:{where}")
        )
        star = max(cells, key=first.win)
        if star == ours:
            return row
        second = play_on_layouts(
            logged.view, [star, ours], lambda: Best(0), layouts, random.Random(f"B:{where}")
        )
    except ApproximateCount:
        return None  # no exact layouts to draw from
    gain, error = second.win(star) - second.win(ours), second.error(star, ours)
    return {**row, "switched": True, "star": star, "gain": gain, "error": error}


def read_rows(path: Path) -> list[dict[str, Any]]:
    """The positions a run finished (a cut last line, as a killed run leaves it, dropped)."""
    rows = []
    for number, line in enumerate(path.read_text().splitlines(keepends=True), 1):
        if line.endswith("\n"):
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                raise InputError(number, "not a line of this script", str(path)) from None
    return rows


def report(rows: list[dict[str, Any]]) -> str:
    if not rows:
        return "no positions"
    n, switched = len(rows), sum(row["switched"] for row in rows)
    mean = sum(row["gain"] for row in rows) / n
    half = Z95 * math.sqrt(sum(row["error"] ** 2 for row in rows)) / n
    return (
        f"positions {n}, the heavy chooser switches in {switched} ({switched / n:.0%}); "
        f"gain per position {mean * 100:+.2f} points [{(mean - half) * 100:+.2f}, "
        f"{(mean + half) * 100:+.2f}]"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("log", type=Path, help="our decision log (bench --decisions)")
    parser.add_argument("--guess", type=int, default=1, help="the k-th guess of each game")
    parser.add_argument("--boards", type=int, nargs=2, metavar=("FIRST", "LAST"))
    parser.add_argument("--candidates", type=int, default=4, help="best's cell and the next")
    parser.add_argument("--layouts", type=int, default=64, help="per draw")
    parser.add_argument("--out", type=Path, help="JSON lines, one per position (resumable)")
    parser.add_argument("--report", type=Path, metavar="OUT", help="only report on this file")
    args = parser.parse_args()
    if args.report:
        print(report(read_rows(args.report)))
        return
    if args.out is None:
        parser.error("--out is required to play")
    rows = read_rows(args.out) if args.out.exists() else []
    done = {(row["board"], row["guess"]) for row in rows}
    first, last = args.boards or (0, sys.maxsize)
    with args.out.open("a") as sink:
        for logged in read_log(args.log):
            if logged.guess != args.guess or not first <= logged.board <= last:
                continue
            if logged.row.get("method") != "look-ahead" or (logged.board, logged.guess) in done:
                continue
            row = chosen(logged, args.candidates, args.layouts)
            if row is not None:
                sink.write(json.dumps(row) + "\n")
                sink.flush()
    print(report(read_rows(args.out)))


if __name__ == "__main__":
    try:
        main()
    except (MinesweeperError, OSError) as error:
        sys.exit(f"headroom: {error}")
