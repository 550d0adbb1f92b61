"""Our strategy's move at every position of a decision log, and who wins more where we differ.

    LOG=../shared/dh-2026/expert_modern_seed2026.dh-decisions.jsonl
    python scripts/research/compare_decisions.py $LOG --strategy best --boards 0 300 --guess 1 \\
        --layouts 100 --out modern-first.jsonl
    python scripts/research/compare_decisions.py $LOG --report modern-first.jsonl
    python scripts/research/compare_decisions.py $LOG --report modern-first.jsonl \\
        --calibrate modern-first-seed1.jsonl     # a second draw: --seed 1, same positions

For each logged guess (of every board, or of those in ``--boards FIRST LAST``; the
``--guess``-th guess of its game when given), the strategy decides in the same position. Where
the two cells differ, the chance to win from each is estimated over strata of
layouts with exact chances (both cells safe, only one safe), by playing on with
the strategy over ``--layouts`` layouts sampled uniformly within them, the same
board from both choices where both are safe (`minesweeper.bench.choices`).
Lines go to ``--out`` as positions finish; a rerun with the same ``--out``
goes on where it stopped. The report gives the agreement rate and, over the
disagreements, the mean difference in the chance to win (theirs - ours) with
its 95% interval, and the positions where either choice is better by more than
its interval. ``--calibrate`` sets a second draw of the same positions (another
``--seed``) beside it: if the stated errors are right, the two draws differ by
about as much as those errors say (`minesweeper.bench.choices.Calibration`).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from minesweeper.bench.choices import Calibration, Compared, Summary, compare, read_log
from minesweeper.errors import InputError, MinesweeperError, PathError
from minesweeper.solver.registry import StrategySpec


def load(path: Path) -> dict[tuple[int, int], Compared]:
    """The positions an earlier run finished (a cut last line is dropped)."""
    done: dict[tuple[int, int], Compared] = {}
    if not path.exists():
        return done
    for line_no, line in enumerate(path.read_text().splitlines(keepends=True), 1):
        if line.endswith("\n"):
            try:
                one = Compared.from_json(json.loads(line))
            except ValueError as error:  # JSONDecodeError too
                raise InputError(line_no, f"{error}; start a new --out", str(path)) from None
            done[one.board, one.guess] = one
    return done


def report(found: list[Compared]) -> str:
    s = Summary.of(found)
    share = s.agreed / s.positions if s.positions else 0.0
    return (
        f"positions {s.positions}: same cell {s.agreed} ({share:.1%}), ours certain {s.certain}\n"
        f"disagreements played on: {s.judged}; P(win) theirs - ours: "
        f"{s.difference * 100:+.2f} points [{s.low * 100:+.2f}, {s.high * 100:+.2f}]\n"
        f"theirs better beyond its interval: {s.theirs_better}; ours better: {s.ours_better}\n"
        f"their cell safer: {s.safer_theirs}; ours safer: {s.safer_ours}"
    )


def calibration(first: list[Compared], second: list[Compared]) -> str:
    c = Calibration.of(first, second)
    return (
        f"a second draw of {c.positions} positions: squared differences {c.ratio:.2f} times "
        f"their stated variance (about 1 if the errors are right), {c.beyond:.1%} beyond "
        f"their 95% interval (about 5%)\n"
        f"mean difference {c.first * 100:+.2f} then {c.second * 100:+.2f} points: "
        f"{c.z:+.1f} stated errors apart"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("log", type=Path, help="a decision log (*.dh-decisions.jsonl)")
    parser.add_argument("--strategy", default="best")
    parser.add_argument(
        "--boards", type=int, nargs=2, metavar=("FIRST", "LAST"), help="default: every board"
    )
    parser.add_argument("--guess", type=int, help="only the k-th guess of each game")
    parser.add_argument("--layouts", type=int, default=100, help="games played on per choice")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, help="JSON lines, one per position (resumable)")
    parser.add_argument("--report", type=Path, metavar="OUT", help="only report on this --out file")
    parser.add_argument(
        "--calibrate",
        type=Path,
        metavar="OUT",
        help="with --report: a second draw of its positions (another --seed)",
    )
    args = parser.parse_args()
    if args.report:
        for path in filter(None, (args.report, args.calibrate)):
            if not path.exists():
                raise PathError(f"{path}: no such file")
        found = list(load(args.report).values())
        print(report(found))
        if args.calibrate:
            print(calibration(found, list(load(args.calibrate).values())))
        return
    spec = StrategySpec(args.strategy)
    done = load(args.out) if args.out else {}
    out = args.out.open("a") if args.out else None
    found = []
    first, last = args.boards or (0, sys.maxsize)
    boards: set[int] = set()
    for logged in read_log(args.log):
        if not first <= logged.board <= last:
            continue
        boards.add(logged.board)
        if args.guess is not None and logged.guess != args.guess:
            continue
        key = (logged.board, logged.guess)
        one = done.get(key) or compare(logged, spec, args.layouts, args.seed)
        found.append(one)
        if out is not None and key not in done:
            out.write(json.dumps(one.as_json()) + "\n")
            out.flush()
    if out is not None:
        out.close()
    span = f"boards {first}-{last}" if args.boards else "every board"
    print(f"{args.log.name}, {span}: {len(boards)} boards")
    print(report(found))


if __name__ == "__main__":
    try:
        main()
    except MinesweeperError as error:  # a bad log or strategy: one line, not a traceback
        sys.exit(f"compare_decisions: {error}")
