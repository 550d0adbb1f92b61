"""Options describing a kind of game, shared by `generate`, `autoplay` and `play`."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import click

from minesweeper.cli.common import reports_errors, rules_option, topology_option
from minesweeper.errors import SettingsError
from minesweeper.play.session import Settings
from minesweeper.solver.prover import PROVERS
from minesweeper.topology import Topology
from minesweeper.variant import DEFAULT_PRESET, PRESETS, FirstClick, Rules, Variant

F = TypeVar("F", bound=Callable[..., Any])

#: The parameters `game_options` adds.
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
    see `sized`."""
    for option in reversed(SIZE_OPTIONS):
        command = option(command)
    return command


def sized(
    preset: str,
    rows: int | None,
    cols: int | None,
    mines: int | None,
    topology: type[Topology],
    rules: Rules,
) -> Variant:
    """The game ``--preset``, ``--rows/--cols`` and ``--mines`` name: --rows and --cols
    replace the preset's size (which is fitted to the topology when neither is given);
    --mines defaults to the preset's density of the board's cells."""
    if rows is None and cols is None:
        game = Variant.preset(preset, topology, rules)
    else:
        game = Variant.sized(preset, rows, cols, topology, rules)
    return game if mines is None else game.replace(mines=mines)


def game_options(command: F) -> F:
    """Adds ``--preset``, ``--rows/--cols/--mines``, ``--topology``, ``--rules``, ``--no-guess``
    and ``--prover``, and hands the command one ``settings: Settings``."""

    @functools.wraps(command)
    def with_settings(*args: Any, **kwargs: Any) -> Any:
        named = {name: kwargs.pop(name) for name in SETTING_OPTIONS}
        rules = chosen_rules(named["rules"], named["first_click"])
        game = sized(
            named["preset"] or DEFAULT_PRESET,
            named["rows"],
            named["cols"],
            named["mines"],
            named["topology"],
            rules,
        )
        settings = Settings(game, no_guess=named["no_guess"], prover=named["prover"])
        return command(*args, settings=settings, **kwargs)

    options = [
        click.option(
            "--preset",
            type=click.Choice(list(PRESETS), case_sensitive=False),
            help=f"A standard size and density of mines (default: {DEFAULT_PRESET}).",
        ),
        *SIZE_OPTIONS,
        rules_option(Rules.MODERN, "as people play today"),
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
    return wrapped


def chosen_rules(rules: Rules | None, first_click: str | None) -> Rules:
    """``--rules``, or the old ``--first-click`` mapped onto it; both must agree."""
    old = FIRST_CLICK_RULES[first_click.lower()] if first_click is not None else None
    if old is not None and rules is not None and old is not rules:
        raise SettingsError(
            f"--first-click {first_click} is --rules {old.value}, not --rules {rules.value}"
        )
    return rules or old or Rules.MODERN
