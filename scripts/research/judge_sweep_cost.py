"""What looking for a foreign program's orphans costs the judge per case (Linux).

    python scripts/research/judge_sweep_cost.py [--cases 200] [--games 30] \\
        [--rows 9 --cols 9 --mines 10]

First, cases of a program that does nothing (``true``, then Python starting):
each is run as a `Child` and closed, as the judge does, timing the judge's
CPU and the program's; right after, the extra work alone is timed: an
`Adoption` (one scan of ``/proc``) and its `sweep` with nothing to find (one
more). The ratio is a case's CPU (judge and program) with that work over
without it. Then a program that leaves a double-forked daemon behind
(tests/clients/escape.py), which the sweep kills and reaps. Last, paired
games as in judge_overhead.py (`minesweeper client` piped), each board played
with the adoption and without it (as before it existed), alternating which
goes first. The scans read every process's ``/proc/PID/stat``, so the cost
grows with the processes on the machine (printed). Medians with
distribution-free 95% intervals; CPU by `time.process_time` and the
children's rusage.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from unittest import mock

from common import game_options, piped, show

from minesweeper.boards.cases import AdvancedCase
from minesweeper.boards.generate import random_board
from minesweeper.judge import orphans
from minesweeper.judge.process import Child, Limits
from minesweeper.topology import SquareTopology

ESCAPE = Path(__file__).resolve().parents[2] / "tests" / "clients" / "escape.py"


def case(command: list[str], ready: bool = False) -> float:
    """The CPU seconds of one case of ``command``: the judge's and the program's."""
    cpu = time.process_time()
    with Child(command, Limits()) as child:
        if ready:
            child.read_line(time.monotonic() + 10, "ready")
        child.wait_exit(time.monotonic() + 10)
    return time.process_time() - cpu + child.close().cpu_seconds


def extra() -> float:
    """The judge's CPU seconds for an adoption and its sweep, with nothing to sweep."""
    cpu = time.process_time()
    orphans.Adoption().sweep()
    return time.process_time() - cpu


def cases(label: str, command: list[str], count: int) -> None:
    whole, alone = [], []
    for _ in range(count):
        whole.append(case(command))
        alone.append(extra())
    show(f"CPU per case of {label}", whole)
    show("  of which adoption and sweep", alone)
    ratios = [w / (w - a) for w, a in zip(whole, alone, strict=True)]
    show("  ratio, with / without", ratios, "x", 1)


def games(args: argparse.Namespace) -> None:
    topology = SquareTopology(args.rows, args.cols)
    first = topology.cell_at(args.rows // 2, args.cols // 2)
    rng = random.Random(args.seed)
    ratios = []
    for game in range(args.games):
        board = AdvancedCase(random_board(topology, args.mines, rng, first, "zero"), first, "")
        cpu, results = {}, {}
        for adopting in (True, False) if game % 2 else (False, True):
            with mock.patch.object(orphans, "_subreaper", return_value=adopting):
                results[adopting], cpu[adopting], _ = piped(board)
        if results[True] != results[False]:
            sys.exit(f"game {game}: not the same game both ways")
        ratios.append(cpu[True] / cpu[False])
    show(f"games {args.rows}x{args.cols}/{args.mines}: CPU ratio", ratios, "x", 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=200)
    game_options(parser, 30, (9, 9, 10))
    args = parser.parse_args()
    if not sys.platform.startswith("linux"):
        sys.exit("the judge adopts orphans on Linux only")
    processes = sum(name.isdigit() for name in os.listdir("/proc"))
    print(f"{processes} processes on the machine")
    cases("`true`", ["true"], args.cases)
    cases("Python starting", [sys.executable, "-c", "pass"], max(1, args.cases // 5))
    with tempfile.TemporaryDirectory() as folder:
        daemon = [
            case([sys.executable, str(ESCAPE), str(Path(folder) / f"pids{n}"), "1"], ready=True)
            for n in range(max(1, args.cases // 10))
        ]
    show("CPU per case leaving a daemon", daemon)
    if args.games:
        games(args)


if __name__ == "__main__":
    main()
