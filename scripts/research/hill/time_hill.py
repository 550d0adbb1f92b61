"""D. Hill's solver and `best` timed on the same boards, interleaved, on this machine.

    nice -n 10 python scripts/research/hill/time_hill.py --hill /work/hill-build fidelity \\
        --boards /work/shared/dh-2026/expert_classic_seed2026.txt --count 1000
    nice -n 10 python scripts/research/hill/time_hill.py --hill /work/hill-build time \\
        --boards /work/shared/dh-2026/expert_classic_seed2026.txt --rules classic \\
        --out /tmp/hill-time/expert-classic

``--hill`` is a checkout of github.com/DavidNHill/Minesweeper (commit 0806bb8 was measured;
``git --git-dir=... archive HEAD | tar -x -C DIR``). His solver's sources (the folders
MinesweeperGameState, Asynchronous, MineSweeperSolver) and our harness, ``HillTimer.java``
beside this script, are compiled with javac into ``--build``. The harness plays each board
as his bulk runner plays a game (see its header) and times it by the JVM thread's CPU, after
a warm-up on boards that are not timed (the file's last ``--warm`` boards, 2000 by default:
after 200 his JVM was still compiling, and his games ran slower).

``fidelity`` plays boards 0..count-1 and compares each result and guess count with his
results file (``*.dh-results.txt`` beside the boards): the harness must reproduce them before
its times mean anything.

``time`` plays boards 0..count-1 in blocks of ``--block``, alternating a block in his JVM (one
process for the whole run, warmed up once) with the same block in ``minesweeper bench --strategy
S --jobs 1 --per-game`` (a fresh process per block, its first ``WARM_OURS`` games on other
boards, not counted; ``S`` is ``--strategy``, `best` by default, which the run's folder records:
a resumed or pooled run must time the same one, and every block must run our solver's modules
compiled or from source alike: ``modules.txt`` records which), the order swapped every block so
that the machine's load falls on both alike. ``bench``'s per-game ``seconds`` is the process's
CPU time (`time.process_time`) from the first click to the end, the first click's opening
included, as his thread's time covers his first click (his book move) to the end. Each block is
kept in ``--out`` as it finishes, so a rerun resumes; at the end (or with ``report``) it prints
both sides' median and mean CPU per game and the ratio of medians (ours / his) with a 95%
bootstrap interval (boards resampled in pairs). ``report --out A --out B ...`` pools runs, each
board's CPU the mean of its runs.

``decisions`` plays boards 0..count-1 (untimed) and writes his decision log to ``--out``, one
JSON line per guess in the fields of dh-2026's ``*.dh-decisions.jsonl`` (hidden cells are all
``?``: the harness cannot see which of them his solver knows are mines), so that
``scripts/research/compare_decisions.py`` can run on boards dealt with
``scripts/research/deal_boards.py``.

``results`` plays boards 0..count-1 (untimed) and writes his results file to ``--out`` (by
default ``*.dh-results.txt`` beside the boards; an existing file is not overwritten), in the
shape of dh-2026's, so that ``minesweeper bench --boards F --reference OUT`` pairs with him
on any board file. Figures and procedure: docs/research/hill.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
HIS_SOURCES = ("MinesweeperGameState/src", "Asynchronous/src", "MineSweeperSolver/src")
#: Games each `bench` process plays before the block's own, on boards not timed.
WARM_OURS = 3


@dataclass(frozen=True)
class Game:
    """One timed game: the board's index in the file, the result, CPU milliseconds."""

    index: int
    won: bool
    cpu_ms: float
    guesses: int = 0


def build(hill: Path, out: Path) -> Path:
    """Compile his solver and our harness into ``out``; return the class path."""
    missing = [s for s in HIS_SOURCES if not (hill / s).is_dir()]
    if missing:
        sys.exit(f"--hill {hill}: not his checkout (no {', '.join(missing)})")
    his, ours = out / "his", out / "harness"
    if not (his / "minesweeper" / "solver" / "Solver.class").exists():
        sources = sorted(str(p) for s in HIS_SOURCES for p in (hill / s).rglob("*.java"))
        his.mkdir(parents=True, exist_ok=True)
        javac(["-nowarn", "-encoding", "UTF-8", "-d", str(his), *sources])
    javac(["-cp", str(his), "-d", str(ours), str(HERE / "HillTimer.java")])
    return Path(f"{his}{os.pathsep}{ours}")


def javac(args: list[str]) -> None:
    if shutil.which("javac") is None:
        sys.exit("javac not found: a JDK 17 or newer is needed")
    subprocess.run(["javac", *args], check=True, stdout=subprocess.DEVNULL)


