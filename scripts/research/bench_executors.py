"""Speed of `minesweeper bench` on each executor, and a killed run resumed.

Usage: ``python scripts/research/bench_executors.py [--preset expert] [--strategy best]
[--games 200] [--seed 1] [--resume-check]``

Runs the same benchmark with ``--jobs 1``, ``--jobs 2`` and ``--cluster local:2``
and prints, per executor, wall seconds, games per second and the CPU seconds of
`bench` and every process it started; then checks that all three gave the same
results. With ``--resume-check``, it also kills (SIGKILL) a ``--resume`` run
once about half the games are logged, resumes it, and compares its totals with
the uninterrupted ``--jobs 1`` run.
"""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import click

EXECUTORS = {"--jobs 1": ["--jobs", "1"], "--jobs 2": ["--jobs", "2"]}
EXECUTORS["--cluster local:2"] = ["--cluster", "local:2"]


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def totals(path: Path) -> list[dict]:
    """The results of a ``--json`` file without their CPU timings, which always vary."""
    results = json.loads(path.read_text())["results"]
    return [{k: v for k, v in entry.items() if k != "median_seconds"} for entry in results]


def check_resume(command: list[str], games: int, folder: Path, reference: Path) -> None:
    log = folder / "resumed.jsonl"
    process = subprocess.Popen(
        [*command, "--jobs", "2", "--resume", str(log)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    while process.poll() is None and (not log.exists() or log.read_text().count("\n") < games // 2):
        time.sleep(0.1)
    process.send_signal(signal.SIGKILL)
    process.wait()
    kept = log.read_text().count("\n")
    out = folder / "resumed.json"
    subprocess.run(
        [*command, "--jobs", "1", "--resume", str(log), "--json", str(out)],
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    rows = [json.loads(line) for line in log.read_text().splitlines()]
    same = totals(out) == totals(reference)
    wins = [entry["wins"] for entry in totals(out)]
    click.echo(
        f"\nresume: killed with {kept} of {games} games logged, resumed: {len(rows)} lines, "
        f"{len({(r['preset'], r['strategy'], r['game']) for r in rows})} distinct games, "
        f"wins {wins}; same totals as the uninterrupted run: {same}"
    )


@click.command()
@click.option("--preset", default="expert", show_default=True)
@click.option("--strategy", default="best", show_default=True)
@click.option("--games", type=click.IntRange(min=2), default=200, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--resume-check", is_flag=True, help="Also kill a run at half and resume it.")
def main(preset: str, strategy: str, games: int, seed: int, resume_check: bool) -> None:
    """Print a Markdown table: executor, wall seconds, games/s, CPU seconds."""
    command = [sys.executable, "-m", "minesweeper", "bench", "--preset", preset]
    command += ["--strategy", strategy, "--games", str(games), "--seed", str(seed)]
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        click.echo(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores\n")
        click.echo("| executor | wall s | games/s | CPU s |\n| --- | --- | --- | --- |")
        outputs = {}
        for label, options in EXECUTORS.items():
            out = folder / f"{len(outputs)}.json"
            cpu, start = children_cpu(), time.perf_counter()
            subprocess.run(
                [*command, *options, "--json", str(out)],
                check=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            wall, cpu = time.perf_counter() - start, children_cpu() - cpu
            click.echo(f"| `{label}` | {wall:.1f} | {games / wall:.2f} | {cpu:.1f} |")
            outputs[label] = out
        reference = outputs["--jobs 1"]
        same = all(totals(out) == totals(reference) for out in outputs.values())
        click.echo(f"\nthe same results on every executor: {same}")
        if resume_check:
            check_resume(command, games, folder, reference)


if __name__ == "__main__":
    main()
