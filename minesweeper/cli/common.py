"""Pieces the commands share: error reporting, common options, wide tables and report files."""

from __future__ import annotations

import functools
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, NoReturn, TypeVar

import click
from click.shell_completion import CompletionItem

from minesweeper.errors import MinesweeperError, TopologyError
from minesweeper.inputs import read_limited
from minesweeper.limits import QUOTE_CHARS, quote
from minesweeper.outputs import write_file
from minesweeper.topology import TOPOLOGIES, Topology, find_topology
from minesweeper.variant import RULES_HELP, Rules

if TYPE_CHECKING:
    from minesweeper.solver.think import Think

F = TypeVar("F", bound=Callable[..., Any])

#: Exit status for bad input or a failed check.
EXIT_BAD_INPUT = 2
#: Exit status of a grading the machine failed: a program could not be started (a judge
#: error, `minesweeper.errors.MachineError`), so some result is missing, not bad.
EXIT_JUDGE_ERROR = 3


def fail(message: str, status: int = EXIT_BAD_INPUT) -> NoReturn:
    """Print ``minesweeper: message`` on stderr and exit with ``status``.

    Standard output is flushed first, so what was printed comes before the error.
    """
    sys.stdout.flush()
    click.echo(f"minesweeper: {message}", err=True)
    sys.exit(status)


def input_name(file: IO[bytes]) -> str:
    """How messages name an input FILE argument: its path, or ``standard input``."""
    name = getattr(file, "name", "-")
    return "standard input" if name in ("-", "<stdin>") else str(name)


def read_input(file: IO[bytes]) -> bytes:
    """All of a FILE argument opened by ``click.File("rb")``, within `MAX_FILE_BYTES`."""
    return read_limited(file, input_name(file))  # type: ignore[arg-type]  # a binary file


def reports_errors(command: F) -> F:
    """Turn the package's errors into one stderr line and exit status 2, never a traceback."""

    @functools.wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except MinesweeperError as error:
            fail(str(error))
        except BrokenPipeError:
            # The reader went away (e.g. `| head`): nothing left to say.
            sys.stderr.close()
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


#: What click (8.2 and later) raises to show a group's help when it is given no command.
_NO_ARGS_IS_HELP: type | tuple[()] = getattr(click.exceptions, "NoArgsIsHelpError", ())


class _OneLineError(click.ClickException):
    """A bad option value reported like every other error: one ``minesweeper:`` line."""

    exit_code = EXIT_BAD_INPUT

    def show(self, file: Any = None) -> None:
        click.echo(f"minesweeper: {self.format_message()}", err=True)


def one_line_usage_error(error: click.UsageError) -> click.ClickException:
    """``error`` as one ``minesweeper: COMMAND: problem`` line, not click's usage block.

    A group run without a command still prints its help, as click does.
    """
    if isinstance(error, _NO_ARGS_IS_HELP):
        return error
    ctx = error.ctx
    message = error.format_message()
    param = getattr(error, "param", None)
    if param is not None and not isinstance(param.type, (click.Path, click.File)):
        # click quotes a bad value whole: cut it as every other error does (not a path).
        message = re.sub(rf"'([^']{{{QUOTE_CHARS + 1},}})'", _quoted, message)
    if ctx is not None and ctx.parent is not None:  # name the (sub)command, not the program
        command = ctx.command_path.split(" ", 1)[1]
        message = f"{command}: {message} (see '{ctx.command_path} --help')"
    elif ctx is not None:
        message += f" (see '{ctx.command_path} --help')"
    one_line = _OneLineError(message)
    one_line.exit_code = error.exit_code  # type: ignore[misc]  # click's is a class default
    return one_line


def _quoted(match: re.Match[str]) -> str:
    return quote(match.group(1))


# -- options shared by several commands ------------------------------------------------------


class _TopologyName(click.ParamType):
    """A registered topology name, any case, resolved to its class once, here; an unknown
    one is a one-line error."""

    name = "topology"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> type[Topology]:
        if isinstance(value, type) and issubclass(value, Topology):
            return value
        try:
            return find_topology(str(value))
        except TopologyError as error:
            self.fail(str(error), param, ctx)

    def shell_complete(
        self, ctx: click.Context, param: click.Parameter, incomplete: str
    ) -> list[CompletionItem]:
        return [CompletionItem(name) for name in sorted(TOPOLOGIES) if name.startswith(incomplete)]


