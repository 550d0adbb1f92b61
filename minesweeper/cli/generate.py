"""`minesweeper generate`: seeded random boards as advanced `.in` cases."""

from __future__ import annotations

import os
import random
import re
from pathlib import Path

import click

from minesweeper.cases import format_case
from minesweeper.cli.common import reports_errors
from minesweeper.cli.gameopts import game_options
from minesweeper.generate import PRESETS, middle_cell, random_board, start_cell
from minesweeper.noguess import no_guess_board
from minesweeper.outputs import check_destination, prepare_folder, write_file
from minesweeper.session import Settings


@click.command()
@game_options
@click.option(
    "--first",
    type=(int, int),
    metavar="R C",
    help="The first click (default: the preset's, else the middle of the board).",
)
@click.option("--seed", type=int, help="Random seed: the same seed gives the same boards.")
@click.option("--count", type=click.IntRange(min=1), default=1, show_default=True)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write NAME-001.in ... into this directory instead of printing (never through links).",
)
@click.option("--force", is_flag=True, help="Overwrite files that already exist in --out.")
@reports_errors
def generate(
    settings: Settings,
    first: tuple[int, int] | None,
    seed: int | None,
    count: int,
    out: Path | None,
    force: bool,
) -> None:
    """Random boards, each followed by its first click (the advanced `.in` format).

    Mines keep away from the first click as --first-click says; with --no-guess
    each board is one the prover solves from that click without guessing.
    """
    name = settings.preset_name
    label = name or f"{settings.rows}x{settings.cols}-{settings.mines}"
    if settings.no_guess:
        label += "-noguess"
    if out is not None:  # every check on the output comes before any work
        prepare_folder(out)
        for path in existing_outputs(out, label, count):
            check_destination(path, force)
    if first is None and name is not None:
        first = PRESETS[name].start
    # Start cells are read as bench reads them: a graph's node r * cols + c.
    rng = random.Random(seed)
    for index in range(1, count + 1):  # each board goes out as soon as it is made
        # Tilings and graphs are drawn afresh for each board; grids are all the same.
        grid = settings.make_topology(rng)
        start = middle_cell(grid) if first is None else start_cell(grid, first, settings.cols)
        if settings.no_guess:
            board = no_guess_board(
                grid, settings.mines, start, settings.first_click, rng, settings.prover
            )
        else:
            board = random_board(grid, settings.mines, rng, start, settings.first_click)
        # The board in its topology's text format, then the first click.
        text = format_case(board, start)
        if out is None:
            click.echo(text, nl=False)
        else:
            write_file(out / output_name(label, index), text, overwrite=force)
    if out is not None:
        click.echo(f"wrote {count} board(s) to {out}", err=True)


def output_name(label: str, index: int) -> str:
    """The file name of board ``index`` (from 1): ``LABEL-001.in``."""
    return f"{label}-{index:03d}.in"


def existing_outputs(out: Path, label: str, count: int) -> list[Path]:
    """The entries of ``out`` that boards 1 to ``count`` would be written to, found by
    listing the folder once (``count`` may be far larger than the folder)."""
    pattern = re.compile(rf"{re.escape(label)}-(\d+)\.in")
    found = []
    for entry in sorted(os.listdir(out)):
        match = pattern.fullmatch(entry)
        if match and 1 <= int(match[1]) <= count and entry == output_name(label, int(match[1])):
            found.append(out / entry)
    return found
