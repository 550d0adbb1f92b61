"""Which guess wins most at a common early position, by heavy play-on from each candidate.

    python scripts/research/early_guess.py measure --board 16x30/99 --shown 0,0=1 --cell 2,0 \\
        --layouts 9000 --seed 1 --out e1.jsonl
    python scripts/research/early_guess.py report e1.jsonl

``measure`` plays on from the position (``--shown R,C=N``: revealed numbers, on a
``ROWSxCOLS/MINES`` square board; ``/?`` for a count not told) from each candidate:
`best`'s own look-ahead candidates (``--only``: its choice alone) plus any
``--cell R,C``. Layouts are drawn uniformly and exactly
(`minesweeper.solver.rollout.strata`: by which candidates are safe, each kind with
its exact chance), in blocks (``--block``, 100), and every layout is played to the
end by `best` from each candidate safe in it: the same board for every candidate, so
their differences have little noise. Each block is one line of
``--out``, drawn from its own seed (``--seed`` and the block's number): a rerun
resumes where it stopped, and the same seed writes the same lines.

``report`` gives each candidate's chance to win with its 95% interval, and its
difference from `best`'s choice, paired (the common classic first guesses measured this
way: docs/research/search.md). `first_guess.py` asks the same of `bench`'s boards with the
first guess forced, whatever number the corner shows; this draws every layout from one
position, kind by kind with exact chances.
"""

from __future__ import annotations

import json
import math
import random
import sys
from pathlib import Path
from typing import Any

import click

from minesweeper.board import Board
from minesweeper.client import play_on
from minesweeper.solver.best import Best
from minesweeper.solver.rollout import Z95, Played, Playout, shares, strata
from minesweeper.solver.view import View
from minesweeper.topology import SquareTopology


def parse_board(text: str) -> tuple[int, int, int | None]:
    """``16x30/99`` (``/?``: the count not told) as rows, cols, mines."""
    try:
        size, _, count = text.partition("/")
        rows, _, cols = size.partition("x")
        return int(rows), int(cols), None if count == "?" else int(count)
    except ValueError:
        raise click.BadParameter(f"{text!r} is not ROWSxCOLS/MINES") from None


def parse_cell(text: str) -> tuple[int, int]:
    try:
        r, c = text.split(",")
        return int(r), int(c)
    except ValueError:
        raise click.BadParameter(f"{text!r} is not R,C") from None


def parse_shown(text: str) -> tuple[int, int, int]:
    cell, _, number = text.partition("=")
    try:
        return (*parse_cell(cell), int(number))
    except ValueError:
        raise click.BadParameter(f"{text!r} is not R,C=N") from None


def position(header: dict[str, Any]) -> View:
    topology = SquareTopology(header["rows"], header["cols"])
    revealed = {topology.cell_at(r, c): n for r, c, n in header["revealed"]}
    return View(topology, revealed, frozenset(), header["mines"])


def candidates(
    view: View, extra: list[tuple[int, int]], only: bool = False
) -> tuple[int, list[int]]:
    """`best`'s choice at ``view``, and the cells to compare: its look-ahead candidates
    (its choice first; with ``only``, its choice alone) and ``extra``."""
    player = Best(0)
    choice = player.decide(view)
    if not choice.guess:
        raise click.UsageError("best has a certain move there: nothing to choose")
    ours = choice.opens[0]
    looks = [] if only else player.outlooks(view, player.solve(view))
    cells = [ours, *sorted({look.cell for look in looks} - {ours})]
    cols = view.topology.shape[1]
    cells += [r * cols + c for r, c in extra if r * cols + c not in cells]
    return ours, cells


def play_block(view: View, cells: list[int], seed: int, block: int, size: int) -> dict[str, Any]:
    """One block of ``size`` layouts played on from every candidate safe in each."""
    rng = random.Random(f"{seed}:{block}")
    kinds = strata(view, cells)
    tell = view.mine_count is not None
    found = []
    for kind, count in zip(kinds, shares([k.chance for k in kinds], size), strict=True):
        games = []
        for _ in range(count):
            board = Board(view.topology, kind.sampler.sample(rng))
            game_seed = rng.getrandbits(32)
            games.append(
                {
                    str(cell): int(play_on(board, view, cell, Best(game_seed), tell).won)
                    for cell in sorted(kind.safe)
                }
            )
        found.append({"safe": sorted(kind.safe), "chance": kind.chance, "games": games})
    return {"block": block, "kinds": found}