def topology_option(command: F) -> F:
    """The ``--topology NAME`` option (default ``square``), handed on as the class."""
    return click.option(
        "--topology",
        type=_TopologyName(),
        metavar="NAME",
        default="square",
        show_default=True,
        help=f"Shape of the board's cells: {', '.join(sorted(TOPOLOGIES))}.",
    )(command)


def rules_option(default: Rules, why: str) -> Callable[[F], F]:
    """``--rules``, described once (`RULES_HELP`), with this command's ``default`` and the
    reason for it. The command gets a `Rules`, or None when the option was not given."""
    described = "; ".join(f"{rules.value}: {RULES_HELP[rules]}" for rules in Rules)
    return click.option(
        "--rules",
        type=_RulesChoice([rules.value for rules in Rules], case_sensitive=False),
        default=None,
        help=f"{described}. [default: {default.value}, {why}]",
    )


class _RulesChoice(click.Choice):
    """A `Rules` by its name, any case."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, Rules):
            return value
        return Rules(super().convert(value, param, ctx).lower())


def replay_dir_option(command: F) -> F:
    """The ``--replay-dir DIR`` option: where the replay of every finished game is saved."""
    return click.option(
        "--replay-dir",
        type=click.Path(file_okay=False, path_type=Path),
        metavar="DIR",
        help="Save the replay of every finished game in DIR (see docs/replay.md).",
    )(command)


def records_option(command: F) -> F:
    """The ``--records FILE`` option (as ``path``): the records file to read and add to."""
    return click.option(
        "--records",
        "path",
        type=click.Path(dir_okay=False, path_type=Path),
        help="The records file (default: records.json in the user data directory).",
    )(command)


#: The seed rule, said once in every ``--seed`` help, of what the seed draws.
SEED_RULE = "the same seed, the same {}"


class OneLineChoice(click.Choice):
    """A `click.Choice` (listed in the help, completed by the shell) failing in one line:
    ``unknown WHAT 'value' (known: ...)``.
    """

    def __init__(self, choices: list[str], what: str) -> None:
        super().__init__(choices)
        self.what = what

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        try:
            return super().convert(value, param, ctx)
        except click.BadParameter:
            known = ", ".join(map(str, self.choices))
            self.fail(f"unknown {self.what} {quote(value)} (known: {known})", param, ctx)


class StrategyName(OneLineChoice):
    """A registered strategy's name, optionally with settings of its class
    (``best:regions=1``); the registry is read when needed, so strategies registered after
    the command was built count too.
    """

    def __init__(self) -> None:
        super().__init__([], "strategy")

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        name, colon, settings = str(value).partition(":")
        name = super().convert(name, param, ctx)
        if not colon:
            return name
        from minesweeper.solver.registry import StrategySpec, StrategySpecError

        try:
            return StrategySpec(f"{name}:{settings}").name
        except StrategySpecError as error:
            self.fail(str(error), param, ctx)

    @property  # type: ignore[override]
    def choices(self) -> list[str]:
        return strategy_names()

    @choices.setter
    def choices(self, value: object) -> None:
        pass


def strategy_names() -> list[str]:
    """The registered strategies' names, sorted."""
    from minesweeper.solver.registry import STRATEGIES

    return sorted(STRATEGIES)


def strategy_option(
    default: str, *, multiple: bool = False, help: str = "The strategy that plays."
) -> Callable[[F], F]:
    """``--strategy NAME`` and ``--think N[UNIT]``, handed to the command as one
    `StrategySpec` (``strategy``), or with ``multiple`` as a list of them
    (``strategies``, the default one when none is named).

    ``--think`` goes to the chosen strategies that think, each in its own unit (work:
    ``positions`` or ``layouts``; or ``ms`` of CPU time) unless the value names one; it
    may be given once per unit. Given when none takes it, or out of range, it is a
    one-line usage error rather than a setting silently ignored.
    """
    key = "strategies" if multiple else "strategy"

    def decorate(command: F) -> F:
        @functools.wraps(command)
        def wrapper(*args: Any, think: tuple[Think, ...], **kwargs: Any) -> Any:
            from minesweeper.solver.registry import StrategySpec, StrategySpecError

            names = kwargs[key] if multiple else (kwargs[key],)
            try:
                specs = StrategySpec.choose(names or (default,), think)
            except StrategySpecError as error:
                raise click.UsageError(f"--think: {error}", click.get_current_context()) from None
            kwargs[key] = specs if multiple else specs[0]
            return command(*args, **kwargs)

        extra: dict[str, Any] = {"multiple": True} if multiple else {"default": default}
        with_think = click.option(
            "--think",
            "think",
            cls=_ThinkOption,
            type=ThinkBudget(),
            multiple=True,
            help="Budget per guess for a strategy that thinks, in its unit, or N followed by "
            "a unit (repeatable, one per unit)",
        )(wrapper)
        return click.option(  # type: ignore[return-value]
            "--strategy",
            key,
            type=StrategyName(),
            help=help
            + " A name may carry settings of its strategy: best:regions=1,blend=0.25"
            + f" (`minesweeper strategies` lists them). Default: {default}.",
            **extra,
        )(with_think)

    return decorate


