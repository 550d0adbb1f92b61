"""`minesweeper ladder`: serve the ranked ladder, make bot tokens, verify stored games."""

from __future__ import annotations

import importlib
import os
import socket
import sys
from typing import Any

import click

from minesweeper.cli.common import fail, reports_errors
from minesweeper.errors import MinesweeperError
from minesweeper.ladder.errors import LadderError

DATABASE_HELP = (
    "Database URL: sqlite:///PATH or postgresql://USER@HOST/NAME "
    "(default: an SQLite file in the user's data folder)."
)


def database_option(command: Any) -> Any:
    return click.option("--database", metavar="URL", default=None, help=DATABASE_HELP)(command)


def _config(database: str | None) -> Any:
    from minesweeper.ladder.config import LadderConfig, default_database_url

    return LadderConfig(database_url=database or default_database_url())


def _service(database: str | None) -> Any:
    from minesweeper.ladder.service import Ladder

    try:
        return Ladder(_config(database))
    except MinesweeperError:
        raise
    except Exception as error:  # a database that does not answer: one line, not a traceback
        raise LadderError(f"cannot open the database: {error}".splitlines()[0]) from None


def web_extensions() -> list[Any]:
    """The browser front end's ``mount(app)``, when the package has one (`minesweeper.web`)."""
    try:
        web = importlib.import_module("minesweeper.web")
    except ImportError:
        return []
    mount = getattr(web, "mount", None)
    return [mount] if callable(mount) else []


@click.group()
def ladder() -> None:
    """The ranked ladder: the server deals and judges every game (docs/ladder.md)."""


@ladder.command()
@database_option
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port",
    default=8000,
    show_default=True,
    type=click.IntRange(0, 65535),
    help="Port to listen on (0: any free port, printed once listening).",
)
@click.option(
    "--forwarded-allow-ips",
    metavar="ADDRESSES",
    default=None,
    help="Behind a reverse proxy: its addresses, separated by commas. Only requests from them "
    "may name the client with X-Forwarded-For; by default no one may (the rate limits "
    "would count whatever address a client wrote there).",
)
@reports_errors
def serve(database: str | None, host: str, port: int, forwarded_allow_ips: str | None) -> None:
    """Serve the ladder's HTTP API (and the browser game, where installed)."""
    import uvicorn

    from minesweeper.ladder.app import create_app

    service = _service(database)
    app = create_app(ladder_service=service, extensions=web_extensions())
    listening = _listen(host, port)  # bound first, so that the address printed is the real one
    shown = f"[{host}]" if ":" in host else host
    port = listening.getsockname()[1]
    click.echo(f"ladder on http://{shown}:{port}/ (API: /api/docs), database {_safe(service)}")
    sys.stdout.flush()
    # uvicorn's default trusts X-Forwarded-For from 127.0.0.1: off unless a proxy is named.
    proxied = {"proxy_headers": True, "forwarded_allow_ips": forwarded_allow_ips}
    trust = proxied if forwarded_allow_ips else {"proxy_headers": False}
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", **trust)
    uvicorn.Server(config).run(sockets=[listening])


def _listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host`` and ``port`` (0: a free port); a one-line error if not."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    try:
        return socket.create_server((host, port), family=family)
    except OSError as error:
        reason = os.strerror(error.errno) if error.errno else str(error)
        fail(f"cannot listen on {host} port {port}: {reason}")


def _safe(service: Any) -> str:
    """The database URL without its password."""
    return str(service.engine.url.render_as_string(hide_password=True))


@ladder.command()
@click.argument("name")
@click.option("--bot", is_flag=True, help="The account is a bot's (ranked apart from people).")
@database_option
@reports_errors
def token(name: str, bot: bool, database: str | None) -> None:
    """Print a token for the bot NAME, making its account if needed.

    Run it beside the database; the bot plays with `minesweeper client --ladder
    URL --token TOKEN`.
    """
    if not bot:
        fail("people sign in with a password (`minesweeper play --ladder URL`); --bot makes a bot")
    service = _service(database)
    with service.transaction() as db:
        issued = service.accounts.bot_token(db, name)
    click.echo(issued.token)


@ladder.command()
@database_option
@click.option("--quiet", is_flag=True, help="Print only the games that fail.")
@reports_errors
def verify(database: str | None, quiet: bool) -> None:
    """Replay every stored ranked and daily game; exit 1 if any does not end as recorded."""
    from minesweeper.ladder.verify import verify as check

    service = _service(database)
    checked = failed = 0
    with service.transaction() as db:
        for finding in check(db, service.games):
            checked += 1
            if finding.problems:
                failed += 1
                for problem in finding.problems:
                    click.echo(
                        f"game {finding.game} ({finding.player}, {finding.category}): {problem}"
                    )
            elif not quiet:
                click.echo(f"game {finding.game} ({finding.player}, {finding.category}): ok")
    click.echo(f"{checked} game(s) checked, {failed} failed", err=True)
    if failed:
        sys.exit(1)