def read(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A measure file's header and blocks (a cut last line is dropped)."""
    lines = [line for line in path.read_text().splitlines(keepends=True) if line.endswith("\n")]
    if not lines:
        raise click.UsageError(f"{path} holds no measurement")
    header = json.loads(lines[0])
    return header, [json.loads(line) for line in lines[1:]]


def playout(header: dict[str, Any], blocks: list[dict[str, Any]]) -> Playout:
    """Every block's games pooled kind by kind (every block has the same kinds)."""
    merged: dict[frozenset[int], tuple[float, list[dict[int, float]]]] = {}
    for block in blocks:
        for kind in block["kinds"]:
            safe = frozenset(kind["safe"])
            games = merged.setdefault(safe, (kind["chance"], []))[1]
            games += [{int(c): float(w) for c, w in g.items()} for g in kind["games"]]
    kinds = tuple(Played(safe, chance, tuple(games)) for safe, (chance, games) in merged.items())
    return Playout(tuple(header["cells"]), kinds)


def summary(header: dict[str, Any], result: Playout) -> list[dict[str, Any]]:
    """Per candidate: its chance to win, its interval, and its difference from `best`'s."""
    cols, ours = header["cols"], header["ours"]
    rows = []
    for cell in header["cells"]:
        gain = result.win(cell) - result.win(ours)
        error = result.error(cell, ours) if cell != ours else 0.0
        rows.append(
            {
                "cell": list(divmod(cell, cols)),
                "win": result.win(cell),
                "error": result.error(cell),
                "gain": gain,
                "gain_error": error,
            }
        )
    return rows


@click.group()
def main() -> None:
    """Play on from a common early position's candidates, and report who wins more."""


@main.command()
@click.option("--board", "board_text", required=True, help="ROWSxCOLS/MINES (/? untold).")
@click.option("--shown", multiple=True, required=True, help="A revealed number: R,C=N.")
@click.option("--cell", "extra", multiple=True, help="One more candidate: R,C.")
@click.option("--only", is_flag=True, help="Compare best's choice with the --cell ones alone.")
@click.option("--layouts", default=1000, show_default=True)
@click.option("--seed", default=0, show_default=True)
@click.option("--block", default=100, show_default=True, help="Layouts per line of --out.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), required=True)
def measure(board_text, shown, extra, only, layouts, seed, block, out) -> None:
    """Play on from a position's candidates over --layouts layouts (resumable)."""
    rows, cols, mines = parse_board(board_text)
    revealed = sorted(parse_shown(s) for s in shown)
    header = {"rows": rows, "cols": cols, "mines": mines, "revealed": revealed, "seed": seed}
    view = position(header)
    ours, cells = candidates(view, [parse_cell(c) for c in extra], only)
    header |= {"ours": ours, "cells": cells, "block": block}
    header = json.loads(json.dumps(header))  # as a rerun reads it back
    done = 0
    if out.exists():
        old, blocks = read(out)
        if {k: old[k] for k in header} != header:
            raise click.UsageError(f"{out} holds another measurement")
        done = len(blocks)
        with out.open("r+") as handle:  # drop a cut last line
            text = handle.read()
            handle.seek(0)
            handle.write(text[: text.rfind("\n") + 1])
            handle.truncate()
    else:
        out.write_text(json.dumps(header) + "\n")
    with out.open("a") as sink:
        for number in range(done, math.ceil(layouts / block)):
            sink.write(json.dumps(play_block(view, cells, seed, number, block)) + "\n")
            sink.flush()


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
def report(paths) -> None:
    """Each candidate's chance to win, and its paired difference from best's choice."""
    for path in paths:
        header, blocks = read(path)
        result = playout(header, blocks)
        click.echo(
            f"{path}: {header['rows']}x{header['cols']}/{header['mines']} "
            f"shown {header['revealed']}, {result.played} layouts"
        )
        for row in summary(header, result):
            half = Z95 * row["error"]
            gain_half = Z95 * row["gain_error"]
            click.echo(
                f"  {tuple(row['cell'])!s:9} win {row['win']:.2%} +- {half:.2%}   "
                f"vs best's {row['gain'] * 100:+.2f} +- {gain_half * 100:.2f} points"
            )


if __name__ == "__main__":
    sys.exit(main())
