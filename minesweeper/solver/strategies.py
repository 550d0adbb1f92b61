"""Imports every strategy module so that each registers itself."""

from minesweeper.solver import best as best
from minesweeper.solver import powermean as powermean
from minesweeper.solver import search as search
from minesweeper.solver import worlds as worlds
