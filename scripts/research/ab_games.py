"""Whole games, this tree against another commit, interleaved game by game on the same boards.

    python scripts/research/ab_games.py --against 8461826 --strategy exact-safest \\
        --games 100 --seed 7

The other commit runs from its sources alone, so with the pure-Python engine; this tree
runs with the compiled kernel when it is built (``MINESWEEPER_ENGINE=python`` makes both
sides pure Python, to weigh a change of the Python code alone; ``--same-kernel`` gives the
other side this tree's built kernel, when the commit's ``_kernel.pyx`` is the same;
``--against-tree PATH`` plays a directory instead, such as an extracted commit whose kernel
was built there with ``python setup.py build_ext --inplace``, so that both sides run compiled
when the kernel itself changes). Each side's engine is printed. The boards are bench's own
(those of ``bench --seed S --preset P --rules R``; the mine count is told unless
``--count-unknown``, as under those rules).
The other commit's ``minesweeper`` package is extracted (``git archive``) to a
temporary directory; each side plays in its own worker process, and the two
alternate game by game (the order swapped every game), so machine load hits
both alike. Prints each side's median CPU per game (`time.process_time`, as
`minesweeper.client.play` measures it), the ratio of the means, the median per-game ratio
and the ratio of the medians, each with a 95% bootstrap interval, wins, and how many
games differ in a guess or the position it was made from (certain cells may be opened in
other batches).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def worker() -> None:
    """Play the games named on stdin, one JSON line per game on stdout."""
    from minesweeper.bench.deals import Deal
    from minesweeper.client import play
    from minesweeper.solver import probability
    from minesweeper.solver.registry import find_strategy
    from minesweeper.variant import PRESETS, Rules

    engine = getattr(probability, "ENGINE", "python")  # a commit before the kernel: Python
    deals: dict[tuple[str, str], Deal] = {}
    for line in sys.stdin:
        name, preset, rules, seed, index, told = line.split()
        key = (preset, rules)
        if key not in deals:  # bench's own boards: those of `bench --seed S --preset P --rules R`
            deals[key] = Deal.of_preset(PRESETS[preset], Rules(rules), 1)
        board, first = deals[key].game(int(seed), int(index))
        strategy = find_strategy(name)()
        moves = hashlib.sha256()
        decide = strategy.decide

        def recorded(view, decide=decide, moves=moves):
            decision = decide(view)
            if decision.guess:  # certain cells may come in other batches; guesses may not
                moves.update(repr((decision.opens, sorted(view.revealed.items()))).encode())
            return decision

        strategy.decide = recorded
        record = play(board, first, strategy, told == "1")
        print(
            json.dumps(
                {
                    "s": record.seconds,
                    "won": record.won,
                    "moves": moves.hexdigest(),
                    "engine": engine,
                }
            ),
            flush=True,
        )


def start(path: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(path))
    return subprocess.Popen(
        [sys.executable, __file__, "--worker"],
        env=env,
        cwd=path,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )


def ask(proc: subprocess.Popen, request: str) -> dict:
    proc.stdin.write(request + "\n")
    proc.stdin.flush()
    return json.loads(proc.stdout.readline())


def median_ratio_interval(ratios: list[float], rounds: int = 2000) -> tuple[float, float]:
    rng = random.Random(0)
    meds = sorted(statistics.median(rng.choices(ratios, k=len(ratios))) for _ in range(rounds))
    return meds[int(0.025 * rounds)], meds[int(0.975 * rounds)]


def total_ratio_interval(
    pairs: list[tuple[float, float]], rounds: int = 2000
) -> tuple[float, float]:
    """A 95% bootstrap interval of sum(this) / sum(other) over the games (resampled in pairs)."""
    rng = random.Random(0)
    found = []
    for _ in range(rounds):
        sample = rng.choices(pairs, k=len(pairs))
        found.append(sum(a for a, _ in sample) / sum(b for _, b in sample))
    found.sort()
    return found[int(0.025 * rounds)], found[int(0.975 * rounds)]


def median_of_ratio_interval(
    pairs: list[tuple[float, float]], rounds: int = 2000
) -> tuple[float, float]:
    """A 95% bootstrap interval of median(this) / median(other) over the games (resampled in
    pairs): the ratio of the medians, as `time_hill.py` reports against his solver."""
    rng = random.Random(0)
    found = []
    for _ in range(rounds):
        sample = rng.choices(pairs, k=len(pairs))
        found.append(
            statistics.median(a for a, _ in sample) / statistics.median(b for _, b in sample)
        )
    found.sort()
    return found[int(0.025 * rounds)], found[int(0.975 * rounds)]


def share_kernel(tree: Path) -> None:
    """Copy this tree's built kernel into the extracted ``tree``, when both have one source."""
    here = ROOT / "minesweeper" / "solver"
    there = tree / "minesweeper" / "solver"
    source = here / "_kernel.pyx"
    if not (there / "_kernel.pyx").exists() or (there / "_kernel.pyx").read_bytes() != (
        source.read_bytes()
    ):
        sys.exit("--same-kernel: the other commit's _kernel.pyx differs from this tree's")
    built = sorted(here.glob("_kernel.*.so"))
    if not built:
        sys.exit("--same-kernel: this tree's kernel is not built (pip install -e .)")
    for path in built:
        (there / path.name).write_bytes(path.read_bytes())