class ThinkBudget(click.ParamType):
    """``--think N[UNIT]``: a `Think` (checked there), else a one-line error."""

    name = "N[UNIT]"

    def convert(
        self, value: Any, param: click.Parameter | None, ctx: click.Context | None
    ) -> Think:
        from minesweeper.solver.think import Think, ThinkError

        if isinstance(value, Think):
            return value
        try:
            return Think.parse(str(value))
        except ThinkError as error:
            self.fail(str(error), param, ctx)


class _ThinkOption(click.Option):
    """``--think``, whose help names the strategies that think, their units and defaults
    as the registry holds them when the help is shown (like `StrategyName`'s choices)."""

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        from minesweeper.solver.registry import StrategySpec, thinking_strategies
        from minesweeper.solver.think import UNITS

        budgets = [
            (name, budget)
            for name in thinking_strategies()
            if (budget := StrategySpec(name).budget) is not None
        ]
        defaults = ", ".join(f"{name}: {budget} by default" for name, budget in budgets)
        units = "; ".join(
            f"{unit}: {what}, at most {top}"
            for unit, (what, top) in UNITS.items()
            if any(budget.unit == unit for _, budget in budgets)
        )
        plain = self.help
        self.help = f"{plain} ({defaults}; {units})."
        try:
            return super().get_help_record(ctx)
        finally:
            self.help = plain


def seed_option(*, fresh: bool, draws: str = "games") -> Callable[[F], F]:
    """``--seed N``. The one rule: a command that deals new games (``fresh``) draws a seed
    when none is given and says which; a command that checks or measures uses 0, so
    that its runs repeat. ``draws``: what the seed draws, for its help.
    """
    rule = SEED_RULE.format(draws)
    if fresh:
        return click.option(
            "--seed",
            type=click.IntRange(min=0),
            default=None,
            callback=lambda ctx, param, value: draw_seed() if value is None else value,
            help=f"Random seed ({rule}); by default a new one, printed.",
        )
    return click.option(
        "--seed",
        type=click.IntRange(min=0),
        default=0,
        show_default=True,
        help=f"Random seed ({rule}).",
    )


def draw_seed() -> int:
    """A new seed for a command that deals new games."""
    import random

    return random.SystemRandom().randrange(1_000_000)


def output_file_option(flag: str, name: str, help: str) -> Callable[[F], F]:
    """An option naming a FILE to write (``--json FILE`` and the like), handed over as ``name``."""
    return click.option(flag, name, type=click.Path(path_type=Path), metavar="FILE", help=help)


def board_file_option(help: str) -> Callable[[F], F]:
    """``--board FILE``: a board file (MBF, or the topology's text format), as ``board_file``."""
    return click.option(
        "--board", "board_file", type=click.Path(dir_okay=False, path_type=Path), help=help
    )


def delay_option(command: F) -> F:
    """``--delay S``: seconds between the computer's moves (0.25 by default, so one can watch)."""
    return click.option(
        "--delay",
        type=click.FloatRange(min=0),
        default=0.25,
        show_default=True,
        help="Seconds between the computer's moves.",
    )(command)


# -- output of the commands that print tables and write reports (bench, grade) -------------


def write_text(path: Path, text: str) -> None:
    """Write a report to ``path`` atomically (readers never see half a file), replacing an
    earlier one, but never a link, a folder or a device (`outputs.write_file`)."""
    write_file(path, text.encode(), overwrite=True)
