"""Shared helpers for the judge tests: running the CLI in-process."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner

from minesweeper.cli import main

ROOT = Path(__file__).resolve().parent.parent
#: The course's public cases, shipped with the package (testcases/acm-2023/README.md).
ACM = ROOT / "testcases" / "acm-2023"


@dataclass
class Run:
    exit_code: int
    stdout: str
    stderr: str


def run_cli(args: list[str], stdin: str = "") -> Run:
    """Run ``minesweeper ARGS`` in-process with ``stdin``; capture both streams."""
    result = CliRunner().invoke(main, args, input=stdin)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return Run(result.exit_code, result.stdout, result.stderr)


def children() -> set[int]:
    """Process ids whose parent is this process (unreaped zombies included).

    Python's multiprocessing resource tracker, started once by the first
    process pool and living as long as this process, is not counted.
    """
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if b"multiprocessing.resource_tracker" in command:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == os.getpid():
                found.add(int(entry.name))
    return found
