"""Options describing a kind of game, shared by `generate`, `autoplay` and `play`."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import click

from minesweeper.cli.common import reports_errors, topology_option
from minesweeper.generate import PRESETS
from minesweeper.session import SESSION_RULES, Settings, SettingsError
from minesweeper.solver.prover import PROVERS

F = TypeVar("F", bound=Callable[..., Any])


#: The parameters `game_options` adds, in `settings_from`'s order.
SETTING_OPTIONS = (
    "preset",
    "rows",
    "cols",
    "mines",
    "topology",
    "first_click",
    "no_guess",
    "prover",
)


def game_options(command: F) -> F:
    """Adds ``--preset | --rows/--cols/--mines``, ``--topology``, ``--first-click``,
    ``--no-guess`` and ``--prover``, and hands the command one ``settings: Settings``.
    """

    @functools.wraps(command)
    def with_settings(*args: Any, **kwargs: Any) -> Any:
        named = {name: kwargs.pop(name) for name in SETTING_OPTIONS}
        return command(*args, settings=settings_from(**named), **kwargs)

    options = [
        click.option(
            "--preset",
            type=click.Choice(list(PRESETS), case_sensitive=False),
            help="A standard size and mine count (default: beginner).",
        ),
        click.option("--rows", type=click.IntRange(min=1), help="Rows (with --cols, --mines)."),
        click.option("--cols", type=click.IntRange(min=1), help="Columns."),
        click.option("--mines", type=click.IntRange(min=0), help="Number of mines."),
        click.option(
            "--first-click",
            type=click.Choice([rule.value for rule in SESSION_RULES], case_sensitive=False),
            default="opening",
            show_default=True,
            help="safe: the first cell is no mine; opening: nor are its neighbours.",
        ),
        click.option(
            "--no-guess",
            is_flag=True,
            help="Only boards the prover solves from the first click without a guess.",
        ),
        click.option(
            "--prover",
            type=click.Choice(list(PROVERS), case_sensitive=False),
            default="subset",
            show_default=True,
            help="Prover of --no-guess boards (exact accepts more boards).",
        ),
    ]
    wrapped: Any = topology_option(reports_errors(with_settings))
    for option in reversed(options):
        wrapped = option(wrapped)
    return wrapped  # type: ignore[no-any-return]


def settings_from(
    preset: str | None,
    rows: int | None,
    cols: int | None,
    mines: int | None,
    topology: str,
    first_click: str,
    no_guess: bool,
    prover: str,
) -> Settings:
    """The `Settings` the options name; raises `SettingsError` on a bad combination."""
    custom = (rows, cols, mines)
    if preset is not None and any(value is not None for value in custom):
        raise SettingsError("give either --preset or --rows/--cols/--mines, not both")
    extra: dict[str, Any] = {
        "topology": topology,
        "first_click": first_click,
        "no_guess": no_guess,
        "prover": prover,
    }
    if any(value is not None for value in custom):
        if any(value is None for value in custom):
            raise SettingsError("--rows, --cols and --mines go together")
        return Settings(rows, cols, mines, **extra)  # type: ignore[arg-type]
    return Settings.preset(preset or "beginner", **extra)
