"""`minesweeper generate`: seeded random boards as advanced `.in` cases."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import click

from minesweeper.cases import format_case
from minesweeper.cli.common import reports_errors, seed_option
from minesweeper.cli.gameopts import game_options
from minesweeper.errors import MinesweeperError
from minesweeper.generate import PRESETS, Rules, middle_cell, random_board, start_cell
from minesweeper.mbf import MbfError, write_mbf
from minesweeper.noguess import no_guess_board
from minesweeper.session import Settings


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
@click.option("--count", type=click.IntRange(min=1), default=1, show_default=True)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Write NAME-001.in ... into this directory instead of printing.",
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
    rules: Rules,
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
    mbf = file_format.lower() == "mbf"
    if mbf:
        if settings.topology != "square":
            raise MbfError(f"MBF holds square boards only, not {settings.topology} ones")
        if out is None and count > 1:
            raise MinesweeperError("an MBF file holds one board: give --out for --count above 1")
        if out is None and sys.stdout.isatty():
            raise MinesweeperError("MBF is binary: redirect it to a file or give --out")
    name = settings.preset_name
    label = name or f"{settings.rows}x{settings.cols}-{settings.mines}"
    if settings.no_guess:
        label += "-noguess"
    paths: list[Path] = []
    if out is not None:
        suffix = ".mbf" if mbf else ".in"
        paths = [out / f"{label}-{index:03d}{suffix}" for index in range(1, count + 1)]
        existing = [path for path in paths if path.exists()]
        if existing and not force:
            raise MinesweeperError(
                f"{existing[0]} already exists ({len(existing)} of the {count} file(s)); "
                "use --force to overwrite, or another --out"
            )
    if first is None and name is not None:
        first = rules.start(PRESETS[name])
    # Start cells are read as bench reads them: a graph's node r * cols + c.
    rng = random.Random(seed)
    files: list[bytes] = []
    for _ in range(count):
        # Tilings and graphs are drawn afresh for each board; grids are all the same.
        grid = settings.make_topology(rng)
        start = middle_cell(grid) if first is None else start_cell(grid, first, settings.cols)
        if settings.no_guess:
            board = no_guess_board(
                grid, settings.mines, start, settings.first_click, rng, settings.prover
            )
        else:
            board = random_board(grid, settings.mines, rng, start, settings.first_click)
        if mbf:
            files.append(write_mbf(board))
        else:
            # The board in its topology's text format, then the first click.
            files.append(format_case(board, start).encode())
    click.echo(f"seed {seed}", err=True)
    if out is None:
        click.echo(b"".join(files), nl=False)  # bytes go to the binary stream as they are
        return
    out.mkdir(parents=True, exist_ok=True)
    for path, data in zip(paths, files, strict=True):
        path.write_bytes(data)
    click.echo(f"wrote {count} board(s) to {out}", err=True)
