"""``python -m minesweeper`` runs the command line."""

from minesweeper.cli import main

main(prog_name="minesweeper")