def extract(commit: str, tmp: str) -> Path:
    """``commit``'s ``minesweeper`` package, extracted (``git archive``) into ``tmp``."""
    archive = subprocess.run(
        ["git", "archive", commit, "minesweeper"], cwd=ROOT, check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=BytesIO(archive)) as tar:
        tar.extractall(tmp, filter="data")
    return Path(tmp)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--against", default="main", help="git commit to compare with")
    parser.add_argument("--strategy", default="exact-safest")
    parser.add_argument("--preset", default="expert")
    parser.add_argument("--rules", default="modern", choices=["modern", "classic"])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--count-unknown", action="store_true", help="do not tell the mine count")
    parser.add_argument(
        "--same-kernel",
        action="store_true",
        help="give the other commit this tree's built kernel (its _kernel.pyx must be the same)",
    )
    parser.add_argument(
        "--against-tree",
        type=Path,
        help="play this directory (holding a minesweeper package, its kernel built in place) "
        "instead of --against's sources; --against then only names it",
    )
    args = parser.parse_args()
    if args.worker:
        worker()
        return
    if args.against_tree is not None and args.same_kernel:
        parser.error("--same-kernel and --against-tree exclude each other")
    if args.against_tree is not None and not (args.against_tree / "minesweeper").is_dir():
        parser.error(f"--against-tree: {args.against_tree} holds no minesweeper package")
    with tempfile.TemporaryDirectory() as tmp:
        tree = args.against_tree.resolve() if args.against_tree else extract(args.against, tmp)
        if args.same_kernel:
            share_kernel(tree)
        sides = {"this": start(ROOT), args.against: start(tree)}
        results: dict[str, list[dict]] = {name: [] for name in sides}
        told = "0" if args.count_unknown else "1"
        for index in range(args.games):
            names = list(sides) if index % 2 == 0 else list(reversed(sides))
            for name in names:
                request = f"{args.strategy} {args.preset} {args.rules} {args.seed} {index} {told}"
                results[name].append(ask(sides[name], request))
        for proc in sides.values():
            proc.stdin.close()
            proc.wait()
    this, other = results["this"], results[args.against]
    for name, games in results.items():
        times = [g["s"] * 1000 for g in games]
        wins = sum(g["won"] for g in games)
        print(
            f"{args.strategy} {name} ({games[0]['engine']} engine): "
            f"median {statistics.median(times):.1f} ms, "
            f"mean {statistics.mean(times):.1f} ms, wins {wins}/{len(games)}"
        )
    ratios = [a["s"] / b["s"] for a, b in zip(this, other, strict=True)]
    low, high = median_ratio_interval(ratios)
    pairs = [(a["s"], b["s"]) for a, b in zip(this, other, strict=True)]
    total_low, total_high = total_ratio_interval(pairs)
    print(
        f"{args.strategy} total CPU ratio this/{args.against} (the means' ratio): "
        f"{sum(a for a, _ in pairs) / sum(b for _, b in pairs):.3f} "
        f"(95% {total_low:.3f}-{total_high:.3f})"
    )
    medians = statistics.median(a for a, _ in pairs) / statistics.median(b for _, b in pairs)
    median_low, median_high = median_of_ratio_interval(pairs)
    print(
        f"{args.strategy} ratio of the medians this/{args.against}: "
        f"{medians:.3f} (95% {median_low:.3f}-{median_high:.3f})"
    )
    differ = sum(a["moves"] != b["moves"] for a, b in zip(this, other, strict=True))
    print(
        f"{args.strategy} median per-game ratio this/{args.against}: "
        f"{statistics.median(ratios):.3f} (95% {low:.3f}-{high:.3f}); "
        f"games with a different guess or a guess from another position: {differ}"
    )


if __name__ == "__main__":
    main()
