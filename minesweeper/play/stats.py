"""Statistics of a game as players measure it: 3BV, clicks, efficiency, 3BV/s.

3BV (Bechtel's Board Benchmark Value) is the least number of clicks that clears
a board without flags: each opening (a connected group of zeros, with the
numbers around it) takes one click, and each safe cell on no opening's edge
takes one. Cells are graph nodes, so the same definition holds on every
topology: "connected" and "around" follow the topology's neighbour lists, the
ones a zero's flood follows.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass

from minesweeper.board import Board


def openings(board: Board) -> list[list[int]]:
    """The board's openings: each the zeros one click on any of them reveals, in id order."""
    counts, mines = board.counts, board.mines
    neighbours = board.topology.neighbours
    seen = bytearray(board.size)
    found: list[list[int]] = []
    for start in range(board.size):
        if seen[start] or counts[start] or start in mines:
            continue
        seen[start] = 1
        group, stack = [start], [start]
        while stack:
            for cell in neighbours(stack.pop()):
                if not seen[cell] and not counts[cell] and cell not in mines:
                    seen[cell] = 1
                    group.append(cell)
                    stack.append(cell)
        found.append(sorted(group))
    return found


def _lone_cells(board: Board) -> list[int]:
    """Safe numbered cells that touch no zero: each needs a click of its own."""
    counts, mines = board.counts, board.mines
    neighbours = board.topology.neighbours
    return [
        cell
        for cell in range(board.size)
        if cell not in mines
        and counts[cell]
        and all(other in mines or counts[other] for other in neighbours(cell))
    ]


def bbbv(board: Board) -> int:
    """The board's 3BV: its openings plus its safe cells on no opening's edge."""
    return len(openings(board)) + len(_lone_cells(board))


def solved_bbbv(board: Board, revealed: Container[int]) -> int:
    """How much of the board's 3BV the ``revealed`` cells account for.

    An opening counts once any of its zeros is revealed (the flood reveals them
    all); a lone numbered cell counts when it is revealed. Equals `bbbv` once
    every safe cell is revealed.
    """
    done = sum(1 for group in openings(board) if any(cell in revealed for cell in group))
    return done + sum(1 for cell in _lone_cells(board) if cell in revealed)


@dataclass(frozen=True)
class Clicks:
    """Clicks a player made: ``left`` opens, ``right`` flags and unflags, ``chord`` chords.

    Every click counts, also one that changed nothing (on an opened cell, say).
    """

    left: int = 0
    right: int = 0
    chord: int = 0

    @property
    def total(self) -> int:
        return self.left + self.right + self.chord


@dataclass(frozen=True)
class GameStats:
    """One finished (or stopped) game, measured.

    ``bbbv`` is the board's 3BV, ``solved`` the part of it the revealed cells
    account for (all of it on a win), ``ms`` the time played in milliseconds.
    """

    bbbv: int
    solved: int
    clicks: Clicks
    ms: int
    won: bool

    @property
    def seconds(self) -> float:
        return self.ms / 1000

    @property
    def efficiency(self) -> float | None:
        """3BV solved per click (1.0: no click wasted; above 1 with chords); None before a click."""
        return self.solved / self.clicks.total if self.clicks.total else None

    @property
    def bbbv_per_second(self) -> float | None:
        """3BV solved per second played; None when no time has passed."""
        return self.solved / self.seconds if self.ms > 0 else None

    def summary(self, *, by_computer: bool = False) -> str:
        """One line for people, e.g. ``3BV 31/31, 40 clicks (28 left, 9 right, 3 chord), ...``.

        ``by_computer``: the computer's game, whose pace is its move delay, not a
        player's speed: its 3BV/s is left out, so it never stands beside a person's.
        """
        clicks = self.clicks
        parts = [
            f"3BV {self.solved}/{self.bbbv}",
            f"{clicks.total} clicks ({clicks.left} left, {clicks.right} right, "
            f"{clicks.chord} chord)",
        ]
        if self.efficiency is not None:
            parts.append(f"efficiency {self.efficiency:.0%}")
        if self.bbbv_per_second is not None and not by_computer:
            parts.append(f"{self.bbbv_per_second:.2f} 3BV/s")
        parts.append(f"{self.seconds:.3f} s")
        return ", ".join(parts)

    def as_json(self) -> dict[str, object]:
        """A JSON object of every figure (efficiency and 3BV/s rounded to 4 places)."""

        def rounded(value: float | None) -> float | None:
            return None if value is None else round(value, 4)

        return {
            "bbbv": self.bbbv,
            "solved_bbbv": self.solved,
            "clicks": {
                "left": self.clicks.left,
                "right": self.clicks.right,
                "chord": self.clicks.chord,
                "total": self.clicks.total,
            },
            "efficiency": rounded(self.efficiency),
            "bbbv_per_second": rounded(self.bbbv_per_second),
            "ms": self.ms,
            "won": self.won,
        }
