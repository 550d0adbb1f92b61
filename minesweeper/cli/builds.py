"""Building the headers `grade --server-header/--client-header` names, as the CLI shows it."""

from __future__ import annotations

import shlex
import sys
import textwrap
from pathlib import Path

import click

from minesweeper.judge.headers import Build, Role, build, require_compiler
from minesweeper.judge.process import Limits
from minesweeper.judge.sandbox import Sandbox


def build_headers(
    headers: dict[Role, Path | None],
    scratch: Path,
    limits: Limits,
    sandbox: Sandbox | None,
    trace: bool,
) -> dict[Role, tuple[str, ...]]:
    """Each given header built in a folder of ``scratch``: the program's command line.

    A header that does not build ends the command: one line on stderr naming
    the header and the problem, the compiler's first lines on stdout, exit 1.
    """
    given = {role: header for role, header in headers.items() if header is not None}
    if not given:
        return {}
    require_compiler()
    builds = []
    for role, header in given.items():
        folder = scratch / role.value
        folder.mkdir()
        made = build(role, header, folder, limits, sandbox)
        if trace:
            show_command(made)
        builds.append(made)
    failed = [made for made in builds if not made.ok]
    for made in failed:
        report_failure(made)
    if failed:
        sys.exit(1)
    return {made.role: (str(made.program),) for made in builds}


def show_command(made: Build) -> None:
    """The compiler's command line on stderr, as ``--trace`` shows it."""
    click.echo(f"build {made.role.header}: {shlex.join(made.command)}", err=True)


def report_failure(made: Build) -> None:
    click.echo(f"minesweeper: {made.header}: {made.problem}", err=True)
    if made.diagnostics:
        click.echo(f"{made.header}: the compiler's first lines:")
        click.echo(textwrap.indent(made.diagnostics, "  "))
