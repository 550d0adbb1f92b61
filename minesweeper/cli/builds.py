"""Building the headers `grade --server-header/--client-header` names, as the CLI shows it."""

from __future__ import annotations

import contextlib
import shlex
import sys
import tempfile
import textwrap
from collections.abc import Iterator
from pathlib import Path

import click

from minesweeper.cli.common import EXIT_JUDGE_ERROR
from minesweeper.judge.headers import Build, Role, build, require_compiler
from minesweeper.judge.process import Limits, is_judge_error
from minesweeper.judge.sandbox import Sandbox


@contextlib.contextmanager
def built_headers(
    headers: dict[Role, Path | None],
    limits: Limits,
    sandbox: Sandbox | None,
    trace: bool,
) -> Iterator[dict[Role, tuple[str, ...]]]:
    """Each given header built in a temporary folder: the programs' command lines, valid
    until the context ends (the folder is then removed).

    A header that does not build ends the command: one line on stderr naming
    the header and the problem, the compiler's first lines on stdout, exit 1.
    """
    given = {role: header for role, header in headers.items() if header is not None}
    if not given:
        yield {}
        return
    require_compiler()
    with tempfile.TemporaryDirectory(prefix="minesweeper-build-") as scratch:
        builds = []
        for role, header in given.items():
            folder = Path(scratch) / role.value
            folder.mkdir()
            made = build(role, header, folder, limits, sandbox)
            if trace:
                show_command(made)
            builds.append(made)
        failed = [made for made in builds if not made.ok]
        for made in failed:
            report_failure(made)
        if failed:
            judged = any(is_judge_error(made.problem) for made in failed)
            sys.exit(EXIT_JUDGE_ERROR if judged else 1)
        yield {made.role: made.run for made in builds if made.run is not None}


def show_command(made: Build) -> None:
    """The compiler's command line on stderr, as ``--trace`` shows it."""
    click.echo(f"build {made.role.header}: {shlex.join(made.command)}", err=True)


def report_failure(made: Build) -> None:
    click.echo(f"minesweeper: {made.header}: {made.problem}", err=True)
    if made.diagnostics:
        click.echo(f"{made.header}: the compiler's first lines:")
        click.echo(textwrap.indent(made.diagnostics, "  "))
