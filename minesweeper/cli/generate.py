"""`minesweeper generate`: seeded random boards as advanced `.in` cases."""

from __future__ import annotations

import os
import random
import re
import sys
from pathlib import Path

import click

from minesweeper.boards.cases import format_case
from minesweeper.boards.generate import middle_cell, random_board, start_cell
from minesweeper.boards.mbf import MbfError, write_mbf
from minesweeper.boards.noguess import no_guess_board
from minesweeper.cli.common import reports_errors, seed_option
from minesweeper.cli.gameopts import game_options
from minesweeper.errors import UsageError
from minesweeper.outputs import check_destination, prepare_folder, write_file
from minesweeper.play.session import Settings
from minesweeper.solver.prover import find_prover
from minesweeper.topology.square import SquareTopology


@click.command()
@game_options
@click.option(
    "--first",
    type=(int, int),
    metavar="R C",
    help="The first click, 0-based (default: the rules' start on a preset's board, "
    "else the middle).",
)
@seed_option(fresh=True)
@click.option(
    "--count",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="How many boards: printed one after another, or written as NAME-001.in, ... with --out.",
)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write NAME-001.in ... into this directory instead of printing (never through links).",
)
@click.option("--force", is_flag=True, help="Overwrite files that already exist in --out.")
@click.option(
    "--format",
    "file_format",
    type=click.Choice(["in", "mbf"], case_sensitive=False),
    default="in",
    show_default=True,
    help="in: the advanced .in text (board and first click); "
    "mbf: the binary board of Minesweeper X and JSMinesweeper (square boards, no first click).",
)
@reports_errors
def generate(
    settings: Settings,
    first: tuple[int, int] | None,
    seed: int,
    count: int,
    out: Path | None,
    force: bool,
    file_format: str,
) -> None:
    """Random boards, each followed by its first click (the advanced `.in` format).

    Mines keep away from the first click as --rules says; with --no-guess
    each board is one the prover solves from that click without guessing.
    With --format mbf each board is an MBF file (one board per file, so more
    than one needs --out).
    """
    variant = settings.variant
    mbf = file_format.lower() == "mbf"
    if mbf:
        if variant.topology is not SquareTopology:
            raise MbfError(None, f"MBF holds square boards only, not {variant.name} ones")
        if out is None and count > 1:
            raise UsageError("an MBF file holds one board: give --out for --count above 1")
        if out is None and sys.stdout.isatty():
            raise UsageError("MBF is binary: redirect it to a file or give --out")
    name = variant.preset_name
    label = name or f"{variant.rows}x{variant.cols}-{variant.mines}"
    if settings.no_guess:
        label += "-noguess"
    suffix = ".mbf" if mbf else ".in"
    if out is not None:  # every check on the output comes before any work
        prepare_folder(out)
        for path in existing_outputs(out, label, suffix, count) if out.is_dir() else []:
            check_destination(path, force)
    if first is None and name is not None:
        first = variant.start
    prover = find_prover(settings.prover)  # the name, resolved once
    # Start cells are read as bench reads them: a graph's node r * cols + c.
    rng = random.Random(seed)
    for index in range(1, count + 1):  # each board goes out as soon as it is made
        # Tilings and graphs are drawn afresh for each board; grids are all the same.
        grid = variant.make_topology(rng)
        start = middle_cell(grid) if first is None else start_cell(grid, first, variant.cols)
        if settings.no_guess:
            board = no_guess_board(grid, variant.mines, start, variant.first_click, rng, prover)
        else:
            board = random_board(grid, variant.mines, rng, start, variant.first_click)
        # MBF, or the board in its topology's text format and then the first click.
        data = write_mbf(board) if mbf else format_case(board, start).encode()
        if index == 1:  # once the settings have proved they make a board
            click.echo(f"seed {seed}", err=True)
        if out is None:
            click.echo(data, nl=False)  # bytes go to the binary stream as they are
        else:
            write_file(out / output_name(label, suffix, index), data, overwrite=force)
    if out is not None:
        click.echo(f"wrote {count} board(s) to {out}", err=True)


def output_name(label: str, suffix: str, index: int) -> str:
    """The file name of board ``index`` (from 1): ``LABEL-001.in``."""
    return f"{label}-{index:03d}{suffix}"


def existing_outputs(out: Path, label: str, suffix: str, count: int) -> list[Path]:
    """The entries of ``out`` that boards 1 to ``count`` would be written to, found by
    listing the folder once (``count`` may be far larger than the folder)."""
    pattern = re.compile(rf"{re.escape(label)}-(\d+){re.escape(suffix)}")
    found = []
    for entry in sorted(os.listdir(out)):
        match = pattern.fullmatch(entry)
        index = int(match[1]) if match else 0
        if 1 <= index <= count and entry == output_name(label, suffix, index):
            found.append(out / entry)
    return found
