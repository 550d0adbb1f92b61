"""`minesweeper play --web`: the ladder service with the page, on loopback, for one person.

It opens (and migrates) the embedded database in the user's data folder, serves on a
free port of 127.0.0.1, and opens the page in a browser where one exists; the address
is printed either way. The page starts on the game the command line chose.
"""

from __future__ import annotations

import os
import socket
import sys
import threading
import time
import webbrowser
from collections.abc import Callable
from urllib.parse import urlencode

from minesweeper.errors import MinesweeperError
from minesweeper.ladder.errors import LadderError
from minesweeper.play.session import Settings

#: Seconds to wait for the server to listen before giving up.
START_SECONDS = 30.0


def page_address(host: str, port: int, settings: Settings) -> str:
    """The page's address, its query choosing the game of ``settings``."""
    variant = settings.variant
    name = variant.topology.name
    choice: dict[str, object] = {"topology": name, "rules": variant.rules.value}
    preset = variant.preset_name if name == "square" else None
    if preset is not None:
        choice["preset"] = preset
    else:
        choice.update(preset="custom", rows=variant.rows, cols=variant.cols, mines=variant.mines)
    if settings.no_guess:
        choice["no_guess"] = 1
    return f"http://{host}:{port}/?{urlencode(choice)}"


def serve(
    settings: Settings,
    database: str | None = None,
    port: int = 0,
    say: Callable[[str], None] = print,
    open_browser: bool = True,
) -> None:
    """Serve the page on 127.0.0.1 (``port`` 0: a free one) until interrupted."""
    import uvicorn

    from minesweeper.ladder.app import create_app
    from minesweeper.ladder.config import LadderConfig, default_database_url
    from minesweeper.ladder.service import Ladder
    from minesweeper.web.routes import mount

    try:
        service = Ladder(LadderConfig(database_url=database or default_database_url()))
    except MinesweeperError:
        raise
    except Exception as error:  # a database that does not open: one line, not a traceback
        raise LadderError(f"cannot open the database: {error}".splitlines()[0]) from None
    listener = socket.socket()
    try:
        listener.bind(("127.0.0.1", port))
    except OSError as error:
        raise LadderError(f"cannot listen on 127.0.0.1:{port}: {error.strerror}") from None
    address = page_address("127.0.0.1", listener.getsockname()[1], settings)
    app = create_app(ladder_service=service, extensions=[mount])
    config = uvicorn.Config(app, log_level="warning", lifespan="off", proxy_headers=False)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + START_SECONDS
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise LadderError("the game's server did not start")
        time.sleep(0.05)
    opened = open_browser and _open(address)
    say(f"the game is at {address}" + (" (opened in your browser)" if opened else ""))
    say("press Ctrl+C to stop")
    try:
        while thread.is_alive():
            thread.join(0.5)
    except KeyboardInterrupt:
        server.should_exit = True
        thread.join(10)
    finally:
        service.close()


def _open(address: str) -> bool:
    """Open ``address`` in a graphical browser, if this machine has a screen to show it on."""
    if sys.platform.startswith("linux") and not (
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")
    ):
        return False  # no screen: a text browser would take over this terminal
    try:
        return bool(webbrowser.open(address))
    except webbrowser.Error:
        return False
