"""Shared helpers for the judge tests: running the CLI in-process."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from click.testing import CliRunner

from minesweeper.cli import main

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared" / "acm-2023"


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
