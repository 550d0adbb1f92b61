"""`minesweeper client`: the project's own client as a program that speaks the client protocol."""

from __future__ import annotations

import sys

import click

from minesweeper.advanced import DEFAULT_STRATEGY
from minesweeper.cli.common import (
    reports_errors,
    rules_option,
    seed_option,
    strategy_option,
    topology_option,
)
from minesweeper.cli.gameopts import size_options, sized
from minesweeper.errors import UsageError
from minesweeper.judge.reference import play_stdio
from minesweeper.solver.registry import StrategySpec
from minesweeper.topology.base import Topology
from minesweeper.variant import LEVELS, Rules


@click.command()
@strategy_option(DEFAULT_STRATEGY, help="The client's strategy.")
@seed_option(fresh=False)
@topology_option
@click.option(
    "--ladder",
    "ladder_url",
    metavar="URL",
    help="Play ranked games on the ladder at URL instead (a bot's account: --token).",
)
@click.option(
    "--token",
    envvar="MINESWEEPER_LADDER_TOKEN",
    help="With --ladder: the bot's token (`minesweeper ladder token NAME --bot`); "
    "or $MINESWEEPER_LADDER_TOKEN.",
)
@click.option(
    "--preset",
    type=click.Choice(LEVELS, case_sensitive=False),
    help="With --ladder: the ranked level (default: expert).",
)
@size_options
@rules_option(Rules.MODERN, "as people play today")
@click.option(
    "--games",
    type=click.IntRange(1, 100_000),
    default=1,
    show_default=True,
    help="With --ladder: how many games.",
)
@reports_errors
def client(
    strategy: StrategySpec,
    seed: int,
    topology: type[Topology],
    ladder_url: str | None,
    token: str | None,
    preset: str | None,
    rows: int | None,
    cols: int | None,
    mines: int | None,
    rules: Rules | None,
    games: int,
) -> None:
    """Play one game as a client: maps on stdin, one move `r c` per line on stdout.

    The judge writes `n m` and the map after the first click; after each move
    it writes the map, and at the end `YOU WIN!` or `GAME OVER!` and the visit
    and step counts (docs/judge.md). Any judge can be played against it, for
    example `minesweeper judge --client "minesweeper client" FILE`.

    With --ladder URL --token T the same client plays ranked games on a ladder
    over the network (each move a request, each map the server's answer) and
    prints how each went, then what it won.
    """
    if ladder_url is not None:
        game = sized(preset or "expert", rows, cols, mines, topology, rules or Rules.MODERN)
        play_on_ladder(ladder_url, token, str(game), games, strategy, seed)
        return
    if (preset, rows, cols, mines, rules) != (None,) * 5:
        raise click.UsageError("--preset, --rows, --cols, --mines and --rules go with --ladder")
    stdin = click.open_file("-", "rb")  # bytes: every line is checked, whatever the locale
    play_stdio(stdin, sys.stdout, strategy.build(seed), topology)


def play_on_ladder(
    url: str, token: str | None, category: str, games: int, strategy: StrategySpec, seed: int
) -> None:
    from minesweeper.ladder.categories import parse_ranked
    from minesweeper.ladder.remote import LadderClient, play_bot_games

    parse_ranked(category)  # a game that is not ranked fails here, before any request
    if not token:
        raise click.UsageError("--ladder needs --token (`minesweeper ladder token NAME --bot`)")
    won = 0
    with LadderClient(url, token) as remote:
        if not remote.me()["bot"]:
            raise UsageError("the token is a person's: bots play with a bot's token")
        for result in play_bot_games(
            remote, category, games, lambda index: strategy.build(seed + index)
        ):
            won += result.won
            click.echo(result.describe())
    click.echo(f"won {won} of {games} ({won / games:.1%}) ranked {category} games on {url}")