class HisSolver:
    """His solver in one JVM, playing boards of one file on request."""

    def __init__(self, classpath: Path, boards: Path) -> None:
        self.process = subprocess.Popen(
            ["java", "-cp", str(classpath), "HillTimer"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        if not next(self.command(f"load {boards}"), "").startswith("loaded"):
            sys.exit(f"time_hill: the harness could not read {boards}")

    def command(self, line: str) -> Iterator[str]:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        return iter(self.process.stdout.readline, "")

    def warm(self, start: int, end: int) -> None:
        if next(self.command(f"warm {start} {end}")).strip() != "warmed":
            sys.exit("the harness failed to warm up")

    def play(self, start: int, end: int) -> tuple[list[Game], dict[str, float]]:
        """Play boards [start, end): the games, and the JVM's whole CPU ms over them
        (``process``) with the time it says it spent compiling (``jit``) and collecting
        (``gc``)."""
        games: list[Game] = []
        for line in self.command(f"play {start} {end}"):
            word = line.split()
            if word[0] == "done":
                totals = (w.split("=") for w in word[2:])
                return games, {k.removesuffix("_ms"): float(v) for k, v in totals}
            guesses = int(word[3].removeprefix("guesses="))
            games.append(Game(int(word[0]), word[1] == "WIN", float(word[2]), guesses))
        sys.exit(f"the harness stopped (exit {self.process.wait()})")

    def log_decisions(self, path: Path, start: int, end: int) -> int:
        """Play boards [start, end) untimed, his decision log to ``path``; the guesses logged."""
        answer = next(self.command(f"declog {path.resolve()} {start} {end}")).split()
        if answer[:1] != ["logged"]:
            sys.exit(f"the harness stopped (exit {self.process.wait()})")
        return int(answer[1])

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait(timeout=60)


def read_boards(path: Path) -> list[str]:
    """The file's boards, each as its text (a blank line ends each)."""
    return [b.strip("\n") + "\n" for b in path.read_text().split("\n\n") if b.strip()]


def read_reference(path: Path) -> dict[int, Game]:
    games = {}
    for line in path.read_text().splitlines():
        word = line.split()
        if word and word[0].isdigit():
            guesses = int(word[2].removeprefix("guesses=")) if len(word) > 2 else 0
            games[int(word[0])] = Game(int(word[0]), word[1] == "WIN", 0.0, guesses)
    return games


def reference_file(args: argparse.Namespace) -> Path:
    """--reference, or the results file beside --boards."""
    if args.reference:
        return Path(args.reference)
    boards: Path = args.boards
    return boards.with_name(boards.name.removesuffix(".txt") + ".dh-results.txt")


def play_ours(
    boards: list[str], start: int, end: int, rules: str, work: Path, strategy: str = "best"
) -> list[Game]:
    """Boards [start, end) with ``strategy`` (a `bench --strategy` spec) in a fresh `bench`
    process, after WARM_OURS others."""
    warm = boards[-WARM_OURS:]
    block = work / f"block-{start}.txt"
    block.write_text("\n".join(warm + boards[start:end]))
    records = work / f"block-{start}.jsonl"
    records.unlink(missing_ok=True)
    summary = work / f"block-{start}.json"
    bench = [sys.executable, "-m", "minesweeper", "bench", "--boards", str(block)]
    subprocess.run(
        [
            *bench,
            "--rules",
            rules,
            "--strategy",
            strategy,
            "--jobs",
            "1",
            "--per-game",
            str(records),
            "--json",
            str(summary),
        ],
        check=True,
        stdout=subprocess.DEVNULL,
    )
    check_modules(work, json.loads(summary.read_text())["modules"])
    summary.unlink()
    games = []
    for line in records.read_text().splitlines():
        record = json.loads(line)
        if record["game"] >= WARM_OURS:
            index = start + record["game"] - WARM_OURS
            games.append(Game(index, record["won"], 1000 * record["seconds"], record["guesses"]))
    block.unlink()
    records.unlink()
    return sorted(games, key=lambda g: g.index)


def mismatches(games: list[Game], reference: dict[int, Game]) -> list[str]:
    found = []
    for game in games:
        theirs = reference[game.index]
        if (game.won, game.guesses) != (theirs.won, theirs.guesses):
            found.append(
                f"board {game.index}: harness {'WIN' if game.won else 'LOSS'} "
                f"guesses={game.guesses}, file {'WIN' if theirs.won else 'LOSS'} "
                f"guesses={theirs.guesses}"
            )
    return found


def fidelity(args: argparse.Namespace) -> None:
    reference = read_reference(reference_file(args))
    his = HisSolver(build(args.hill, args.build), args.boards)
    games, _ = his.play(0, args.count)
    his.close()
    found = mismatches(games, reference)
    print("\n".join(found))
    won = sum(g.won for g in games)
    print(f"{len(games)} boards, {won} won; {len(found)} differ from the results file")
    sys.exit(1 if found else 0)


def decisions(args: argparse.Namespace) -> None:
    his = HisSolver(build(args.hill, args.build), args.boards)
    count = min(args.count, len(read_boards(args.boards)))
    logged = his.log_decisions(args.out, 0, count)
    his.close()
    print(f"{count} boards, {logged} guesses logged to {args.out}")


def results_text(games: list[Game]) -> str:
    """His results in the shape of dh-2026's ``*.dh-results.txt``."""
    lines = [f"{g.index} {'WIN' if g.won else 'LOSS'} guesses={g.guesses}\n" for g in games]
    won = sum(g.won for g in games)
    return "".join(lines) + f"SUMMARY played={len(games)} won={won}\n"


def results(args: argparse.Namespace) -> None:
    out = args.out or reference_file(args)
    if out.exists():
        sys.exit(f"time_hill: {out} exists: give another --out (it is not overwritten)")
    his = HisSolver(build(args.hill, args.build), args.boards)
    games, _ = his.play(0, min(args.count, len(read_boards(args.boards))))
    his.close()
    part = out.with_name(out.name + ".part")
    part.write_text(results_text(games))
    part.replace(out)  # whole or not at all
    print(f"{len(games)} boards, {sum(g.won for g in games)} won: {out}")


def save(path: Path, games: list[Game]) -> None:
    with path.open("a") as out:
        for g in games:
            out.write(json.dumps(g.__dict__) + "\n")


def load(path: Path) -> dict[int, Game]:
    if not path.exists():
        return {}
    games = (Game(**json.loads(line)) for line in path.read_text().splitlines())
    return {g.index: g for g in games}


def time_both(args: argparse.Namespace) -> None:
    args.out.mkdir(parents=True, exist_ok=True)
    boards = read_boards(args.boards)
    if args.count + args.warm > len(boards):
        sys.exit(f"{args.boards}: {len(boards)} boards, fewer than --count + --warm")
    his_path, ours_path = args.out / "his.jsonl", args.out / "ours.jsonl"
    his_cpu_path = args.out / "his-jvm.jsonl"
    check_strategy(args.out, args.strategy)
    done_his, done_ours = load(his_path), load(ours_path)
    his = HisSolver(build(args.hill, args.build), args.boards)
    his.warm(len(boards) - args.warm, len(boards))
    for k, start in enumerate(range(0, args.count, args.block)):
        end = min(start + args.block, args.count)
        if all(i in done_his and i in done_ours for i in range(start, end)):
            continue
        sides = ["his", "ours"] if k % 2 == 0 else ["ours", "his"]
        for side in sides:
            if side == "his":
                games, jvm = his.play(start, end)
                save(his_path, games)
                with his_cpu_path.open("a") as out:
                    out.write(json.dumps({"start": start, "end": end, **jvm}) + "\n")
            else:
                save(ours_path, play_ours(boards, start, end, args.rules, args.out, args.strategy))
        print(f"boards {start}-{end - 1} done, load {os.getloadavg()[0]:.1f}", file=sys.stderr)
    his.close()
    report(args)


def check_strategy(run: Path, strategy: str) -> None:
    """Record which of our strategies a run times; a resumed run must time the same one."""
    kept = run / "strategy.txt"
    if not kept.exists():
        kept.write_text(strategy + "\n")
    elif (was := kept.read_text().strip()) != strategy:
        sys.exit(f"time_hill: {run} times --strategy {was}, not {strategy}: give another --out")


def check_modules(run: Path, state: str) -> None:
    """Record whether our solver's modules ran compiled (`bench`'s ``modules``); every
    block of a run must run them the same way, or its CPU figures mix two engines."""
    kept = run / "modules.txt"
    if not kept.exists():
        kept.write_text(state + "\n")
    elif (was := kept.read_text().strip()) != state:
        sys.exit(f"time_hill: {run} ran our modules {was}, this block {state}: rebuild, rerun")


def run_modules(run: Path) -> str:
    """How a run's blocks ran our solver's modules (runs from before this record: unknown)."""
    kept = run / "modules.txt"
    return kept.read_text().strip() if kept.exists() else "unknown"


def run_strategy(run: Path) -> str:
    """The strategy a run timed (runs from before --strategy timed `best`)."""
    kept = run / "strategy.txt"
    return kept.read_text().strip() if kept.exists() else "best"


def ratio_interval(ours: np.ndarray, his: np.ndarray, rounds: int = 4000) -> tuple[float, float]:
    """A 95% bootstrap interval of median(ours) / median(his), boards resampled in pairs."""
    rng = np.random.default_rng(0)
    picks = rng.integers(0, len(ours), size=(rounds, len(ours)))
    ratios = np.median(ours[picks], axis=1) / np.median(his[picks], axis=1)
    low, high = np.percentile(ratios, [2.5, 97.5])
    return float(low), float(high)


def report(args: argparse.Namespace) -> None:
    """Both sides' CPU per game over the boards timed by both; with several runs (``report
    --out A --out B``), each board's CPU is its mean over the runs."""
    runs: list[Path] = args.out if isinstance(args.out, list) else [args.out]
    his_runs = [load(run / "his.jsonl") for run in runs]
    our_runs = [load(run / "ours.jsonl") for run in runs]
    both = sorted(set.intersection(*(set(r) for r in his_runs + our_runs)))
    if not both:
        sys.exit(f"{', '.join(map(str, runs))}: no board timed by both sides in every run")
    h = np.array([statistics.mean(r[i].cpu_ms for r in his_runs) for i in both])
    o = np.array([statistics.mean(r[i].cpu_ms for r in our_runs) for i in both])
    low, high = ratio_interval(o, h)
    ours = sorted({run_strategy(run) for run in runs})
    if len(ours) > 1:
        sys.exit(f"time_hill: the runs time different strategies ({', '.join(ours)})")
    modules = ", ".join(sorted({run_modules(run) for run in runs}))
    print(
        f"{', '.join(map(str, runs))}: {len(both)} boards timed by both; "
        f"ours: {ours[0]}, {modules} modules"
    )
    for name, side, cpu in (("his", his_runs[0], h), ("ours", our_runs[0], o)):
        won = sum(side[i].won for i in both)
        print(
            f"  {name:4}  won {won:4}  CPU per game: median {np.median(cpu):6.2f} ms, "
            f"mean {cpu.mean():6.2f} ms"
        )
    print(
        f"  ours / his, ratio of medians: {np.median(o) / np.median(h):.2f} "
        f"(95% bootstrap {low:.2f}-{high:.2f}); ratio of means {o.mean() / h.mean():.2f}"
    )
    blocks = [
        json.loads(line)
        for run in runs
        for line in (run / "his-jvm.jsonl").read_text().split("\n")
        if line
    ]
    n = sum(b["end"] - b["start"] for b in blocks)
    jvm = {key: sum(b[key] for b in blocks) / n for key in ("process", "jit", "gc")}
    print(
        f"  his JVM, all its threads: mean {jvm['process']:.2f} ms of CPU per game (it reports "
        f"{jvm['jit']:.2f} ms compiling, {jvm['gc']:.2f} ms collecting)"
    )
    reference = read_reference(reference_file(args))
    differ = sum(len(mismatches([r[i] for i in both], reference)) for r in his_runs)
    print(f"  his results and guess counts differ from the results file on {differ} boards")
    print(f"  median of the per-board ratios: {statistics.median(o / h):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hill", type=Path, required=True, help="his checkout (a work tree)")
    parser.add_argument(
        "--build", type=Path, default=Path("/tmp/hill-timer"), help="where to compile"
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("fidelity", "time", "report", "decisions", "results"):
        p = sub.add_parser(name)
        p.add_argument("--boards", type=Path, required=True)
        p.add_argument("--reference", type=Path, help="his results (default: beside --boards)")
        p.add_argument("--count", type=int, default=1000, help="boards 0..count-1")
        if name == "decisions":
            p.add_argument("--out", type=Path, required=True, help="the decision log to write")
        elif name == "results":
            p.add_argument("--out", type=Path, help="his results file (default: beside --boards)")
        elif name != "fidelity":
            p.add_argument("--rules", choices=["classic", "modern"], default="classic")
            p.add_argument("--block", type=int, default=50)
            p.add_argument("--warm", type=int, default=2000, help="his warm-up boards")
            if name == "time":
                p.add_argument(
                    "--strategy", default="best", help="ours, as bench takes it (best:book=0)"
                )
            many = {"action": "append", "help": "a run's folder (repeatable)"}
            once = {"help": "the run's folder: results, kept to resume"}
            p.add_argument(
                "--out", type=Path, required=True, **(many if name == "report" else once)
            )
    args = parser.parse_args()
    if not args.boards.is_file():
        sys.exit(f"time_hill: --boards {args.boards}: no such file")
    commands = {
        "fidelity": fidelity,
        "time": time_both,
        "report": report,
        "decisions": decisions,
        "results": results,
    }
    commands[args.command](args)


if __name__ == "__main__":
    main()
