"""Write testcases/basic/long-30x30.{in,out}: a 30x30 board with a long move list.

The expected output is derived from the board's shape by hand, not by running
the server: a full column of mines at c = 15 splits the board into two
regions of zeros. Column 14 and 16 cells touch 3 mines (2 in the top and
bottom rows); every other safe cell is a 0. So one visit floods a whole side,
every later visit inside it is a repeat (same map, one more step), and the
visit that floods the other side wins. Deliberately independent of the package.
"""

from __future__ import annotations

from pathlib import Path

N = 30
WALL = 15
OUT = Path(__file__).resolve().parent.parent / "testcases" / "basic"


def border(row: int) -> str:
    return "2" if row in (0, N - 1) else "3"


def left_open(row: int) -> str:
    return "0" * (WALL - 1) + border(row) + "?" * (N - WALL)


def won(row: int) -> str:
    return "0" * (WALL - 1) + border(row) + "@" + border(row) + "0" * (N - WALL - 2)


def main() -> None:
    board = ["." * WALL + "X" + "." * (N - WALL - 1) for _ in range(N)]
    # 1 flooding move, 119 repeats spread over the open left side, then the winning move.
    moves = [(0, 0)] + [((7 * i) % N, (11 * i) % WALL) for i in range(1, 120)] + [(N - 1, N - 1)]
    text_in = f"{N} {N}\n" + "\n".join(board) + "\n"
    text_in += "".join(f"{r} {c}\n" for r, c in moves)
    maps = ["?" * N] * N + [left_open(r) for r in range(N)] * 120 + [won(r) for r in range(N)]
    safe = N * N - N
    text_out = "\n".join(maps) + f"\nYOU WIN!\n{safe} {len(moves)}\n"
    (OUT / "long-30x30.in").write_text(text_in)
    (OUT / "long-30x30.out").write_text(text_out)


if __name__ == "__main__":
    main()
