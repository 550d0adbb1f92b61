"""Options describing a kind of game, shared by `generate`, `autoplay` and `play`."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any, TypeVar

import click

from minesweeper.boards.generate import PRESETS, FirstClick, Preset, Rules
from minesweeper.cli.common import reports_errors, topology_option
from minesweeper.play.session import Settings, SettingsError, rule_settings
from minesweeper.solver.prover import PROVERS

F = TypeVar("F", bound=Callable[..., Any])

#: The parameters `game_options` adds, in `settings_from`'s order.
SETTING_OPTIONS = (
    "preset",
    "rows",
    "cols",
    "mines",
    "topology",
    "rules",
    "first_click",
    "no_guess",
    "prover",
)
#: The old ``--first-click`` values, as the ``--rules`` they stand for.
FIRST_CLICK_RULES = {FirstClick.SAFE.value: Rules.CLASSIC, FirstClick.OPENING.value: Rules.MODERN}


#: ``--rows``, ``--cols``, ``--mines``: the same wherever a preset is accepted.
SIZE_OPTIONS = (
    click.option(
        "--rows", type=click.IntRange(min=1), help="Rows (default: the preset's, fitted)."
    ),
    click.option("--cols", type=click.IntRange(min=1), help="Columns (likewise)."),
    click.option(
        "--mines",
        type=click.IntRange(min=0),
        help="Number of mines (default: the preset's density of the board's cells).",
    ),
)


def size_options(command: F) -> F:
    """``--rows``, ``--cols`` and ``--mines`` for a command with its own presets (`bench`):
    see `resized`."""
    for option in reversed(SIZE_OPTIONS):
        command = option(command)
    return command


def resized(
    preset: Preset, rows: int | None, cols: int | None, mines: int | None, topology: str
) -> Preset:
    """``preset`` with the size and mine count the options give, as `game_options` reads
    them: a missing side is the preset's, missing mines the preset's density of the cells;
    the first click is the new board's middle."""
    if rows is None and cols is None and mines is None:
        return preset
    settings = Settings.sized(preset.name, rows, cols, topology=topology)
    if mines is not None:
        settings = settings.replace(mines=mines)
    return Preset(
        preset.name,
        settings.rows,
        settings.cols,
        settings.mines,
        (settings.rows // 2, settings.cols // 2),
    )


def game_options(command: F) -> F:
    """Adds ``--preset``, ``--rows/--cols/--mines``, ``--topology``, ``--rules``, ``--no-guess``
    and ``--prover``, and hands the command one ``settings: Settings`` (and ``rules: Rules``
    when it takes that parameter).
    """
    wants_rules = "rules" in inspect.signature(command).parameters

    @functools.wraps(command)
    def with_settings(*args: Any, **kwargs: Any) -> Any:
        named = {name: kwargs.pop(name) for name in SETTING_OPTIONS}
        rules = chosen_rules(named.pop("rules"), named.pop("first_click"))
        if wants_rules:
            kwargs["rules"] = rules
        return command(*args, settings=settings_from(rules=rules, **named), **kwargs)

    options = [
        click.option(
            "--preset",
            type=click.Choice(list(PRESETS), case_sensitive=False),
            help="A standard size and density of mines (default: beginner).",
        ),
        *SIZE_OPTIONS,
        click.option(
            "--rules",
            type=click.Choice([rules.value for rules in Rules], case_sensitive=False),
            default=None,
            help="modern: the first click opens an area; classic: it is only safe; "
            "acm: as modern, but the mine count is not told (the ACM protocol's). "
            "[default: modern]",
        ),
        click.option(
            "--first-click",
            type=click.Choice(list(FIRST_CLICK_RULES), case_sensitive=False),
            hidden=True,
            help="Old name: safe is --rules classic, opening is --rules modern.",
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


def chosen_rules(rules: str | None, first_click: str | None) -> Rules:
    """``--rules``, or the old ``--first-click`` mapped onto it; both must agree."""
    old = FIRST_CLICK_RULES[first_click.lower()] if first_click is not None else None
    new = Rules(rules.lower()) if rules is not None else None
    if old is not None and new is not None and old is not new:
        raise SettingsError(
            f"--first-click {first_click} is --rules {old.value}, not --rules {new.value}"
        )
    return new or old or Rules.MODERN


def settings_from(
    preset: str | None,
    rows: int | None,
    cols: int | None,
    mines: int | None,
    topology: str,
    rules: Rules,
    no_guess: bool,
    prover: str,
) -> Settings:
    """The `Settings` the options name; raises `SettingsError` on a bad combination.

    --rows and --cols replace the preset's size (which is fitted to the topology
    when neither is given); --mines defaults to the preset's density.
    """
    extra: dict[str, Any] = {
        "topology": topology,
        **rule_settings(rules),
        "no_guess": no_guess,
        "prover": prover,
    }
    name = preset or "beginner"
    if rows is None and cols is None:
        settings = Settings.preset(name, **extra)
    else:
        settings = Settings.sized(name, rows, cols, **extra)
    if mines is not None:
        settings = settings.replace(mines=mines)
    return settings
