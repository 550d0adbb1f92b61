"""Judge server speed, end to end with process start: medians over repeated runs.

    python scripts/research/bench_server.py [--runs 7] [--seed 1]

Cases: a 30x30 board with 1000 moves (random cells, repeats included, on a
board dense enough that the game is still going after 1000 moves is not
guaranteed, so the mines are kept off the move list), and a 1000x1000 board
opened by one flood fill from (0, 0) with its only mine in the far corner.
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def moves_case(seed: int) -> str:
    rng = random.Random(seed)
    n = 30
    cells = [(r, c) for r in range(n) for c in range(n)]
    mines = set(rng.sample(cells, 90))
    safe = [cell for cell in cells if cell not in mines]
    # 1000 moves on safe cells only, never covering them all: the game runs to the end.
    pool = rng.sample(safe, len(safe) // 2)
    moves = [rng.choice(pool) for _ in range(1000)]
    rows = ["".join("X" if (r, c) in mines else "." for c in range(n)) for r in range(n)]
    return f"{n} {n}\n" + "\n".join(rows) + "\n" + "".join(f"{r} {c}\n" for r, c in moves)


def flood_case() -> str:
    n = 1000
    rows = ["." * n] * (n - 1) + ["." * (n - 1) + "X"]
    return f"{n} {n}\n" + "\n".join(rows) + "\n0 0\n"


def median_seconds(path: Path, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "minesweeper", "server", str(path)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cases = {
            "30x30, 1000 moves": (moves_case(args.seed), 0.3),
            "1000x1000, one flood fill": (flood_case(), 2.0),
        }
        for name, (text, target) in cases.items():
            path = Path(tmp) / "case.in"
            path.write_text(text)
            seconds = median_seconds(path, args.runs)
            verdict = "ok" if seconds < target else "SLOW"
            print(
                f"{name:28} median {seconds:.3f} s over {args.runs} runs "
                f"(target < {target} s) {verdict}"
            )


if __name__ == "__main__":
    main()
